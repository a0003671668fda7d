import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AnalysisResult } from "@sourced/analysis";
import { display, isSessionFailure, ProjectSession, type ProjectSnapshot, type SessionFailure, type SessionOutcome } from "../src/session";
import { fakeTypeScript, filesOf, REGISTRY, REPO, removeTrees, tree, TYPESCRIPT_6, TYPESCRIPT_7, write } from "./helpers";

/*
 * ProjectSession, the analysis kept across builds (the bundler plugin's watch mode): which backend
 * it judges on, what it sees again (a changed file, an added one, a changed tsconfig) and what it
 * does not (nothing changed: no analysis, the same outcome), and that a project it cannot judge is
 * one failure outcome, never a thrown error. fixtures/cli/findings copied to a temporary directory
 * (the tests edit it), with the registry and the repository's TypeScript 6.0.3 or 7.0.2 linked in.
 *
 * Analyses are counted, not timed: `analyzeProgram` is the real one, wrapped to count its calls
 * (and to fail once when a test asks).
 */

const analyses = vi.hoisted(() => ({ count: 0, failNext: undefined as Error | undefined }));
vi.mock("@sourced/analysis", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@sourced/analysis")>();
  return {
    ...actual,
    analyzeProgram: (...args: Parameters<typeof actual.analyzeProgram>): AnalysisResult => {
      analyses.count++;
      const failure = analyses.failNext;
      analyses.failNext = undefined;
      if (failure !== undefined) throw failure;
      return actual.analyzeProgram(...args);
    },
  };
});

afterAll(removeTrees);

const FINDINGS = filesOf(path.join(REPO, "fixtures/cli/findings"));
/** What fixtures/cli/findings is judged to hold, on either backend. */
const BASELINE = ["src/tools.ts:11 missing-annotation population", "src/weather.ts:3 not-data-tool-output forecast"];
const TINY = { "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", lib: ["ES5"], types: [], strict: true, noEmit: true }, include: ["src"] }), "src/a.ts": "export const a = 1;\n" };

function snapshot(outcome: SessionOutcome): ProjectSnapshot {
  if (isSessionFailure(outcome)) throw new Error(`expected a snapshot, got: ${outcome.message}`);
  return outcome;
}

/** A failure as it is (a snapshot, which holds whole programs, is not printed). */
function failure(outcome: SessionOutcome): SessionFailure {
  if (!isSessionFailure(outcome)) throw new Error(`expected a failure, got a snapshot on the ${outcome.backend} backend`);
  return outcome;
}

/** Each finding as `file:line id tool`, the file relative to the project. */
function findings(outcome: SessionOutcome, root: string): string[] {
  return snapshot(outcome).result.findings.map((finding) => {
    const { line } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
    return `${path.relative(root, finding.sourceFile.fileName).split(path.sep).join("/")}:${line + 1} ${finding.id} ${finding.tool}`;
  });
}

/** What `run` costs in analyses. */
function counted<T>(run: () => T): [T, number] {
  const before = analyses.count;
  const value = run();
  return [value, analyses.count - before];
}

