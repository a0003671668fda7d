import * as fs from "node:fs";
import * as path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { describe as describeRuns, keys, runFrontEnds, STACK_TRACE, type FrontEndRuns } from "./frontends";
import { scratchProject, TSCONFIG } from "./parity";

/*
 * Bad input never crashes a front-end. Each project below is checked by all four front-ends (tspc
 * with the transformer, ESLint with `recommended`, `sourced check`, the analysis in process):
 * none throws, none prints a stack trace, each exits with its documented code, and wherever the
 * input still holds registrations the front-ends report them exactly (and identically).
 */

const projects: string[] = [];
afterAll(() => {
  for (const project of projects) fs.rmSync(project, { recursive: true, force: true });
});

function project(files: Record<string, string | Buffer>, options: { tsconfig?: string | null; linkRegistry?: boolean } = {}): string {
  const all: Record<string, string | Buffer> = { ...files };
  if (options.tsconfig !== null) all["tsconfig.json"] = options.tsconfig ?? TSCONFIG({ rootDir: "src" }, ["src"]);
  const directory = scratchProject("bad-input", all, { linkRegistry: options.linkRegistry ?? true });
  projects.push(directory);
  return directory;
}

const REGISTRY = 'import { createRegistry } from "@sourced/registry";\n\nexport const registry = createRegistry({ name: "bad-input", version: "1.0.0" });\n';
const SAMPLE = [
  'import type { DataToolOutput } from "@sourced/registry";',
  "",
  "export function sample(): DataToolOutput {",
  '  return { content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: ["https://example.org/cities"] } };',
  "}",
  "",
].join("\n");

/** No process killed or printing a stack trace, each exit code the documented one. */
function expectNoProcessCrash(runs: FrontEndRuns, exits: { transformer: number[]; eslint?: number[]; cli: number[] }): void {
  const context = describeRuns(runs);
  for (const [name, r] of [["tspc", runs.transformer], ["eslint", runs.eslint], ["sourced check", runs.cli]] as const) {
    expect(r.signal, `${name} was killed\n${context}`).toBeNull();
    expect(STACK_TRACE.test(r.stdout + r.stderr), `${name} printed a stack trace\n${context}`).toBe(false);
  }
  expect(exits.transformer, context).toContain(runs.transformer.status);
  expect(exits.eslint ?? [0], context).toContain(runs.eslint.status);
  expect(exits.cli, context).toContain(runs.cli.status);
}

/** Nothing crashed at all: no process, no exception in process, no internal-error finding. */
function expectNoCrash(runs: FrontEndRuns, exits: { transformer: number[]; eslint?: number[]; cli: number[] }): void {
  expectNoProcessCrash(runs, exits);
  const context = describeRuns(runs);
  expect(runs.analysis.error, context).toBeUndefined();
  expect(runs.transformer.codes, "no internal error").not.toContain(92000);
  for (const findings of [runs.transformer.findings, runs.eslint.findings, runs.cli.findings ?? [], runs.analysis.findings ?? []]) {
    expect(findings.filter((f) => f.id === "internal-error"), context).toEqual([]);
  }
}

