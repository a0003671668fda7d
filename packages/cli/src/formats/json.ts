import type { CheckReport } from "../check";

/** The JSON format: one object per finding, in the report's stable order; `tool` is `null` when unknown statically. */
export function formatJson(report: CheckReport): string {
  const findings = report.findings.map(({ file, line, column, endLine, endColumn, id, severity, tool, message }) => ({
    file,
    line,
    column,
    endLine,
    endColumn,
    id,
    severity,
    tool: tool ?? null,
    message,
  }));
  return `${JSON.stringify(findings, null, 2)}\n`;
}