describe("on TypeScript 6: the classic backend, the program kept across refreshes", () => {
  let root: string;
  let config: string;
  let session: ProjectSession;
  let first: ProjectSnapshot;
  const file = (name: string) => path.join(root, name);
  const original = (name: string) => FINDINGS[name]!;

  beforeAll(() => {
    root = tree(FINDINGS, { "node_modules/@sourced/registry": REGISTRY, "node_modules/typescript": TYPESCRIPT_6 });
    config = file("tsconfig.json");
    session = new ProjectSession(config);
    first = snapshot(session.refresh());
  });

  // Each test starts from the fixture as it is, whatever the one before it did.
  afterEach(() => {
    analyses.failNext = undefined;
    for (const name of ["src/extra.ts", "base.json"]) fs.rmSync(file(name), { force: true });
    for (const [name, text] of Object.entries(FINDINGS)) if (fs.readFileSync(file(name), "utf8") !== text) write(root, name, text);
    expect(findings(session.refresh(), root)).toEqual(BASELINE);
  });

  it("judges the program on the classic backend: the findings, and each source file by absolute path with its registrations", () => {
    expect([first.backend, first.fallback]).toEqual(["classic", undefined]);
    expect(findings(first, root)).toEqual(BASELINE);
    const registrations = (name: string) => first.files.get(file(name))?.registrations.map((registration) => registration.tool);
    expect([registrations("src/registry.ts"), registrations("src/tools.ts"), registrations("src/weather.ts")]).toEqual([[], ["list_cities", "population"], ["forecast"]]);
  });

  it("parses as tsc does: a TypeScript file's JSDoc comments are not parsed", () => {
    write(root, "src/tools.ts", `/** Lists cities. */\n${original("src/tools.ts")}`);
    const refreshed = snapshot(session.refresh());
    const tools = refreshed.files.get(file("src/tools.ts"))!.sourceFile;
    expect(tools.statements.flatMap((statement) => ts.getJSDocCommentsAndTags(statement))).toEqual([]);
  });

  it("nothing changed (a file written again as it was included): the same outcome, analysed no more", () => {
    const before = session.refresh();
    const [again, cost] = counted(() => session.refresh());
    expect(again).toBe(before);
    fs.writeFileSync(file("src/tools.ts"), original("src/tools.ts"));
    fs.utimesSync(file("src/tools.ts"), new Date(), new Date(Date.now() + 60_000));
    const [current, currentCost] = counted(() => [session.refresh(), session.current()] as const);
    expect(current[0]).toBe(before);
    expect(current[1]).toBe(before);
    expect([cost, currentCost]).toEqual([0, 0]);
  });

  it("a changed file: analysed again once, and that file alone parsed again", () => {
    const before = snapshot(session.refresh());
    fs.appendFileSync(file("src/weather.ts"), "export const later = registry.tool()(function later() { return 1; });\n");
    const [changed, cost] = counted(() => snapshot(session.refresh()));
    expect(cost).toBe(1);
    expect(findings(changed, root)).toEqual([...BASELINE, "src/weather.ts:6 missing-annotation later"]);
    const parsedAgain = [...changed.files].filter(([name, analysed]) => before.files.get(name)?.sourceFile !== analysed.sourceFile).map(([name]) => name);
    expect(parsedAgain).toEqual([file("src/weather.ts")]);
    expect(changed.files.size).toBe(before.files.size);

    fs.writeFileSync(file("src/weather.ts"), original("src/weather.ts"));
    const [restored, restoreCost] = counted(() => session.refresh());
    expect([findings(restored, root), restoreCost]).toEqual([BASELINE, 1]);
  });

  it("current(): the last outcome, until invalidate() says a file changed", () => {
    const last = session.current();
    fs.appendFileSync(file("src/tools.ts"), "export const more = registry.tool()(function more() { return 1; });\n");
    const [unannounced, cost] = counted(() => session.current());
    expect(unannounced).toBe(last);
    expect(cost).toBe(0);
    session.invalidate();
    const [announced, announcedCost] = counted(() => session.current());
    expect(announcedCost).toBe(1);
    expect(findings(announced, root)).toContain("src/tools.ts:14 missing-annotation more");
    const [still, stillCost] = counted(() => session.current());
    expect(still).toBe(announced);
    expect(stillCost).toBe(0);

    fs.writeFileSync(file("src/tools.ts"), original("src/tools.ts"));
    expect(findings(session.refresh(), root)).toEqual(BASELINE);
  });

  it("a file added where `include` searches is judged; removed, it is gone", () => {
    write(root, "src/extra.ts", 'import { registry } from "./registry.js";\nexport const extra = registry.tool()(function extra() { return 1; });\n');
    const added = snapshot(session.refresh());
    expect(findings(added, root)).toEqual(["src/extra.ts:2 missing-annotation extra", ...BASELINE]);
    expect(added.files.get(file("src/extra.ts"))?.registrations).toHaveLength(1);
    fs.rmSync(file("src/extra.ts"));
    const removed = snapshot(session.refresh());
    expect(findings(removed, root)).toEqual(BASELINE);
    expect(removed.files.has(file("src/extra.ts"))).toBe(false);
  });

  it("a changed tsconfig is seen: its compiler options, and those of a config it extends", () => {
    const options = (JSON.parse(original("tsconfig.json")) as { compilerOptions: Record<string, unknown> }).compilerOptions;
    // Reported once, at the project's first registration.
    const loose = ["src/tools.ts:4 strict-null-checks-off undefined", ...BASELINE];
    write(root, "tsconfig.json", JSON.stringify({ compilerOptions: { ...options, strict: false }, include: ["src"] }));
    const [changed, cost] = counted(() => session.refresh());
    expect([findings(changed, root), cost]).toEqual([loose, 1]);

    write(root, "base.json", JSON.stringify({ compilerOptions: options }));
    write(root, "tsconfig.json", JSON.stringify({ extends: "./base.json", include: ["src"] }));
    expect(findings(session.refresh(), root)).toEqual(BASELINE);
    write(root, "base.json", JSON.stringify({ compilerOptions: { ...options, strict: false } }));
    expect(findings(session.refresh(), root)).toEqual(loose);

    write(root, "tsconfig.json", original("tsconfig.json"));
    expect(findings(session.refresh(), root)).toEqual(BASELINE);
  });

  it("an invalid tsconfig: one failure naming each error where it is, never a throw; fixed, the project is judged again", () => {
    write(root, "tsconfig.json", fs.readFileSync(path.join(REPO, "fixtures/cli/bad-json/tsconfig.json"), "utf8"));
    const [broken, cost] = counted(() => session.refresh());
    expect(cost).toBe(0);
    expect(failure(broken).failure).toBe("unusable");
    const at = display(config);
    expect(failure(broken).message).toMatch(
      new RegExp(`^${escape(at)} is not a valid TypeScript configuration \\(${escape(at)}\\(5,3\\): ',' expected\\.; ${escape(at)}\\(7,1\\): '}' expected\\.; .*\\); fix it so the tools can be checked\\.$`),
    );
    expect(session.current()).toBe(broken);

    write(root, "tsconfig.json", original("tsconfig.json"));
    const [fixed, fixedCost] = counted(() => session.refresh());
    expect([findings(fixed, root), fixedCost]).toEqual([BASELINE, 1]);
  });

  it("an internal failure of the analysis: one failure saying so and to report it, never a throw; kept until the next refresh() tries again", () => {
    fs.appendFileSync(file("src/tools.ts"), "// changed\n");
    analyses.failNext = new Error("boom");
    const failed = session.refresh();
    expect(failure(failed)).toEqual({ failure: "unusable", message: `internal error while analysing ${display(config)}, so its registrations were not checked: boom. Please report it.` });
    const [kept, keptCost] = counted(() => session.current());
    expect(kept).toBe(failed);
    expect(keptCost).toBe(0);
    // Nothing changed since, and yet the failure is not kept as if it were the project's verdict.
    const [retried, cost] = counted(() => session.refresh());
    expect([findings(retried, root), cost]).toEqual([BASELINE, 1]);
    fs.writeFileSync(file("src/tools.ts"), original("src/tools.ts"));
  });
});

