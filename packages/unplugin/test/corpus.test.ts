import * as os from "node:os";
import * as fs from "node:fs";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { FINDING_KINDS, type FindingId } from "@sourced/analysis";
import { check } from "@sourced/cli";
import sourced from "@sourced/unplugin/esbuild";
import type { Diagnostic } from "@sourced/unplugin";
import { expect, test } from "vitest";
import { assertMatchesExpectations, CASES_DIR, CASES_TSCONFIG, caseFiles, relativeToCases, type Reported } from "../../../fixtures/harness.js";

type Located = Reported & { readonly tool: string | undefined; readonly message: string };

const ID_OF_CODE = new Map<string, FindingId>(Object.values(FINDING_KINDS).map((kind) => [`SRC${kind.code}`, kind.id]));

test("the plugin's findings, through esbuild's own messages, equal sourced check's on the whole corpus; every edited file still compiles", async () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-unplugin-corpus-"));
  let messages: esbuild.Message[];
  let errors: esbuild.Message[] = [];
  try {
    // Every case is loaded, edited by the plugin and compiled by esbuild (not bundled: the corpus has no entry).
    const result = await esbuild.build({
      absWorkingDir: CASES_DIR,
      entryPoints: caseFiles(),
      outdir,
      bundle: false,
      write: false,
      format: "esm",
      logLevel: "silent",
      plugins: [sourced({ tsconfig: CASES_TSCONFIG, severity: "warning" })],
    });
    messages = result.warnings;
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    messages = failure.warnings;
    errors = failure.errors;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
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
  const plugin = messages.filter(ours).map(located);
  // Unresolved imports of the registry (if the corpus has any): errors of the plugin, error notices of the CLI.
  const unresolved = errors.filter(ours).map(located);
  expect(errors.filter((message) => !ours(message)).map((message) => message.text)).toEqual([]);

  const report = check({ projects: [CASES_TSCONFIG], cwd: CASES_DIR });
  const cli: Located[] = report.findings.map((finding) => ({
    file: relativeToCases(path.join(CASES_DIR, finding.file)),
    id: finding.id,
    tool: finding.tool,
    line: finding.line,
    column: finding.column,
    message: finding.message,
  }));
  expect(plugin.length).toBeGreaterThan(50);
  expect(plugin).toEqual(cli);
  assertMatchesExpectations(plugin);
  const cliUnresolved = report.notices.filter((notice) => notice.kind === "unresolved-registry");
  expect(unresolved.map((u) => [u.file, u.line, u.column])).toEqual(cliUnresolved.map((n) => [relativeToCases(path.join(CASES_DIR, n.file!)), n.line, n.column]));
});
