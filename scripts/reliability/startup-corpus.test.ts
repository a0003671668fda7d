import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, expect, test } from "vitest";
import { CASES_DIR, caseFiles, relativeToCases } from "../../fixtures/harness";
import { analysis, parseTscOutput, PROJECT_DIR, REFUSAL, run, scratchProject, TRANSFORMER_DIR, TSPC, TSX_LOADER } from "./parity";

/*
 * The start-up check on the fixture corpus: the cases (with their checked JavaScript and lib/)
 * copied into a scratch project, built once with tspc (strip and stamp; run with the start-up check
 * off, as the build alone serves it) and run once from their sources with tsx, where the
 * registry's start-up check judges them. Both are loaded the same way
 * (every case module, then every registry they created served and listed by the SDK's Client):
 * the same tools must be served, and every tool the check refuses must be a finding tspc reports
 * at the same place, in the same words.
 */

const CORPUS = path.join(__dirname, "corpus-registries.mjs");
const CODES = new Set(Object.values(analysis.FINDING_KINDS).map((kind) => kind.code));

interface Loaded {
  /** By the file given (`out/….js` for the build). */
  readonly failures: Readonly<Record<string, string>>;
  /** `registry:tool`, and the file it was registered in. */
  readonly served: ReadonlyArray<{ readonly tool: string; readonly file: string }>;
  readonly warnings: readonly string[];
}

let directory: string | undefined;
afterAll(() => {
  if (directory !== undefined) fs.rmSync(directory, { recursive: true, force: true });
});

test("every fixture case run from its sources: the start-up check serves exactly what tspc's build serves, and refuses the rest with tspc's findings", async () => {
  const files = Object.fromEntries(caseFiles().map((file) => [relativeToCases(file), fs.readFileSync(file, "utf8")]));
  const tsconfig = JSON.parse(fs.readFileSync(path.join(CASES_DIR, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  tsconfig.compilerOptions["plugins"] = [{ transform: TRANSFORMER_DIR, transformProgram: true }];
  // The second project (`loose/`, strictNullChecks off) builds beside the first, into out/loose/.
  const loose = { extends: "../tsconfig.json", compilerOptions: { strictNullChecks: false, outDir: "../out/loose" }, include: ["*.ts", "*.mts", "*.cts", "*.js", "*.mjs", "*.cjs"] };
  directory = scratchProject("corpus", { ...files, "tsconfig.json": JSON.stringify(tsconfig, null, 2), "loose/tsconfig.json": JSON.stringify(loose, null, 2) });
  fs.symlinkSync(PROJECT_DIR, path.join(directory, "node_modules/@sourced/project"), "dir");

  const builds = await Promise.all([".", "loose"].map((project) => run([TSPC, "-p", project, "--pretty", "false"], directory!)));
  const findings = builds.flatMap((build) => parseTscOutput(build.stdout + build.stderr).filter((diagnostic) => CODES.has(diagnostic.code)));
  expect(findings.length, builds[0]!.stdout).toBeGreaterThan(100);

  const modules = Object.keys(files).filter((file) => !file.startsWith("lib/") && !file.endsWith(".d.ts"));
  const [built, fromSource] = await Promise.all([
    run([CORPUS, "--build", directory, ...modules.map((file) => `out/${file.replace(/\.ts$/, ".js")}`)], directory),
    run(["--import", TSX_LOADER, CORPUS, directory, ...modules], directory),
  ]);
  expect(built.status, built.stderr).toBe(0);
  expect(fromSource.status, fromSource.stderr).toBe(0);
  const tspcBuild = JSON.parse(built.stdout) as Loaded;
  const source = JSON.parse(fromSource.stdout) as Loaded;

  // A case module, whichever way it ran: `out/110-checked-js.js` is `110-checked-js.js`, `out/001-….js` is `001-….ts`.
  const caseOf = (file: string): string => {
    const bare = file.replace(/^out\//, "");
    return bare in files ? bare : bare.replace(/\.js$/, ".ts");
  };
  const builtFailures = new Set(Object.keys(tspcBuild.failures).map(caseOf));
  // Run from source, a registration the build strips is refused when serving starts: it never throws while its module loads.
  // (A misspelt option throws either way, built or not: the build reports it and keeps the registration.)
  expect(Object.entries(source.failures).filter(([file, why]) => !builtFailures.has(file) && /registry\.tool\(\)|is registered twice/.test(why))).toEqual([]);
  // A module fails from source beyond the build only where it evaluates a value the case declares (`declare const`) inside a registration the build removes.
  for (const [file, why] of Object.entries(source.failures)) if (!builtFailures.has(file)) expect(why, file).toMatch(/ is not defined$/);
  const failed = new Set([...builtFailures, ...Object.keys(source.failures)]);
  const servedBy = (loaded: Loaded) => loaded.served.filter((tool) => !failed.has(caseOf(tool.file))).map((tool) => tool.tool);
  expect(servedBy(source).length).toBeGreaterThan(40);
  expect(servedBy(source)).toEqual(servedBy(tspcBuild));

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
  // value is served unchecked, as the build serves it unstamped. A registration the registry cannot
  // take (an anonymous function, a name taken twice, a template string for a function), which the
  // analysis verifies or cannot see, makes the build's module throw while it loads; run from
  // source it is refused with that error instead.
  const rest = source.warnings.filter((warning) => REFUSAL.exec(warning) === null && !/is served unchecked: the start-up check cannot verify it: it is registered through a registry value/.test(warning));
  const unexplained = rest.filter((warning) => {
    const site = [...warning.matchAll(/ at (\/\S+?):\d+:\d+/g)].at(-1)?.[1];
    return !/^tool "[^"]*" was not registered: /.test(warning) || site === undefined || !builtFailures.has(caseOf(path.relative(directory!, site)));
  });
  expect(unexplained).toEqual([]);
});
