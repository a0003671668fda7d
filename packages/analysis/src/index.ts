export type { AnalysisResult, AnnotationFix, Finding, FindingId, FindingKind, Registration, TypeScript, UnresolvedRegistryImport } from "./api.js";
export { analyzeProgram, analyzeSourceFile, isAnalysedFile } from "./analyze.js";
export type { AnalyzeProgramOptions } from "./analyze.js";
export { FINDING_KINDS } from "./kinds.js";
export { closestMatch } from "@sourced/contract-rules";
export { closeParenEnd, sourceFileNamesOf } from "./ports.js";
export type { CheckerPort, ProgramPort, SyntaxPort, SyntaxPortMember } from "./ports.js";
export { DEFAULT_BUILD_OPTIONS, describeOptionValue, parseBuildOptions } from "./build-options.js";
export type { BuildOptions, OptionCheck, OptionProblem, ParseBuildOptionsSettings } from "./build-options.js";
export { createNodeRenderer, planEdits, writeTextEdits } from "./edit-plan.js";
export type { EditPlanOptions, FunctionProperties, NodeRenderer, RegistrationEdit, TextSink, VerifiedStamp } from "./edit-plan.js";
export { VERIFIED_STAMP_KEY } from "./stamp.js";
/** The literal the registry's declarations carry: a backend that reads files itself looks for it (packages/analysis-native). */
export { MARK_LITERAL } from "./context.js";
export { typescript7Problem } from "./typescript-7.js";
export type { ClassicFrontEnd } from "./typescript-7.js";