describe("large, deeply nested and non-UTF-8 input, in one project that compiles", () => {
  const DEPTH = 400; // TypeScript's own parser and checker overflow their stack at about 1,000 (tsc 6.0.3 included)
  const BLOCKS = 200;
  const expected: string[] = [];
  let runs: FrontEndRuns;

  beforeAll(async () => {
    // 20,000 lines: 200 blocks of 100 lines, each a function and its registration; every odd one unannotated.
    const big: string[] = ['import type { DataToolOutput } from "@sourced/registry";', 'import { registry } from "./registry.js";', 'import { sample } from "./sample.js";'];
    for (let block = 0; block < BLOCKS; block++) {
      const rejected = block % 2 === 1;
      if (rejected) expected.push(`src/big.ts:${big.length + 1} missing-annotation tool_${block}`);
      big.push(`function tool_${block}()${rejected ? "" : ": DataToolOutput"} {`);
      for (let statement = 0; statement < 96; statement++) big.push(`  const value_${statement} = ${statement} * ${block};`);
      big.push(`  return value_0 === 0 ? sample() : sample();`, "}", `registry.tool()(tool_${block});`);
    }
    expect(big.length).toBe(3 + BLOCKS * 100);

    // Deep nesting, each as deep as TypeScript itself accepts.
    const deep: string[] = ['import type { DataToolOutput } from "@sourced/registry";', 'import { registry } from "./registry.js";', 'import { sample } from "./sample.js";', "declare const flag: boolean;"];
    deep.push(`export const nested = ${"() => ".repeat(DEPTH)}registry.tool()(function deep_arrows(): string { return "x"; });`);
    expected.push(`src/deep.ts:${deep.length} not-data-tool-output deep_arrows`);
    deep.push(`${"(".repeat(DEPTH)}registry.tool()${")".repeat(DEPTH)}(function deep_parens() { return sample(); });`);
    expected.push(`src/deep.ts:${deep.length} missing-annotation deep_parens`);
    deep.push(`registry.tool()(${"(".repeat(DEPTH)}function deep_argument(): number { return 1; }${")".repeat(DEPTH)});`);
    expected.push(`src/deep.ts:${deep.length} not-data-tool-output deep_argument`);
    deep.push(`(${"flag ? registry.tool() : ".repeat(DEPTH)}registry.tool())(function deep_ternary(): unknown { return sample(); });`);
    expected.push(`src/deep.ts:${deep.length} not-data-tool-output deep_ternary`);
    deep.push(`registry.tool()(function deep_array(): number { return ${"[".repeat(DEPTH)}1${"]".repeat(DEPTH)}.length; });`);
    expected.push(`src/deep.ts:${deep.length} not-data-tool-output deep_array`);

    // Bytes that are not UTF-8 (Latin-1 é, a broken sequence, a lone continuation byte) before
    // registrations on the same lines: every front-end decodes them alike, so columns agree.
    const latin1 = Buffer.concat([
      Buffer.from('import { registry } from "./registry.js";\nimport { sample } from "./sample.js";\n\n// caf'),
      Buffer.from([0xe9]),
      Buffer.from(' au lait\n/* '),
      Buffer.from([0xc3, 0x28, 0x80, 0xff]),
      Buffer.from(' */ registry.tool()(function latin_text(): string { return "'),
      Buffer.from([0xe9, 0xe8]),
      Buffer.from('"; });\nexport const s = "'),
      Buffer.from([0xa9]),
      Buffer.from('"; registry.tool()(function latin_missing() { return sample(); });\n'),
    ]);
    expected.push("src/latin1.ts:5 not-data-tool-output latin_text", "src/latin1.ts:6 missing-annotation latin_missing");

    const directory = project({ "src/registry.ts": REGISTRY, "src/sample.ts": SAMPLE, "src/big.ts": big.join("\n") + "\n", "src/deep.ts": deep.join("\n") + "\n", "src/latin1.ts": latin1 });
    runs = await runFrontEnds(directory, ["src/*.ts"]);
  }, 600_000);

  it("no front-end crashes", () => {
    expectNoCrash(runs, { transformer: [2], cli: [1] });
    expect(runs.eslint.fatal, describeRuns(runs)).toEqual([]);
  });

  it("each reports exactly the expected findings, at the same line and column", () => {
    const sorted = [...expected].sort();
    expect(keys(runs.analysis.findings, false)).toEqual(sorted);
    expect(keys(runs.transformer.findings, false)).toEqual(sorted);
    expect(keys(runs.eslint.findings, false)).toEqual(sorted);
    expect(keys(runs.cli.findings, false)).toEqual(sorted);
    const columns = keys(runs.analysis.findings);
    expect(keys(runs.transformer.findings)).toEqual(columns);
    expect(keys(runs.eslint.findings)).toEqual(columns);
    expect(keys(runs.cli.findings)).toEqual(columns);
  });

  it("in bounded time (each front-end under 2 minutes on the 20,000-line file)", () => {
    for (const ms of [runs.transformer.ms, runs.eslint.ms, runs.cli.ms, runs.analysis.ms]) expect(ms).toBeLessThan(120_000);
  });
});

