import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { FINDING_KINDS } from "@sourced/analysis";
import { describe, expect, it } from "vitest";
import { sarifProblems } from "./sarif-schema";
import { REPO, parseJson, sourced, syntaxErrorProject } from "./helpers";

interface SarifLog {
  runs: Array<{
    tool: { driver: { name: string; version: string; rules: Array<{ id: string; name: string; shortDescription: { text: string }; help: { text: string; markdown: string } }> } };
    originalUriBaseIds: Record<string, { uri: string }>;
    invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications: Array<{ level: string; message: { text: string }; descriptor?: { id: string }; locations?: unknown[] }> }>;
    results: Array<{
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }>;
      partialFingerprints: Record<string, string>;
    }>;
  }>;
}

const version = (JSON.parse(fs.readFileSync(path.join(REPO, "packages/cli/package.json"), "utf8")) as { version: string }).version;

function sarif(project: string, cwd = REPO): { status: number | null; log: SarifLog; stderr: string } {
  const run = sourced(["check", "-p", project, "--format", "sarif"], cwd);
  return { status: run.status, log: JSON.parse(run.stdout) as SarifLog, stderr: run.stderr };
}

describe("sarif format", () => {
  it("is valid SARIF 2.1.0 with every finding kind as a rule and every finding as a result", () => {
    const { status, log } = sarif("fixtures/cli/findings");
    expect(status).toBe(1);
    expect(sarifProblems(log)).toEqual([]);

    const [run] = log.runs;
    expect(log.runs).toHaveLength(1);
    expect(run!.tool.driver.name).toBe("sourced");
    expect(run!.tool.driver.version).toBe(version);
    const kinds = Object.values(FINDING_KINDS);
    expect(run!.tool.driver.rules.map((rule) => rule.id)).toEqual(kinds.map((kind) => kind.id));
    run!.tool.driver.rules.forEach((rule, index) => {
      expect(rule.shortDescription.text).toBe(kinds[index]!.title);
      expect(rule.help.text).toContain(kinds[index]!.help);
      expect(rule.help.markdown).toContain(`SRC${kinds[index]!.code}`);
    });
    expect(run!.originalUriBaseIds["%SRCROOT%"]!.uri).toBe(`${pathToFileURL(REPO).href}/`);

    // The same findings as the JSON format, at the same places.
    const json = parseJson(sourced(["check", "-p", "fixtures/cli/findings", "--format", "json"]));
    expect(
      run!.results.map((result) => {
        const { artifactLocation, region } = result.locations[0]!.physicalLocation;
        return { file: artifactLocation.uri, line: region.startLine, column: region.startColumn, endLine: region.endLine, endColumn: region.endColumn, id: result.ruleId, message: result.message.text };
      }),
    ).toEqual(json.map(({ file, line, column, endLine, endColumn, id, message }) => ({ file, line, column, endLine, endColumn, id, message })));
    for (const result of run!.results) {
      expect(result.level).toBe("error");
      expect(Object.values(result.partialFingerprints)[0]).toMatch(/^[0-9a-f]{32}:0$/);
    }
    expect(run!.invocations).toEqual([{ executionSuccessful: true, toolExecutionNotifications: [] }]);
  });

  it("has no results but all its rules when there is nothing to report", () => {
    const { status, log } = sarif("fixtures/cli/clean");
    expect(status).toBe(0);
    expect(sarifProblems(log)).toEqual([]);
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.tool.driver.rules).toHaveLength(Object.keys(FINDING_KINDS).length);
  });

  it("carries syntax errors as tool execution notifications", () => {
    const directory = syntaxErrorProject();
    const { status, log, stderr } = sarif(".", directory);
    fs.rmSync(directory, { recursive: true, force: true });
    expect(status).toBe(1);
    expect(sarifProblems(log)).toEqual([]);
    const notifications = log.runs[0]!.invocations[0]!.toolExecutionNotifications;
    expect(notifications.length).toBeGreaterThan(0);
    expect(notifications.length).toBe(stderr.trimEnd().split("\n").length);
    for (const notification of notifications) {
      expect(notification.level).toBe("warning");
      expect(notification.descriptor?.id).toMatch(/^TS\d+$/);
      expect(JSON.stringify(notification.locations)).toContain(`"uri":"src/broken.ts"`);
    }
  });

  it("the structural check rejects what code scanning would reject", () => {
    const { log } = sarif("fixtures/cli/findings");
    const broken = JSON.parse(JSON.stringify(log)) as SarifLog & { version: string };
    broken.version = "2.0.0";
    const result = broken.runs[0]!.results[0]!;
    result.locations[0]!.physicalLocation.artifactLocation.uri = "/abs/file.ts";
    result.locations[0]!.physicalLocation.region.startLine = 0;
    result.ruleIndex = 3;
    (broken.runs[0]!.results[1] as { locations?: unknown }).locations = [];
    (broken.runs[0]!.tool.driver.rules[0] as { shortDescripton?: unknown }).shortDescripton = { text: "typo" };
    expect(sarifProblems(broken)).toEqual([
      `sarifLog.version: must be "2.1.0"`,
      "runs[0].tool.driver.rules[0]: unknown property 'shortDescripton'",
      "runs[0].results[0].ruleIndex: rules[3] is not 'missing-annotation'",
      "runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri: must be relative, got '/abs/file.ts'",
      "runs[0].results[0].locations[0].physicalLocation.region.startLine: must be an integer >= 1, got 0",
      "runs[0].results[1].locations: GitHub requires at least one location",
    ]);
  });
});
