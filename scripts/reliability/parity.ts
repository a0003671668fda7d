import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type * as ts from "typescript";

import type { Reported } from "../../fixtures/harness";
import { LIB_FILES, sortFindings, type GeneratedProgram } from "./generator";

/*
 * Fuzzed parity: a batch of generated programs is written as ONE TypeScript project, which every
 * front-end then checks in its own real process — tspc with the transformer (which also emits the
 * stripped and stamped JavaScript), ESLint with the plugin's `recommended` config,
 * `sourced check --format json` and esbuild with `@sourced/unplugin` — plus the analysis itself in
 * this process. Per program, all of them
 * must report exactly the findings the generator constructed (id, tool, line; and the same column
 * among themselves), and the emitted JavaScript must load and serve exactly the verified tools.
 * The same sources run as they are (tsx, no build) must serve the same tools, the registry's
 * start-up check refusing the others with tspc's findings, at tspc's places.
 *
 * Over 400 lines on purpose (test tooling): the batch is one pipeline (written, every front-end's
 * reports collected at once, judged program by program against the generator's), read end to end
 * when a front-end disagrees; the other reliability tests take its paths and child-process helpers
 * from here rather than from a file of their own.
 */

export const ROOT = path.resolve(__dirname, "../..");
const requireFromRoot = createRequire(path.join(ROOT, "package.json"));
export const TRANSFORMER_DIR = path.join(ROOT, "packages/transformer");
export const TSPC = path.join(TRANSFORMER_DIR, "node_modules/ts-patch/bin/tspc.js");
export const CLI = path.join(ROOT, "packages/cli/bin/sourced.js");
export const LINT = path.join(__dirname, "lint-project.mjs");
const LOAD = path.join(__dirname, "load-project.mjs");
const STARTUP = path.join(__dirname, "startup-project.mjs");
/** tsx's loader, as `node --import tsx` loads it: the sources run as they are, decorators included. */
export const TSX_LOADER = pathToFileURL(createRequire(path.join(ROOT, "packages/registry/package.json")).resolve("tsx")).href;
export const PROJECT_DIR = path.join(ROOT, "packages/project");
/** What the start-up check names as the verifier of the tools it verified. */
export const STARTUP_VERIFIER = `@sourced/project@${(JSON.parse(fs.readFileSync(path.join(PROJECT_DIR, "package.json"), "utf8")) as { version: string }).version}`;
const BUNDLE = path.join(__dirname, "bundle-project.mjs");

type Analysis = typeof import("../../packages/analysis/src/index");
export const analysis = requireFromRoot(path.join(ROOT, "packages/analysis")) as Analysis;
export const typescript = createRequire(path.join(TRANSFORMER_DIR, "package.json"))("typescript") as typeof ts;
/** The stamp `sourced build` writes. */
export const BUILD_VERIFIER = `@sourced/cli@${(JSON.parse(fs.readFileSync(path.join(ROOT, "packages/cli/package.json"), "utf8")) as { version: string }).version}`;
export const VERIFIER = `@sourced/transformer@${(JSON.parse(fs.readFileSync(path.join(TRANSFORMER_DIR, "package.json"), "utf8")) as { version: string }).version}`;

const ID_OF_CODE = new Map<number, string>(Object.values(analysis.FINDING_KINDS).map((kind) => [kind.code, kind.id]));

/** The transformer runs twice: with TypeScript 6.0.3 + ts-patch 4.0.1, and with 5.9.3 + ts-patch 3.3.0. */
export type FrontEnd = "transformer" | "transformer (TS 5.9)" | "eslint" | "cli" | "cli (TS 7, native)" | "bundler plugin" | "analysis";
export const FRONT_ENDS: readonly FrontEnd[] = ["transformer", "transformer (TS 5.9)", "eslint", "cli", "cli (TS 7, native)", "bundler plugin", "analysis"];

/** TypeScript 7.0.2 (fixtures/ts7): the batch project's `tsc`, so `sourced check` runs it on the native backend. */
export const TS7_TSC = path.join(ROOT, "fixtures/ts7/node_modules/typescript/bin/tsc");
/** TypeScript 6.0.3, the workspace's own. */
export const TS6_TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

/**
 * Plain tsc builds of the batch (no transformer), each run with the start-up check: the project's
 * `tsc` is the one that builds it (the check judges on its backend and emits with it).
 */