describe("an expression of 10,000 terms (tsc checks binary expressions iteratively, at any length)", () => {
  let runs: FrontEndRuns;

  beforeAll(async () => {
    const terms = Array.from({ length: 10_000 }, (_, i) => String(i % 10)).join(" + ");
    runs = await runFrontEnds(
      project({
        "src/registry.ts": REGISTRY,
        "src/sample.ts": SAMPLE,
        "src/chain.ts": `import { registry } from "./registry.js";\n\nexport const total = ${terms};\nregistry.tool()(function chained(): number { return total; });\n`,
        "src/other.ts": 'import { registry } from "./registry.js";\n\nregistry.tool()(function other(): string { return "no sources"; });\n',
      }),
      ["src/*.ts"],
    );
  }, 600_000);

  it("no process crashes (ESLint's parser may give up on the file with one parsing error, as typescript-eslint does)", () => {
    expectNoProcessCrash(runs, { transformer: [2], cli: [0, 1] });
    expect(runs.eslint.fatal.every((message) => message.startsWith("src/chain.ts:"))).toBe(true);
    expect(keys(runs.eslint.findings, false)).toContain("src/other.ts:3 not-data-tool-output other");
  });

  // Found here: a recursive walk overflowed the stack on a left-nested chain of a few thousand
  // terms, which tsc itself checks; the analysis now walks with an explicit stack.
  it("the analysis, the transformer and the CLI still report both registrations", () => {
    const expected = ["src/chain.ts:4 not-data-tool-output chained", "src/other.ts:3 not-data-tool-output other"];
    expectNoCrash(runs, { transformer: [2], cli: [1] });
    expect(keys(runs.analysis.findings, false)).toEqual(expected);
    expect(keys(runs.transformer.findings, false)).toEqual(expected);
    expect(keys(runs.cli.findings, false)).toEqual(expected);
  });
});

describe("syntax errors, random bytes and a UTF-16 file", () => {
  let runs: FrontEndRuns;
  let directory: string;

  beforeAll(async () => {
    let state = 0x5eed;
    const random = Buffer.from(Array.from({ length: 4096 }, () => (state = (state * 1103515245 + 12345) % 2 ** 31) & 0xff));
    directory = project({
      "src/registry.ts": REGISTRY,
      "src/sample.ts": SAMPLE,
      "src/broken.ts": [
        'import { registry } from "./registry.js";',
        'import { sample } from "./sample.js";',
        "",
        "// Parses: the registration is found even though the file below it does not.",
        "export const unannotated = registry.tool()(function unannotated() {",
        "  return sample();",
        "});",
        "",
        "export function broken( {",
        "  return 1;",
        "}",
        "",
      ].join("\n"),
      "src/fine.ts": 'import { registry } from "./registry.js";\n\nexport const wrong = registry.tool()(function wrong(): number {\n  return 42;\n});\n',
      "src/garbage.ts": random,
      "src/utf16.ts": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('import { registry } from "./registry.js";\nregistry.tool()(function utf16(): string { return "x"; });\n', "utf16le")]),
    });
    runs = await runFrontEnds(directory, ["src/*.ts"]);
  }, 600_000);

  it("no front-end crashes; each exits as documented", () => {
    // tsc exits 1 on syntax errors (it then reports no semantic diagnostics, findings included);
    // the CLI warns about them and exits 1 on the findings of what parses.
    expectNoCrash(runs, { transformer: [1, 2], cli: [1] });
    expect(runs.cli.stderr).toMatch(/src\/broken\.ts\(\d+,\d+\): warning TS\d+/);
    expect(runs.transformer.codes.filter((code) => code < 2000).length).toBeGreaterThan(0);
  });

  it("the analysis and the CLI report what parses, the same way", () => {
    const expected = ["src/broken.ts:5 missing-annotation unannotated", "src/fine.ts:3 not-data-tool-output wrong", "src/utf16.ts:2 not-data-tool-output utf16"];
    expect(keys(runs.analysis.findings, false).filter((k) => !k.startsWith("src/garbage.ts"))).toEqual(expected);
    expect(keys(runs.cli.findings)).toEqual(keys(runs.analysis.findings));
  });

  it("ESLint: one fatal parse error per unparsable file, the rule's findings in the others", () => {
    const fatalFiles = runs.eslint.fatal.map((message) => message.slice(0, message.indexOf(":")));
    expect(fatalFiles).toContain("src/broken.ts");
    expect(fatalFiles).toContain("src/garbage.ts");
    expect(new Set(fatalFiles).size).toBe(fatalFiles.length);
    expect(keys(runs.eslint.findings, false)).toContain("src/fine.ts:3 not-data-tool-output wrong");
    // ESLint reads every file as UTF-8: the UTF-16 file either fails to parse or is judged like elsewhere.
    expect(fatalFiles.includes("src/utf16.ts") || keys(runs.eslint.findings, false).includes("src/utf16.ts:2 not-data-tool-output utf16")).toBe(true);
  });

  it("the transformer still strips the rejected tools it emits, although tsc hides findings behind syntax errors", () => {
    const fine = fs.readFileSync(path.join(directory, "out/fine.js"), "utf8");
    expect(fine).toContain("function wrong()");
    expect(fine).not.toMatch(/registry\.tool\(\)\(function wrong/);
  });
});

