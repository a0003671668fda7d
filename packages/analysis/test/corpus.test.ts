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

/** Every project of the corpus, each file judged once (by the first project that has it). */
function analyseCorpus(ts: typeof TS): { result: AnalysisResult; caseFiles: TS.SourceFile[] } {
  const seen = new Set<string>();
  const registrations: AnalysisResult["registrations"][number][] = [];
  const findings: Finding[] = [];
  const caseFiles: TS.SourceFile[] = [];
  for (const tsconfig of CASES_PROJECTS) {
    const program = programOf(ts, tsconfig);
    const sourceFiles = program.getSourceFiles().filter((sourceFile) => !seen.has(sourceFile.fileName) && !sourceFile.isDeclarationFile);
    for (const sourceFile of sourceFiles) seen.add(sourceFile.fileName);
    const result = analyzeProgram(ts, program, { sourceFiles });
    registrations.push(...result.registrations);
    findings.push(...result.findings);
    caseFiles.push(...sourceFiles.filter((sourceFile) => path.resolve(sourceFile.fileName).startsWith(CASES_DIR + path.sep)));
  }
  return { result: { registrations, findings, unresolvedRegistryImports: [] }, caseFiles };
}

function lineOf(node: TS.Node): number {
  const sourceFile = node.getSourceFile();
  return sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
}

function reportedOf(findings: readonly Finding[]): Reported[] {
  return findings.map((finding) => {
    const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
    return { file: relativeToCases(finding.sourceFile.fileName), id: finding.id, tool: finding.tool, line: line + 1, column: character + 1 };
  });
}

it("judges the corpus on at least one TypeScript", () => {
  expect(typescripts.length).toBeGreaterThan(0);
});

describe.each(typescripts)("the corpus on %s", (_name, loadTypescript) => {
  const ts = loadTypescript();
  const { result, caseFiles } = analyseCorpus(ts);

  it("reads the whole corpus (at least 60 cases)", () => {
    expect(ts.version).toMatch(_name.includes("6.0") ? /^6\.0\./ : /^5\.9\./);
    expect(caseFiles.filter((sourceFile) => !relativeToCases(sourceFile.fileName).startsWith("lib/")).length).toBeGreaterThanOrEqual(60);
  });

  it("reports exactly the expected findings (ids and tools, per file)", () => {
    assertMatchesExpectations(reportedOf(result.findings));
  });

  it("places every finding on its expectation's line", () => {
    const expectations = readExpectations();
    const misplaced: string[] = [];
    for (const finding of result.findings) {
      const file = relativeToCases(finding.sourceFile.fileName);
      const line = lineOf(finding.site);
      const expected = (expectations.get(file) ?? []).some(
        (candidate) => candidate.id === finding.id && candidate.tool === (finding.tool ?? "?") && candidate.line === line,
      );
      if (!expected) misplaced.push(`${file}:${line}: ${finding.id} ${finding.tool ?? "?"}`);
    }
    expect(misplaced).toEqual([]);
  });

  it("verifies exactly the registrations expected `ok` (line and tool)", () => {
    const verified = result.registrations
      .filter((registration) => registration.finding === undefined)
      .map((registration) => `${relativeToCases(registration.site.getSourceFile().fileName)}:${lineOf(registration.site)} ok ${registration.tool ?? "?"}`)
      .sort();
    const expected = [...readExpectations()]
      .flatMap(([file, list]) => list.filter((item) => item.id === "ok").map((item) => `${file}:${item.line} ok ${item.tool}`))
      .sort();
    expect(verified).toEqual(expected);
  });

  it("underlines a node of the registration's own file", () => {
    for (const finding of result.findings) {
      expect(finding.node.getSourceFile()).toBe(finding.sourceFile);
      expect(finding.site.getSourceFile()).toBe(finding.sourceFile);
      expect(finding.start).toBe(finding.node.getStart(finding.sourceFile));
    }
  });
});
