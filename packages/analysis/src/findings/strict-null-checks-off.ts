import { isExternalFileName, isProjectSource } from "../context.js";
import { sourceFileNamesOf } from "../ports.js";
import { admitsUndefined } from "../strictness.js";
import { defineKind, type FileFamily, type FileScope, findingOf, type Judgement } from "./family.js";

/** `strict-null-checks-off`: its code, title, help and severity, as every front-end prints them. */
export const STRICT_NULL_CHECKS_OFF = defineKind({
  id: "strict-null-checks-off",
  code: 92009,
  title: "strictNullChecks is off",
  help: "Without strictNullChecks, DataToolOutput admits undefined and null, so the annotation no longer guarantees a result. Reported once per project, at its first registration.",
  severity: "warning",
});

/**
 * `strict-null-checks-off`: a warning about the program, reported once, at the first registration
 * of the first file (in file-name order) that registers a tool, when DataToolOutput admits
 * `undefined` (strictness.ts).
 */
export const strictNullChecksOff = {
  name: "strict-null-checks-off",
  declares: [STRICT_NULL_CHECKS_OFF],
  kinds: ["strict-null-checks-off"],
  phase: "file",
  watch(scope) {
    let first: Judgement | undefined;
    return {
      registered(judgement) {
        if (judgement.contract !== undefined) first ??= judgement;
        return undefined;
      },
      end() {
        if (first === undefined || !admitsUndefined(scope.context, first.contract!) || !isFirstFileRegistering(scope)) return undefined;
        const { site } = first.registration;
        return findingOf(STRICT_NULL_CHECKS_OFF, site.expression, site, undefined, STRICT_NULL_CHECKS_OFF_MESSAGE);
      },
    };
  },
} satisfies FileFamily;

/**
 * Whether `sourceFile` is the program's first file (in file-name order, the same on every backend)
 * that registers a tool: a program-wide warning is reported there, once. Only asked in a program
 * that has one to report, so the files before it are judged a second time only then.
 */
function isFirstFileRegistering({ context, sourceFile, registersTools }: FileScope): boolean {
  if (context.firstFileRegistering === undefined) {
    const { program } = context;
    const names = sourceFileNamesOf(program).filter((fileName) => !isExternalFileName(fileName)).sort(compareText);
    context.firstFileRegistering = null;
    for (const fileName of names) {
      const candidate = program.getSourceFile(fileName);
      if (candidate === undefined || !isProjectSource(program, candidate) || !registersTools(candidate)) continue;
      context.firstFileRegistering = candidate.fileName;
      break;
    }
  }
  return context.firstFileRegistering === sourceFile.fileName;
}

/** Code-unit order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const STRICT_NULL_CHECKS_OFF_MESSAGE =
  "strictNullChecks is off in this project, so DataToolOutput admits undefined and null: a function declared to return it may " +
  "return nothing, and only the run-time net would catch it. Turn it on (\"strict\": true, or \"strictNullChecks\": true, in tsconfig.json). " +
  "Without it, a written '| undefined' or '| null' is still reported; an inferred or computed one is not.";
