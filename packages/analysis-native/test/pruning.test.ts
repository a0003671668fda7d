import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import type * as TS from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type * as Analysis from "@sourced/analysis";
import { CASES_PROJECTS } from "../../../fixtures/harness";
import { samplePrograms } from "../../../scripts/reliability/generator";
import { scratchProject, writeBatch } from "../../../scripts/reliability/parity";
import { loadNativeTypeScript } from "../src/index";

/*
 * Pruning (packages/analysis/src/reach.ts) on the native backend: the module graph is read from
 * TypeScript 7's files (the project's own first, the declaration files only when a file could be
 * skipped). It must never change a finding: every corpus is judged on TypeScript 7 with and
 * without it, and the files it skips are the ones the classic backend skips, each way a marked
 * type travels without an import of the registry included.
 */

const ROOT = path.resolve(__dirname, "../../..");
const TS7_DIRECTORY = path.join(ROOT, "fixtures/ts7/node_modules/typescript");
// The built analysis by Node's own require, so the switch below and `analyzeProgram` are one module instance.
const load = createRequire(__filename);
const analysis = load(path.join(ROOT, "packages/analysis/dist/index.js")) as typeof Analysis;
const reach = load(path.join(ROOT, "packages/analysis/dist/reach.js")) as { setPruningForTests(enabled: boolean): void; mayRegister: (ts: Analysis.SyntaxPort, program: Analysis.ProgramPort, sourceFile: TS.SourceFile) => boolean };
const sealing = load(path.join(ROOT, "packages/analysis/dist/sealed-libraries.js")) as {
  sealedLibraries(program: Analysis.ProgramPort, checker: Analysis.CheckerPort, fileNames: readonly string[]): { has(fileNameOrPath: string): boolean };
};
const classicTs = load("typescript") as typeof TS;

const scratch: string[] = [];
afterAll(() => {
  for (const directory of scratch) fs.rmSync(directory, { recursive: true, force: true });
});

interface Judged {
  /** Every finding, as `file:line:column id tool message`, sorted. */
  readonly findings: string[];
  /** The project's own files judged and skipped, by name relative to the tsconfig. */
  readonly judged: string[];
  readonly skipped: string[];
}

/** A fresh native session per run: the reach is computed once per program. */
function nativeRun(tsconfigs: readonly string[], pruning: boolean): Judged {
  reach.setPruningForTests(pruning);
  const session = loadNativeTypeScript(TS7_DIRECTORY).openSession(tsconfigs, path.dirname(tsconfigs[0]!));
  try {
    const findings: string[] = [];
    const judged: string[] = [];
    const skipped: string[] = [];
    const seen = new Set<string>();
    for (const tsconfig of tsconfigs) {
      const project = session.project(tsconfig)!;
      const sourceFiles = project.candidateSources().filter((sourceFile) => analysis.isAnalysedFile(project.program, sourceFile) && !seen.has(sourceFile.fileName));
      for (const sourceFile of sourceFiles) seen.add(sourceFile.fileName);
      const name = (fileName: string): string => path.relative(path.dirname(tsconfig), fileName);
      for (const finding of analysis.analyzeProgram(project.syntax, project.program, { sourceFiles }).findings) {
        const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
        findings.push(`${name(finding.sourceFile.fileName)}:${line + 1}:${character + 1} ${finding.id} ${finding.tool ?? "?"} ${finding.message}`);
      }
      for (const sourceFile of sourceFiles) (reach.mayRegister(project.syntax, project.program, sourceFile) ? judged : skipped).push(name(sourceFile.fileName));
    }
    return { findings: findings.sort(), judged: judged.sort(), skipped: skipped.sort() };
  } finally {
    session.close();
    reach.setPruningForTests(true);
  }
}

/** The files the classic backend (TypeScript 6) skips in the same project. */
function classicSkipped(tsconfig: string): string[] {
  const parsed = classicTs.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...classicTs.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = classicTs.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  return program
    .getSourceFiles()
    .filter((sourceFile) => analysis.isAnalysedFile(program, sourceFile) && !reach.mayRegister(classicTs, program, sourceFile))
    .map((sourceFile) => path.relative(path.dirname(tsconfig), sourceFile.fileName))
    .sort();
}

/** Same findings with and without pruning on TypeScript 7, and the same files skipped as on TypeScript 6. */
function expectSound(tsconfigs: readonly string[]): Judged {
  const pruned = nativeRun(tsconfigs, true);
  expect(pruned.findings).toEqual(nativeRun(tsconfigs, false).findings);
  if (tsconfigs.length === 1) expect(pruned.skipped).toEqual(classicSkipped(tsconfigs[0]!));
  return pruned;
}

