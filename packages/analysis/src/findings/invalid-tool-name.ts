import { toolNameProblem } from "@sourced/contract-rules";
import type { Finding } from "../api.js";
import { capitalize, quoteTool } from "../messages.js";
import { findingOf, NO_FINDINGS, type RegisteredFamily } from "./family.js";

/**
 * `invalid-tool-name`: a served name the registry refuses at start-up (the MCP tool-name rule, or
 * a name every object inherits), in the registry's own words (@sourced/contract-rules' tool-name rule).
 */
export const invalidToolName: RegisteredFamily = {
  name: "invalid-tool-name",
  kinds: ["invalid-tool-name"],
  phase: "registered",
  detect(_context, { site, tool, nameNode }): readonly Finding[] {
    const problem = tool === undefined ? undefined : toolNameProblem(tool);
    if (tool === undefined || problem === undefined) return NO_FINDINGS;
    return [findingOf("invalid-tool-name", nameNode, site, tool, invalidToolNameMessage(tool, problem))];
  },
};

/** `problem`: the registry's own words (@sourced/contract-rules' tool-name rule), ending with the name to pass instead. */
export function invalidToolNameMessage(tool: string, problem: string): string {
  return `${capitalize(quoteTool(tool))} has a name the registry refuses at start-up: ${problem}.`;
}
