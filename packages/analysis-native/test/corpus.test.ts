import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as TS from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeProgram, type AnalysisResult, type Finding, type ProgramPort, type Registration, SYNTAX_PORT_MEMBERS, type SyntaxPort } from "@sourced/analysis";
import { assertMatchesExpectations, CASES_DIR, CASES_PROJECTS, relativeToCases } from "../../../fixtures/harness";
import { loadNativeTypeScript, type NativeProjectPorts, type NativeSession } from "../src/index";

/*
 * One judgement on two compilers: the whole corpus through the native backend (TypeScript 7.0.2 in
 * fixtures/ts7, and 7.1's renamed API in fixtures/ts71) gives exactly what the classic backend (the repo's TypeScript 6.0.3)
 * gives: ids, tools, positions, messages, fixes, registrations. A difference is allowed only where
 * TypeScript 7 itself types differently, and each such case is listed in `TYPED_DIFFERENTLY`.
 */

const ROOT = path.resolve(__dirname, "../../..");
/** Each loader of the native backend: TypeScript 7.0 (`unstable/sync`) and 7.1 (`sync`, `createSnapshot`). */
const NATIVE_TYPESCRIPTS: readonly [string, string][] = [
  ["7.0.2", path.join(ROOT, "fixtures/ts7/node_modules/typescript")],
  ["7.1.0-dev.20261021.1", path.join(ROOT, "fixtures/ts71/node_modules/typescript")],
];

/** Corpus files where TypeScript 7 types differently from 6 (none so far), with why. */
const TYPED_DIFFERENTLY: Readonly<Record<string, string>> = {};

function classicProgram(ts: typeof TS, tsconfig: string): TS.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  })!;
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** A project's own sources, by the names its program gives them. */
function ownSources(program: ProgramPort, fileNames: readonly string[]): TS.SourceFile[] {
  return fileNames.filter((fileName) => !fileName.endsWith(".d.ts") && !fileName.includes("/node_modules/")).map((fileName) => program.getSourceFile(fileName)!);
}

/** Every project of the corpus analysed, each file once (by the first project that has it), the results in one. */
function analyseProjects(projects: readonly { readonly syntax: SyntaxPort; readonly program: ProgramPort; readonly sources: readonly TS.SourceFile[] }[]): { result: AnalysisResult; files: TS.SourceFile[] } {
  const seen = new Set<string>();
  const files: TS.SourceFile[] = [];
  const registrations: Registration[] = [];
  const findings: Finding[] = [];
  const unresolvedRegistryImports: AnalysisResult["unresolvedRegistryImports"][number][] = [];
  for (const { syntax, program, sources } of projects) {
    const sourceFiles = sources.filter((sourceFile) => !seen.has(sourceFile.fileName));
    for (const sourceFile of sourceFiles) seen.add(sourceFile.fileName);
    files.push(...sourceFiles);
    const result = analyzeProgram(syntax, program, { sourceFiles });
    registrations.push(...result.registrations);
    findings.push(...result.findings);
    unresolvedRegistryImports.push(...result.unresolvedRegistryImports);
  }
  return { result: { registrations, findings, unresolvedRegistryImports }, files };
}

function findingFields(syntax: SyntaxPort, finding: Finding): unknown {
  const kind = (node: TS.Node): string => (syntax.SyntaxKind as unknown as Record<number, string>)[node.kind]!;
  return {
    file: relativeToCases(finding.sourceFile.fileName),
    id: finding.id,
    code: finding.code,
    tool: finding.tool,
    message: finding.message,
    start: finding.start,
    end: finding.end,
    node: [kind(finding.node), finding.node.pos, finding.node.end],
    site: [kind(finding.site), finding.site.pos, finding.site.end],
    fix: finding.fix,
  };
}

