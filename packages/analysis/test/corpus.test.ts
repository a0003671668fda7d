import { createRequire } from "node:module";
import * as path from "node:path";
import type * as TS from "typescript";
import { describe, expect, it } from "vitest";
import {
  assertMatchesExpectations,
  CASES_DIR,
  CASES_PROJECTS,
  readExpectations,
  relativeToCases,
  type Reported,
} from "../../../fixtures/harness";
import { analyzeProgram, type AnalysisResult, type Finding } from "../src/index";

const root = path.resolve(__dirname, "../../..");
// A mutation run of one analysis file judges the corpus on TypeScript 6 alone
// (SOURCED_CORPUS_TYPESCRIPT=6, scripts/mutate/groups.mjs): every mutant reruns it, and 5 doubles
// that. Everywhere else the corpus is judged on both.
const onlyTypescript = process.env["SOURCED_CORPUS_TYPESCRIPT"];
const typescripts: [string, () => typeof TS][] = (
  [
    ["TypeScript 6.0.3 (the repo's)", () => createRequire(__filename)("typescript") as typeof TS],
    ["TypeScript 5.9.3 (fixtures/ts5)", () => createRequire(path.join(root, "fixtures/ts5/package.json"))("typescript") as typeof TS],
  ] satisfies [string, () => typeof TS][]
).filter(([name]) => onlyTypescript === undefined || name.startsWith(`TypeScript ${onlyTypescript}.`));

function programOf(ts: typeof TS, tsconfig: string): TS.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (parsed === undefined) throw new Error(`cannot read ${tsconfig}`);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** A file of the corpus and the program that judges it: the first project that has it. */
interface JudgedFile {
  readonly file: string;
  readonly program: TS.Program;
  readonly sourceFile: TS.SourceFile;
}

/**
 * Every file the corpus's projects hold (declaration files aside), each with the first project that
 * has it. Building the programs asks the analysis nothing: each file is judged in a test of its own
 * (below), so a mutation run (docs/reliability.md) reruns for a change to the analysis only the
 * cases that reach it, and a failure names its case. A file's judgement does not depend on which
 * files were judged before it in the same program (every front-end judges a file at a time).
 */
function corpusFiles(ts: typeof TS): JudgedFile[] {
  const seen = new Set<string>();
  const judged: JudgedFile[] = [];
  for (const tsconfig of CASES_PROJECTS) {
    const program = programOf(ts, tsconfig);
    for (const sourceFile of program.getSourceFiles()) {
      if (sourceFile.isDeclarationFile || seen.has(sourceFile.fileName)) continue;
      seen.add(sourceFile.fileName);
      judged.push({ file: relativeToCases(sourceFile.fileName), program, sourceFile });
    }
  }
  return judged;
}

function lineOf(node: TS.Node): number {
  const sourceFile = node.getSourceFile();
  return sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
}

function reportedOf(findings: readonly Finding[]): Reported[] {
  return findings.map((finding) => {
    const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
    return { file: relativeToCases(finding.sourceFile.fileName), id: finding.id, tool: finding.tool, line: line + 1, column: character + 1, message: finding.message };
  });
}

it("judges the corpus on at least one TypeScript", () => {
  expect(typescripts.length).toBeGreaterThan(0);
});

describe.each(typescripts)("the corpus on %s", (_name, loadTypescript) => {
  const ts = loadTypescript();
  const judged = corpusFiles(ts);
  const expectations = readExpectations();

  it("reads the whole corpus (at least 60 cases), every file with expectations among them", () => {
    expect(ts.version).toMatch(_name.includes("6.0") ? /^6\.0\./ : /^5\.9\./);
    const cases = judged.filter(({ sourceFile }) => path.resolve(sourceFile.fileName).startsWith(CASES_DIR + path.sep));
    expect(cases.filter(({ file }) => !file.startsWith("lib/")).length).toBeGreaterThanOrEqual(60);
    const judgedNames = new Set(judged.map(({ file }) => file));
    expect([...expectations.keys()].filter((file) => !judgedNames.has(file))).toEqual([]);
  });

  // Per file: exactly the expected findings (ids and tools), each on its expectation's line and
  // underlining a node of the file itself; exactly the registrations expected `ok` verified.
  it.each(judged)("judges $file as its expectations say", ({ file, program, sourceFile }) => {
    const result: AnalysisResult = analyzeProgram(ts, program, { sourceFiles: [sourceFile] });
    assertMatchesExpectations(reportedOf(result.findings), { files: [file], expectations });

    const expected = expectations.get(file) ?? [];
    const misplaced = result.findings
      .filter((finding) => !expected.some((candidate) => candidate.id === finding.id && candidate.tool === (finding.tool ?? "?") && candidate.line === lineOf(finding.site)))
      .map((finding) => `${file}:${lineOf(finding.site)}: ${finding.id} ${finding.tool ?? "?"}`);
    expect(misplaced).toEqual([]);

    const verified = result.registrations
      .filter((registration) => registration.finding === undefined)
      .map((registration) => `${relativeToCases(registration.site.getSourceFile().fileName)}:${lineOf(registration.site)} ok ${registration.tool ?? "?"}`)
      .sort();
    const expectedOk = expected.filter((item) => item.id === "ok").map((item) => `${file}:${item.line} ok ${item.tool}`).sort();
    expect(verified).toEqual(expectedOk);

    for (const finding of result.findings) {
      expect(finding.sourceFile).toBe(sourceFile);
      expect(finding.node.getSourceFile()).toBe(sourceFile);
      expect(finding.site.getSourceFile()).toBe(sourceFile);
      expect(finding.start).toBe(finding.node.getStart(sourceFile));
    }
  });
});
