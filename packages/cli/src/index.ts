export { check } from "./check";
export type { CheckOptions, CheckReport, Notice, ReportedFinding } from "./check";
export { main } from "./cli";
export type { Io } from "./cli";
export { UsageError } from "./errors";
export { formatJson } from "./formats/json";
export { formatSarif } from "./formats/sarif";
export type { SarifTool } from "./formats/sarif";
export { formatText } from "./formats/text";
