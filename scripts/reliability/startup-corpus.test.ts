import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CASES_DIR, caseFiles, LOOSE_TSCONFIG, relativeToCases } from "../../fixtures/harness";
import { analysis, BUILD_VERIFIER, CLI, parseTscOutput, PLAIN_TSC, PROJECT_DIR, REFUSAL, run, scratchProject, TRANSFORMER_DIR, TS7_TSC, TSPC, TSX_LOADER, VERIFIER, type ChildRun } from "./parity";

/*
 * The start-up check on the fixture corpus: the cases (with their checked JavaScript, lib/ and the
 * second project, loose/) copied into scratch projects, one per way of running them, each built
 * once and loaded once in one process (every case module, then every registry they created served
 * and listed by the SDK's Client):
 *
 * - run from their sources with tsx, where the registry's start-up check judges them;
 * - built with tspc (strip and stamp), run with the start-up check off, as the build alone serves it;
 * - built with plain tsc 7.0.2 and 6.0.3, with and without source maps, run with the start-up
 *   check, which traces the output back to its sources through the tsconfig that emitted it;
 * - built with `sourced build` (the project's tsc 7.0.2, then the edit plan), run under
 *   requireVerified with the start-up check off.
 *
 * From source, the same tools must be served as tspc's build serves, and every tool the check
 * refuses must be a finding tspc reports at the same place, in the same words. Plain tsc's output
 * must serve and warn exactly what the sources do; `sourced build`'s output under requireVerified
 * exactly the tools tspc stamps.
 */

const CORPUS = path.join(__dirname, "corpus-registries.mjs");
const CODES = new Set(Object.values(analysis.FINDING_KINDS).map((kind) => kind.code));

interface Loaded {
  /** By the file given (`out/….js` for a build). */
  readonly failures: Readonly<Record<string, string>>;
  /** `registry:tool`, the file it was registered in, and the verifier its stamp (or the start-up check) names. */
  readonly served: ReadonlyArray<{ readonly tool: string; readonly file: string; readonly verifiedBy: string | null }>;
  readonly warnings: readonly string[];
}

const files = Object.fromEntries(caseFiles().map((file) => [relativeToCases(file), fs.readFileSync(file, "utf8")]));
const modules = Object.keys(files).filter((file) => !file.startsWith("lib/") && !file.endsWith(".d.ts"));
/** The file tsc writes for a case module: `out/<module>` with the emitted extension (loose/ inherits `outDir`, so out/loose/). */
const outputOf = (file: string): string => `out/${file.replace(/\.ts$/, ".js").replace(/\.mts$/, ".mjs").replace(/\.cts$/, ".cjs")}`;
/** A case's file, whichever way it ran: `out/110-checked-js.js` is `110-checked-js.js`, `out/001-….js` is `001-….ts`, `out/lib/platform.js` is `lib/platform.ts`. */
const OUTPUT_OF = new Map(Object.keys(files).filter((file) => !file.endsWith(".d.ts")).map((file) => [outputOf(file), file]));
const caseOf = (file: string): string => OUTPUT_OF.get(file) ?? file;

