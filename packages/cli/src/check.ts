import * as path from "node:path";
import type * as ts from "typescript";
import { analyzeProgram, FINDING_KINDS, isAnalysedFile } from "@sourced/analysis";
import type { AnalysisResult, FindingId, ProgramPort, UnresolvedRegistryImport } from "@sourced/analysis";
import {
  type Backend,
  chooseBackend,
  ConfigError,
  createSharedHost,
  loadClassicInstead,
  loadNative,
  loadTypeScript,
  NativeBackendUnavailable,
  nativeErrorPlace,
  readNativeProjects,
  readProjects,
  type LoadedTypeScript,
  type NativeSyntaxError,
  type NativeTypeScript,
  type Project,
  type TypeScript,
} from "@sourced/project";
import { resolveConfigPath } from "./config-path";

/** A finding as every output format reports it: positions 1-based, the file relative to `cwd` with `/` separators. */
export interface ReportedFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly id: FindingId;
  /** The numeric code, printed `SRC<code>` in text output. */
  readonly code: number;
  /** `warning` for a weaker guarantee (strictNullChecks off), which alone does not fail the run. */
  readonly severity: "error" | "warning";
  readonly tool: string | undefined;
  readonly message: string;
}

/** Something the check has to say that is not a finding: a syntax error, a module it cannot resolve, which TypeScript it used. */
export interface Notice {
  readonly kind: "syntax-error" | "unresolved-registry" | "typescript-fallback" | "typescript-version";
  /** `error` notices make the run exit with 2: the check could not be trusted. */
  readonly severity: "error" | "warning" | "note";
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** TypeScript's own code for diagnostics it produced, e.g. `TS1005`. */
  readonly code?: string;
}

export interface CheckReport {
  /** Sorted by file, line, column, id. */
  readonly findings: readonly ReportedFinding[];
  readonly notices: readonly Notice[];
  /** Projects that had files to check (a solution-style tsconfig with only references has none). */
  readonly projects: number;
  readonly files: number;
  readonly registrations: number;
  /** The TypeScript versions the projects were read with. */
  readonly typescriptVersions: readonly string[];
  /** Per TypeScript version, in the same order: the backend that ran it. */
  readonly backends: readonly Backend[];
  readonly exitCode: 0 | 1 | 2;
}

export interface CheckOptions {
  /** tsconfig files or directories holding one, relative to `cwd`; `["tsconfig.json"]` when empty. */
  readonly projects?: readonly string[];
  readonly cwd?: string;
  /** Force a backend; by default native exactly when the project's TypeScript (its `tsc`) is 7 or later. */
  readonly backend?: Backend;
}

/**
 * Runs the sourced check over one or more TypeScript projects. Judges nothing itself: every
 * finding comes from `@sourced/analysis`. Throws `UsageError` (exit code 2) for a missing or
 * invalid tsconfig or a TypeScript it cannot use.
 */