describe("missing or broken tsconfig.json", () => {
  const SOURCES = {
    "src/registry.ts": REGISTRY,
    "src/tools.ts": 'import { registry } from "./registry.js";\n\nregistry.tool()(function text(): string {\n  return "no sources";\n});\n',
  };

  it("missing: tsc and the CLI say so and stop; ESLint and the analysis fall back without crashing", async () => {
    const runs = await runFrontEnds(project(SOURCES, { tsconfig: null }), ["src/*.ts"]);
    expectNoCrash(runs, { transformer: [1], cli: [2] });
    expect(runs.transformer.codes).toContain(5057); // Cannot find a tsconfig.json file at the specified directory
    expect(runs.cli.stderr).toMatch(/tsconfig\.json/);
    // Without a tsconfig the project service has no project for a file: a parsing error, not a crash.
    expect(runs.eslint.fatal).toEqual([expect.stringMatching(/^src\/registry\.ts:.*not found by the project service/), expect.stringMatching(/^src\/tools\.ts:.*not found by the project service/)]);
    expect(keys(runs.analysis.findings, false)).toEqual(["src/tools.ts:3 not-data-tool-output text"]);
  });

  it("JSON syntax errors: reported where they are, nothing crashes", async () => {
    const broken = '{\n  "compilerOptions": {\n    "strict": true\n    "module": "NodeNext",\n  },\n  "include": ["src"\n';
    const runs = await runFrontEnds(project(SOURCES, { tsconfig: broken }), ["src/*.ts"]);
    expectNoCrash(runs, { transformer: [1, 2], eslint: [0], cli: [2] });
    expect(runs.cli.stderr).toMatch(/tsconfig\.json\(\d+,\d+\): error TS\d+/);
    expect(runs.transformer.stdout).toMatch(/tsconfig\.json\(\d+,\d+\): error TS\d+/);
    // TypeScript reads the rest of the file leniently, and so does the editor's project service.
    expect(keys(runs.eslint.findings, false)).toEqual(["src/tools.ts:3 not-data-tool-output text"]);
  });

  it("invalid and unknown compiler options: reported, nothing crashes", async () => {
    const invalid = TSCONFIG({ rootDir: "src", target: "ES2099", strictest: true }, ["src"]);
    const runs = await runFrontEnds(project(SOURCES, { tsconfig: invalid }), ["src/*.ts"]);
    expectNoCrash(runs, { transformer: [1, 2], eslint: [0], cli: [2] });
    expect(runs.cli.stderr).toMatch(/tsconfig\.json.*error TS\d+/);
  });
});

describe("the registry package unresolved: error types are findings, never passes", () => {
  let runs: FrontEndRuns;

  beforeAll(async () => {
    runs = await runFrontEnds(
      project(
        {
          "src/tools.ts": [
            'import { createRegistry, type DataToolOutput } from "@sourced/registry";',
            "",
            'const registry = createRegistry({ name: "unresolved", version: "1.0.0" });',
            "",
            "export const lost = registry.tool()(function lost(): DataToolOutput {",
            "  return { content: [], structuredContent: { sources: [] } };",
            "});",
            "",
            "export class Weather {",
            '  @registry.tool({ name: "lost_static" })',
            "  static forecast(): DataToolOutput {",
            "    return { content: [], structuredContent: { sources: [] } };",
            "  }",
            "}",
            "",
          ].join("\n"),
        },
        { linkRegistry: false },
      ),
      ["src/*.ts"],
    );
  }, 600_000);

  it("no front-end crashes; the CLI stops with exit 2 naming the import and the fix", () => {
    expectNoCrash(runs, { transformer: [2], cli: [2] });
    expect(runs.cli.stderr).toMatch(/src\/tools\.ts\(1,\d+\).*@sourced\/registry/);
    expect(runs.transformer.codes).toContain(2307);
  });

  it("every registration is unverifiable-registration in the analysis, the transformer and ESLint", () => {
    const expected = ["src/tools.ts:10 unverifiable-registration lost_static", "src/tools.ts:5 unverifiable-registration lost"];
    expect(keys(runs.analysis.findings, false)).toEqual(expected);
    expect(keys(runs.transformer.findings)).toEqual(keys(runs.analysis.findings));
    expect(keys(runs.eslint.findings)).toEqual(keys(runs.analysis.findings));
  });
});
