import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";

import { analysis, CLI, LINT, parseTscOutput, run, toolOf, TSPC, typescript, type ChildRun, type Reported } from "./parity";

/*
 * Every front-end run once over a scratch project, each in the form a user meets it: `tspc` with
 * the transformer, ESLint with the plugin's `recommended` config, `sourced check --format json`,
 * and the analysis called in process on a program built the way a front-end builds one.
 */

export interface FrontEndRuns {
  readonly transformer: ChildRun & { readonly findings: readonly Reported[]; readonly codes: readonly number[] };
  readonly eslint: ChildRun & { readonly findings: readonly Reported[]; readonly fatal: readonly string[] };
  readonly cli: ChildRun & { readonly findings: readonly Reported[] | undefined };
  readonly analysis: { readonly findings: readonly Reported[] | undefined; readonly error: unknown; readonly ms: number };
}

/** A stack trace in a process's output: the sign of a crash, whatever the exit code. */
export const STACK_TRACE = /^\s+at .+(?::\d+:\d+\)?|\(native\))$/m;

const ID_OF_CODE = new Map<number, string>(Object.values(analysis.FINDING_KINDS).map((kind) => [kind.code, kind.id]));

/** The compiler options a front-end falls back to when there is no usable tsconfig.json. */
const DEFAULT_OPTIONS = (t: typeof ts): ts.CompilerOptions => ({
  target: t.ScriptTarget.ES2022,
  module: t.ModuleKind.NodeNext,
  moduleResolution: t.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  types: [],
});

/** The analysis in process: on the project's tsconfig when it parses, else on `files` with default options. */
export function analyseInProcess(directory: string, files: readonly string[]): FrontEndRuns["analysis"] {
  const started = Date.now();
  try {
    const configPath = path.join(directory, "tsconfig.json");
    let parsed: ts.ParsedCommandLine | undefined;
    if (fs.existsSync(configPath)) {
      parsed = typescript.getParsedCommandLineOfConfigFile(configPath, {}, { ...typescript.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    }
    const rootNames = parsed && parsed.fileNames.length > 0 ? parsed.fileNames : expand(directory, files);
    const program = typescript.createProgram({ rootNames, options: parsed?.options ?? DEFAULT_OPTIONS(typescript) });
    const findings = analysis.analyzeProgram(typescript, program).findings.map((finding) => {
      const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
      return { file: path.relative(directory, finding.sourceFile.fileName).split(path.sep).join("/"), id: finding.id, tool: finding.tool, line: line + 1, column: character + 1 };
    });
    return { findings, error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { findings: undefined, error, ms: Date.now() - started };
  }
}

/** `src/*.ts`-style patterns (one directory level, `*` only) to the files they name. */
function expand(directory: string, patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern) => {
    const folder = path.join(directory, path.dirname(pattern));
    const [prefix, suffix] = path.basename(pattern).split("*") as [string, string | undefined];
    const matches = (name: string) => (suffix === undefined ? name === prefix : name.startsWith(prefix) && name.endsWith(suffix));
    return fs.existsSync(folder) ? fs.readdirSync(folder).filter(matches).map((name) => path.join(folder, name)) : [];
  });
}

export async function runFrontEnds(directory: string, files: readonly string[], timeoutMs = 5 * 60_000): Promise<FrontEndRuns> {
  const [tspc, eslint, cli] = await Promise.all([
    run([TSPC, "-p", ".", "--pretty", "false"], directory, timeoutMs),
    run([LINT, directory, ...files], directory, timeoutMs),
    run([CLI, "check", "-p", ".", "--format", "json"], directory, timeoutMs),
  ]);
  const diagnostics = parseTscOutput(tspc.stdout + tspc.stderr);
  const transformerFindings = diagnostics.flatMap((d) => {
    const id = ID_OF_CODE.get(d.code);
    return id === undefined ? [] : [{ file: d.file ?? "?", id, tool: toolOf(d.message), line: d.line, column: d.column }];
  });

  let eslintFindings: Reported[] = [];
  const fatal: string[] = [];
  try {
    const results = JSON.parse(eslint.stdout) as Array<{ file: string; messages: Array<{ ruleId: string | null; messageId?: string; message: string; line: number; column: number; fatal: boolean }> }>;
    eslintFindings = results.flatMap(({ file, messages }) =>
      messages.flatMap((m) => {
        if (m.ruleId === "sourced/require-data-tool-output") return [{ file, id: m.messageId ?? "?", tool: toolOf(m.message), line: m.line, column: m.column }];
        fatal.push(`${file}:${m.line}:${m.column}: ${m.message}`);
        return [];
      }),
    );
  } catch {
    // Not JSON: ESLint itself failed; the caller sees it in `status` and `stderr`.
  }

  let cliFindings: Reported[] | undefined;
  try {
    const parsed = JSON.parse(cli.stdout) as Array<{ file: string; id: string; tool: string | null; line: number; column: number }>;
    cliFindings = parsed.map((f) => ({ file: f.file, id: f.id, tool: f.tool ?? undefined, line: f.line, column: f.column }));
  } catch {
    cliFindings = undefined;
  }

  return {
    transformer: { ...tspc, findings: transformerFindings, codes: diagnostics.map((d) => d.code) },
    eslint: { ...eslint, findings: eslintFindings, fatal },
    cli: { ...cli, findings: cliFindings },
    analysis: analyseInProcess(directory, files),
  };
}

/** `file:line:column id tool`, sorted: the comparable form of findings. */
export function keys(findings: readonly Reported[] | undefined, withColumn = true): string[] {
  return (findings ?? []).map((f) => `${f.file}:${f.line}${withColumn ? `:${f.column}` : ""} ${f.id} ${f.tool ?? "?"}`).sort();
}

/** What went wrong with a run, for a failing assertion's message. */
export function describe(runs: FrontEndRuns): string {
  const show = (name: string, r: ChildRun) => `${name}: exit ${r.status ?? r.signal} in ${r.ms} ms\n${(r.stdout + r.stderr).slice(0, 3000)}`;
  return [show("tspc", runs.transformer), show("eslint", runs.eslint), show("sourced check", runs.cli), `analysis: ${runs.analysis.error instanceof Error ? runs.analysis.error.stack : "ok"}`].join("\n---\n");
}