describe("pruning on the native backend (TypeScript 7.0.2): the same findings with and without it", () => {
  it("the fixture corpus", () => {
    const pruned = expectSound(CASES_PROJECTS);
    expect(pruned.findings.length).toBeGreaterThan(100);
  });

  it("the fuzzed parity's batch (100 generated programs in one project)", () => {
    const directory = writeBatch(samplePrograms(20_261_202, 100));
    scratch.push(directory);
    expect(expectSound([path.join(directory, "tsconfig.json")]).findings.length).toBeGreaterThan(30);
  });

  it.each(["tools", "realistic"])("the bench's generated project, %s shape", (shape) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-native-pruning-"));
    scratch.push(out);
    const generated = spawnSync(process.execPath, [path.join(ROOT, "bench/generate.mjs"), "--files", "60", "--tools", "240", "--shape", shape, "--out", out], { encoding: "utf8" });
    expect(generated.status, generated.stderr).toBe(0);
    const tsconfig = path.join(out, `files60-tools240-seed1${shape === "tools" ? "" : `-${shape}`}`, "tsconfig.json");
    const { skipped, findings } = expectSound([tsconfig]);
    expect(findings.length).toBeGreaterThan(10);
    // Every module registers tools in the tool-heavy shape; in the realistic one the 54 ordinary modules and shared/model.ts are skipped.
    expect(skipped).toHaveLength(shape === "tools" ? 0 : 55);
  });
});

const STRING_TOOL = `(function harbours(): string {
  return "no sources";
});
`;

/** A package under node_modules: its package.json and files. */
function library(name: string, files: Record<string, string>): Record<string, string> {
  const written: Record<string, string> = { [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: "1.0.0", types: "index.d.ts" }) };
  for (const [file, text] of Object.entries(files)) written[`node_modules/${name}/${file}`] = text;
  return written;
}

/** A library whose inner file declares a registration decorator with the registry's type. */
const RELAY = library("relay", { "index.d.ts": `export { add } from "./inner.js";\n`, "inner.d.ts": `import type { ToolDecorator } from "@sourced/registry";\nexport declare const add: ToolDecorator;\n` });
/** Two libraries that cannot reach the registry, one importing the other by its package name. */
const QUIET = {
  ...library("quiet", { "index.d.ts": `// import { add } from "@sourced/registry" would reach it\nexport * from "./more.js";\nexport { other } from "calm";\n`, "more.d.ts": `export declare const more: number;\n` }),
  ...library("calm", { "index.d.ts": `export declare const other: string;\nexport type Named = import("./index.js").Other;\nexport interface Other {}\n` }),
};

