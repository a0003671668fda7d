import { toolNameProblem } from "@sourced/contract-rules";

/*
 * The tool-name rule (@sourced/contract-rules), as registry.tool() enforces it: a name it breaks
 * throws where the tool is registered, naming the site.
 */

/** Throws a TypeError naming the tool, the rule it breaks and a valid alternative. */
export function assertToolName(name: unknown, site: () => string): asserts name is string {
  const problem = toolNameProblem(name);
  if (problem !== undefined) throw new TypeError(`registry.tool() at ${site()}: ${problem}.`);
}
