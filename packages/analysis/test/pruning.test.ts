import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import type * as TS from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { CASES_PROJECTS } from "../../../fixtures/harness";
import { samplePrograms } from "../../../scripts/reliability/generator";
import { scratchProject, writeBatch } from "../../../scripts/reliability/parity";
import { analyzeProgram, analyzeSourceFile, isAnalysedFile, type ProgramPort } from "../src/index";
import { mayRegister, setPruningForTests } from "../src/reach";

/*
 * Pruning (src/reach.ts): files no type of the registry can reach are skipped. It must never
 * change a finding: every corpus is judged with and without it, and each way a marked type
 * travels without an import of the registry (the global ones here, the module ones in the
 * fixture cases 160–164) is judged in a project where it is the only way.
 */

const root = path.resolve(__dirname, "../../..");
const typescripts: [string, typeof TS][] = [
  ["TypeScript 6.0.3", createRequire(__filename)("typescript") as typeof TS],
  ["TypeScript 5.9.3", createRequire(path.join(root, "fixtures/ts5/package.json"))("typescript") as typeof TS],
];
const ts = typescripts[0]![1];

const scratch: string[] = [];
afterAll(() => {
  for (const directory of scratch) fs.rmSync(directory, { recursive: true, force: true });
});

function programOf(typescript: typeof TS, tsconfig: string): TS.Program {
  const parsed = typescript.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...typescript.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (parsed === undefined) throw new Error(`cannot read ${tsconfig}`);
  return typescript.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** Every finding of a fresh program, as `file:line:column id tool message`, sorted. */
function findingsOf(typescript: typeof TS, tsconfig: string, pruning: boolean): string[] {
  setPruningForTests(pruning);
  try {
    const program = programOf(typescript, tsconfig);
    return analyzeProgram(typescript, program)
      .findings.map((finding) => {
        const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
        return `${path.relative(path.dirname(tsconfig), finding.sourceFile.fileName)}:${line + 1}:${character + 1} ${finding.id} ${finding.tool ?? "?"} ${finding.message}`;
      })
      .sort();
  } finally {
    setPruningForTests(true);
  }
}

const fileAndId = (finding: string): string => finding.replace(/:\d+:\d+ (\S+) .*$/, " $1");

/** The project's own files the analysis judges, and those pruning lets it skip. */
function judged(typescript: typeof TS, tsconfig: string): { judged: string[]; skipped: string[] } {
  const program = programOf(typescript, tsconfig);
  const sources = program.getSourceFiles().filter((sourceFile) => isAnalysedFile(program, sourceFile));
  const name = (sourceFile: TS.SourceFile) => path.relative(path.dirname(tsconfig), sourceFile.fileName);
  return {
    judged: sources.filter((sourceFile) => mayRegister(typescript, program, sourceFile)).map(name),
    skipped: sources.filter((sourceFile) => !mayRegister(typescript, program, sourceFile)).map(name),
  };
}

describe.each(typescripts)("with and without pruning, the same findings (%s)", (_name, typescript) => {
  it.each(CASES_PROJECTS.map((tsconfig) => [path.relative(root, tsconfig), tsconfig]))("the fixture corpus: %s", (_relative, tsconfig) => {
    const pruned = findingsOf(typescript, tsconfig, true);
    expect(pruned.length).toBeGreaterThan(10);
    expect(pruned).toEqual(findingsOf(typescript, tsconfig, false));
  });
});

/** The repository's other fixture projects: servers, solution-style configs, project references, JavaScript. */
const FIXTURE_PROJECTS = [
  "fixtures/startup",
  "fixtures/projects/cities",
  "fixtures/cli/solution/server",
  "fixtures/cli/solution/tools",
  "fixtures/cli/clean",
  "fixtures/cli/loose",
  "fixtures/cli/findings",
  "fixtures/transformer/references/app",
  "fixtures/transformer/references/lib",
  "fixtures/transformer/server",
  "fixtures/transformer/single",
  "fixtures/eslint",
];

describe("with and without pruning, the same findings", () => {
  it.each(FIXTURE_PROJECTS)("the fixture project %s", (project) => {
    const tsconfig = path.join(root, project, "tsconfig.json");
    expect(findingsOf(ts, tsconfig, true)).toEqual(findingsOf(ts, tsconfig, false));
  });

  it("the fuzzed parity's batch (300 generated programs in one project)", () => {
    const directory = writeBatch(samplePrograms(20_261_201, 300));
    scratch.push(directory);
    const tsconfig = path.join(directory, "tsconfig.json");
    const pruned = findingsOf(ts, tsconfig, true);
    expect(pruned.length).toBeGreaterThan(100);
    expect(pruned).toEqual(findingsOf(ts, tsconfig, false));
  }, 120_000);

  // `--hints` and `--zod-objects`: the same project with its tools' hints written in place
  // (`annotations: { … }`), or its inputs written as zod objects (`z.object({ … })`): the same findings.
  it.each([
    ["tools", ""],
    ["realistic", ""],
    ["tools", "hints"],
    ["realistic", "zod-objects"],
  ])("the bench's generated project, %s shape %s: the planted findings, and in the realistic shape ordinary code is skipped", (shape, written) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-pruning-bench-"));
    scratch.push(out);
    const flags = ["--files", "60", "--tools", "240", "--shape", shape, "--out", out, ...(written === "" ? [] : [`--${written}`])];
    const generated = spawnSync(process.execPath, [path.join(root, "bench/generate.mjs"), ...flags], { encoding: "utf8" });
    expect(generated.status, generated.stderr).toBe(0);
    const directory = path.join(out, `files60-tools240-seed1${shape === "tools" ? "" : `-${shape}`}${written === "" ? "" : `-${written}`}`);
    const module = fs.readFileSync(path.join(directory, `src/modules/m00${shape === "tools" ? "01" : "10"}.ts`), "utf8");
    if (written === "hints") expect(module).toContain("annotations: { readOnlyHint: true, title: ");
    if (written === "zod-objects") expect(module).toContain("input: z.object({ limit: ");
    const tsconfig = path.join(directory, "tsconfig.json");
    const manifest = JSON.parse(fs.readFileSync(path.join(directory, "manifest.json"), "utf8")) as { expected: { file: string; line: number; id: string }[] };
    const pruned = findingsOf(ts, tsconfig, true);
    // By file and id: the manifest has the registration's line, a finding the annotation's.
    expect(pruned.map(fileAndId).sort()).toEqual(manifest.expected.map((e) => `${e.file} ${e.id}`).sort());
    expect(pruned).toEqual(findingsOf(ts, tsconfig, false));
    const { judged: files, skipped } = judged(ts, tsconfig);
    if (shape === "tools") {
      expect(skipped).toEqual([]);
    } else {
      // 6 of the 60 modules register tools; the server, the registry, the platform wrapper and the shared types and answer helper reach it too.
      expect(files.filter((file) => file.startsWith("src/modules/"))).toHaveLength(6);
      expect(skipped).toHaveLength(54 + 1); // the ordinary modules and shared/model.ts
      expect(checkerCallsJudging(tsconfig, skipped)).toBe(0);
    }
  }, 120_000);
});

