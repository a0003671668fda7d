import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as ts from "typescript";
import type { PluginConfig, ProgramTransformerExtras, TransformerExtras } from "ts-patch";
import { notProgramTransformerDiagnostic } from "./diagnostics.js";
import { createProgramCheck, installOnProgram, type ProgramCheck } from "./program.js";

export { VERIFIED_STAMP_KEY } from "@sourced/analysis";
export { DEFAULT_OPTIONS, parseOptions, type OptionProblem, type TransformerOptions } from "./options.js";
/** ts-patch's own types for what it passes a plugin: its plugins entry and its extras. */
export type { PluginConfig, ProgramTransformerExtras, TransformerExtras } from "ts-patch";

const { name, version } = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { name: string; version: string };

/** The value of the verified stamp this build writes: `@sourced/transformer@<version>`. */
export const VERIFIER = `${name}@${version}`;

/**
 * The program transformer: `{ "transform": "@sourced/transformer", "transformProgram": true }`.
 * Runs inside `ts.createProgram`, so the findings reach every build mode, `--noEmit` included.
 * `ts` is ts-patch's (the compiler that is running), never a second copy.
 */
export function transformProgram(
  program: ts.Program,
  _host: ts.CompilerHost | undefined,
  config: PluginConfig,
  extras: ProgramTransformerExtras,
): ts.Program {
  return installOnProgram(extras.ts, program, createProgramCheck(extras.ts, program, config, VERIFIER));
}

const sourceChecks = new WeakMap<ts.Program, ProgramCheck>();

/**
 * The same module registered without `"transformProgram": true`: ts-patch calls it only when it
 * emits, too late for `--noEmit` and the builder modes. A plain emit build still gets every
 * finding, plus one error saying what to add for the other modes; and it strips and stamps what
 * it emits, so nothing unchecked ships from this build.
 */
export function transformSource(program: ts.Program, config: PluginConfig, extras: TransformerExtras): ts.TransformerFactory<ts.SourceFile> {
  let check = sourceChecks.get(program);
  if (check === undefined) {
    check = createProgramCheck(extras.ts, program, config, VERIFIER);
    sourceChecks.set(program, check);
    extras.addDiagnostic(notProgramTransformerDiagnostic(extras.ts));
    for (const diagnostic of check.optionDiagnostics) extras.addDiagnostic(diagnostic);
    for (const sourceFile of program.getSourceFiles()) {
      for (const diagnostic of check.diagnosticsIn(sourceFile)) extras.addDiagnostic(diagnostic);
    }
  }
  return check.emitTransformer((diagnostic) => extras.addDiagnostic(diagnostic));
}

/**
 * The entry ts-patch loads (`default` export). One module serves both plugin kinds; ts-patch
 * tells them apart by the entry's `transformProgram`, and so do we, by what it passes.
 */
export default function sourcedTransformer(
  program: ts.Program,
  hostOrConfig: ts.CompilerHost | undefined | PluginConfig,
  configOrExtras: PluginConfig | TransformerExtras,
  extras?: ProgramTransformerExtras,
): ts.Program | ts.TransformerFactory<ts.SourceFile> {
  if (extras !== undefined) return transformProgram(program, hostOrConfig as ts.CompilerHost | undefined, configOrExtras, extras);
  return transformSource(program, hostOrConfig as PluginConfig, configOrExtras as TransformerExtras);
}
