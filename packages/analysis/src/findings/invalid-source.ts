import { describeSourceUrlProblem } from "@sourced/contract-rules";
import type { Finding } from "../api.js";
import { capitalize, quoteTool } from "../messages.js";
import { refusedSourcesOf } from "../sources.js";
import { locate } from "../syntax.js";
import { defineKind, findingOf, NO_FINDINGS, type RegisteredFamily, underlined } from "./family.js";

/** `invalid-source`: its code, title, help and severity, as every front-end prints them. */
export const INVALID_SOURCE = defineKind({
  id: "invalid-source",
  code: 92008,
  title: "Source the run time refuses on every call",
  help: "A source written as a literal in the returned object breaks the run time's URL rule (a relative path, a bare host, a space…): every call of the tool would fail. Cite an absolute http(s) URL.",
  severity: "error",
});

/**
 * `invalid-source`: a source written as a literal in what the tool returns that the net's URL
 * rule refuses (@sourced/contract-rules): every call of the tool would fail.
 */
export const invalidSource = {
  name: "invalid-source",
  declares: [INVALID_SOURCE],
  kinds: ["invalid-source"],
  phase: "registered",
  detect(context, registered): readonly Finding[] {
    let findings: Finding[] | undefined;
    const { site, tool } = registered;
    for (const { literal, value: source } of refusedSourcesOf(context, registered.implementation)) {
      const { node, here } = underlined(context, registered, literal);
      const where = here ? undefined : locate(literal, site.getSourceFile());
      (findings ??= []).push(findingOf(INVALID_SOURCE, node, site, tool, refusedSourceMessage(tool, source, where, describeSourceUrlProblem(source))));
    }
    return findings ?? NO_FINDINGS;
  },
} satisfies RegisteredFamily;

/** `rule`: the net's own words for the refused source (@sourced/contract-rules' URL rule), with its fix when it has one. */
export function refusedSourceMessage(tool: string | undefined, source: string, where: string | undefined, rule: string): string {
  const quoted = JSON.stringify(source.length > 120 ? `${source.slice(0, 120)}…` : source);
  return (
    `${capitalize(quoteTool(tool))} returns the source ${quoted}${where === undefined ? "" : ` (at ${where})`}, which the registry refuses on every call: ` +
    `a source ${rule}. Cite where the data came from with an absolute http(s) URL, or the URI of a resource the registry serves (registry.resource()).`
  );
}