export const PLAIN_TSC = [
  { name: "plain tsc 7.0.2, source maps", tsc: TS7_TSC, sourceMap: true },
  { name: "plain tsc 7.0.2, no source maps", tsc: TS7_TSC, sourceMap: false },
  { name: "plain tsc 6.0.3, source maps", tsc: TS6_TSC, sourceMap: true },
  { name: "plain tsc 6.0.3, no source maps", tsc: TS6_TSC, sourceMap: false },
] as const;


const TS5_MODULES = path.join(ROOT, "fixtures/ts5/node_modules");
/** ts-patch 3.3.0's tspc, run on TypeScript 5.9.3 (it looks for `typescript` next to itself otherwise). */
export const TS5 = {
  tspc: path.join(TS5_MODULES, "ts-patch/bin/tspc.js"),
  env: { TSP_COMPILER_TS_PATH: path.join(TS5_MODULES, "typescript/lib/typescript.js") } as NodeJS.ProcessEnv,
};

/** A finding as a front-end reports it: the corpus harness's shape, files relative to the program. */
export type { Reported };

export interface ProgramFailure {
  readonly program: string;
  readonly crash: boolean;
  readonly reasons: readonly string[];
}

export interface BatchOutcome {
  readonly programs: number;
  readonly agree: number;
  readonly crashes: number;
  readonly registrations: number;
  readonly findings: number;
  readonly failures: readonly ProgramFailure[];
  /** Wall-clock milliseconds per step. */
  readonly timings: Readonly<Record<string, number>>;
  /** Kept when something failed, for inspection; removed otherwise. */
  readonly directory: string | undefined;
}

export interface ChildRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** A real child process, asynchronous so the front-ends run side by side; killed after `timeoutMs`. */
export function run(args: readonly string[], cwd: string, timeoutMs = 15 * 60_000, env: NodeJS.ProcessEnv = {}): Promise<ChildRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NODE_OPTIONS: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({
        status,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        ms: Date.now() - started,
      });
    });
  });
}

export const TSCONFIG = (extra: Record<string, unknown> = {}, include: readonly string[] = ["*.ts", "lib/**/*.ts"]): string =>
  JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        types: [],
        strict: true,
        rootDir: ".",
        outDir: "out",
        skipLibCheck: true,
        noEmitOnError: false,
        plugins: [{ transform: TRANSFORMER_DIR, transformProgram: true }],
        ...extra,
      },
      include,
    },
    null,
    2,
  );

/**
 * A scratch project outside the repository: `node_modules` links to the real `@sourced/registry`
 * and `typescript`, as an installed project has them, and nothing above it resolves anything.
 */
export function scratchProject(prefix: string, files: Readonly<Record<string, string | Buffer>>, options: { linkRegistry?: boolean } = {}): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `sourced-${prefix}-`));
  fs.mkdirSync(path.join(directory, "node_modules/@sourced"), { recursive: true });
  if (options.linkRegistry ?? true) fs.symlinkSync(path.join(ROOT, "packages/registry"), path.join(directory, "node_modules/@sourced/registry"), "dir");
  fs.symlinkSync(path.dirname(createRequire(path.join(TRANSFORMER_DIR, "package.json")).resolve("typescript/package.json")), path.join(directory, "node_modules/typescript"), "dir");
  fs.writeFileSync(path.join(directory, "package.json"), JSON.stringify({ name: prefix, private: true, type: "commonjs" }) + "\n");
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    fs.writeFileSync(path.join(directory, name), content);
  }
  return directory;
}

export function writeBatch(programs: readonly GeneratedProgram[]): string {
  // Checked JavaScript too: some programs register tools in a `.js` module judged by its JSDoc.
  const files: Record<string, string> = { "tsconfig.json": TSCONFIG({ allowJs: true, checkJs: true }, ["*.ts", "*.js", "lib/**/*.ts"]), ...LIB_FILES };
  for (const program of programs) for (const file of program.files) files[file.name] = file.text;
  const directory = scratchProject("fuzz", files);
  // The project's `tsc` is TypeScript 7 (its `typescript` stays 6, as in the alias setup).
  fs.mkdirSync(path.join(directory, "node_modules/.bin"), { recursive: true });
  fs.symlinkSync(TS7_TSC, path.join(directory, "node_modules/.bin/tsc"));
  // The project layer, which the registry's start-up check loads from the project.
  fs.symlinkSync(PROJECT_DIR, path.join(directory, "node_modules/@sourced/project"), "dir");
  return directory;
}