/** Each unresolved import of the registry as `file specifier`, the file relative to the project. */
function unresolved(outcome: SessionOutcome, root: string): string[] {
  return snapshot(outcome).result.unresolvedRegistryImports.map((entry) => `${path.relative(root, entry.sourceFile.fileName).split(path.sep).join("/")} ${entry.specifier}`);
}

/** Links `target` at `name` under `root`, in place of whatever link was there (a package installed, or upgraded as pnpm does). */
function link(root: string, name: string, target: string): void {
  const at = path.join(root, name);
  fs.rmSync(at, { force: true });
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, "dir");
}

/*
 * What module resolution looked for and did not find, or read in a package.json: watch mode sees
 * it change as `tsc --watch` does, though no file of the program changed. Each project its own
 * tree: the tests install packages into it.
 */
describe("on TypeScript 6: what module resolution did not find, or read in a package.json, is seen to change", () => {
  const UNRESOLVED = ["src/registry.ts @sourced/registry", "src/tools.ts @sourced/registry"];
  /** Without the registry's types, each registration is reported as one that cannot be checked. */
  const UNVERIFIABLE = ["src/tools.ts:4 unverifiable-registration list_cities", "src/tools.ts:11 unverifiable-registration population", "src/weather.ts:3 unverifiable-registration forecast"];

  it("the registry not installed yet: reported, the same outcome while nothing changes; once linked in, judged again", () => {
    const root = tree(FINDINGS, { "node_modules/typescript": TYPESCRIPT_6 });
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    const [missing, cost] = counted(() => session.refresh());
    expect([unresolved(missing, root), findings(missing, root), cost]).toEqual([UNRESOLVED, UNVERIFIABLE, 1]);
    const [again, againCost] = counted(() => session.refresh());
    expect(again).toBe(missing);
    expect(againCost).toBe(0);

    link(root, "node_modules/@sourced/registry", REGISTRY);
    const [installed, installedCost] = counted(() => session.refresh());
    expect([unresolved(installed, root), findings(installed, root), installedCost]).toEqual([[], BASELINE, 1]);
    const [still, stillCost] = counted(() => session.refresh());
    expect(still).toBe(installed);
    expect(stillCost).toBe(0);
  });

  it("the registry linked in, and a file edited that does not import it: the edit and the registry both seen", () => {
    const root = tree(FINDINGS, { "node_modules/typescript": TYPESCRIPT_6 });
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    expect(unresolved(session.refresh(), root)).toEqual(UNRESOLVED);
    link(root, "node_modules/@sourced/registry", REGISTRY);
    fs.appendFileSync(path.join(root, "src/weather.ts"), "// edited\n");
    const [judged, cost] = counted(() => session.refresh());
    expect([unresolved(judged, root), findings(judged, root), cost]).toEqual([[], BASELINE, 1]);
  });

  it("a relative import of a file not written yet, outside `include`: judged once it is written", () => {
    const root = tree(
      { ...FINDINGS, "src/extra.ts": 'export { later } from "../shared/later.js";\n' },
      { "node_modules/@sourced/registry": REGISTRY, "node_modules/typescript": TYPESCRIPT_6 },
    );
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    const before = snapshot(session.refresh());
    expect([findings(before, root), before.files.has(path.join(root, "shared/later.ts"))]).toEqual([BASELINE, false]);
    expect(counted(() => session.refresh())).toEqual([before, 0]);

    write(root, "shared/later.ts", 'import { registry } from "../src/registry.js";\nexport const later = registry.tool()(function later() { return 1; });\n');
    const [written, cost] = counted(() => snapshot(session.refresh()));
    expect([findings(written, root), cost]).toEqual([["shared/later.ts:2 missing-annotation later", ...BASELINE], 1]);
    expect(written.files.get(path.join(root, "shared/later.ts"))?.registrations).toHaveLength(1);
  });

  it("a package upgraded by re-pointing its link, as pnpm does (no file of the program changed): its package.json is read again, the new version judged", () => {
    const version = (major: number, out: string) => ({
      [`node_modules/.pnpm/kit@${major}.0.0/node_modules/kit/package.json`]: JSON.stringify({ name: "kit", version: `${major}.0.0`, types: "./index.d.ts" }),
      [`node_modules/.pnpm/kit@${major}.0.0/node_modules/kit/index.d.ts`]: `${out}\n`,
    });
    const root = tree(
      {
        ...FINDINGS,
        ...version(1, 'export type Out = import("@sourced/registry").DataToolOutput;'),
        ...version(2, "export type Out = string;"),
        "src/kit.ts": 'import type { Out } from "kit";\nimport { registry } from "./registry.js";\ndeclare const out: Out;\nexport const kit = registry.tool()(function kit(): Out {\n  return out;\n});\n',
      },
      { "node_modules/@sourced/registry": REGISTRY, "node_modules/typescript": TYPESCRIPT_6 },
    );
    link(root, "node_modules/kit", path.join(root, "node_modules/.pnpm/kit@1.0.0/node_modules/kit"));
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    const first = session.refresh();
    expect(findings(first, root)).toEqual(BASELINE);
    expect(counted(() => session.refresh())).toEqual([first, 0]);

    link(root, "node_modules/kit", path.join(root, "node_modules/.pnpm/kit@2.0.0/node_modules/kit"));
    const [upgraded, cost] = counted(() => session.refresh());
    expect([findings(upgraded, root), cost]).toEqual([[...BASELINE.slice(0, 1), "src/kit.ts:4 not-data-tool-output kit", ...BASELINE.slice(1)].sort(), 1]);
  });

  it("a `types` entry not installed yet: its global types are judged once it is", () => {
    const options = (JSON.parse(FINDINGS["tsconfig.json"]!) as { compilerOptions: Record<string, unknown> }).compilerOptions;
    const root = tree(
      {
        ...FINDINGS,
        "tsconfig.json": JSON.stringify({ compilerOptions: { ...options, types: ["kit"] }, include: ["src"] }),
        "src/kit.ts": 'import { registry } from "./registry.js";\ndeclare const out: KitOut;\nexport const kit = registry.tool()(function kit(): KitOut {\n  return out;\n});\n',
      },
      { "node_modules/@sourced/registry": REGISTRY, "node_modules/typescript": TYPESCRIPT_6 },
    );
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    const missing = session.refresh();
    expect(findings(missing, root)).toEqual([...BASELINE.slice(0, 1), "src/kit.ts:3 not-data-tool-output kit", ...BASELINE.slice(1)].sort());
    expect(counted(() => session.refresh())).toEqual([missing, 0]);

    write(root, "node_modules/@types/kit/index.d.ts", 'type KitOut = import("@sourced/registry").DataToolOutput;\n');
    const [installed, cost] = counted(() => session.refresh());
    expect([findings(installed, root), cost]).toEqual([BASELINE, 1]);
  });

  it('a package.json written with "type": "module": the files are judged as ES modules, the registry through its `import` condition', () => {
    const root = tree(FINDINGS, { "node_modules/@sourced/registry": REGISTRY, "node_modules/typescript": TYPESCRIPT_6 });
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    const declarations = (outcome: SessionOutcome) => [...snapshot(outcome).files.keys()].filter((name) => name.startsWith(REGISTRY) && name.endsWith("index.d.ts")).map((name) => path.relative(REGISTRY, name));
    const commonjs = session.refresh();
    expect(declarations(commonjs)).toEqual(["dist/index.d.ts"]);
    expect(counted(() => session.refresh())).toEqual([commonjs, 0]);

    write(root, "package.json", JSON.stringify({ name: "findings", type: "module" }));
    const [esm, cost] = counted(() => session.refresh());
    expect([declarations(esm), findings(esm, root), cost]).toEqual([["esm/index.d.ts"], BASELINE, 1]);
    expect(counted(() => session.refresh())).toEqual([esm, 0]);
  });
});

