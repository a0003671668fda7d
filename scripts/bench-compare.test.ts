import * as path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";

/*
 * `pnpm bench --compare <ref>`: what it reads from each run's JSON and how it puts the two sides
 * side by side. The runs themselves are `pnpm bench`'s (scripts/bench.test.ts runs it at CI size);
 * a real comparison checks out, installs and builds the ref, too long for CI, so the figures here
 * come from JSON of the shape `bench/run.mjs` writes.
 */

const ROOT = path.resolve(__dirname, "..");

interface Figure {
  value: number;
  unit: string;
}
interface Compare {
  figuresOf: (result: unknown) => Record<string, Figure>;
  comparisonRows: (ref: { label: string; runs: Record<string, Figure>[] }, tree: { label: string; runs: Record<string, Figure>[] }) => string[][];
}
let figuresOf: Compare["figuresOf"];
let comparisonRows: Compare["comparisonRows"];
beforeAll(async () => {
  ({ figuresOf, comparisonRows } = (await import(path.join(ROOT, "bench", "compare.mjs"))) as Compare);
});

const stats = (median: number) => ({ median, min: median, max: median, samples: [median] });
const ratio = (value: number) => ({ value, pairMin: value, pairMax: value });

/** One run's JSON, as `bench/run.mjs` writes it, with measures 3 and 6 of the tool-heavy shape. */
function run(nativeCpu: number, ruleCpuMs: number): unknown {
  return {
    shapes: {
      tools: {
        3: {
          verified: true,
          arms: { "no rules": { wall: stats(9000), cpu: stats(7000) } },
          ratios: { "rule only / no rules": { wall: ratio(1.4), cpu: ratio(1.5) } },
          ruleOwnCpuMs: { "sourced/require-data-tool-output": stats(ruleCpuMs) },
          editor: { perFileOwnMs: { "sourced/require-data-tool-output": { p95: stats(13), p95Cpu: stats(12), p50: stats(4) } } },
        },
        6: {
          verified: true,
          arms: { "sourced check (TS 7, native)": { wall: stats(9000), cpu: stats(5000) } },
          ratios: { "native check / tsc --noEmit (TS 7)": { wall: ratio(5.8), cpu: ratio(nativeCpu) } },
        },
      },
    },
  };
}

describe("pnpm bench --compare", () => {
  test("reads every ratio (CPU and wall), each arm's CPU, the rule's own CPU and the editor's p95 by a stable name", () => {
    const figures = figuresOf(run(3.7, 2710));
    expect(figures).toMatchObject({
      "tools 3. rule only / no rules, CPU": { value: 1.5, unit: "×" },
      "tools 3. rule only / no rules, wall": { value: 1.4, unit: "×" },
      "tools 3. no rules: CPU": { value: 7000, unit: "ms" },
      "tools 3. sourced/require-data-tool-output: own CPU": { value: 2710, unit: "ms" },
      "tools 3. editor, sourced/require-data-tool-output: own time per file, p95": { value: 13, unit: "ms" },
      "tools 3. editor, sourced/require-data-tool-output: own CPU per file, p95": { value: 12, unit: "ms" },
      "tools 6. native check / tsc --noEmit (TS 7), CPU": { value: 3.7, unit: "×" },
    });
  });

  test("prints each side's median over its runs, their range, and the change", () => {
    const rows = comparisonRows(
      { label: "main", runs: [figuresOf(run(4, 3000)), figuresOf(run(3, 2000))] },
      { label: "working tree", runs: [figuresOf(run(2, 1000)), figuresOf(run(1, 1000))] },
    );
    expect(rows[0]).toEqual(["figure (median of the runs; [min–max])", "main", "working tree", "change"]);
    const row = (name: string) => rows.find((candidate) => candidate[0] === name);
    expect(row("tools 6. native check / tsc --noEmit (TS 7), CPU")).toEqual(["tools 6. native check / tsc --noEmit (TS 7), CPU", "3.500× [3.000×–4.000×]", "1.500× [1.000×–2.000×]", "-57.1%"]);
    expect(row("tools 3. sourced/require-data-tool-output: own CPU")).toEqual(["tools 3. sourced/require-data-tool-output: own CPU", "2.50 s [2.00 s–3.00 s]", "1.00 s [1.00 s–1.00 s]", "-60.0%"]);
  });

  test("a figure only one side has is shown as not measured on the other, without a change", () => {
    const tree = figuresOf(run(2, 1000));
    tree["tools 4. sourced check / tsc --noEmit, CPU"] = { value: 0.9, unit: "×" };
    const rows = comparisonRows({ label: "main", runs: [figuresOf(run(4, 3000))] }, { label: "working tree", runs: [tree] });
    expect(rows.find((row) => row[0] === "tools 4. sourced check / tsc --noEmit, CPU")).toEqual(["tools 4. sourced check / tsc --noEmit, CPU", "(not measured)", "0.900×", ""]);
  });
});
