export type { AnalysisResult, AnnotationFix, Finding, FindingId, FindingKind, Registration, TypeScript, UnresolvedRegistryImport } from "./api.js";
export { analyzeNode, analyzeProgram, analyzeSourceFile, isAnalysedFile } from "./analyze.js";
export type { AnalyzeProgramOptions } from "./analyze.js";
export { FINDING_KINDS } from "./kinds.js";
export { isSiteCandidate, SITE_NODE_KINDS } from "./sites.js";
export type { SiteNodeKind } from "./sites.js";
export { closestMatch } from "./suggest.js";
