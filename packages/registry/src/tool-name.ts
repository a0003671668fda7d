import { toolNameProblem } from "@sourced/contract-rules";

/*
 * The tool-name rule (@sourced/contract-rules), as registry.tool() enforces it: a name it breaks
 * is refused where the tool is registered, naming the site.
 */

/**
 * For a name the rule refuses, its refusal at a site: the rule it breaks and a valid alternative
 * (a place given when said, so the start-up check can trace it to the sources first); `undefined`
 * for a valid name.
 */
export function toolNameRefusal(name: unknown): ((site: string) => string) | undefined {
  const problem = toolNameProblem(name);
  return problem === undefined ? undefined : (site) => `registry.tool() at ${site}: ${problem}.`;
}