/**
 * What the checker is asked while the skipped files are judged one by one (as the ESLint rule
 * judges them), once the program's reach is known: nothing, they answer "nothing here" at once.
 */
function checkerCallsJudging(tsconfig: string, skipped: readonly string[]): number {
  const program = programOf(ts, tsconfig);
  const checker = program.getTypeChecker();
  let calls = 0;
  const counting = new Proxy(checker, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const port: ProgramPort = {
    getSourceFiles: () => program.getSourceFiles(),
    getSourceFile: (fileName) => program.getSourceFile(fileName),
    isSourceFileFromExternalLibrary: (sourceFile) => program.isSourceFileFromExternalLibrary(sourceFile),
    getTypeChecker: () => counting,
  };
  const files = skipped.map((file) => program.getSourceFile(path.join(path.dirname(tsconfig), file))!);
  expect(mayRegister(ts, port, files[0]!)).toBe(false); // the program's reach, computed once
  calls = 0;
  for (const sourceFile of files) expect(analyzeSourceFile(ts, port, sourceFile).findings).toEqual([]);
  return calls;
}

/** A project of `files` whose findings must be `expected`, with pruning and without, with the file(s) `judgedFiles` judged. */
function judgedAlone(files: Record<string, string>, expected: string[], judgedFiles: string[]): void {
  const directory = scratchProject("pruning", {
    "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: [], noEmit: true, skipLibCheck: true }, include: ["*.ts"] }),
    ...files,
  });
  scratch.push(directory);
  const tsconfig = path.join(directory, "tsconfig.json");
  const pruned = findingsOf(ts, tsconfig, true);
  expect(pruned.map(fileAndId)).toEqual(expected);
  expect(pruned).toEqual(findingsOf(ts, tsconfig, false));
  expect(judged(ts, tsconfig).judged.sort()).toEqual(judgedFiles);
}

const STRING_TOOL = `(function harbours(): string {
  return "no sources";
});
`;

describe("each way a marked type reaches a file that imports no registry, alone in its project", () => {
  it("a `declare global` in a module", () => {
    judgedAlone(
      {
        "globals.ts": `import type { ToolDecorator } from "@sourced/registry";\ndeclare global {\n  var addHarbours: ToolDecorator;\n}\nexport {};\n`,
        "use.ts": `export const harbours = addHarbours${STRING_TOOL}`,
        "plain.ts": `export const plain = 1;\n`,
      },
      ["use.ts not-data-tool-output"],
      ["globals.ts", "plain.ts", "use.ts"],
    );
  });

  it("a script declaration file: every file sees its globals", () => {
    judgedAlone(
      {
        "globals.d.ts": `declare var addHarbours: import("@sourced/registry").ToolDecorator;\n`,
        "use.ts": `import { plain } from "./plain.js";\nexport const harbours = plain > 0 ? addHarbours${STRING_TOOL.replace(");", ") : undefined;")}`,
        "plain.ts": `export const plain = 1;\n`,
      },
      ["use.ts not-data-tool-output"],
      ["plain.ts", "use.ts"],
    );
  });

  it("a module augmentation of a module the file imports", () => {
    judgedAlone(
      {
        "box.ts": `export interface Box {}\nexport declare const box: Box;\n`,
        "augment.ts": `import type { ToolDecorator } from "@sourced/registry";\ndeclare module "./box.js" {\n  interface Box {\n    add: ToolDecorator;\n  }\n}\n`,
        "use.ts": `import { box } from "./box.js";\nexport const harbours = box.add${STRING_TOOL}`,
      },
      ["use.ts not-data-tool-output"],
      ["augment.ts", "box.ts", "use.ts"],
    );
  });

  it("`export as namespace` (a UMD global) seen from a script", () => {
    judgedAlone(
      {
        "umd.d.ts": `import type { ToolDecorator } from "@sourced/registry";\nexport declare const add: ToolDecorator;\nexport as namespace Umd;\n`,
        "use.ts": `const harbours = Umd.add${STRING_TOOL}`,
        "plain.ts": `export const plain = 1;\n`,
      },
      ["use.ts not-data-tool-output"],
      ["plain.ts", "use.ts"],
    );
  });

  it("a registration on a receiver nothing declares, in a file with no import at all", () => {
    judgedAlone(
      {
        "use.ts": `// @ts-nocheck\nexport const harbours = missing.tool()${STRING_TOOL}`,
        "plain.ts": `export const plain = 1;\n`,
      },
      ["use.ts unverifiable-registration"],
      ["use.ts"],
    );
  });

  it("nothing reaches: a project of ordinary modules is skipped whole", () => {
    judgedAlone({ "a.ts": `import { b } from "./b.js";\nexport const a = b + 1;\n`, "b.ts": `export const b = 1; // a tool\n` }, [], []);
  });
});