describe("on TypeScript 7: the project opened afresh, so what resolution did not find is looked for again on every refresh", () => {
  it("the registry not installed yet, then linked in: judged on the next refresh", () => {
    const root = tree(FINDINGS, { "node_modules/typescript": TYPESCRIPT_7 });
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    const missing = snapshot(session.refresh());
    expect([missing.backend, unresolved(missing, root), findings(missing, root).length]).toEqual(["native", ["src/registry.ts @sourced/registry", "src/tools.ts @sourced/registry"], 3]);
    link(root, "node_modules/@sourced/registry", REGISTRY);
    const [installed, cost] = counted(() => session.refresh());
    expect([unresolved(installed, root), findings(installed, root), cost]).toEqual([[], BASELINE, 1]);
  });
});

describe("a project without its tsconfig, on either backend", () => {
  it.each([
    ["classic", TYPESCRIPT_6],
    ["native", TYPESCRIPT_7],
  ])("%s: a missing-config failure naming the file; once it is written, the project is judged", (backend, typescript) => {
    const { "tsconfig.json": tsconfig, ...sources } = TINY;
    const root = tree(sources, { "node_modules/typescript": typescript });
    const config = path.join(root, "tsconfig.json");
    const session = new ProjectSession(config);
    expect(failure(session.refresh())).toEqual({ failure: "missing-config", message: `cannot find ${display(config)}.` });
    write(root, "tsconfig.json", tsconfig);
    const judged = snapshot(session.refresh());
    expect([judged.backend, [...judged.files.keys()].filter((name) => !name.includes("node_modules"))]).toEqual([backend, [path.join(root, "src/a.ts")]]);
  });
});