export function check(options: CheckOptions = {}): CheckReport {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const given = options.projects !== undefined && options.projects.length > 0 ? options.projects : undefined;
  const configPaths = (given ?? ["tsconfig.json"]).map((argument) => resolveConfigPath(argument, cwd, given === undefined));

  const notices: Notice[] = [];
  const findings: ReportedFinding[] = [];
  const seenConfigs = new Set<string>();
  const analysedFiles = new Set<string>();
  const compilers = new Map<string, LoadedTypeScript & { readonly declarations: Map<string, ts.SourceFile>; readonly extendedConfigs: Map<string, ts.ExtendedConfigCacheEntry> }>();
  const natives = new Map<string, { readonly compiler: NativeTypeScript; readonly configs: string[] }>();
  const used = new Map<string, Backend>();
  let projectCount = 0;
  let registrations = 0;

  /** Keeps the files no earlier project analysed (a file shared by projects is judged once). */
  const firstSeen = (program: ProgramPort, sourceFile: ts.SourceFile): boolean => {
    if (!isAnalysedFile(program, sourceFile)) return false;
    const key = fileKey(sourceFile.fileName);
    if (analysedFiles.has(key)) return false;
    analysedFiles.add(key);
    return true;
  };
  const report = (configPath: string, analyse: () => AnalysisResult): void => {
    try {
      const result = analyse();
      registrations += result.registrations.length;
      for (const finding of result.findings) findings.push(reportedFinding(finding, cwd));
      for (const unresolved of result.unresolvedRegistryImports) notices.push(unresolvedRegistryNotice(unresolved, cwd));
    } catch (error) {
      // The analysis turns its own failures into findings; this is the net below it.
      findings.push(internalError(configPath, cwd, error));
    }
  };

  for (const configPath of configPaths) {
    const directory = path.dirname(configPath);
    const choice = chooseBackend(directory, options.backend);
    let native: NativeTypeScript | undefined;
    let unavailable: NativeBackendUnavailable | undefined;
    if (choice.backend === "native") {
      try {
        native = loadNative(directory, choice.typescript);
      } catch (error) {
        // Chosen (not forced) for a TypeScript 7 whose API cannot run: the classic backend may still can, with TypeScript 6 beside it.
        if (options.backend === "native" || !(error instanceof NativeBackendUnavailable)) throw error;
        unavailable = error;
        notices.push({ kind: "typescript-fallback", severity: "note", message: `${error.reason}; trying the classic backend.` });
      }
    }
    if (native !== undefined) {
      const compiler = native;
      let group = natives.get(compiler.directory);
      if (group === undefined) {
        group = { compiler, configs: [] };
        natives.set(compiler.directory, group);
        used.set(compiler.version, "native");
      }
      group.configs.push(...readNativeProjects(configPath, seenConfigs, cwd));
      continue;
    }
    const loaded = unavailable === undefined ? loadTypeScript(directory) : loadClassicInstead(directory, unavailable);
    let compiler = compilers.get(loaded.path);
    if (compiler === undefined) {
      compiler = { ...loaded, declarations: new Map(), extendedConfigs: new Map() };
      compilers.set(loaded.path, compiler);
      used.set(loaded.version, "classic");
      if (loaded.note !== undefined) notices.push({ kind: "typescript-fallback", severity: "note", message: loaded.note });
      if (loaded.warning !== undefined) notices.push({ kind: "typescript-version", severity: "warning", message: `${loaded.warning}.` });
    }
    const { ts } = compiler;
    for (const project of readProjects(ts, configPath, seenConfigs, compiler.extendedConfigs, cwd)) {
      if (project.parsed.fileNames.length === 0) continue;
      projectCount++;
      const program = createProgram(ts, project, compiler.declarations);
      const sourceFiles = program.getSourceFiles().filter((sourceFile) => firstSeen(program, sourceFile));
      if (sourceFiles.length === 0) continue;

      for (const sourceFile of sourceFiles) {
        for (const diagnostic of program.getSyntacticDiagnostics(sourceFile)) notices.push(toNotice(ts, diagnostic, "syntax-error", "warning", cwd));
      }
      report(project.configPath, () => analyzeProgram(ts, program, { sourceFiles }));
    }
  }

  // One TypeScript 7 process per install, every project of the run opened in one snapshot.
  for (const { compiler, configs } of natives.values()) {
    const session = compiler.openSession(configs, cwd);
    try {
      for (const configPath of configs) {
        const project = session.project(configPath);
        if (project === undefined) throw new Error(`TypeScript ${compiler.version} did not open ${configPath}`);
        const configErrors = project.configErrors();
        if (configErrors.length > 0) {
          throw new ConfigError(`${path.relative(cwd, configPath) || configPath} is not a valid TypeScript configuration; fix the errors above.`, formatConfigErrors(configErrors, cwd));
        }
        const { program } = project;
        const sourceFiles = project.candidateSources().filter((sourceFile) => firstSeen(program, sourceFile));
        if (project.rootFiles.length === 0) continue;
        projectCount++;
        if (sourceFiles.length === 0) continue;
        for (const sourceFile of sourceFiles) {
          for (const error of project.syntaxErrors(sourceFile)) {
            const { line, character } = sourceFile.getLineAndCharacterOfPosition(error.start);
            notices.push({ kind: "syntax-error", severity: "warning", message: error.message, code: `TS${error.code}`, file: relativeFile(cwd, error.fileName), line: line + 1, column: character + 1 });
          }
        }
        report(configPath, () => analyzeProgram(project.syntax, program, { sourceFiles }));
      }
    } finally {
      session.close();
    }
  }

  findings.sort(compareFindings);
  const exitCode = notices.some((notice) => notice.severity === "error") ? 2 : findings.some((finding) => finding.severity === "error") ? 1 : 0;
  return {
    findings,
    notices,
    projects: projectCount,
    files: analysedFiles.size,
    registrations,
    typescriptVersions: [...used.keys()],
    backends: [...used.values()],
    exitCode,
  };
}

