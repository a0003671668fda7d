import type { CheckReport, Notice } from "../check";

/** tsc style, one line per finding, then a one-line summary: `src/tools.ts(12,3): error SRC92001: …`. */
export function formatText(report: CheckReport): string {
  const lines = report.findings.map((finding) => `${finding.file}(${finding.line},${finding.column}): ${finding.severity} SRC${finding.code}: ${finding.message}`);
  if (lines.length > 0) lines.push("");
  lines.push(summary(report));
  return `${lines.join("\n")}\n`;
}

/** One sentence: how many findings, in how many files, out of how much that was checked. */
export function summary(report: CheckReport): string {
  const { findings } = report;
  const files = new Set(findings.map((finding) => finding.file)).size;
  const head = findings.length === 0 ? "No findings" : `Found ${plural(findings.length, "finding")} in ${plural(files, "file")}`;
  const checked = `checked ${plural(report.registrations, "registration")} in ${plural(report.files, "file")} of ${plural(report.projects, "project")} with TypeScript ${report.typescriptVersions.map((version, index) => `${version} (${report.backends[index] ?? "classic"})`).join(" and ") || "(none)"}`;
  const syntax = new Set(report.notices.filter((notice) => notice.kind === "syntax-error").map((notice) => notice.file)).size;
  const caveat = syntax > 0 ? `; ${plural(syntax, "file")} with syntax errors ${syntax === 1 ? "was" : "were"} checked as far as ${syntax === 1 ? "it parses" : "they parse"}` : "";
  return `${head}; ${checked}${caveat}.`;
}

/** Notices for standard error, in TypeScript's own format where they have a place. */
export function formatNotices(notices: readonly Notice[]): string {
  return notices
    .map((notice) => {
      const code = notice.code === undefined ? "" : ` ${notice.code}`;
      const where = notice.file === undefined ? "sourced" : `${notice.file}(${notice.line},${notice.column})`;
      return `${where}: ${notice.severity}${code}: ${notice.message}\n`;
    })
    .join("");
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