function registrationFields(syntax: SyntaxPort, registration: Registration): unknown {
  return {
    file: relativeToCases(registration.site.getSourceFile().fileName),
    site: [registration.site.pos, registration.site.end],
    form: registration.form,
    tool: registration.tool,
    fn: registration.fn === undefined ? undefined : [registration.fn.pos, registration.fn.end],
    finding: registration.finding === undefined ? undefined : findingFields(syntax, registration.finding),
  };
}

function withoutTypedDifferently<T extends { file: string }>(items: readonly T[]): T[] {
  return items.filter((item) => !(item.file in TYPED_DIFFERENTLY));
}

describe.each(NATIVE_TYPESCRIPTS)("the corpus on TypeScript %s's native API, against TypeScript 6.0.3's classic API", (version, directory) => {
  let session: NativeSession;
  let native: NativeProjectPorts;
  let nativeFiles: TS.SourceFile[];
  let nativeResult: AnalysisResult;
  const classicTs = createRequire(__filename)("typescript") as typeof TS;
  const classicResult = analyseProjects(
    CASES_PROJECTS.map((tsconfig) => {
      const program = classicProgram(classicTs, tsconfig);
      return { syntax: classicTs, program, sources: ownSources(program, program.getSourceFiles().map((file) => file.fileName)) };
    }),
  ).result;

  beforeAll(() => {
    const compiler = loadNativeTypeScript(directory);
    expect(compiler.version).toBe(version);
    session = compiler.openSession(CASES_PROJECTS, CASES_DIR);
    const projects = CASES_PROJECTS.map((tsconfig) => session.project(tsconfig)!);
    native = projects[0]!;
    const analysed = analyseProjects(projects.map(({ syntax, program }) => ({ syntax, program, sources: ownSources(program, program.getSourceFileNames!()) })));
    nativeFiles = analysed.files;
    nativeResult = analysed.result;
  });
  afterAll(() => session?.close());

  it("the syntax port has every member at run time", () => {
    expect(SYNTAX_PORT_MEMBERS.filter((member) => native.syntax[member] === undefined)).toEqual([]);
  });

  it("reads the whole corpus (at least 100 case files) and meets its expectations", () => {
    expect(nativeFiles.filter((file) => path.dirname(file.fileName) === CASES_DIR).length).toBeGreaterThanOrEqual(100);
    assertMatchesExpectations(
      nativeResult.findings.map((finding) => {
        const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
        return { file: relativeToCases(finding.sourceFile.fileName), id: finding.id, tool: finding.tool, line: line + 1, column: character + 1 };
      }),
    );
  });

  it("findings are identical: ids, tools, positions, messages, fixes", () => {
    const nativeFindings = nativeResult.findings.map((finding) => findingFields(native.syntax, finding) as { file: string });
    const classicFindings = classicResult.findings.map((finding) => findingFields(classicTs, finding) as { file: string });
    expect(nativeFindings.length).toBeGreaterThan(100);
    expect(nativeResult.findings.filter((finding) => finding.fix !== undefined).length).toBeGreaterThan(10);
    expect(withoutTypedDifferently(nativeFindings)).toEqual(withoutTypedDifferently(classicFindings));
  });

  it("registrations are identical: sites, forms, tools, registered functions", () => {
    const nativeRegistrations = nativeResult.registrations.map((registration) => registrationFields(native.syntax, registration) as { file: string });
    const classicRegistrations = classicResult.registrations.map((registration) => registrationFields(classicTs, registration) as { file: string });
    expect(withoutTypedDifferently(nativeRegistrations)).toEqual(withoutTypedDifferently(classicRegistrations));
  });

  it("unresolved registry imports are identical", () => {
    const fields = (result: AnalysisResult) => result.unresolvedRegistryImports.map((item) => [relativeToCases(item.sourceFile.fileName), item.specifier, item.start, item.end]);
    expect(fields(nativeResult)).toEqual(fields(classicResult));
  });

  it("every file TYPED_DIFFERENTLY lists exists in the corpus", () => {
    for (const file of Object.keys(TYPED_DIFFERENTLY)) expect(fs.existsSync(path.join(CASES_DIR, file)), file).toBe(true);
  });
});
