import { describeSourceUrlProblem } from "@sourced/contract-rules";
import type { Finding } from "../api.js";
import { capitalize, quoteTool } from "../messages.js";
import { refusedSourcesOf } from "../sources.js";
import { locate } from "../syntax.js";
import { findingOf, NO_FINDINGS, type RegisteredFamily, underlined } from "./family.js";

/**
 * `invalid-source`: a source written as a literal in what the tool returns that the net's URL
 * rule refuses (@sourced/contract-rules): every call of the tool would fail.
 */
export const invalidSource: RegisteredFamily = {
  name: "invalid-source",
  kinds: ["invalid-source"],
  phase: "registered",
  detect(context, registered): readonly Finding[] {
    let findings: Finding[] | undefined;
    const { site, tool } = registered;
    for (const { literal, value: source } of refusedSourcesOf(context, registered.implementation)) {
      const { node, here } = underlined(context, registered, literal);
      const where = here ? undefined : locate(literal, site.getSourceFile());
      (findings ??= []).push(findingOf("invalid-source", node, site, tool, refusedSourceMessage(tool, source, where, describeSourceUrlProblem(source))));
    }
    return findings ?? NO_FINDINGS;
  },
};

/** `rule`: the net's own words for the refused source (@sourced/contract-rules' URL rule), with its fix when it has one. */
export function refusedSourceMessage(tool: string | undefined, source: string, where: string | undefined, rule: string): string {
  const quoted = JSON.stringify(source.length > 120 ? `${source.slice(0, 120)}…` : source);
  return (
    `${capitalize(quoteTool(tool))} returns the source ${quoted}${where === undefined ? "" : ` (at ${where})`}, which the registry refuses on every call: ` +
    `a source ${rule}. Cite where the data came from with an absolute http(s) URL, or the URI of a resource the registry serves (registry.resource()).`
  );
}