const directories: string[] = [];
afterAll(() => {
  if (process.env.SOURCED_KEEP_CORPUS) return console.log(`kept: ${directories.join(" ")}`);
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

/** A scratch copy of the corpus: its tsconfig with `compilerOptions` added, the fixture's own loose/ tsconfig, the project layer and zod installed. */
function corpusProject(name: string, compilerOptions: Record<string, unknown>, tsc?: string): string {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(CASES_DIR, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  Object.assign(tsconfig.compilerOptions, compilerOptions);
  const directory = scratchProject(`corpus-${name}`, { ...files, "tsconfig.json": JSON.stringify(tsconfig, null, 2), "loose/tsconfig.json": fs.readFileSync(LOOSE_TSCONFIG, "utf8") });
  directories.push(directory);
  fs.symlinkSync(PROJECT_DIR, path.join(directory, "node_modules/@sourced/project"), "dir");
  // zod, which cases import (for outputs) as the corpus's own package does: typed and loaded as there.
  fs.symlinkSync(fs.realpathSync(path.join(CASES_DIR, "../node_modules/zod")), path.join(directory, "node_modules/zod"), "dir");
  if (tsc !== undefined) {
    // The project's `tsc` (TypeScript 7 beside `typescript` 6, as in the alias setup): the check judges on its backend.
    fs.mkdirSync(path.join(directory, "node_modules/.bin"), { recursive: true });
    fs.symlinkSync(tsc, path.join(directory, "node_modules/.bin/tsc"));
  }
  return directory;
}

/** Runs `tasks` two at a time: the machine that runs the suite has two cores. */
async function twoAtATime<T>(tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < tasks.length; index = next++) results[index] = await tasks[index]!();
  };
  await Promise.all([worker(), worker()]);
  return results;
}

const loaded = (child: ChildRun, what: string): Loaded => {
  if (child.status !== 0) throw new Error(`${what} exited with ${child.status ?? child.signal}:\n${child.stderr.slice(0, 4000)}`);
  return JSON.parse(child.stdout) as Loaded;
};

/** Each build's findings, and what each way of running the corpus served. */
let findings: ReturnType<typeof parseTscOutput>;
let tspcOutput: string;
let tspcBuild: Loaded;
let source: Loaded;
const plain = new Map<string, Loaded>();
let built: Loaded;
let tspcVerified: Loaded;
let builds: Record<string, number> = {};

beforeAll(async () => {
  const started = Date.now();
  const tspcProject = corpusProject("tspc", { plugins: [{ transform: TRANSFORMER_DIR, transformProgram: true }] });
  const plainProjects = PLAIN_TSC.map((variant) => ({ variant, directory: corpusProject(variant.name.replace(/\W+/g, "-"), { sourceMap: variant.sourceMap }, variant.tsc) }));
  const builtProject = corpusProject("sourced-build", {}, TS7_TSC);
  const projects = [".", "loose"];
  const timed = async (name: string, task: () => Promise<ChildRun>): Promise<ChildRun> => {
    const child = await task();
    builds[name] = (builds[name] ?? 0) + child.ms;
    return child;
  };

  // One build of the whole corpus per variant (both its projects), two processes at a time.
  const compiled = await twoAtATime([
    ...projects.map((project) => () => timed("tspc", () => run([TSPC, "-p", project, "--pretty", "false"], tspcProject))),
    ...plainProjects.flatMap(({ variant, directory }) => projects.map((project) => () => timed(variant.name, () => run([variant.tsc, "-p", project, "--pretty", "false"], directory)))),
    ...projects.map((project) => () => timed("sourced build", () => run([CLI, "build", "-p", project], builtProject))),
  ]);
  tspcOutput = compiled[0]!.stdout + compiled[1]!.stdout;
  findings = compiled.slice(0, 2).flatMap((build) => parseTscOutput(build.stdout + build.stderr).filter((diagnostic) => CODES.has(diagnostic.code)));
  for (const building of compiled.slice(-2)) if (building.status !== 0 && building.status !== 1) throw new Error(`sourced build exited with ${building.status}:\n${building.stdout}${building.stderr}`);

  const outputs = modules.map(outputOf);
  const [fromSource, tspc, sourcedBuild, tspcRequired, ...plainRuns] = await twoAtATime([
    () => timed("from source (load)", () => run(["--import", TSX_LOADER, CORPUS, tspcProject, ...modules], tspcProject)),
    () => timed("tspc (load)", () => run([CORPUS, "--build", tspcProject, ...outputs], tspcProject)),
    () => timed("sourced build (load)", () => run([CORPUS, "--build", "--require-verified", builtProject, ...outputs], builtProject)),
    () => timed("tspc, requireVerified (load)", () => run([CORPUS, "--build", "--require-verified", tspcProject, ...outputs], tspcProject)),
    ...plainProjects.map(({ variant, directory }) => () => timed(`${variant.name} (load)`, () => run([CORPUS, directory, ...outputs], directory))),
  ]);
  source = loaded(fromSource!, "running the sources");
  tspcBuild = loaded(tspc!, "loading tspc's build");
  built = loaded(sourcedBuild!, "loading sourced build's output");
  tspcVerified = loaded(tspcRequired!, "loading tspc's build under requireVerified");
  plainProjects.forEach(({ variant }, index) => plain.set(variant.name, loaded(plainRuns[index]!, `loading ${variant.name}'s output`)));
  builds = { ...builds, total: Date.now() - started };
  console.log(`ms ${JSON.stringify(builds)}`);
}, 900_000);

/** Modules that failed to load in either run: what they registered is not compared. */
const failedIn = (...runs: Loaded[]): Set<string> => new Set(runs.flatMap((loaded) => Object.keys(loaded.failures).map(caseOf)));
const servedBy = (loaded: Loaded, failed: ReadonlySet<string>) => loaded.served.filter((tool) => !failed.has(caseOf(tool.file))).map((tool) => tool.tool);

test("every fixture case run from its sources: the start-up check serves exactly what tspc's build serves, and refuses the rest with tspc's findings", () => {
  expect(findings.length, tspcOutput).toBeGreaterThan(100);
  const builtFailures = failedIn(tspcBuild);
  // Run from source, a registration the build strips is refused when serving starts: it never throws while its module loads.
  // (A misspelt option throws either way, built or not: the build reports it and keeps the registration.)
  expect(Object.entries(source.failures).filter(([file, why]) => !builtFailures.has(file) && /registry\.tool\(\)|is registered twice/.test(why))).toEqual([]);
  // A module fails from source beyond the build only where it evaluates a value the case declares (`declare const`) inside a registration the build removes.
  for (const [file, why] of Object.entries(source.failures)) if (!builtFailures.has(file)) expect(why, file).toMatch(/ is not defined$/);
  const failed = failedIn(tspcBuild, source);
  expect(servedBy(source, failed).length).toBeGreaterThan(40);
  expect(servedBy(source, failed)).toEqual(servedBy(tspcBuild, failed));

  const refusals = source.warnings.flatMap((warning) => {
    const match = REFUSAL.exec(warning);
    return match === null ? [] : [{ tool: match[1]!, file: match[2]!, line: Number(match[3]), column: Number(match[4]), message: warning.slice(match[0].length), warning }];
  });
  expect(refusals.length).toBeGreaterThan(40);
  const unreported = refusals.filter(
    (refusal) => !findings.some((finding) => finding.file === refusal.file && finding.line === refusal.line && finding.column === refusal.column && finding.message === refusal.message),
  );
  expect(unreported.map((refusal) => refusal.warning)).toEqual([]);
  // Nothing else is said of a case but two things. A registration through an escaped registry
  // value or tool decorator is served unchecked, as the build serves it unstamped. A registration
  // the registry cannot take (an anonymous function, a name taken twice, a template string for a
  // function), which the analysis verifies or cannot see, makes the build's module throw while it
  // loads; run from source it is refused with that error instead.
  const rest = source.warnings.filter((warning) => REFUSAL.exec(warning) === null && !/is served unchecked: the start-up check cannot verify it: it is registered through (?:a registry value|a tool decorator) /.test(warning));
  const unexplained = rest.filter((warning) => {
    const site = [...warning.matchAll(/ at (\/\S+?):\d+:\d+/g)].at(-1)?.[1];
    return !/^tool "[^"]*" was not registered: /.test(warning) || site === undefined || !builtFailures.has(caseOf(path.relative(directoryOf(site), site)));
  });
  expect(unexplained).toEqual([]);
});

