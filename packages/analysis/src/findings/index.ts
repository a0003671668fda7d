import { duplicateToolName } from "./duplicate-tool-name.js";
import { escapes } from "./escapes.js";
import type { Family } from "./family.js";
import { internalError } from "./internal-error.js";
import { invalidOption } from "./invalid-option.js";
import { invalidSource } from "./invalid-source.js";
import { invalidToolName } from "./invalid-tool-name.js";
import { registration } from "./registration.js";
import { strictNullChecksOff } from "./strict-null-checks-off.js";
import { undeclaredErrorResult } from "./undeclared-error-result.js";
import { undeclaredOutputKey } from "./undeclared-output-key.js";
import { unnamedTool } from "./unnamed-tool.js";

/**
 * Every finding family, one file each (family.ts says what a family is). analyze.ts reads this
 * list alone: within a phase, the order here is the order of the findings at a site, which every
 * front-end and backend reports as it is. kinds.ts makes the frozen table of kinds from the kinds
 * the families declare.
 */
const LIST = [
  registration,
  unnamedTool,
  invalidToolName,
  invalidSource,
  undeclaredOutputKey,
  undeclaredErrorResult,
  invalidOption,
  escapes,
  duplicateToolName,
  strictNullChecksOff,
  internalError,
] as const satisfies readonly Family[];

export const FAMILIES: readonly Family[] = LIST;

/** Every id a family declares (kept literal by the list's `as const`). */
export type DeclaredId = (typeof LIST)[number]["declares"][number]["id"];
