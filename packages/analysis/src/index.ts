export type { AnalysisResult, AnnotationFix, Finding, FindingId, FindingKind, Registration, TypeScript, UnresolvedRegistryImport } from "./api.js";
export { analyzeProgram, analyzeSourceFile, isAnalysedFile } from "./analyze.js";
export type { AnalyzeProgramOptions } from "./analyze.js";
export { FINDING_KINDS } from "./kinds.js";
export { closestMatch } from "./suggest.js";
export { DEFAULT_BUILD_OPTIONS, describeOptionValue, parseBuildOptions } from "./build-options.js";
export type { BuildOptions, OptionCheck, OptionProblem, ParseBuildOptionsSettings } from "./build-options.js";
export { functionPropertiesCall, planEdits, stampingDecorator, writeTextEdits } from "./edit-plan.js";
export type { EditPlanOptions, FunctionProperties, RegistrationEdit, TextSink, VerifiedStamp } from "./edit-plan.js";
