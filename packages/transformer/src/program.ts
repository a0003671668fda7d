import type * as ts from "typescript";
import type { PluginConfig } from "ts-patch";
import { analyzeProgram, isAnalysedFile, type AnalysisResult, type Finding, type Registration } from "@sourced/analysis";
import { fileFailureDiagnostic, findingDiagnostic, missingBuilderHookDiagnostic, optionDiagnostic } from "./diagnostics.js";
import { createEmitTransformer } from "./emit.js";
import { parseOptions, type TransformerOptions } from "./options.js";

type TypeScript = typeof ts;

/** What the check of one source file produced; computed once per program and file. */
interface FileCheck {
  /** `undefined` when the check failed: nothing is stripped or stamped then. */
  readonly registrations: readonly Registration[] | undefined;
  readonly diagnostics: readonly ts.Diagnostic[];
}

/** The check of one program: registrations and diagnostics per file. */
export interface ProgramCheck {
  readonly options: TransformerOptions;
  readonly optionDiagnostics: readonly ts.Diagnostic[];
  /** The registrations of `sourceFile`, or `undefined` when its check failed. */
  registrationsOf(sourceFile: ts.SourceFile): readonly Registration[] | undefined;
  /**
   * The diagnostics of `sourceFile`'s check, all located in `sourceFile`: a finding underlines
   * its registration's own file, even when the registered function is declared in another.
   */
  diagnosticsIn(sourceFile: ts.SourceFile): readonly ts.Diagnostic[];
  /** Tells the check that tsc has type-checked every file (a hint that makes it faster). */
  noteTypeChecked(): void;
  emitTransformer(report: (diagnostic: ts.Diagnostic) => void): ts.TransformerFactory<ts.SourceFile>;
}

const NOTHING: FileCheck = { registrations: [], diagnostics: [] };

export function createProgramCheck(
  typescript: TypeScript,
  program: ts.Program,
  config: PluginConfig,
  verifier: string,
): ProgramCheck {
  const { options, problems } = parseOptions(config);
  const optionDiagnostics = problems.map((problem) => optionDiagnostic(typescript, program.getCompilerOptions(), config, problem));
  const checks = new Map<ts.SourceFile, FileCheck>();
  let typeChecked = false;
  const fromSources = sourcesOfReferences(typescript, program);
  const leadsIntoReferencedOutput = (analysis: AnalysisResult): boolean =>
    analysis.registrations.some((registration) => registration.fn !== undefined && fromSources.isOutput(registration.fn.getSourceFile()));

  const check = (sourceFile: ts.SourceFile): FileCheck => {
    if (!isAnalysedFile(program, sourceFile)) return NOTHING;
    let result = checks.get(sourceFile);
    if (result === undefined) {
      try {
        let analysis = analyzeProgram(typescript, program, { sourceFiles: [sourceFile], typeChecked });
        if (leadsIntoReferencedOutput(analysis)) analysis = fromSources.judge(sourceFile, analysis.unresolvedRegistryImports) ?? analysis;
        result = {
          registrations: analysis.registrations,
          diagnostics: analysis.findings.map((finding) => findingDiagnostic(typescript, finding, options)),
        };
      } catch (error) {
        result = { registrations: undefined, diagnostics: [fileFailureDiagnostic(typescript, sourceFile, error, options)] };
      }
      checks.set(sourceFile, result);
    }
    return result;
  };

  return {
    options,
    optionDiagnostics,
    registrationsOf: (sourceFile) => check(sourceFile).registrations,
    diagnosticsIn: (sourceFile) => check(sourceFile).diagnostics,
    noteTypeChecked: () => {
      typeChecked = true;
    },
    emitTransformer: (report) =>
      createEmitTransformer({ ts: typescript, options, verifier, registrationsOf: (file) => check(file).registrations, report }),
  };
}

/**
 * `tsc -b` builds a project against the declarations its references emitted: there an unannotated
 * function of another package reads as annotated (the `.d.ts` spells out the inferred type). The
 * checks judge what the code says, as `sourced check` and the start-up check do, so a registration
 * that leads into such a declaration is judged again in a program over the same files whose
 * imports read the referenced projects' sources (no `projectReferences`), made once and only then.
 */