describe("on TypeScript 7: the native backend, the project opened afresh on every refresh", () => {
  it("judged natively, with the classic backend's findings and files", () => {
    const root = tree(FINDINGS, { "node_modules/@sourced/registry": REGISTRY, "node_modules/typescript": TYPESCRIPT_7 });
    const session = new ProjectSession(path.join(root, "tsconfig.json"));
    const [judged, cost] = counted(() => snapshot(session.refresh()));
    expect([judged.backend, judged.fallback, findings(judged, root), cost]).toEqual(["native", undefined, BASELINE, 1]);
    expect(judged.files.get(path.join(root, "src/tools.ts"))?.registrations.map((registration) => registration.tool)).toEqual(["list_cities", "population"]);
    const [again, againCost] = counted(() => session.refresh());
    expect(again).not.toBe(judged);
    expect([findings(again, root), againCost]).toEqual([BASELINE, 1]);
  });

  it("an invalid tsconfig: the failure the classic backend gives, not a judgement of what TypeScript 7 made of it", () => {
    const root = tree({ ...TINY, "tsconfig.json": fs.readFileSync(path.join(REPO, "fixtures/cli/bad-json/tsconfig.json"), "utf8") }, { "node_modules/typescript": TYPESCRIPT_7 });
    const config = path.join(root, "tsconfig.json");
    const outcome = failure(new ProjectSession(config).refresh());
    expect(outcome.failure).toBe("unusable");
    expect(outcome.message).toMatch(new RegExp(`^cannot analyse ${escape(display(config))} with TypeScript 7: .*${escape(display(config))}\\(5,3\\): ',' expected\\.`));
  });

  it("chosen, but unable to run (a TypeScript 7 it does not drive, or one without its API): the classic backend judges, and `fallback` says why", () => {
    for (const [version, why] of [
      ["7.5.0", /^TypeScript 7\.5\.0 at .* is newer than the native backend supports \(typescript >=7\.0\.2 <7\.2; TypeScript 7's API changes between minor versions\)$/],
      ["7.0.2", /^cannot load typescript\/unstable\/sync from .*: /],
    ] as const) {
      const root = tree({ ...TINY, ...fakeTypeScript(version) });
      const outcome = snapshot(new ProjectSession(path.join(root, "tsconfig.json")).refresh());
      expect(outcome.backend).toBe("classic");
      expect(outcome.fallback).toMatch(why);
      expect(outcome.files.has(path.join(root, "src/a.ts"))).toBe(true);
    }
  });

  it("forced: native on TypeScript 6 is a failure naming the version and what to install (no fallback); classic on TypeScript 7 judges with TypeScript 6", () => {
    const typescript6 = tree(TINY, { "node_modules/typescript": TYPESCRIPT_6 });
    const config = path.join(typescript6, "tsconfig.json");
    expect(failure(new ProjectSession(config, "native").refresh())).toEqual({
      failure: "unusable",
      message:
        `cannot analyse ${display(config)} with TypeScript 7: the native backend needs TypeScript 7, and the project at ${typescript6} has TypeScript 6.0.3 (at ${TYPESCRIPT_6}). ` +
        `Install it ('npm install --save-dev "typescript@>=7.0.2 <7.2"'), or drop '--backend native' to check with the classic backend.`,
    });
    const typescript7 = tree(TINY, { "node_modules/typescript": TYPESCRIPT_7 });
    const classic = snapshot(new ProjectSession(path.join(typescript7, "tsconfig.json"), "classic").refresh());
    expect([classic.backend, classic.fallback]).toEqual(["classic", undefined]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