/**
 * The project's program, without `projectReferences` on purpose: with them, an import of a
 * referenced project resolves to that project's build output, which before a build does not exist
 * (the registry it exports would then be invisible) and after one may be stale. Like the editor,
 * the check reads the referenced sources instead; the referenced projects themselves are checked
 * as projects of their own (see `readProjects`).
 */
function createProgram(ts: TypeScript, project: Project, declarations: Map<string, ts.SourceFile>): ts.Program {
  const { parsed } = project;
  return ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    host: createSharedHost(ts, parsed.options, declarations),
  });
}

/** An import of the registry that does not resolve: every registration through it would pass unchecked, so the run cannot be trusted. */
function unresolvedRegistryNotice(unresolved: UnresolvedRegistryImport, cwd: string): Notice {
  const { line, character } = unresolved.sourceFile.getLineAndCharacterOfPosition(unresolved.start);
  return {
    kind: "unresolved-registry",
    severity: "error",
    file: relativeFile(cwd, unresolved.sourceFile.fileName),
    line: line + 1,
    column: character + 1,
    message:
      `cannot resolve '${unresolved.specifier}', so registrations made through it cannot be recognised and would pass unchecked. ` +
      `Install the project's dependencies (e.g. 'npm install') before running sourced check.`,
  };
}

function toNotice(ts: TypeScript, diagnostic: ts.Diagnostic, kind: Notice["kind"], severity: Notice["severity"], cwd: string): Notice {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  const code = `TS${diagnostic.code}`;
  if (diagnostic.file === undefined || diagnostic.start === undefined) return { kind, severity, message, code };
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return { kind, severity, message, code, file: relativeFile(cwd, diagnostic.file.fileName), line: line + 1, column: character + 1 };
}

/** TypeScript 7's configuration errors, formatted as tsc (and the classic backend) prints them. */
function formatConfigErrors(errors: readonly NativeSyntaxError[], cwd: string): string {
  return errors
    .map((error) => {
      const place = nativeErrorPlace(error, cwd);
      return `${place === undefined ? "" : `${place}: `}error TS${error.code}: ${error.message}\n`;
    })
    .join("");
}

function reportedFinding(finding: AnalysisResult["findings"][number], cwd: string): ReportedFinding {
  const start = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
  const end = finding.sourceFile.getLineAndCharacterOfPosition(finding.end);
  return {
    file: relativeFile(cwd, finding.sourceFile.fileName),
    line: start.line + 1,
    column: start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
    id: finding.id,
    code: finding.code,
    severity: FINDING_KINDS[finding.id].severity,
    tool: finding.tool,
    message: finding.message,
  };
}

const caseSensitive = !(process.platform === "win32" || process.platform === "darwin");

function fileKey(fileName: string): string {
  const resolved = path.resolve(fileName);
  return caseSensitive ? resolved : resolved.toLowerCase();
}

function internalError(configPath: string, cwd: string, error: unknown): ReportedFinding {
  const kind = FINDING_KINDS["internal-error"];
  const reason = error instanceof Error ? `${error.message}${error.stack ? ` (${error.stack.split("\n")[1]?.trim() ?? ""})` : ""}` : String(error);
  return {
    file: relativeFile(cwd, configPath),
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    id: kind.id,
    code: kind.code,
    severity: kind.severity,
    tool: undefined,
    message: `internal error while analysing this project, so its registrations were not checked: ${reason}. Please report it.`,
  };
}

/** `file` relative to `cwd`, with `/` separators on every platform. */
export function relativeFile(cwd: string, file: string): string {
  return path.relative(cwd, path.resolve(file)).split(path.sep).join("/");
}

function compareFindings(a: ReportedFinding, b: ReportedFinding): number {
  return compareText(a.file, b.file) || a.line - b.line || a.column - b.column || compareText(a.id, b.id) || compareText(a.tool ?? "", b.tool ?? "");
}

/** Code-unit order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