const DIAGNOSTIC = /^(?:(.+?)\((\d+),(\d+)\): )?(error|warning|message) TS(\d+): (.*)$/;

/** `file(line,col): error TS92001: message` lines of `--pretty false` output. */
export function parseTscOutput(output: string): Array<{ file: string | undefined; line: number; column: number; code: number; message: string }> {
  const diagnostics = [];
  for (const line of output.split(/\r?\n/)) {
    const match = DIAGNOSTIC.exec(line);
    if (match) {
      diagnostics.push({ file: match[1]?.split(path.sep).join("/"), line: Number(match[2] ?? 0), column: Number(match[3] ?? 0), code: Number(match[5]), message: match[6]! });
    }
  }
  return diagnostics;
}

/** The tool as every front-end's message quotes it (`tool 'list_cities'`). */
export const toolOf = (message: string): string | undefined => /\btool '([^']*)'/i.exec(message)?.[1];

/** What the analysis finds in process on the same project, with the same TypeScript as tspc. */
export function analyseProject(directory: string): Reported[] {
  const configPath = path.join(directory, "tsconfig.json");
  const parsed = typescript.getParsedCommandLineOfConfigFile(configPath, {}, { ...typescript.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (parsed === undefined) throw new Error(`cannot read ${configPath}`);
  const program = typescript.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  return analysis.analyzeProgram(typescript, program).findings.map((finding) => {
    const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
    return { file: path.relative(directory, finding.sourceFile.fileName).split(path.sep).join("/"), id: finding.id, tool: finding.tool, line: line + 1, column: character + 1 };
  });
}

interface LoadReport {
  readonly failures: Readonly<Record<string, string>>;
  readonly tools: ReadonlyArray<{ registry: string; name: string; verifiedBy: string | null }>;
  readonly warnings: readonly string[];
}

/** The program a generated name belongs to: every generated name ends in `_<program>_<unit>`. */
const programOfName = (name: string): string | undefined => {
  const match = /_(\d{5})_\d+$/.exec(name);
  return match ? `p${match[1]}` : undefined;
};

const keyOf = (r: Reported, withColumn: boolean) => `${r.file}:${r.line}${withColumn ? `:${r.column}` : ""} ${r.id} ${r.tool ?? "?"}`;

/** `- missing` and `+ unexpected` lines between two sorted lists of keys; "" when equal. */
function diff(expected: readonly string[], got: readonly string[]): string {
  const remaining = [...got];
  const missing: string[] = [];
  for (const key of expected) {
    const index = remaining.indexOf(key);
    if (index < 0) missing.push(key);
    else remaining.splice(index, 1);
  }
  return [...missing.map((key) => `      - expected   ${key}`), ...remaining.map((key) => `      + unexpected ${key}`)].join("\n");
}

/** Runs every front-end over one batch and judges each program. */
/** What the front-ends reported over one batch, before any program is judged. */
export interface BatchReports {
  readonly directory: string;
  readonly timings: Readonly<Record<string, number>>;
  /** A front-end that failed as a whole (no usable output). */
  readonly batchProblems: ReadonlyMap<FrontEnd | "load" | "start-up check" | "sourced build", string>;
  readonly reported: ReadonlyMap<FrontEnd, readonly Reported[]>;
  /** Internal errors and foreign messages, per file. */
  readonly crashedFiles: ReadonlyMap<string, readonly string[]>;
  /** Diagnostics other than ours: the generated program does not compile (a generator bug). */
  readonly foreign: readonly string[];
  readonly load: LoadReport | undefined;
  /** The same sources run as they are (tsx), every registry served: what the start-up check serves and warns. */
  readonly startup: LoadReport | undefined;
  /** Plain tsc's output of the same sources (see `PLAIN_TSC`), run with the start-up check, by build. */
  readonly plainTsc: ReadonlyMap<string, LoadReport>;
  /** `sourced build`'s output, loaded as the stamped build is. */
  readonly built: LoadReport | undefined;
}

/** Writes the batch as one project and runs every front-end over it, the three processes side by side. */
export async function collectBatch(programs: readonly GeneratedProgram[]): Promise<BatchReports> {
  const directory = writeBatch(programs);
  const timings: Record<string, number> = {};
  const batchProblems = new Map<FrontEnd | "load" | "start-up check" | "sourced build", string>();
  const reported = new Map<FrontEnd, Reported[]>();
  const crashedFiles = new Map<string, string[]>();
  const foreign: string[] = [];
  const noteCrash = (file: string, why: string) => crashedFiles.set(file, [...(crashedFiles.get(file) ?? []), why]);

  const patterns = ["*.ts", "*.js", "lib/*.ts"];
  const [tspc, tspc5, eslint, cli, cliNative, bundled, fromSource] = await Promise.all([
    run([TSPC, "-p", ".", "--pretty", "false"], directory),
    // The same project on the older pair, emitting elsewhere: only its diagnostics are compared.
    run([TS5.tspc, "-p", ".", "--pretty", "false", "--outDir", "out-ts5"], directory, undefined, TS5.env),
    run([LINT, directory, ...patterns], directory),
    run([CLI, "check", "-p", ".", "--format", "json", "--backend", "classic"], directory),
    run([CLI, "check", "-p", ".", "--format", "json"], directory),
    run([BUNDLE, directory], directory),
    run(["--import", TSX_LOADER, STARTUP, directory, ...programs.map((p) => p.id)], directory),
  ]);
  timings["start-up check"] = fromSource.ms;
  timings.transformer = tspc.ms;
  timings["bundler plugin"] = bundled.ms;
  timings["transformer (TS 5.9)"] = tspc5.ms;
  timings.eslint = eslint.ms;
  timings.cli = cli.ms;
  timings["cli (TS 7, native)"] = cliNative.ms;

  // Transformer: tsc's own output; exit 0 or 2 (diagnostics), never a stack trace.
  for (const [frontEnd, output] of [["transformer", tspc], ["transformer (TS 5.9)", tspc5]] as const) {
    if (output.signal !== null || (output.status !== 0 && output.status !== 2) || /\n\s+at .+:\d+:\d+\)?\n/.test(output.stdout + output.stderr)) {
      batchProblems.set(frontEnd, `tspc exited with ${output.status ?? output.signal}:\n${(output.stdout + output.stderr).slice(0, 4000)}`);
      continue;
    }
    const findings: Reported[] = [];
    for (const d of parseTscOutput(output.stdout + output.stderr)) {
      const id = ID_OF_CODE.get(d.code);
      if (id === undefined) foreign.push(`${d.file}(${d.line},${d.column}): TS${d.code}: ${d.message} [${frontEnd}]`);
      else if (id === "internal-error") noteCrash(d.file ?? "?", `${frontEnd}: ${d.message}`);
      else findings.push({ file: d.file ?? "?", id, tool: toolOf(d.message), line: d.line, column: d.column });
    }
    reported.set(frontEnd, findings);
  }

  // ESLint: JSON on stdout; a fatal message (parse error) or another rule's message is a problem.
  try {
    if (eslint.status !== 0) throw new Error(`exited with ${eslint.status ?? eslint.signal}`);
    const results = JSON.parse(eslint.stdout) as Array<{ file: string; messages: Array<{ ruleId: string | null; messageId?: string; message: string; line: number; column: number; fatal: boolean }> }>;
    const findings: Reported[] = [];
    for (const { file, messages } of results) {
      for (const message of messages) {
        if (message.ruleId !== "sourced/require-data-tool-output" || message.fatal) noteCrash(file, `eslint: ${message.ruleId ?? "fatal"}: ${message.message}`);
        else if (message.messageId === "internal-error") noteCrash(file, `eslint: ${message.message}`);
        else findings.push({ file, id: message.messageId ?? "?", tool: toolOf(message.message), line: message.line, column: message.column });
      }
    }
    reported.set("eslint", findings);
  } catch (error) {
    batchProblems.set("eslint", `ESLint ${(error as Error).message}:\n${eslint.stderr.slice(0, 4000)}`);
  }

  // CLI, on both backends: exit 0 or 1 with a JSON array on stdout; the two arrays byte for byte equal.
  for (const [frontEnd, output] of [["cli", cli], ["cli (TS 7, native)", cliNative]] as const) {
    try {
      if (output.status !== 0 && output.status !== 1) throw new Error(`exited with ${output.status ?? output.signal}`);
      const findings = JSON.parse(output.stdout) as Array<{ file: string; id: string; tool: string | null; line: number; column: number; message: string }>;
      reported.set(
        frontEnd,
        findings.flatMap((f) => {
          if (f.id === "internal-error") {
            noteCrash(f.file, `${frontEnd}: ${f.message}`);
            return [];
          }
          return [{ file: f.file, id: f.id, tool: f.tool ?? undefined, line: f.line, column: f.column }];
        }),
      );
    } catch (error) {
      batchProblems.set(frontEnd, `sourced check ${(error as Error).message}:\n${output.stderr.slice(0, 4000)}${output.stdout.slice(0, 2000)}`);
    }
  }
  if (!batchProblems.has("cli") && !batchProblems.has("cli (TS 7, native)") && cli.stdout !== cliNative.stdout) {
    batchProblems.set("cli (TS 7, native)", "the native backend's JSON report differs from the classic one's (messages or end positions)");
  }

  // The bundler plugin: esbuild's messages, as JSON; any message not ours is a problem.
  try {
    if (bundled.status !== 0) throw new Error(`exited with ${bundled.status ?? bundled.signal}`);
    const { findings, others } = JSON.parse(bundled.stdout) as {
      findings: Array<{ file: string; code: number; tool: string | null; line: number; column: number; message: string }>;
      others: string[];
    };
    if (others.length > 0) throw new Error(`printed ${others.join("\n")}`);
    reported.set(
      "bundler plugin",
      findings.flatMap((f) => {
        const id = ID_OF_CODE.get(f.code) ?? `SRC${f.code}`;
        if (id === "internal-error") {
          noteCrash(f.file, `bundler plugin: ${f.message}`);
          return [];
        }
        return [{ file: f.file, id, tool: f.tool ?? undefined, line: f.line, column: f.column }];
      }),
    );
  } catch (error) {
    batchProblems.set("bundler plugin", `esbuild + @sourced/unplugin ${(error as Error).message}:\n${bundled.stderr.slice(0, 4000)}`);
  }

  // The analysis itself, in this process.
  const started = Date.now();
  try {
    reported.set(
      "analysis",
      analyseProject(directory).flatMap((f) => {
        if (f.id === "internal-error") {
          noteCrash(f.file, "analysis: internal-error");
          return [];
        }
        return [f];
      }),
    );
  } catch (error) {
    batchProblems.set("analysis", `analyzeProgram threw: ${(error as Error).stack ?? String(error)}`);
  }
  timings.analysis = Date.now() - started;

  // The emitted JavaScript: loads, and serves exactly the verified tools, each stamped.
  let load: LoadReport | undefined;
  if (!batchProblems.has("transformer")) {
    const loaded = await run([LOAD, path.join(directory, "out"), ...programs.map((p) => p.id)], directory, 5 * 60_000);
    timings.load = loaded.ms;
    try {
      if (loaded.status !== 0) throw new Error(`exited with ${loaded.status ?? loaded.signal}`);
      load = JSON.parse(loaded.stdout) as LoadReport;
    } catch (error) {
      batchProblems.set("load", `loading the emitted JavaScript ${(error as Error).message}:\n${loaded.stderr.slice(0, 4000)}`);
    }
  }
  let startup: LoadReport | undefined;
  try {
    if (fromSource.status !== 0) throw new Error(`exited with ${fromSource.status ?? fromSource.signal}`);
    startup = JSON.parse(fromSource.stdout) as LoadReport;
  } catch (error) {
    batchProblems.set("start-up check", `running the sources with the start-up check ${(error as Error).message}:\n${fromSource.stderr.slice(0, 4000)}`);
  }
  // After the stamped build was loaded: plain tsc writes to the same `outDir`, one build after the other.
  const plainTsc = new Map<string, LoadReport>();
  const bin = path.join(directory, "node_modules/.bin/tsc");
  for (const build of PLAIN_TSC) {
    fs.rmSync(path.join(directory, "out"), { recursive: true, force: true });
    fs.rmSync(bin);
    fs.symlinkSync(build.tsc, bin);
    const compiled = await run([build.tsc, "-p", ".", "--pretty", "false", "--sourceMap", String(build.sourceMap)], directory);
    const served = await run([STARTUP, path.join(directory, "out"), ...programs.map((p) => p.id)], directory);
    timings[`start-up check (${build.name})`] = served.ms;
    try {
      if (!fs.existsSync(path.join(directory, "out", "lib", "registry.js"))) throw new Error(`tsc wrote no lib/registry.js (exit ${compiled.status ?? compiled.signal}):\n${(compiled.stdout + compiled.stderr).slice(0, 4000)}`);
      if (served.status !== 0) throw new Error(`exited with ${served.status ?? served.signal}:\n${served.stderr.slice(0, 4000)}`);
      plainTsc.set(build.name, JSON.parse(served.stdout) as LoadReport);
    } catch (error) {
      batchProblems.set("start-up check", `running ${build.name}'s output with the start-up check: ${(error as Error).message}`);
    }
  }
  fs.rmSync(bin);
  fs.symlinkSync(TS7_TSC, bin);

  // `sourced build` (the project's tsc, TypeScript 7, then the edit plan on its output): loaded as the stamped build is.
  let built: LoadReport | undefined;
  fs.rmSync(path.join(directory, "out"), { recursive: true, force: true });
  const building = await run([CLI, "build"], directory);
  timings["sourced build"] = building.ms;
  try {
    if (building.status !== 0 && building.status !== 1) throw new Error(`sourced build exited with ${building.status ?? building.signal}:\n${(building.stdout + building.stderr).slice(0, 4000)}`);
    const loaded = await run([LOAD, path.join(directory, "out"), ...programs.map((p) => p.id)], directory, 5 * 60_000);
    if (loaded.status !== 0) throw new Error(`loading its output exited with ${loaded.status ?? loaded.signal}:\n${loaded.stderr.slice(0, 4000)}`);
    built = JSON.parse(loaded.stdout) as LoadReport;
  } catch (error) {
    batchProblems.set("sourced build", (error as Error).message);
  }
  return { directory, timings, batchProblems, reported, crashedFiles, foreign, load, startup, plainTsc, built };
}

/** Judges each program of a batch against its construction and the front-ends against each other. */
export function judgeBatch(programs: readonly GeneratedProgram[], reports: BatchReports): BatchOutcome {
  const { directory, timings, batchProblems, reported, crashedFiles, foreign, load, startup } = reports;
  const servedBy = byProgram(load);
  const builtBy = byProgram(reports.built);

  // Per program.
  const failures: ProgramFailure[] = [];
  let agree = 0;
  let crashes = 0;
  const foreignByFile = new Map<string, string[]>();
  for (const line of foreign) {
    const file = /^([^(]+)\(/.exec(line)?.[1] ?? "?";
    foreignByFile.set(file, [...(foreignByFile.get(file) ?? []), line]);
  }
  for (const program of programs) {
    const files = new Set(program.files.map((f) => f.name));
    const reasons: string[] = [];
    let crash = false;
    for (const [frontEnd, problem] of batchProblems) {
      reasons.push(`${frontEnd} failed on the whole batch: ${problem}`);
      crash = true;
    }
    for (const file of files) {
      for (const why of crashedFiles.get(file) ?? []) {
        reasons.push(`internal failure in ${file}: ${why}`);
        crash = true;
      }
      for (const line of foreignByFile.get(file) ?? []) reasons.push(`not a valid program (generator bug): ${line}`);
    }
    const expected = program.findings.map((f) => keyOf({ ...f, column: 0 }, false));
    const columns = new Map<string, string[]>();
    const differences = new Map<string, FrontEnd[]>();
    for (const frontEnd of FRONT_ENDS) {
      const findings = reported.get(frontEnd);
      if (findings === undefined) continue;
      const mine = sortFindings(findings.filter((f) => files.has(f.file)));
      const difference = diff(expected, mine.map((f) => keyOf(f, false)));
      if (difference !== "") differences.set(difference, [...(differences.get(difference) ?? []), frontEnd]);
      columns.set(frontEnd, mine.map((f) => keyOf(f, true)));
    }
    for (const [difference, frontEnds] of differences) {
      const who = frontEnds.length === FRONT_ENDS.length ? "every front-end" : frontEnds.join(", ");
      reasons.push(`${who} differs from the constructed expectation:\n${difference}`);
    }
    const [first, ...others] = [...columns.entries()];
    for (const [frontEnd, keys] of others) {
      if (first && JSON.stringify(keys) !== JSON.stringify(first[1])) reasons.push(`${frontEnd} and ${first[0]} disagree on columns: ${keys.join(", ")} vs ${first[1].join(", ")}`);
    }
    if (load) reasons.push(...stampedDisagreements(program, load, servedBy.get(program.id) ?? [], VERIFIER));
    if (reports.built) reasons.push(...stampedDisagreements(program, reports.built, builtBy.get(program.id) ?? [], BUILD_VERIFIER).map((reason) => `sourced build: ${reason}`));
    if (startup) reasons.push(...startupDisagreements(program, startup, reported.get("transformer") ?? [], files));
    for (const [build, report] of reports.plainTsc) reasons.push(...startupDisagreements(program, report, reported.get("transformer") ?? [], files).map((reason) => `${build}: ${reason}`));
    if (reasons.length === 0) agree++;
    else failures.push({ program: program.id, crash, reasons });
    if (crash) crashes++;
  }
  for (const tool of servedBy.get("(unattributed)") ?? []) failures.push({ program: "(batch)", crash: false, reasons: [`unexpected tool served: ${tool.name}`] });
  for (const tool of builtBy.get("(unattributed)") ?? []) failures.push({ program: "(batch)", crash: false, reasons: [`sourced build: unexpected tool served: ${tool.name}`] });
  for (const [build, report] of reports.plainTsc) {
    for (const tool of report.tools) if (programOfName(tool.name) === undefined) failures.push({ program: "(batch)", crash: false, reasons: [`${build}: unexpected tool served: ${tool.name}`] });
  }
  for (const tool of startup?.tools ?? []) {
    if (programOfName(tool.name) === undefined) failures.push({ program: "(batch)", crash: false, reasons: [`unexpected tool served from source: ${tool.name}`] });
  }
  // The shared lib/ files belong to no program but hold real registrations (the platform
  // wrappers): whatever a front-end reports there is wrong, and a failure there is a crash.
  const programFiles = new Set(programs.flatMap((program) => program.files.map((f) => f.name)));
  const outside: string[] = [];
  for (const frontEnd of FRONT_ENDS) {
    for (const finding of reported.get(frontEnd) ?? []) {
      if (!programFiles.has(finding.file)) outside.push(`${frontEnd} reported ${keyOf(finding, true)} in a shared file`);
    }
  }
  const crashedOutside = [...crashedFiles].filter(([file]) => !programFiles.has(file));
  for (const [file, whys] of crashedOutside) outside.push(...whys.map((why) => `internal failure in ${file}: ${why}`));
  if (outside.length > 0) {
    failures.push({ program: "(batch)", crash: crashedOutside.length > 0, reasons: outside });
    if (crashedOutside.length > 0) crashes++;
  }

  const outcome: BatchOutcome = {
    programs: programs.length,
    agree,
    crashes,
    registrations: programs.reduce((sum, p) => sum + p.registrations, 0),
    findings: programs.reduce((sum, p) => sum + p.findings.length, 0),
    failures,
    timings,
    directory: failures.length > 0 ? directory : undefined,
  };
  return outcome;
}

/**
 * Whether `program`'s registration that the registry cannot take (`error`) was refused with a
 * warning instead of throwing: where the start-up check reads the sources (or the build's source
 * maps lead to them), such a registration waits for its verdict and is refused when serving
 * starts, naming the program's file or tool.
 */
function refusedWith(report: LoadReport, program: GeneratedProgram, error: string): boolean {
  const unit = `_${program.id.slice(1)}_`;
  return report.warnings.some((warning) => warning.includes(error) && (warning.includes(`${program.id}.`) || warning.includes(unit)));
}

/** The tools a report serves, by the program that declares them. */
function byProgram(report: LoadReport | undefined): Map<string, Array<{ name: string; verifiedBy: string | null }>> {
  const served = new Map<string, Array<{ name: string; verifiedBy: string | null }>>();
  for (const tool of report?.tools ?? []) {
    const program = programOfName(tool.name) ?? "(unattributed)";
    served.set(program, [...(served.get(program) ?? []), tool]);
  }
  return served;
}

/** A stamped build against the program's construction: it loads (or fails as constructed), and serves exactly the verified tools, each stamped by `verifier`. */
function stampedDisagreements(program: GeneratedProgram, report: LoadReport, served: readonly { name: string; verifiedBy: string | null }[], verifier: string): string[] {
  const reasons: string[] = [];
  const failure = report.failures[program.id];
  if (program.loadError === undefined && failure !== undefined) reasons.push(`the emitted JavaScript does not load: ${failure}`);
  if (program.loadError !== undefined && !failure?.includes(program.loadError) && !refusedWith(report, program, program.loadError)) reasons.push(`loading was expected to fail on ${program.loadError}, got: ${failure ?? "loaded"}`);
  if (program.loadError === undefined) {
    const names = served.map((t) => t.name).sort();
    if (JSON.stringify(names) !== JSON.stringify(program.served)) reasons.push(`served at run time: [${names.join(", ")}], expected the verified ones: [${program.served.join(", ")}]`);
    for (const tool of served) if (tool.verifiedBy !== verifier) reasons.push(`tool ${tool.name} is served with stamp ${tool.verifiedBy}, expected ${verifier}`);
  }
  return reasons;
}

/** A refusal the start-up check logged: `tool "x" (file:line:col) was not registered: …`, the build's place. */
export const REFUSAL = /^tool "([^"]+)" \(([^():]+):(\d+):(\d+)\) was not registered: /;

/**
 * The start-up check against tspc, for one program run from its sources: it serves exactly the
 * tools tspc's build serves (every registry has requireVerified on: what is served is what the
 * check verified), and each refusal it warns of is a finding tspc reports, at the same place.
 */
function startupDisagreements(program: GeneratedProgram, startup: LoadReport, transformer: readonly Reported[], files: ReadonlySet<string>): string[] {
  const reasons: string[] = [];
  const failure = startup.failures[program.id];
  if (program.loadError === undefined && failure !== undefined) reasons.push(`the sources do not load with the start-up check: ${failure}`);
  if (program.loadError !== undefined && !failure?.includes(program.loadError) && !refusedWith(startup, program, program.loadError)) reasons.push(`loading the sources was expected to fail on ${program.loadError}, got: ${failure ?? "loaded"}`);
  if (program.loadError === undefined) {
    const served = startup.tools.filter((tool) => programOfName(tool.name) === program.id);
    const names = served.map((tool) => tool.name).sort();
    if (JSON.stringify(names) !== JSON.stringify(program.served)) reasons.push(`served from source: [${names.join(", ")}], expected what tspc keeps: [${program.served.join(", ")}]`);
    for (const tool of served) if (tool.verifiedBy !== STARTUP_VERIFIER && tool.verifiedBy !== VERIFIER) reasons.push(`tool ${tool.name} is served from source with verifier ${tool.verifiedBy}, expected ${STARTUP_VERIFIER}`);
  }
  for (const warning of startup.warnings) {
    const refusal = REFUSAL.exec(warning);
    if (refusal === null || !files.has(refusal[2]!)) continue;
    const [, tool, file, line, column] = refusal;
    // The finding names the tool when its name is static; the warning, always (the registration ran).
    const reported = transformer.some((finding) => finding.file === file && finding.line === Number(line) && finding.column === Number(column) && (finding.tool === undefined || finding.tool === tool));
    if (!reported) reasons.push(`the start-up check refused ${tool} at ${file}:${line}:${column}, where tspc reports no finding of it: ${warning.slice(0, 300)}`);
  }
  return reasons;
}

/** Collects and judges one batch; its project is removed unless something failed. */
export async function runBatch(programs: readonly GeneratedProgram[]): Promise<BatchOutcome> {
  const reports = await collectBatch(programs);
  const outcome = judgeBatch(programs, reports);
  if (outcome.failures.length === 0) fs.rmSync(reports.directory, { recursive: true, force: true });
  return outcome;
}

/** A readable account of a batch's failures, with each failing program's source. */
export function describeFailures(outcome: BatchOutcome, programs: readonly GeneratedProgram[], limit = 5): string {
  const byId = new Map(programs.map((p) => [p.id, p]));
  const parts = outcome.failures.slice(0, limit).map((failure) => {
    const program = byId.get(failure.program);
    const sources = program?.files.map((f) => `--- ${f.name}\n${f.text.split("\n").map((l, i) => `${String(i + 1).padStart(3)}| ${l}`).join("\n")}`).join("\n") ?? "";
    return `${failure.program}${failure.crash ? " (crash)" : ""}:\n  ${failure.reasons.join("\n  ")}\n${sources}`;
  });
  const more = outcome.failures.length > limit ? `\n… and ${outcome.failures.length - limit} more` : "";
  return `${outcome.failures.length} of ${outcome.programs} programs failed (project kept in ${outcome.directory}):\n${parts.join("\n\n")}${more}`;
}
