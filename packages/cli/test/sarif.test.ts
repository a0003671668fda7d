import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { FINDING_KINDS } from "@sourced/analysis";
import { describe, expect, it } from "vitest";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import type * as Sarif from "sarif";
import { REPO, parseJson, sourced, syntaxErrorProject } from "./helpers";

/** What sourced writes, as the tests read it (the schema below checks the whole log). */
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

/** The official SARIF 2.1.0 schema (draft-04), vendored with its licence in ./sarif. */
const validate = (() => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile<Sarif.Log>(JSON.parse(fs.readFileSync(path.join(__dirname, "sarif", "sarif-schema-2.1.0.json"), "utf8")) as object);
})();

/** What the schema finds wrong with `log`, one line per problem. */
function schemaProblems(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}${error.keyword === "additionalProperties" ? ` '${String((error.params as { additionalProperty: string }).additionalProperty)}'` : ""}`);
}

/** What GitHub code scanning asks beyond the schema: relative artifact URIs and at least one location per result. */
function codeScanningProblems(log: SarifLog): string[] {
  return log.runs.flatMap((run) =>
    run.results.flatMap((result, index) => {
      const problems: string[] = [];
      if (result.locations.length === 0) problems.push(`results[${index}] has no location`);
      for (const location of result.locations) {
        const uri = location.physicalLocation.artifactLocation.uri;
        if (/^([a-z]+:|\/)/i.test(uri)) problems.push(`results[${index}] has a non-relative uri '${uri}'`);
      }
      const rule = run.tool.driver.rules[result.ruleIndex];
      if (rule?.id !== result.ruleId) problems.push(`results[${index}].ruleIndex does not point at '${result.ruleId}'`);
      return problems;
    }),
  );
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
    expect(schemaProblems(log)).toEqual([]);
    expect(codeScanningProblems(log)).toEqual([]);

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
    expect(schemaProblems(log)).toEqual([]);
    expect(codeScanningProblems(log)).toEqual([]);
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.tool.driver.rules).toHaveLength(Object.keys(FINDING_KINDS).length);
  });

  it("carries syntax errors as tool execution notifications", () => {
    const directory = syntaxErrorProject();
    const { status, log, stderr } = sarif(".", directory);
    fs.rmSync(directory, { recursive: true, force: true });
    expect(status).toBe(1);
    expect(schemaProblems(log)).toEqual([]);
    expect(codeScanningProblems(log)).toEqual([]);
    const notifications = log.runs[0]!.invocations[0]!.toolExecutionNotifications;
    expect(notifications.length).toBeGreaterThan(0);
    expect(notifications.length).toBe(stderr.trimEnd().split("\n").length);
    for (const notification of notifications) {
      expect(notification.level).toBe("warning");
      expect(notification.descriptor?.id).toMatch(/^TS\d+$/);
      expect(JSON.stringify(notification.locations)).toContain(`"uri":"src/broken.ts"`);
    }
  });

  it("the schema and the code-scanning checks reject what code scanning would reject", () => {
    const { log } = sarif("fixtures/cli/findings");
    const broken = JSON.parse(JSON.stringify(log)) as SarifLog & { version: string };
    broken.version = "2.0.0";
    const result = broken.runs[0]!.results[0]!;
    result.locations[0]!.physicalLocation.artifactLocation.uri = "/abs/file.ts";
    result.locations[0]!.physicalLocation.region.startLine = 0;
    result.ruleIndex = 3;
    broken.runs[0]!.results[1]!.locations = [];
    (broken.runs[0]!.tool.driver.rules[0] as { shortDescripton?: unknown }).shortDescripton = { text: "typo" };
    const problems = schemaProblems(broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        "/version must be equal to one of the allowed values",
        "/runs/0/tool/driver/rules/0 must NOT have additional properties 'shortDescripton'",
        "/runs/0/results/0/locations/0/physicalLocation/region/startLine must be >= 1",
      ]),
    );
    expect(codeScanningProblems(broken)).toEqual([
      "results[0] has a non-relative uri '/abs/file.ts'",
      "results[0].ruleIndex does not point at 'missing-annotation'",
      "results[1] has no location",
    ]);
  });
});
