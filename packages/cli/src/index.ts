export { check } from "./check";
export type { CheckOptions, CheckReport, Notice, ReportedFinding } from "./check";
export { main } from "./cli";
export type { Io } from "./cli";
export { UsageError } from "./errors";
export { ConfigError } from "@sourced/project";
export { formatJson } from "./formats/json";
export { formatSarif } from "./formats/sarif";
export type { SarifTool } from "./formats/sarif";
export { formatText } from "./formats/text";
// The project layer, re-exported for code written against these names before it had a package of its own.
export { analyzeProject, BACKENDS, chooseBackend, loadTypeScript, NativeBackendUnavailable, projectTypeScript } from "@sourced/project";
export type { AnalyzeProjectOptions, Backend, InstalledTypeScript, LoadedTypeScript, ProjectAnalysis } from "@sourced/project";
