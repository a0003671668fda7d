import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { FINDING_KINDS } from "@sourced/analysis";
import type { FindingId, FindingKind } from "@sourced/analysis";
import type * as Sarif from "sarif";
import type { CheckReport, Notice } from "../check";

export interface SarifTool {
  readonly name: string;
  readonly version: string;
  readonly informationUri: string | undefined;
}

/** The base every artifact URI is relative to: the directory the check ran in (for code scanning, the checkout). */
const SOURCE_ROOT = "%SRCROOT%";

/**
 * SARIF 2.1.0 as GitHub code scanning ingests it: one run, every finding kind as a rule with help
 * text, results with repository-relative locations and a line-independent fingerprint, and the
 * notices (syntax errors, unresolved imports) as tool execution notifications.
 */
export function formatSarif(report: CheckReport, tool: SarifTool, cwd: string): string {
  const kinds = Object.values<FindingKind>(FINDING_KINDS);
  const ruleIndex = new Map<FindingId, number>(kinds.map((kind, index) => [kind.id, index]));
  const occurrences = new Map<string, number>();

  const results = report.findings.map((finding): Sarif.Result => {
    // Line-independent, so an alert survives edits above it: the file, the finding id and the tool
    // (the message when the tool has no static name), numbered when the same identity repeats.
    const identity = `${finding.file}\0${finding.id}\0${finding.tool === undefined ? `message:${finding.message}` : `tool:${finding.tool}`}`;
    const occurrence = occurrences.get(identity) ?? 0;
    occurrences.set(identity, occurrence + 1);
    return {
      ruleId: finding.id,
      ruleIndex: ruleIndex.get(finding.id),
      level: finding.severity,
      message: { text: finding.message },
      locations: [location(finding.file, finding.line, finding.column, finding.endLine, finding.endColumn)],
      partialFingerprints: { "sourcedFinding/v1": `${createHash("sha256").update(identity).digest("hex").slice(0, 32)}:${occurrence}` },
      ...(finding.tool === undefined ? {} : { properties: { tool: finding.tool } }),
    };
  });

  const sarif: Sarif.Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            semanticVersion: tool.version,
            ...(tool.informationUri === undefined ? {} : { informationUri: tool.informationUri }),
            rules: kinds.map(rule),
          },
        },
        originalUriBaseIds: { [SOURCE_ROOT]: { uri: directoryUri(cwd) } },
        columnKind: "utf16CodeUnits",
        invocations: [
          {
            executionSuccessful: report.exitCode !== 2,
            toolExecutionNotifications: report.notices.map(notification),
          },
        ],
        results,
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

function rule(kind: FindingKind): Sarif.ReportingDescriptor {
  return {
    id: kind.id,
    name: pascalCase(kind.id),
    shortDescription: { text: kind.title },
    fullDescription: { text: kind.help },
    help: {
      text: `${kind.help}\n\nDiagnostic code: SRC${kind.code} (TS${kind.code} from the transformer).`,
      markdown: `**${kind.title}**\n\n${kind.help}\n\nDiagnostic code: \`SRC${kind.code}\` (\`TS${kind.code}\` from the transformer).`,
    },
    defaultConfiguration: { level: kind.severity },
    properties: { tags: ["mcp", "correctness"], precision: "very-high", "problem.severity": kind.severity },
  };
}

function notification(notice: Notice): Sarif.Notification {
  return {
    level: notice.severity,
    message: { text: notice.message },
    ...(notice.code === undefined ? {} : { descriptor: { id: notice.code } }),
    ...(notice.file === undefined ? {} : { locations: [location(notice.file, notice.line ?? 1, notice.column ?? 1, undefined, undefined)] }),
  };
}

function location(file: string, startLine: number, startColumn: number, endLine: number | undefined, endColumn: number | undefined): Sarif.Location {
  return {
    physicalLocation: {
      artifactLocation: { uri: relativeUri(file), uriBaseId: SOURCE_ROOT },
      region: { startLine, startColumn, ...(endLine === undefined ? {} : { endLine, endColumn }) },
    },
  };
}

/** A relative URI reference: each path segment percent-encoded, `..` kept as is. */
function relativeUri(file: string): string {
  return file
    .split("/")
    .map((segment) => (segment === ".." || segment === "." ? segment : encodeURIComponent(segment)))
    .join("/");
}

function directoryUri(directory: string): string {
  const uri = pathToFileURL(directory).href;
  return uri.endsWith("/") ? uri : `${uri}/`;
}

function pascalCase(id: string): string {
  return id.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase());
}
