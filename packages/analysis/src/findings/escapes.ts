import type * as ts from "typescript";
import type { Finding } from "../api.js";
import { type Context, isMarked, printType } from "../context.js";
import { markedTypeAt } from "../marked.js";
import { registryEscapeAt } from "../registry-escape.js";
import { needsTypeQuery, type Placement, placementOf } from "../sites.js";
import { findingOf, NO_FINDINGS, type SiteFamily } from "./family.js";
import { UNVERIFIABLE_REGISTRATION } from "./registration.js";

/**
 * `unverifiable-registration` at a value reference: a tool decorator (a marked value) that flows
 * where the analysis cannot follow it (an argument, a `let`, a value typed away), or a registry
 * whose type is lost (cast to `any`, or to a type whose `tool` is not marked), so that what it
 * registers from there is never judged. Where the value goes was found by the walk (sites.ts).
 */
export const escapes = {
  name: "escapes",
  declares: [],
  kinds: ["unverifiable-registration"],
  phase: "site",
  at: "value",
  detect(context, node, placement): readonly Finding[] {
    const escape = escapeAt(context, node as ts.Expression, placement);
    return escape === undefined ? NO_FINDINGS : [escape];
  },
} satisfies SiteFamily;

/** A marked value at `node` that flows where the analysis cannot follow it. */
function escapeAt(context: Context, node: ts.Expression, known?: Placement): Finding | undefined {
  const { ts, checker } = context;
  const placement = known ?? placementOf(ts, node);
  if (!needsTypeQuery(placement)) return undefined;
  const type = markedTypeAt(context, node);
  if (type === undefined) {
    const lost = registryEscapeAt(context, node, placement);
    if (lost === undefined) return undefined;
    const message = lost.toAny ? registryCastToAnyMessage(lost.type, lost.becomes) : registryTypedAwayMessage(lost.type, lost.becomes);
    return escapeOf(node, "registry", message);
  }
  // A decorator read without flowing anywhere (`(asTool as T).name`) registers nothing there.
  if (placement.slot.kind === "inert") return undefined;
  // The type a message names is the node's own: `markedTypeAt` may answer with a generic callee's declared return type.
  const printed = (): string => printType(context, checker.getTypeAtLocation(node));
  for (const wrapper of placement.typed) {
    const wrapperType = checker.getTypeAtLocation(wrapper);
    if (!isMarked(context, wrapperType)) {
      return escapeOf(node, "decorator", typedAwayMessage(printed(), printType(context, wrapperType)));
    }
  }
  const { slot } = placement;
  if (slot.kind === "escape") {
    return escapeOf(node, "decorator", escapesMessage(slot.how, printed()));
  }
  if (slot.kind === "return") {
    const signature = checker.getSignatureFromDeclaration(slot.fn);
    const returned = signature === undefined ? undefined : checker.getReturnTypeOfSignature(signature);
    if (returned === undefined || !isMarked(context, returned)) {
      const how = returned === undefined ? "is returned" : `is returned as '${printType(context, returned)}'`;
      return escapeOf(node, "decorator", escapesMessage(how, printed()));
    }
    return undefined;
  }
  if (slot.kind === "const" && slot.declaredType !== undefined) {
    const declared = checker.getTypeAtLocation(slot.declaration.name);
    if (!isMarked(context, declared)) {
      return escapeOf(node, "decorator", typedAwayMessage(printed(), printType(context, declared)));
    }
  }
  return undefined;
}

/** The finding at the escaping value, saying what escaped (`Finding.escaped`): the one place that knows. */
function escapeOf(node: ts.Expression, escaped: NonNullable<Finding["escaped"]>, message: string): Finding {
  return { ...findingOf(UNVERIFIABLE_REGISTRATION, node, node, undefined, message), escaped };
}

export function escapesMessage(how: string, type: string): string {
  return (
    `A tool decorator (of type '${type}') ${how} here, so the analysis cannot see which function it registers. ` +
    `Apply it directly — registry.tool()(fn) or @registry.tool() — or keep it in a const and apply that.`
  );
}

export function typedAwayMessage(type: string, wrapperType: string): string {
  return (
    `A tool decorator (of type '${type}') becomes '${wrapperType}' here, which no longer marks a registration, so the analysis ` +
    `cannot follow it. Apply it directly — registry.tool()(fn) or @registry.tool() — or keep it in a const with its own type.`
  );
}

export function registryTypedAwayMessage(type: string, becomes: string): string {
  return (
    `A registry (of type '${type}') becomes '${becomes}' here, whose 'tool' does not return a marked decorator, so every ` +
    `registration made through it from here on is invisible to the analysis. Keep the registry's own type where it is used ` +
    `(e.g. a parameter typed 'Registry' from @sourced/registry), or mark the other type's 'tool' with RegistersTool<…> from @sourced/registry.`
  );
}

export function registryCastToAnyMessage(type: string, becomes: string): string {
  return (
    `A registry (of type '${type}') becomes '${becomes}' here: 'any' lets anything be called on it, 'tool' included, so every ` +
    `registration made through it from here on is never judged. Keep the registry's own type where it is used ` +
    `(e.g. 'Registry' from @sourced/registry), or cast to a type whose 'tool' is marked with RegistersTool<…>.`
  );
}
