import { toolNameProblem } from "@sourced/contract-rules";
import type { Finding } from "../api.js";
import { capitalize, quoteTool } from "../messages.js";
import { defineKind, findingOf, NO_FINDINGS, type RegisteredFamily } from "./family.js";

/** `invalid-tool-name`: its code, title, help and severity, as every front-end prints them. */
export const INVALID_TOOL_NAME = defineKind({
  id: "invalid-tool-name",
  code: 92007,
  title: "Tool name the registry refuses",
  help: "The registry enforces the MCP tool-name rule (1 to 128 characters, each A-Z, a-z, 0-9, `_`, `-` or `.`, not starting or ending with `-` or `.`) and refuses names every object inherits; it throws at start-up.",
  severity: "error",
});

/**
 * `invalid-tool-name`: a served name the registry refuses at start-up (the MCP tool-name rule, or
 * a name every object inherits), in the registry's own words (@sourced/contract-rules' tool-name rule).
 */
export const invalidToolName = {
  name: "invalid-tool-name",
  declares: [INVALID_TOOL_NAME],
  kinds: ["invalid-tool-name"],
  phase: "registered",
  detect(_context, { site, tool, nameNode }): readonly Finding[] {
    const problem = tool === undefined ? undefined : toolNameProblem(tool);
    if (tool === undefined || problem === undefined) return NO_FINDINGS;
    return [findingOf(INVALID_TOOL_NAME, nameNode, site, tool, invalidToolNameMessage(tool, problem))];
  },
} satisfies RegisteredFamily;

/** `problem`: the registry's own words (@sourced/contract-rules' tool-name rule), ending with the name to pass instead. */
export function invalidToolNameMessage(tool: string, problem: string): string {
  return `${capitalize(quoteTool(tool))} has a name the registry refuses at start-up: ${problem}.`;
}
