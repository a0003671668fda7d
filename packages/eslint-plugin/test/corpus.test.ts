import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";

import { ESLint, type Linter } from "eslint";
import type * as ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

import { assertMatchesExpectations, assertMatchesReferences, CASE_EXTENSIONS, CASES_DIR, CASES_PROJECTS, REFERENCES_DIR } from "../../../fixtures/harness";
import { nodeRequire, PACKAGE_DIR, plugin, TS5_DIR } from "./helpers";

/**
 * Parity on the shared corpus: every fixtures/cases file linted by a real ESLint with the plugin's
 * `recommended` config reports exactly the expected findings (the comparison every front-end
 * uses), and exactly the analysis' own findings, at the same places, with the same words.
 */

const RULE = "sourced/require-data-tool-output";
const analysis = nodeRequire("@sourced/analysis") as typeof import("@sourced/analysis");

interface Reported {
  file: string;
  id: string;
  tool: string | undefined;
  line: number;
  column: number;
  message: string;
}

interface LintedFile {
  filePath: string;
  messages: Linter.LintMessage[];
}

const toolchains = [
  {
    name: "TypeScript 6.0.3 (in process)",
    version: "6.0.3",
    typescript: nodeRequire("typescript") as typeof ts,
    lint: lintInProcess,
  },
  {
    name: "TypeScript 5.9.3 (fixtures/ts5, child process)",
    version: "5.9.3",
    typescript: createRequire(path.join(TS5_DIR, "package.json"))("typescript") as typeof ts,
    lint: lintWithTs5,
  },
];

describe.each(toolchains)("fixtures/cases on $name", ({ version, typescript, lint }) => {
  let linted: LintedFile[];
  /** The project-references case (fixtures/transformer/references), linted beside the corpus. */
  let references: LintedFile[];
  beforeAll(async () => {
    const all = await lint();
    const inReferences = (file: LintedFile) => file.filePath.startsWith(REFERENCES_DIR + path.sep);
    linted = all.filter((file) => !inReferences(file));
    references = all.filter(inReferences);
  });

  it(`runs TypeScript ${version}`, () => {
    expect(typescript.version).toBe(version);
  });

  it("reports nothing but the rule's findings (no parse or configuration error)", () => {
    const foreign = linted.flatMap(({ filePath, messages }) =>
      messages.filter((message) => message.ruleId !== RULE).map((message) => `${relative(filePath)}: ${message.message}`),
    );
    expect(foreign).toEqual([]);
  });

  it("matches the corpus' inline expectations", () => {
    assertMatchesExpectations(reportedBy(linted));
  });

  it("equals the analysis' own findings: ids, tools, lines, columns and messages", () => {
    expect(sorted(reportedBy(linted))).toEqual(sorted(analysisFindings(typescript)));
  });

  it("the project-references case (tspc -b reads lib through its emitted .d.ts): lib's source judged, as its expectations say", () => {
    expect(references.map((file) => relative(file.filePath))).toEqual(["../transformer/references/app/src/tools.ts", "../transformer/references/lib/src/index.ts"]);
    expect(references.flatMap(({ messages }) => messages.filter((message) => message.ruleId !== RULE).map((message) => message.message))).toEqual([]);
    assertMatchesReferences(reportedBy(references));
  });
});

function reportedBy(linted: readonly LintedFile[]): Reported[] {
  return linted.flatMap(({ filePath, messages }) =>
    messages
      .filter((message) => message.ruleId === RULE)
      .map((message) => ({
        file: relative(filePath),
        id: message.messageId ?? "(no messageId)",
        tool: toolOf(message.message),
        line: message.line,
        column: message.column,
        message: message.message,
      })),
  );
}

function analysisFindings(typescript: typeof ts): Reported[] {
  return CASES_PROJECTS.flatMap((configPath) => projectFindings(typescript, configPath));
}

function projectFindings(typescript: typeof ts, configPath: string): Reported[] {
  const { config, error } = typescript.readConfigFile(configPath, (file) => typescript.sys.readFile(file)) as { config: unknown; error?: ts.Diagnostic };
  if (error) throw new Error(typescript.flattenDiagnosticMessageText(error.messageText, "\n"));
  const parsed = typescript.parseJsonConfigFileContent(config, typescript.sys, path.dirname(configPath), undefined, configPath);
  // As ESLint's project service (and `sourced check` run in the project) sees it: messages name
  // other files relative to the program's current directory.
  const host = typescript.createCompilerHost(parsed.options);
  host.getCurrentDirectory = () => CASES_DIR;
  const program = typescript.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  return analysis.analyzeProgram(typescript, program).findings.map((finding) => {
    const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
    return {
      file: relative(finding.sourceFile.fileName),
      id: finding.id,
      tool: finding.tool,
      line: line + 1,
      column: character + 1,
      message: finding.message,
    };
  });
}

/** The corpus and the project-references case, each linted from its own root. */
async function lintInProcess(): Promise<LintedFile[]> {
  const lint = (directory: string) =>
    new ESLint({
      cwd: directory,
      // The project-references case is TypeScript only.
      errorOnUnmatchedPattern: false,
      overrideConfigFile: true,
      overrideConfig: [
        plugin.configs.recommended,
        // The corpus's checked JavaScript, linted with the same setup.
        { ...plugin.configs.recommended, files: ["**/*.js", "**/*.mjs", "**/*.cjs"] },
        { languageOptions: { parserOptions: { tsconfigRootDir: directory } } },
      ],
    }).lintFiles(CASE_EXTENSIONS.map((extension) => `**/*${extension}`));
  return [...(await lint(CASES_DIR)), ...(await lint(REFERENCES_DIR))];
}

/** ESLint in a child process whose parser loads TypeScript 5.9.3 from fixtures/ts5: the corpus, then the project-references case. */
function lintWithTs5(): Promise<LintedFile[]> {
  const run = spawnSync(process.execPath, [path.join(PACKAGE_DIR, "test/lint-cases.mjs"), TS5_DIR, CASES_DIR, REFERENCES_DIR], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`lint-cases.mjs exited with ${run.status}:\n${run.stderr}`);
  const output = JSON.parse(run.stdout) as {
    typescript: string;
    programs: number;
    programsFromToolchain: number;
    results: LintedFile[];
  };
  expect(output.typescript).toBe("5.9.3");
  expect(output.programs).toBeGreaterThan(0);
  expect(output.programsFromToolchain).toBe(output.programs);
  return Promise.resolve(output.results);
}

/** The tool's name as the finding quotes it (`tool 'list_cities'`); `undefined` when not known statically. */
function toolOf(message: string): string | undefined {
  return /\btool '([^']*)'/i.exec(message)?.[1];
}

function relative(fileName: string): string {
  return path.relative(CASES_DIR, fileName).split(path.sep).join("/");
}

function sorted(reported: readonly Reported[]): Reported[] {
  const key = (r: Reported): string => `${r.file}\0${String(r.line).padStart(6, "0")}\0${String(r.column).padStart(6, "0")}\0${r.id}`;
  return [...reported].sort((a, b) => key(a).localeCompare(key(b)));
}
