export { UsageError } from "./errors";
export { CLASSIC_RANGE, NATIVE_RANGE, SUPPORTED_TYPESCRIPT } from "./versions";
export { loadTypeScript } from "./typescript";
export type { LoadedTypeScript, TypeScript } from "./typescript";
export { BACKENDS, chooseBackend, loadClassicInstead, loadNative, NativeBackendUnavailable, projectTypeScript } from "./backend";
export type { Backend, InstalledTypeScript } from "./backend";
export { ConfigError, createSharedHost, nativeErrorPlace, readNativeProjects, readProjects } from "./projects";
export type { Project } from "./projects";
export { analyzeProject } from "./analyze-project";
export type { AnalyzeProjectOptions, ProjectAnalysis } from "./analyze-project";
export { display, isSessionFailure, ProjectSession } from "./session";
export type { AnalysedFile, ProjectSnapshot, SessionFailure, SessionOutcome } from "./session";
export { fingerprintOf } from "./fingerprint";
// The TypeScript 7 types a caller of `loadNative` and `readNativeProjects` meets, so it needs no dependency of its own on the adapter.
export type { NativeSyntaxError, NativeTypeScript } from "@sourced/analysis-native";
