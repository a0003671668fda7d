import * as os from "node:os";
import * as fs from "node:fs";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { FINDING_KINDS, type FindingId } from "@sourced/analysis";
import { check } from "@sourced/cli";
import sourced from "@sourced/unplugin/esbuild";
import type { Diagnostic } from "@sourced/unplugin";
import { expect, test } from "vitest";
import { assertMatchesExpectations, assertMatchesReferences, CASES_DIR, CASES_PROJECTS, caseFiles, REFERENCES_DIR, REFERENCES_FILES, relativeToCases, type Reported } from "../../../fixtures/harness.js";

type Located = Reported & { readonly tool: string | undefined; readonly message: string };

const ID_OF_CODE = new Map<string, FindingId>(Object.values(FINDING_KINDS).map((kind) => [`SRC${kind.code}`, kind.id]));

/** The corpus's files per project: each file belongs to the project of the deepest directory holding it. */
function filesOf(tsconfig: string): string[] {
  const deepest = (file: string) => [...CASES_PROJECTS].sort((a, b) => b.length - a.length).find((project) => file.startsWith(path.dirname(project) + path.sep));
  return caseFiles().filter((file) => deepest(file) === tsconfig);
}

/** One project's cases, loaded, edited by the plugin and compiled by esbuild (not bundled: the corpus has no entry). */
async function buildProject(tsconfig: string, entryPoints = filesOf(tsconfig), absWorkingDir = CASES_DIR): Promise<{ messages: esbuild.Message[]; errors: esbuild.Message[] }> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-unplugin-corpus-"));
  try {
    const result = await esbuild.build({
      absWorkingDir,
      entryPoints,
      outdir,
      bundle: false,
      write: false,
      format: "esm",
      logLevel: "silent",
      plugins: [sourced({ tsconfig, severity: "error" })],
    });
    return { messages: result.warnings, errors: result.errors };
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    return { messages: [...failure.warnings, ...failure.errors], errors: failure.errors };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

test("the plugin's findings, through esbuild's own messages, equal sourced check's on the whole corpus; every edited file still compiles", async () => {
  const ours = (message: esbuild.Message) => message.pluginName === "sourced";
  const located = (message: esbuild.Message): Located => {
    const diagnostic = message.detail as Diagnostic;
    return {
      file: relativeToCases(diagnostic.location!.file),
      id: ID_OF_CODE.get(diagnostic.code) ?? diagnostic.code,
      tool: diagnostic.tool,
      line: diagnostic.location!.line,
      column: diagnostic.location!.column,
      message: diagnostic.message,
    };
  };
  const plugin: Located[] = [];
  const unresolved: Located[] = [];
  const categories: [string, string][] = [];
  for (const tsconfig of CASES_PROJECTS) {
    const { messages, errors } = await buildProject(tsconfig);
    const isUnresolved = (message: esbuild.Message) => (message.detail as Diagnostic).id === "unresolved-registry";
    const findings = messages.filter((message) => ours(message) && !isUnresolved(message));
    plugin.push(...findings.map(located));
    for (const message of findings) categories.push([(message.detail as Diagnostic).id, (message.detail as Diagnostic).category]);
    // Unresolved imports of the registry (if the corpus has any): errors of the plugin, error notices of the CLI.
    unresolved.push(...messages.filter((message) => ours(message) && isUnresolved(message)).map(located));
    expect(errors.filter((message) => !ours(message)).map((message) => message.text)).toEqual([]);
  }
  // `severity: "error"` makes every finding an error but the one warning of a weaker guarantee.
  for (const [id, category] of categories) expect(category, id).toBe(id === "strict-null-checks-off" ? "warning" : "error");
  expect(categories.some(([id]) => id === "strict-null-checks-off")).toBe(true);

  const report = check({ projects: [...CASES_PROJECTS], cwd: CASES_DIR });
  const cli: Located[] = report.findings.map((finding) => ({
    file: relativeToCases(path.join(CASES_DIR, finding.file)),
    id: finding.id,
    tool: finding.tool,
    line: finding.line,
    column: finding.column,
    message: finding.message,
  }));
  // A total order: two findings may share a place and an id (an escaping decorator that is also
  // what a call registers), and then neither list's own order decides which comes first.
  const text = (a: string | undefined, b: string | undefined) => ((a ?? "") < (b ?? "") ? -1 : (a ?? "") > (b ?? "") ? 1 : 0);
  const order = (a: Located, b: Located) => text(a.file, b.file) || a.line - b.line || a.column - b.column || text(a.id, b.id) || text(a.message, b.message);
  expect(plugin.length).toBeGreaterThan(50);
  expect([...plugin].sort(order)).toEqual([...cli].sort(order));
  assertMatchesExpectations(plugin);
  const cliUnresolved = report.notices.filter((notice) => notice.kind === "unresolved-registry");
  expect(unresolved.map((u) => [u.file, u.line, u.column])).toEqual(cliUnresolved.map((n) => [relativeToCases(path.join(CASES_DIR, n.file!)), n.line, n.column]));
});

test("the project-references case (tspc -b reads lib through its emitted .d.ts): the plugin judges lib's source, as its expectations say", async () => {
  const app = REFERENCES_FILES.filter((file) => file.includes(`${path.sep}app${path.sep}`));
  const { messages, errors } = await buildProject(path.join(REFERENCES_DIR, "app", "tsconfig.json"), app, REFERENCES_DIR);
  expect(errors.filter((message) => message.pluginName !== "sourced").map((message) => message.text)).toEqual([]);
  assertMatchesReferences(
    messages.map((message) => {
      const diagnostic = message.detail as Diagnostic;
      return { file: relativeToCases(diagnostic.location!.file), id: ID_OF_CODE.get(diagnostic.code) ?? diagnostic.code, tool: diagnostic.tool, line: diagnostic.location!.line, column: diagnostic.location!.column, message: diagnostic.message };
    }),
  );
});