interface ReferencedSources {
  /** Whether `file` is a declaration a referenced project emits. */
  isOutput(file: ts.SourceFile): boolean;
  /** `sourceFile`'s analysis over the referenced projects' sources, its nodes `sourceFile`'s own; `undefined` when it cannot be made. */
  judge(sourceFile: ts.SourceFile, imports: AnalysisResult["unresolvedRegistryImports"]): AnalysisResult | undefined;
}

function sourcesOfReferences(typescript: TypeScript, program: ts.Program): ReferencedSources {
  let outputs: Set<string> | undefined;
  let sibling: ts.Program | undefined;
  const outputsOf = (): Set<string> => {
    if (outputs !== undefined) return outputs;
    const found = new Set<string>();
    outputs = found;
    const ignoreCase = !typescript.sys.useCaseSensitiveFileNames;
    const key = (file: string): string => (ignoreCase ? file.toLowerCase() : file);
    const visit = (references: readonly (ts.ResolvedProjectReference | undefined)[] | undefined): void => {
      for (const reference of references ?? []) {
        if (reference === undefined) continue;
        for (const input of reference.commandLine.fileNames) {
          for (const output of typescript.getOutputFileNames(reference.commandLine, input, ignoreCase)) {
            if (output.endsWith(".d.ts") || output.endsWith(".d.mts") || output.endsWith(".d.cts")) found.add(key(typescript.sys.resolvePath(output)));
          }
        }
        visit(reference.references);
      }
    };
    visit(program.getResolvedProjectReferences());
    return outputs;
  };
  return {
    isOutput: (file) => {
      if (!file.isDeclarationFile || (program.getProjectReferences()?.length ?? 0) === 0) return false;
      const name = typescript.sys.resolvePath(file.fileName);
      return outputsOf().has(typescript.sys.useCaseSensitiveFileNames ? name : name.toLowerCase());
    },
    judge: (sourceFile, imports) => {
      // Without `plugins`: a patched createProgram would install this transformer on it again.
      sibling ??= typescript.createProgram({ rootNames: program.getRootFileNames(), options: { ...program.getCompilerOptions(), plugins: undefined, noEmit: true } });
      const twin = sibling.getSourceFile(sourceFile.fileName);
      if (twin === undefined || twin.text !== sourceFile.text) return undefined;
      const analysis = analyzeProgram(typescript, sibling, { sourceFiles: [twin] });
      return onOriginal(typescript, analysis, twin, sourceFile, imports);
    },
  };
}

/** `analysis` of `twin` with its nodes in `twin` replaced by `original`'s at the same place (same text); `undefined` when one has none. */
function onOriginal(
  typescript: TypeScript,
  analysis: AnalysisResult,
  twin: ts.SourceFile,
  original: ts.SourceFile,
  imports: AnalysisResult["unresolvedRegistryImports"],
): AnalysisResult | undefined {
  const counterpart = <T extends ts.Node>(node: T): T | undefined => {
    if (node.getSourceFile() !== twin) return node;
    let found: ts.Node | undefined;
    const visit = (candidate: ts.Node): boolean | undefined => {
      if (candidate.pos > node.pos || candidate.end < node.end) return undefined;
      if (candidate.pos === node.pos && candidate.end === node.end && candidate.kind === node.kind) {
        found = candidate;
        return true;
      }
      return typescript.forEachChild(candidate, visit);
    };
    typescript.forEachChild(original, visit);
    return found as T | undefined;
  };
  const moved = new Map<Finding, Finding | undefined>();
  const move = (finding: Finding): Finding | undefined => {
    if (moved.has(finding)) return moved.get(finding);
    const node = counterpart(finding.node);
    const site = counterpart(finding.site);
    const result = node === undefined || site === undefined || finding.sourceFile !== twin ? undefined : { ...finding, sourceFile: original, node, site };
    moved.set(finding, result);
    return result;
  };
  const findings: Finding[] = [];
  for (const finding of analysis.findings) {
    const onOriginalFile = move(finding);
    if (onOriginalFile === undefined) return undefined;
    findings.push(onOriginalFile);
  }
  const registrations: Registration[] = [];
  for (const registration of analysis.registrations) {
    const site = counterpart(registration.site);
    const finding = registration.finding === undefined ? undefined : move(registration.finding);
    if (site === undefined || (registration.finding !== undefined && finding === undefined)) return undefined;
    registrations.push({ ...registration, site, fn: registration.fn === undefined ? undefined : counterpart(registration.fn), finding });
  }
  return { findings, registrations, unresolvedRegistryImports: imports };
}

