import type * as ts from "typescript";
import { type Context, isMarked, printType } from "./context.js";
import { cachedVerdict, declaredValueTypeOf, PRIMITIVE, referencedSymbol } from "./symbols.js";
import type { Placement } from "./sites.js";
import { declaredTypeNode, isJavaScript, typeOfProperty, unionMembers } from "./syntax.js";

/** Where a registry loses its type: the type it had, the type it becomes, and whether that is `any`. */
export interface RegistryEscape {
  readonly type: string;
  readonly becomes: string;
  readonly toAny: boolean;
}

/**
 * Where a registry (a value whose `tool` member returns a marked decorator) becomes a type whose
 * `tool` is still callable but returns an unmarked value: a plugin's own interface, a union with a
 * test double. Every registration made through it from there on is invisible to the analysis, so
 * the place where the mark is lost is reported. So is a registry cast to `any` where it is used
 * (`registry as any`, a binding or return type written `any`): `any` lets anything be called on
 * it, `tool` included, unjudged. A type without a callable `tool` (`unknown`, `{ name: string }`)
 * registers nothing, and neither does a parameter typed `any` it is passed to (a logger's): no
 * finding.
 *
 * Only references (`registry`, `ctx.registry`) are asked, by their declared type, so the question
 * costs one cached answer per symbol; the destination's type is asked only for a registry.
 */
export function registryEscapeAt(context: Context, node: ts.Expression, placement: Placement): RegistryEscape | undefined {
  const { ts, checker } = context;
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node)) return undefined;
  const symbol = referencedSymbol(context, node);
  if (symbol === undefined) return undefined;
  // The declared type, as `markedTypeAt` reads it: no flow analysis for a value that is no registry.
  if (typeof (checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol !== "function") return undefined;
  if (!cachedVerdict(context.registrySymbols, symbol, () => isRegistryTypeAt(context, symbol))) return undefined;
  const escape = (destination: ts.Type, toAny: boolean): RegistryEscape => ({
    type: printType(context, checker.getTypeAtLocation(node)),
    becomes: printType(context, destination),
    toAny,
  });
  for (const wrapper of placement.typed) {
    const cast = checker.getTypeAtLocation(wrapper);
    if (isAny(context, cast)) return escape(cast, true);
    if (losesMark(context, cast)) return escape(cast, false);
  }
  const { slot } = placement;
  if (slot.kind === "callee" || slot.kind === "decorator" || slot.kind === "inert") return undefined;
  const destination = contextualTypeOf(context, placement.outer);
  if (destination === undefined) return undefined;
  if (isAny(context, destination)) return declaresTypeHere(context, placement) ? escape(destination, true) : undefined;
  return losesMark(context, destination) ? escape(destination, false) : undefined;
}

function isAny(context: Context, type: ts.Type): boolean {
  return (type.flags & context.ts.TypeFlags.Any) !== 0;
}

/**
 * Whether the place receiving the value has its type written right there: a typed `const`, `let`,
 * class field, parameter it is the default of or (in JavaScript) object literal property, or the
 * return type of the function it is returned from. An argument's type is the callee's (a logger's
 * `any`), written elsewhere.
 */
function declaresTypeHere(context: Context, placement: Placement): boolean {
  const { ts } = context;
  const { slot } = placement;
  if (slot.kind === "return") {
    return slot.fn.type !== undefined || (isJavaScript(ts, slot.fn) && ts.getJSDocReturnType(slot.fn) !== undefined);
  }
  const parent = placement.outer.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isParameter(parent)) {
    return parent.initializer === placement.outer && declaredTypeNode(ts, parent) !== undefined;
  }
  // JavaScript types an object literal's property with JSDoc (`/** @type {any} */ host: registry`),
  // TypeScript's `host: registry as any`.
  if (ts.isPropertyAssignment(parent)) return parent.initializer === placement.outer && isJavaScript(ts, parent) && ts.getJSDocType(parent) !== undefined;
  return false;
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

/** Whether `symbol`'s declared type (`declaredValueTypeOf`) is a registry's. */
function isRegistryTypeAt(context: Context, symbol: ts.Symbol): boolean {
  const declared = declaredValueTypeOf(context, symbol);
  return declared !== PRIMITIVE && isRegistryType(context, declared);
}

/** Whether values of `type` register through their `tool` member: a registry (or `Registry | undefined`). */
export function isRegistryType(context: Context, type: ts.Type): boolean {
  const { ts } = context;
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return false;
  const members = unionMembers(ts, type).filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
  return members.length > 0 && members.every((member) => toolReturns(context, member) === "marked");
}

/**
 * The generic class or interface `type` instantiates (`ReadonlyArray<T>` for `readonly Row[]`);
 * `undefined` for any other type, the generic type itself included.
 */
function referenceTarget(context: Context, type: ts.Type): ts.Type | undefined {
  const { ts } = context;
  if (!(type.flags & ts.TypeFlags.Object) || !((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference)) return undefined;
  const target = (type as ts.TypeReference).target as ts.Type | undefined;
  return target === undefined || target === type ? undefined : target;
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
  // A type parameter (`R extends Registry`) or an indexed access on one (`C["registry"]`) answers
  // through its constraint: `getProperty` reads a type's apparent members.
  if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection | ts.TypeFlags.TypeVariable))) return "none";
  let known = context.registryTypes.get(type);
  if (known === undefined) {
    // An instantiation of a generic class or interface (`ReadonlyArray<M0009Record>`, a module's
    // records) has the members its declaration names, typed anew: when the generic type has no
    // `tool`, no instantiation of it has one. Asked once per generic type, where each
    // instantiation's members would be resolved (on TypeScript 7, a request per distinct type).
    const target = referenceTarget(context, type);
    if (target !== undefined && toolReturns(context, target) === "none") {
      context.registryTypes.set(type, "none");
      return "none";
    }
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
