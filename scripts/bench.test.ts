import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";

/*
 * `pnpm bench` at its CI size: proves the command keeps working and its output keeps its shape.
 * Timings are not asserted (benchmarks are not tests); what is asserted is that every measure
 * ran, produced finite ratios, and timed the real work: each front-end reported exactly the
 * findings the generator planted.
 */

const ROOT = path.resolve(__dirname, "..");

interface Summary {
  median: number;
  min: number;
  max: number;
  samples: number[];
}
interface Ratio {
  value: number;
  pairMin: number;
  pairMax: number;
}

let run: SpawnSyncReturns<string>;
let result: {
  machine: { cpus: number; memoryGiB: number; node: string };
  projects: Record<string, { files: number; tools: number; expectedFindings: number; findings: Record<string, number> }>;
  measures: Record<string, { verified: boolean; problem?: string; ratios: Record<string, Ratio | { wall: Ratio; cpu?: Ratio } | { value: number }> } & Record<string, unknown>>;
  shapes: Record<string, Record<string, { verified: boolean; problem?: string }>>;
};

beforeAll(() => {
  const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-bench-test-")), "results.json");
  run = spawnSync(process.execPath, [path.join(ROOT, "bench", "run.mjs"), "--smoke", "--quiet", "--json", json], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  result = JSON.parse(fs.readFileSync(json, "utf8")) as typeof result;
}, 1_200_000); // both shapes: twice the projects of one

describe("pnpm bench --smoke", () => {
  test("prints one section per measure and where the JSON went", () => {
    const stdout = String(run.stdout);
    for (const heading of ["1. tspc + transformer vs tsc", "2. the transformer's own time", "3. ESLint", "4. sourced check vs tsc --noEmit", "5. run time", "6. sourced check on TypeScript 7 (native backend)", "7. esbuild + @sourced/unplugin vs sourced check", "8. esbuild + @sourced/unplugin in watch mode", "9. the start-up check: the first tools/list answer from source"]) {
      expect(stdout).toContain(heading);
    }
    expect(stdout).toMatch(/JSON: .*results\.json/);
    expect(stdout).not.toContain("NOT VERIFIED");
  });

  test("describes the machine and the generated project, with planted non-compliant tools", () => {
    expect(result.machine.cpus).toBeGreaterThan(0);
    expect(result.machine.node).toBe(process.version);
    const project = result.projects["files12-tools60-seed1"];
    expect(project).toMatchObject({ files: 12, tools: 60 });
    expect(project!.expectedFindings).toBeGreaterThan(0);
    expect(Object.keys(project!.findings).sort()).toEqual(["missing-annotation", "not-data-tool-output", "unverifiable-registration"]);
  });

  test("every project measure ran on both shapes, the realistic one too (1 module in 10 registers tools), verified", () => {
    const stdout = String(run.stdout);
    expect(stdout).toContain("== the tool-heavy shape: every module registers tools ==");
    expect(stdout).toContain("== the realistic shape: 1 module in 10 registers tools, the rest is ordinary code ==");
    expect(result.shapes["tools"]).toEqual(result.measures);
    expect(Object.keys(result.shapes["realistic"]!).sort()).toEqual(["1", "10", "2", "3", "4", "6", "7", "8", "9"]);
    for (const [number, measure] of Object.entries(result.shapes["realistic"]!)) {
      expect(measure.problem, `measure ${number}`).toBeUndefined();
      expect(measure.verified, `measure ${number}`).toBe(true);
    }
    expect(result.projects["files12-tools60-seed1-realistic"]).toMatchObject({ files: 12, tools: 60, shape: "realistic", toolModules: 2 });
  });

  test("every measure timed the real work: the front-ends reported exactly the planted findings", () => {
    expect(Object.keys(result.measures).sort()).toEqual(["1", "10", "11", "2", "3", "4", "5", "6", "7", "8", "9"]);
    for (const [number, measure] of Object.entries(result.measures)) {
      expect(measure.problem, `measure ${number}`).toBeUndefined();
      expect(measure.verified, `measure ${number}`).toBe(true);
    }
  });

  test("every ratio is a finite positive number with its per-repetition range", () => {
    const ratios = Object.values(result.measures).flatMap((measure) => Object.entries(measure.ratios));
    expect(ratios.length).toBeGreaterThanOrEqual(8);
    for (const [name, ratio] of ratios) {
      // A ratio measured by wall time only (over HTTP, or the watch rebuilds inside one process) has no CPU figure.
      const values = "wall" in ratio ? [ratio.wall, ratio.cpu].filter((value) => value !== undefined) : [ratio];
      for (const value of values) {
        expect(Number.isFinite(value.value) && value.value > 0, name).toBe(true);
        if ("pairMin" in value) expect(value.pairMin, name).toBeLessThanOrEqual(value.pairMax);
      }
    }
  });

  test("the arms were each run the number of repetitions asked for", () => {
    const tsc = (result.measures["1"]!.arms as Record<string, { wall: Summary }>)["tsc"]!;
    expect(tsc.wall.samples).toHaveLength(2);
    const sizes = result.measures["2"]!.sizes as { tools: number; ownMs: Summary }[];
    expect(sizes.map((size) => size.tools)).toEqual([60, 120, 240]);
    for (const size of sizes) expect(size.ownMs.samples).toHaveLength(2);
    const persistent = (result.measures["1"]!.arms as Record<string, { cpu: Summary }>)["tsc (ts-patch install) + @sourced/transformer"]!;
    expect(persistent.cpu.samples).toHaveLength(2);
    const editor = result.measures["3"]!.editor as { files: number; perFileOwnMs: Record<string, { p95: Summary }> };
    expect(editor.files).toBe(11); // every module of the smoke project but the untimed first one
    for (const arm of Object.values(editor.perFileOwnMs)) expect(arm.p95.samples).toHaveLength(2);
    const register = result.measures["5"]!.register as { tools: number } & Record<string, Summary>;
    expect(register.tools).toBe(10000);
    expect(register["registry.tool()"]!.samples).toHaveLength(2);
    const lists = result.measures["11"]!.arms as Record<string, { ms: Summary; kib: number }>;
    expect(Object.keys(lists)).toHaveLength(8);
    for (const arm of Object.values(lists)) expect(arm.ms.samples).toHaveLength(2);
    // tools/list does not grow with the resources: 40 tools list the same beside 10,000 as beside 1.
    expect(lists["40 tools, 10,000 resources (v2 Client)"]!.kib).toBe(lists["40 tools, 1 resource (v2 Client)"]!.kib);
  });

  test("the floors are measured beside the front-ends they bound, in the same runs, and told the seed's verdicts", () => {
    // Verified means each floor reported the planted missing annotations and non-DataToolOutput
    // returns (measures 3 and 4, and measure 6's seed floor), or read every file the native check
    // judged (measure 6's API floor).
    const m3 = result.measures["3"]! as unknown as { ruleOwnCpuMs: Record<string, Summary>; ratios: Record<string, unknown>; editor: { perFileOwnMs: Record<string, unknown> } };
    expect(Object.keys(m3.ruleOwnCpuMs)).toContain("floor/floor");
    expect(Object.keys(m3.editor.perFileOwnMs)).toContain("floor/floor");
    expect(Object.keys(m3.ratios)).toEqual(expect.arrayContaining(["own CPU: rule / the floor", "whole lint: the floor only / no rules"]));
    expect(Object.keys(result.measures["4"]!.ratios)).toContain("the floor / tsc --noEmit");
    expect(Object.keys(result.measures["6"]!.ratios)).toEqual(expect.arrayContaining(["the API's floor / tsc --noEmit (TS 7)", "the seed's floor / tsc --noEmit (TS 7)"]));
  });

  test("each rule's own CPU is told on its main thread too, which never holds more than every thread's", () => {
    // rule-cpu.mjs reads both around the same listener calls: the main thread's is the rule's own
    // code and the checker answering it, the rest V8's helper threads working meanwhile.
    const m3 = result.measures["3"]! as unknown as { ruleOwnCpuMs: Record<string, Summary>; ruleOwnMainCpuMs: Record<string, Summary>; editor: { perFileOwnMs: Record<string, { p95MainCpu: Summary }> } };
    expect(Object.keys(m3.ruleOwnMainCpuMs).sort()).toEqual(Object.keys(m3.ruleOwnCpuMs).sort());
    for (const [name, main] of Object.entries(m3.ruleOwnMainCpuMs)) {
      const all = m3.ruleOwnCpuMs[name]!;
      expect(main.samples).toHaveLength(all.samples.length);
      // Read a few microseconds apart at each listener's start and end: a little slack, no more.
      main.samples.forEach((ms, i) => expect(ms).toBeLessThanOrEqual(all.samples[i]! * 1.02 + 5));
    }
    // The rule judges every registration on its main thread (no-floating-promises may find nothing to ask).
    expect(m3.ruleOwnMainCpuMs["sourced/require-data-tool-output"]!.median).toBeGreaterThan(0);
    for (const arm of Object.values(m3.editor.perFileOwnMs)) expect(arm.p95MainCpu.samples).toHaveLength(2);
  });

  test("warm-up.mjs tells the rule's CPU in a fresh process from its CPU with the code warm, on the projects the run wrote", () => {
    // A profiling tool beside the bench (docs/performance.md, issue 45 round 17): what matters here
    // is that it still runs the real lints and editor sessions and prints each figure.
    const out = path.join(ROOT, "bench", "out");
    const warm = spawnSync(process.execPath, [path.join(ROOT, "bench", "lib", "warm-up.mjs"), path.join(out, "files12-tools60-seed1-realistic"), path.join(out, "files12-tools60-seed1"), "1"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(warm.status, `${warm.stdout}\n${warm.stderr}`).toBe(0);
    const figure = String.raw`(\d+) ms / (\d+) ms`;
    const rule = new RegExp(String.raw`sourced/require-data-tool-output: alone ${figure}; after files12-tools60-seed1, code warm ${figure}`).exec(warm.stdout);
    expect(rule, warm.stdout).not.toBeNull();
    // Every registration is judged on the main thread in both lints; the main thread never holds more than every thread.
    const [alone, aloneMain, warmed, warmedMain] = rule!.slice(1).map(Number) as [number, number, number, number];
    expect(aloneMain).toBeGreaterThan(0);
    expect(warmedMain).toBeGreaterThan(0);
    expect(aloneMain).toBeLessThanOrEqual(alone * 1.02 + 5);
    expect(warmedMain).toBeLessThanOrEqual(warmed * 1.02 + 5);
    expect(warm.stdout).toMatch(new RegExp(String.raw`@typescript-eslint/no-floating-promises: alone ${figure}; after files12-tools60-seed1, code warm ${figure}`));
    expect(warm.stdout).toMatch(/measure 3c's session: [\d.]+ ms \/ [\d.]+ ms/);
    expect(warm.stdout).toMatch(/after \d+ other modules that read the registry: [\d.]+ ms \/ [\d.]+ ms/);
  }, 300_000);

  test("the native check's measure names the memory of every process of each arm, TypeScript 7's compiler included", () => {
    const peaks = result.measures["6"]!.peakRssMiBByProcess as Record<string, Record<string, number>>;
    expect(Object.keys(peaks).sort()).toEqual([
      "sourced check (TS 7, native)",
      "the floor (TS 7's API): project opened, every file read",
      "the seed's floor (TS 7's API): and callee symbols, declared return types",
      "tsc --noEmit (TS 6)",
      "tsc --noEmit (TS 7)",
    ]);
    // TypeScript 7's compiler is a native binary. Its `tsc` launcher replaces its own node process
    // with it (`process.execve`, Node >= 22.15), so that arm is one process, named after the binary;
    // the native check keeps its node process beside the compiler it talks to.
    expect(Object.keys(peaks["tsc --noEmit (TS 7)"]!)).toHaveLength(1);
    expect(Object.keys(peaks["sourced check (TS 7, native)"]!).length).toBeGreaterThanOrEqual(2);
  });
});
