export type { AnalysisResult, AnnotationFix, Finding, FindingId, FindingKind, Registration, TypeScript, UnresolvedRegistryImport } from "./api.js";
export { analyzeProgram, analyzeSourceFile, isAnalysedFile } from "./analyze.js";
export type { AnalyzeProgramOptions } from "./analyze.js";
export { FINDING_KINDS } from "./kinds.js";
export { closestMatch } from "./suggest.js";
export { closeParenEnd, sourceFileNamesOf } from "./ports.js";
export type { CheckerPort, ProgramPort, SyntaxPort, SyntaxPortMember } from "./ports.js";
export { VERIFIED_STAMP_KEY } from "./stamp.js";
