import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { Watch } from "../../packages/transformer/test/support";
import { parseTscOutput, run, scratchProject, TS5, TSCONFIG, TSPC, type ChildRun } from "./parity";

/*
 * Build modes where a stale finding could hide: the registered function is declared in one file
 * and registered in another, and the edit that fixes or breaks it (adding or removing `:
 * DataToolOutput` on a function whose inferred type is DataToolOutput anyway) leaves the declaration
 * output of that file unchanged. tsc's builder then re-checks no other file and reuses the cached
 * diagnostics of the registering one, so only findings computed afresh on every build stay right.
 * Broken -> fixed -> broken again, with --incremental, -b and --watch, on both supported
 * TypeScript + ts-patch pairs.
 */

const PAIRS = [
  { title: "TypeScript 6.0.3 + ts-patch 4.0.1", tspc: TSPC, env: {} as NodeJS.ProcessEnv },
  { title: "TypeScript 5.9.3 + ts-patch 3.3.0", tspc: TS5.tspc, env: TS5.env },
];

const BROKEN = "export function humidity() {";
const FIXED = "export function humidity(): DataToolOutput {";

const FILES = {
  "src/registry.ts": 'import { createRegistry } from "@sourced/registry";\n\nexport const registry = createRegistry({ name: "modes", version: "1.0.0" });\n',
  "src/sample.ts": [
    'import type { DataToolOutput } from "@sourced/registry";',
    "",
    "export function sample(): DataToolOutput {",
    '  return { content: [{ type: "text", text: "62%" }], structuredContent: { sources: ["https://example.org/humidity"] } };',
    "}",
    "",
  ].join("\n"),
  "src/tools.ts": [
    'import type { DataToolOutput } from "@sourced/registry";',
    'import { sample } from "./sample.js";',
    "",
    "// Its inferred return type is DataToolOutput: tools.d.ts is the same with or without the annotation.",
    BROKEN,
    "  return sample();",
    "}",
    "",
  ].join("\n"),
  "src/server.ts": ['import { registry } from "./registry.js";', 'import { humidity } from "./tools.js";', "", "registry.tool()(humidity);", ""].join("\n"),
};
/** Declared in another file: reported at the reference in server.ts. */
const FINDING = "src/server.ts(4,17) TS92001 humidity";

const projects: string[] = [];
afterAll(() => {
  for (const project of projects) fs.rmSync(project, { recursive: true, force: true });
});

function project(extra: Record<string, unknown>): string {
  const directory = scratchProject("modes", {
    ...FILES,
    "tsconfig.json": TSCONFIG({ rootDir: "src", declaration: true, ...extra }, ["src"]),
  });
  projects.push(directory);
  return directory;
}

function edit(directory: string, from: string, to: string): void {
  const file = path.join(directory, "src/tools.ts");
  const text = fs.readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`src/tools.ts does not contain ${from}`);
  fs.writeFileSync(file, text.replace(from, to));
}

const ours = (output: string) =>
  parseTscOutput(output)
    .filter((d) => d.code >= 92000 && d.code < 92100)
    .map((d) => `${d.file}(${d.line},${d.column}) TS${d.code} ${/\btool '([^']*)'/i.exec(d.message)?.[1] ?? "?"}`);

const outcome = (r: ChildRun) => ({ exit: r.status, findings: ours(r.stdout + r.stderr), stack: /\n\s+at /.test(r.stdout + r.stderr) });

describe.concurrent.each(PAIRS)("fixed -> broken again reports again, across files ($title)", ({ tspc, env }) => {
  const build = async (args: string[], cwd: string) => outcome(await run([tspc, ...args, "--pretty", "false"], cwd, 120_000, env));

  it("--incremental: broken, fixed (exit 0, no stale finding), broken again (reported again), each from the cache", async () => {
    const directory = project({ incremental: true });
    expect(await build(["-p", "."], directory)).toEqual({ exit: 2, findings: [FINDING], stack: false });
    expect(fs.existsSync(path.join(directory, "out/tsconfig.tsbuildinfo")) || fs.existsSync(path.join(directory, "tsconfig.tsbuildinfo"))).toBe(true);
    expect(await build(["-p", "."], directory)).toEqual({ exit: 2, findings: [FINDING], stack: false });
    edit(directory, BROKEN, FIXED);
    expect(await build(["-p", "."], directory)).toEqual({ exit: 0, findings: [], stack: false });
    edit(directory, FIXED, BROKEN);
    expect(await build(["-p", "."], directory)).toEqual({ exit: 2, findings: [FINDING], stack: false });
  });

  it("-b: broken, fixed then up to date, broken again (rebuilt and reported again)", async () => {
    const directory = project({ composite: true });
    const first = await build(["-b", "."], directory);
    expect([first.exit !== 0, first.findings, first.stack]).toEqual([true, [FINDING], false]);
    const declaration = fs.readFileSync(path.join(directory, "out/tools.d.ts"), "utf8");
    edit(directory, BROKEN, FIXED);
    expect(await build(["-b", "."], directory)).toEqual({ exit: 0, findings: [], stack: false });
    // The premise: the edit left tools.d.ts as it was, so tsc re-checked no dependent file.
    expect(fs.readFileSync(path.join(directory, "out/tools.d.ts"), "utf8")).toBe(declaration);
    const upToDate = await run([tspc, "-b", ".", "--verbose", "--pretty", "false"], directory, 120_000, env);
    expect([upToDate.status, upToDate.stdout]).toEqual([0, expect.stringMatching(/is up to date/)]);
    edit(directory, FIXED, BROKEN);
    const again = await build(["-b", "."], directory);
    expect([again.exit !== 0, again.findings, again.stack]).toEqual([true, [FINDING], false]);
  });

  it("--watch: broken, fixed, broken again, fixed again", async () => {
    const directory = project({ incremental: true });
    const watch = new Watch(tspc, directory, env);
    try {
      const findings = async () => ours((await watch.next()).output);
      expect(await findings()).toEqual([FINDING]);
      edit(directory, BROKEN, FIXED);
      expect(await findings()).toEqual([]);
      edit(directory, FIXED, BROKEN);
      expect(await findings()).toEqual([FINDING]);
      edit(directory, BROKEN, FIXED);
      expect(await findings()).toEqual([]);
    } finally {
      watch.stop();
    }
  });
});

// Guard: the TypeScript 5.9.3 pair really is installed where this file expects it.
it("the TypeScript 5.9.3 pair is present", () => {
  const version = (createRequire(TS5.env.TSP_COMPILER_TS_PATH!)("typescript/package.json") as { version: string }).version;
  expect(version).toBe("5.9.3");
});