/**
 * A load failure or a build's warning with the places of the running code made the sources'
 * places: the registry names where the code it runs registered, as an absolute path (its stack:
 * `…/out/007-….js:8:50` in tsc's output, `…/007-….ts:8:40` from source), in an error it throws
 * while a module loads, before any check. Every place the start-up check names (a refusal's
 * finding, an escape), relative to the working directory, stays as it is.
 */
const runningPlaces = (text: string): string => text.replace(/\/\S*?\/sourced-corpus-[^/]+\/(?:out\/)?([\w/.-]+?)\.[cm]?[jt]s:\d+:\d+/g, "$1:(running)");

/**
 * A warning of the start-up check's run with each absolute place the registry names (a site: a
 * registration it refuses in its own words, one it serves unchecked) made `file:line` in the
 * project. Plain tsc's output names the source the check traced the site to, file and line as run
 * from the sources; a place in `out/` stays one. The column is left out, and only it: from source,
 * tsx's maps put a call's frame at its callee's end (`registry.tool()(f)` at the `)` of `tool()`),
 * the check's emit at the call's own `(`, where V8 puts it.
 */
const sourceLines = (text: string): string => text.replace(/\/\S*?\/sourced-corpus-[^/]+\/([\w/.-]+):(\d+):\d+/g, "$1:$2");

describe.each(PLAIN_TSC.map((variant) => variant.name))("every fixture case built with %s, run with the start-up check", (name) => {
  test("serves exactly what the sources serve (and so what tspc's build serves), with the same warnings", () => {
    const output = plain.get(name)!;
    // The one module that fails either way, on its loader's words: tsx cannot transform its top-level await for require(); Node's require() refuses it.
    const failures = (loaded: Loaded) => Object.fromEntries(Object.entries(loaded.failures).map(([file, why]) => [caseOf(file), file.includes("122-destructured-module") ? "(top-level await)" : runningPlaces(why)]));
    expect(failures(output)).toEqual(failures(source));
    expect(output.served.map((tool) => ({ ...tool, file: caseOf(tool.file) }))).toEqual(source.served);
    expect(output.warnings.map(sourceLines)).toEqual(source.warnings.map(sourceLines));
    // The start-up check's own places are the sources': every refusal word for word.
    expect(output.warnings.filter((warning) => REFUSAL.test(warning))).toEqual(source.warnings.filter((warning) => REFUSAL.test(warning)));
  });
});

test("every fixture case built with `sourced build`, under requireVerified: exactly what tspc's build serves under requireVerified, each tool with sourced build's stamp", () => {
  expect(failedIn(built)).toEqual(failedIn(tspcVerified));
  expect(tspcVerified.served.length).toBeGreaterThan(40);
  expect(tspcVerified.served.filter((tool) => tool.verifiedBy !== VERIFIER)).toEqual([]);
  expect(built.served.map(({ tool, file }) => ({ tool, file }))).toEqual(tspcVerified.served.map(({ tool, file }) => ({ tool, file })));
  expect(built.served.filter((tool) => tool.verifiedBy !== BUILD_VERIFIER)).toEqual([]);
  expect(built.warnings.map(runningPlaces).map((warning) => warning.replace(BUILD_VERIFIER, VERIFIER))).toEqual(tspcVerified.warnings.map(runningPlaces));
});

/** The scratch project a warning's absolute path is in. */
function directoryOf(file: string): string {
  return directories.find((directory) => file.startsWith(`${directory}${path.sep}`)) ?? path.dirname(file);
}
