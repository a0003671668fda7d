import type { Finding } from "../api.js";
import { capitalize, quoteTool } from "../messages.js";
import { anonymousFunctionOf } from "../names.js";
import { headOf } from "../syntax.js";
import { defineKind, findingOf, NO_FINDINGS, type RegisteredFamily } from "./family.js";

/** `unnamed-tool`: its code, title, help and severity, as every front-end prints them. */
export const UNNAMED_TOOL = defineKind({
  id: "unnamed-tool",
  code: 92005,
  title: "Registered tool has no name",
  help: "The registry serves `options.name`, else the function's name; an anonymous function or arrow registered without `name` has neither, and the registry throws at start-up. Name the function or pass `{ name }`.",
  severity: "error",
});

/**
 * `unnamed-tool`: an anonymous function or arrow registered without `name` in its options. The
 * registry serves `options.name`, else the function's name, and throws at start-up when it has
 * neither. A decorator always has its method's name.
 */
export const unnamedTool = {
  name: "unnamed-tool",
  declares: [UNNAMED_TOOL],
  kinds: ["unnamed-tool"],
  phase: "registered",
  detect(context, { site, value, served }): readonly Finding[] {
    const { ts } = context;
    const anonymous = served.kind === "function" && ts.isCallExpression(site) ? anonymousFunctionOf(ts, value) : undefined;
    if (anonymous === undefined) return NO_FINDINGS;
    return [findingOf(UNNAMED_TOOL, headOf(ts, anonymous), site, undefined, unnamedToolMessage(ts.isArrowFunction(anonymous)))];
  },
} satisfies RegisteredFamily;

export function unnamedToolMessage(arrow: boolean): string {
  return (
    `${capitalize(quoteTool(undefined))} has no name: the registry serves options.name, else the function's own name, and this anonymous ` +
    `${arrow ? "arrow function" : "function"} has none, so the registry throws at start-up. Name the function ` +
    `(function list_cities() {…}) or pass { name: "list_cities" }.`
  );
}