const INSTALLED = Symbol.for("@sourced/transformer:installed");

type Patchable = ts.Program & {
  [INSTALLED]?: true;
  /**
   * Internal, but stable since TypeScript 3: the builder behind --incremental, -b and --watch
   * asks it for every file on every build, uncached, next to the cached type errors.
   */
  getProgramDiagnostics?: (sourceFile: ts.SourceFile) => readonly ts.Diagnostic[];
};

/**
 * Makes `program` report the findings with its semantic diagnostics, its option problems with
 * its options diagnostics, and emit through the strip/stamp transformer. Patched in place, so
 * the builder, the watcher and ts-patch keep working with the very program object they created.
 *
 * Plain builds (`--noEmit` and `noEmitOnError` included) read `getSemanticDiagnostics`. The
 * builder reads the type errors of unchanged files from its cache (.tsbuildinfo), but asks
 * `getProgramDiagnostics` afresh for every file on every build: findings go there, so a fix in
 * any file (the registration's or the registered function's) is seen at the next build, and
 * nothing is reported twice or stale.
 */
export function installOnProgram(typescript: TypeScript, program: ts.Program, check: ProgramCheck): ts.Program {
  const target = program as Patchable;
  if (target[INSTALLED]) return program;
  Object.defineProperty(target, INSTALLED, { value: true });

  // --noCheck turns off every semantic diagnostic, and so this check's reports (not its emit).
  const reports = !program.getCompilerOptions().noCheck;
  const getProgramDiagnostics = target.getProgramDiagnostics;
  // Without that hook, an incremental build keeps the findings of files it does not re-check
  // from its cache, stale or missing: say so, once, on the first checked file, rather than lose
  // them silently. (A global diagnostic would make tsc skip every semantic one.)
  const noticeFile = typeof getProgramDiagnostics === "function" ? undefined : program.getSourceFiles().find((file) => isAnalysedFile(program, file));
  const hookNotice = noticeFile === undefined ? undefined : missingBuilderHookDiagnostic(typescript, noticeFile);
  const withFindings = (base: readonly ts.Diagnostic[], sourceFile: ts.SourceFile | undefined): readonly ts.Diagnostic[] => {
    if (!reports) return base;
    const files = sourceFile === undefined ? program.getSourceFiles() : [sourceFile];
    const ours = files.flatMap((file) => check.diagnosticsIn(file));
    if (hookNotice !== undefined && (sourceFile === undefined || sourceFile === noticeFile)) ours.unshift(hookNotice);
    return ours.length === 0 ? base : [...base, ...ours];
  };

  const getSemanticDiagnostics = target.getSemanticDiagnostics;
  target.getSemanticDiagnostics = (sourceFile, cancellationToken) => {
    const base = getSemanticDiagnostics.call(program, sourceFile, cancellationToken);
    // Asked for the whole program (a plain tsc build): every file is type-checked now.
    if (sourceFile === undefined) check.noteTypeChecked();
    return withFindings(base, sourceFile);
  };

  if (typeof getProgramDiagnostics === "function") {
    target.getProgramDiagnostics = (sourceFile) => withFindings(getProgramDiagnostics.call(program, sourceFile), sourceFile);
  }

  if (check.optionDiagnostics.length > 0) {
    const getOptionsDiagnostics = target.getOptionsDiagnostics;
    target.getOptionsDiagnostics = (cancellationToken) => [
      ...getOptionsDiagnostics.call(program, cancellationToken),
      ...check.optionDiagnostics,
    ];
  }

  const emit = target.emit;
  target.emit = (targetSourceFile, writeFile, cancellationToken, emitOnlyDtsFiles, customTransformers, ...rest: unknown[]) => {
    const failures: ts.Diagnostic[] = [];
    const transformers: ts.CustomTransformers = {
      ...customTransformers,
      // First, so it sees the nodes as the analysis saw them.
      before: [check.emitTransformer((diagnostic) => failures.push(diagnostic)), ...(customTransformers?.before ?? [])],
    };
    const result = (emit as (...args: unknown[]) => ts.EmitResult).call(
      program,
      targetSourceFile,
      writeFile,
      cancellationToken,
      emitOnlyDtsFiles,
      transformers,
      ...rest,
    );
    return failures.length === 0 ? result : { ...result, diagnostics: [...result.diagnostics, ...failures] };
  };

  return program;
}