describe("pruning on the native backend: each way a marked type reaches a file that imports no registry", () => {
  const cases: [string, Record<string, string>, string[], Record<string, unknown>?][] = [
    ["a `declare global` in a module", { "globals.ts": `import type { ToolDecorator } from "@sourced/registry";\ndeclare global {\n  var addHarbours: ToolDecorator;\n}\nexport {};\n`, "use.ts": `export const harbours = addHarbours${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["globals.ts", "plain.ts", "use.ts"]],
    ["a script declaration file", { "globals.d.ts": `declare var addHarbours: import("@sourced/registry").ToolDecorator;\n`, "use.ts": `import { plain } from "./plain.js";\nexport const harbours = plain > 0 ? addHarbours${STRING_TOOL.replace(");", ") : undefined;")}`, "plain.ts": `export const plain = 1;\n` }, ["plain.ts", "use.ts"]],
    ["a module augmentation", { "box.ts": `export interface Box {}\nexport declare const box: Box;\n`, "augment.ts": `import type { ToolDecorator } from "@sourced/registry";\ndeclare module "./box.js" {\n  interface Box {\n    add: ToolDecorator;\n  }\n}\n`, "use.ts": `import { box } from "./box.js";\nexport const harbours = box.add${STRING_TOOL}` }, ["augment.ts", "box.ts", "use.ts"]],
    ["`export as namespace` seen from a script", { "umd.d.ts": `import type { ToolDecorator } from "@sourced/registry";\nexport declare const add: ToolDecorator;\nexport as namespace Umd;\n`, "use.ts": `const harbours = Umd.add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["plain.ts", "use.ts"]],
    ["a re-export through a declaration file", { "reexport.d.ts": `export type { ToolDecorator } from "@sourced/registry";\nexport declare const add: import("@sourced/registry").ToolDecorator;\n`, "use.ts": `import { add } from "./reexport.js";\nexport const harbours = add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["use.ts"]],
    ["nothing reaches: ordinary modules are skipped whole", { "a.ts": `import { b } from "./b.js";\nexport const a = b + 1;\n`, "b.ts": `export const b = 1; // a tool\n` }, []],
    // Libraries, read from their text where they cannot reach the registry (packages/analysis/src/sealed-libraries.ts).
    ["a library re-exporting the registry's type, imported by its package name", { ...RELAY, "use.ts": `import { add } from "relay";\nexport const harbours = add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["use.ts"]],
    ["a library reaching the registry through another library", { ...RELAY, ...library("outer", { "index.d.ts": `export { add } from "relay";\n` }), "use.ts": `import { add } from "outer";\nexport const harbours = add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["use.ts"]],
    ["a library naming the registry's type in an import type only", { ...library("typed", { "index.d.ts": `export declare const add: import(\n  "@sourced/registry"\n).ToolDecorator;\n` }), "use.ts": `import { add } from "typed";\nexport const harbours = add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["use.ts"]],
    ["a library whose relative import leaves its package", { ...RELAY, ...library("climber", { "index.d.ts": `export {\n  add,\n} from /* up */ "../relay/inner.js";\n` }), "use.ts": `import { add } from "climber";\nexport const harbours = add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["use.ts"]],
    ["a library whose import `paths` maps to a file of the project", { ...library("wrapper", { "index.d.ts": `export { add } from "shim";\n` }), "shim.ts": `import type { ToolDecorator } from "@sourced/registry";\nexport declare const add: ToolDecorator;\n`, "use.ts": `import { add } from "wrapper";\nexport const harbours = add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["shim.ts", "use.ts"], { paths: { shim: ["./shim.ts"] } }],
    ["a library the project augments with the registry's type", { ...QUIET, "augment.ts": `import type { ToolDecorator } from "@sourced/registry";\ndeclare module "quiet" {\n  export const add: ToolDecorator;\n}\n`, "use.ts": `import { add } from "quiet";\nexport const harbours = add${STRING_TOOL}`, "plain.ts": `export const plain = 1;\n` }, ["augment.ts", "plain.ts", "use.ts"]],
    ["libraries that cannot reach the registry: a file importing only them is skipped", { ...QUIET, "use.ts": `import { more, other } from "quiet";\nexport const total = more + other.length;\n`, "plain.ts": `export const plain = 1;\n` }, []],
  ];
  it.each(cases)("%s", (_name, files, judgedFiles, compilerOptions = {}) => {
    const directory = scratchProject("native-pruning", {
      "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: [], noEmit: true, skipLibCheck: true, ...compilerOptions }, include: ["*.ts"] }),
      ...files,
    });
    scratch.push(directory);
    const { judged } = expectSound([path.join(directory, "tsconfig.json")]);
    expect(judged).toEqual(judgedFiles);
  });
});

describe("pruning on the native backend: libraries that cannot reach the registry are not read", () => {
  it("reads none of their syntax, and still reads a library that can", () => {
    const directory = scratchProject("native-sealed", {
      "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: [], noEmit: true, skipLibCheck: true }, include: ["*.ts"] }),
      ...QUIET,
      ...RELAY,
      "use.ts": `import { more } from "quiet";\nimport { add } from "relay";\nexport const harbours = more > 0 ? add${STRING_TOOL.replace(");", ") : undefined;")}`,
      "plain.ts": `export const plain = 1;\n`,
    });
    scratch.push(directory);
    const session = loadNativeTypeScript(TS7_DIRECTORY).openSession([path.join(directory, "tsconfig.json")], directory);
    try {
      const { syntax, program, candidateSources } = session.project(path.join(directory, "tsconfig.json"))!;
      // The files whose syntax the module graph fetches (reach.ts), told by the program's own.
      const fetched: string[] = [];
      const watched: Analysis.ProgramPort = {
        ...program,
        getSourceFile: (fileName) => {
          fetched.push(fileName);
          return program.getSourceFile(fileName);
        },
      };
      reach.mayRegister(syntax, watched, candidateSources().find((sourceFile) => sourceFile.fileName.endsWith("use.ts"))!);
      const read = fetched.map((fileName) => path.relative(directory, fileName)).filter((name) => name.startsWith("node_modules"));
      expect(read.sort()).toEqual(["node_modules/relay/index.d.ts", "node_modules/relay/inner.d.ts"]);
      // The registry's own dependencies (zod, the SDK) are sealed too, outside the project's directory.
      const rule = sealing.sealedLibraries(program, program.getTypeChecker(), program.getModuleGraphFileNames!());
      const sealed = program.getSourceFileNames!().filter((fileName) => rule.has(fileName)).map((fileName) => path.relative(directory, fileName));
      expect(sealed.filter((name) => name.startsWith("node_modules")).sort()).toEqual(["node_modules/calm/index.d.ts", "node_modules/quiet/index.d.ts", "node_modules/quiet/more.d.ts"]);
    } finally {
      session.close();
    }
  });
});
