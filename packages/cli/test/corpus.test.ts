import { createRequire } from "node:module";
import * as path from "node:path";
import { analyzeProgram, FINDING_KINDS } from "@sourced/analysis";
import type * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { CASES_DIR, CASES_PROJECTS, REFERENCES_DIR, assertMatchesExpectations, assertMatchesReferences, relativeToCases, type Reported } from "../../../fixtures/harness";
import { REPO, parseJson, sourced, type JsonFinding } from "./helpers";

/** The comparable part of a finding: where, what, which tool. */
type Located = Reported & { readonly tool: string | undefined };

function fromJson(findings: readonly JsonFinding[]): Located[] {
  return findings.map((finding) => ({
    file: relativeToCases(path.join(REPO, finding.file)),
    id: finding.id,
    tool: finding.tool ?? undefined,
    line: finding.line,
    column: finding.column,
  }));
}

/** What the analysis itself finds on the corpus's projects, run in this process with the given TypeScript. */
function analyseCorpus(typescript: typeof ts): Located[] {
  return CASES_PROJECTS.flatMap((tsconfig) => {
    const parsed = typescript.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
      ...typescript.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(typescript.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    })!;
    const program = typescript.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    return analyzeProgram(typescript, program).findings.map((finding) => {
      const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
      return { file: relativeToCases(finding.sourceFile.fileName), id: finding.id, tool: finding.tool, line: line + 1, column: character + 1 };
    });
  }).sort(byPosition);
}

/** `-p` for each of the corpus's projects, read from `directory` (the corpus itself, or a toolchain's copy of it). */
function projectArguments(directory: string): string[] {
  return CASES_PROJECTS.flatMap((tsconfig) => ["-p", path.join(directory, path.relative(CASES_DIR, path.dirname(tsconfig)))]);
}

function byPosition(a: Located, b: Located): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

describe("the corpus through `sourced check --format json`", () => {
  // The TypeScript each run resolves beside its tsconfig, loaded here for the analysis's own run.
  const load = createRequire(__filename);
  const typescript6 = load(load.resolve("typescript", { paths: [CASES_DIR] })) as typeof ts;
  const typescript5 = load(load.resolve("typescript", { paths: [path.join(REPO, "fixtures/ts5")] })) as typeof ts;
  it("TypeScript 6: meets the corpus's expectations and equals the analysis's own findings", () => {
    expect(typescript6.version).toMatch(/^6\./);
    const run = sourced(["check", ...projectArguments(path.relative(REPO, CASES_DIR)), "--format", "json"]);
    expect(run.stderr).toBe("");
    const reported = fromJson(parseJson(run));
    expect(reported.length).toBeGreaterThan(0);
    expect(run.status).toBe(1);
    assertMatchesExpectations(reported);
    expect(reported).toEqual(analyseCorpus(typescript6));
    // The one program-wide warning (cases/loose has strictNullChecks off): a warning, every other finding an error.
    const warnings = parseJson(run).filter((finding) => finding.severity === "warning");
    expect(warnings.map((finding) => [finding.file, finding.id])).toEqual([["fixtures/cases/loose/140-nullable-members.ts", "strict-null-checks-off"]]);
    expect(parseJson(run).filter((finding) => finding.severity !== "warning").every((finding) => finding.severity === "error")).toBe(true);
  });

  it("TypeScript 5.9.3 (resolved from fixtures/ts5, beside the project): the same findings", () => {
    expect(typescript5.version).toBe("5.9.3");
    const text = sourced(["check", ...projectArguments("fixtures/ts5/cli")]);
    expect(text.stdout).toMatch(/ with TypeScript 5\.9\.3 \(classic\)\.\n$/);
    const run = sourced(["check", ...projectArguments("fixtures/ts5/cli"), "--format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const reported = fromJson(parseJson(run));
    assertMatchesExpectations(reported);
    expect(reported).toEqual(analyseCorpus(typescript5));
    // Both versions judge alike: independent of the test above, so either runs alone.
    expect(reported).toEqual(analyseCorpus(typescript6));
  });

  it("TypeScript 7.0.2 (fixtures/ts7, the native backend): the same JSON, byte for byte, as TypeScript 6.0.3 on the classic backend", () => {
    const native = sourced(["check", ...projectArguments("fixtures/ts7/cli"), "--format", "json"]);
    const classic = sourced(["check", ...projectArguments("fixtures/ts7/cli"), "--format", "json", "--backend", "classic"]);
    expect(native.stderr).toBe("");
    expect(native.status).toBe(1);
    expect(parseJson(native).length).toBeGreaterThan(100);
    assertMatchesExpectations(fromJson(parseJson(native)));
    expect(native.stdout).toBe(classic.stdout);
    expect(parseJson(native).some((finding) => finding.file.endsWith(".cjs") && finding.id === "not-data-tool-output"), "checked JavaScript in every flavour").toBe(true);
    expect(sourced(["check", ...projectArguments("fixtures/ts7/cli")]).stdout).toMatch(/ with TypeScript 7\.0\.2 \(native\)\.\n$/);
  });
});

describe("the project-references case through `sourced check --format json`", () => {
  // tspc -b reads the referenced lib through its emitted .d.ts; the check reads lib's source on
  // every TypeScript, from a solution beside each toolchain so that it finds that TypeScript.
  it.each([
    ["6.0.3 (classic)", path.relative(REPO, REFERENCES_DIR)],
    ["5.9.3 (classic)", "fixtures/ts5/references"],
    ["7.0.2 (native)", "fixtures/ts7/references"],
    ["7.1.0-dev.20261021.1 (native)", "fixtures/ts71/references"],
  ])("TypeScript %s: meets its expectations", (version, solution) => {
    // One run, in text: its summary names the TypeScript, its lines the findings.
    const run = sourced(["check", "-p", solution]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(` with TypeScript ${version}.\n`);
    const reported = [...run.stdout.matchAll(/^(.+)\((\d+),(\d+)\): error SRC(\d+): Tool '([^']*)'/gm)].map(([, file, line, column, code, tool]) => ({
      file: relativeToCases(path.join(REPO, file!)),
      id: Object.values(FINDING_KINDS).find((kind) => String(kind.code) === code)!.id,
      tool,
      line: Number(line),
      column: Number(column),
    }));
    assertMatchesReferences(reported);
  });
});
