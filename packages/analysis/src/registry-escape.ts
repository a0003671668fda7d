import type * as ts from "typescript";
import { type Context, isMarked, printType } from "./context.js";
import { cachedVerdict, referencedSymbol, typeOfSymbol } from "./marked.js";
import type { Placement } from "./sites.js";
import { typeOfProperty, unionMembers } from "./syntax.js";

/**
 * Where a registry (a value whose `tool` member returns a marked decorator) becomes a type whose
 * `tool` is still callable but returns an unmarked value: a plugin's own interface, a union with a
 * test double. Every registration made through it from there on is invisible to the analysis, so
 * the place where the mark is lost is reported. A type without a callable `tool` (a logger's
 * `unknown` or `any`, `{ name: string }`) registers nothing: no finding.
 *
 * Only references (`registry`, `ctx.registry`) are asked, by their declared type, so the question
 * costs one cached answer per symbol; the destination's type is asked only for a registry.
 */
export function registryEscapeAt(context: Context, node: ts.Expression, placement: Placement): { readonly type: string; readonly becomes: string } | undefined {
  const { ts, checker } = context;
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node)) return undefined;
  const symbol = referencedSymbol(context, node);
  if (symbol === undefined) return undefined;
  // The declared type, as `markedTypeAt` reads it: no flow analysis for a value that is no registry.
  if (typeof (checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol !== "function") return undefined;
  if (!cachedVerdict(context.registrySymbols, symbol, () => isRegistryType(context, typeOfSymbol(context, symbol)))) return undefined;
  const destinations: (ts.Type | undefined)[] = placement.typed.map((wrapper) => checker.getTypeAtLocation(wrapper));
  if (placement.slot.kind !== "callee" && placement.slot.kind !== "decorator" && placement.slot.kind !== "inert") {
    destinations.push(contextualTypeOf(context, placement.outer));
  }
  for (const destination of destinations) {
    if (destination !== undefined && losesMark(context, destination)) {
      return { type: printType(context, checker.getTypeAtLocation(node)), becomes: printType(context, destination) };
    }
  }
  return undefined;
}

/** The type the place receiving `outer` expects (a parameter's, a typed const's, a return type…). */
function contextualTypeOf(context: Context, outer: ts.Expression): ts.Type | undefined {
  const { ts, checker } = context;
  const parent = outer.parent;
  if (ts.isShorthandPropertyAssignment(parent)) {
    const objectType = checker.getContextualType(parent.parent);
    const property = objectType?.getProperty(parent.name.text);
    return property === undefined ? undefined : checker.getTypeOfSymbolAtLocation(property, parent);
  }
  return checker.getContextualType(outer);
}

/** Whether values of `type` register through their `tool` member: a registry (or `Registry | undefined`). */
export function isRegistryType(context: Context, type: ts.Type): boolean {
  const { ts } = context;
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return false;
  const members = unionMembers(ts, type).filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
  return members.length > 0 && members.every((member) => toolReturns(context, member) === "marked");
}

/** Whether some member of `type` has a callable `tool` that returns an unmarked value. */
function losesMark(context: Context, type: ts.Type): boolean {
  const { ts } = context;
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return false;
  return unionMembers(ts, type).some((member) => toolReturns(context, member) === "unmarked");
}

/** What the `tool` member of `type` returns: a marked decorator, an unmarked value, or there is no callable `tool`. */
function toolReturns(context: Context, type: ts.Type): "marked" | "unmarked" | "none" {
  const { ts, checker } = context;
  if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return "none";
  let known = context.registryTypes.get(type);
  if (known === undefined) {
    const tool = type.getProperty("tool");
    const signatures = tool === undefined ? [] : typeOfProperty(context, tool).getCallSignatures();
    known =
      signatures.length === 0
        ? "none"
        : signatures.some((signature) => isMarked(context, checker.getReturnTypeOfSignature(signature)))
          ? "marked"
          : "unmarked";
    context.registryTypes.set(type, known);
  }
  return known;
}
