import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import { analyzeProgram, type AnalysisResult, type Registration, type TypeScript as SyntaxPort } from "@sourced/analysis";
import { analyzeProject } from "./analyze-project";
import { type Backend, chooseBackend, loadClassicInstead, NativeBackendUnavailable } from "./backend";
import { UsageError } from "./errors";
import { fingerprintOf } from "./fingerprint";
import { isPackageJson, type ResolutionChanges, resolutionChanges, type ResolutionWatch, resolutionWatchOf } from "./resolution-watch";
import { configErrorText } from "./projects";
import { parseAsTsc } from "./tsc-parsing";
import { loadTypeScript, type TypeScript } from "./typescript";

/** A source file of the analysed program, with its registrations. */
export interface AnalysedFile {
  /** The syntax that parsed it: classic `ts`, or TypeScript 7's syntax port (the edit plan reads either). */
  readonly ts: SyntaxPort;
  readonly sourceFile: ts.SourceFile;
  readonly registrations: readonly Registration[];
}

/** One analysis of the project. */
export interface ProjectSnapshot {
  readonly backend: Backend;
  readonly result: AnalysisResult;
  /** The program's source files by absolute path, with their registrations. */
  readonly files: ReadonlyMap<string, AnalysedFile>;
  /** Why TypeScript 7, chosen (not forced), could not run: the classic backend judged instead. */
  readonly fallback?: string;
  /** The classic backend's TypeScript is a newer 6.x than sourced supports: judged with it, and this says so. */
  readonly warning?: string;
}

/** The analysis could not run: `message` says why (no project-specific advice; the caller adds its own). */
export interface SessionFailure {
  readonly failure: "missing-config" | "unusable";
  readonly message: string;
  readonly fallback?: string;
}

export type SessionOutcome = ProjectSnapshot | SessionFailure;

export function isSessionFailure(outcome: SessionOutcome): outcome is SessionFailure {
  return "failure" in outcome;
}

interface CachedFile {
  readonly sourceFile: ts.SourceFile;
  readonly fingerprint: string;
  /** What it was parsed for (its module format above all, which a package.json decides). */
  readonly settings: string;
}

/**
 * The analysis of one tsconfig's program, kept across builds, on the backend `sourced check`
 * chooses (`chooseBackend`). Classic: `refresh()` re-parses only the files whose fingerprint
 * changed and hands TypeScript the previous program, so a rebuild in watch mode re-parses one
 * file and reuses every other (the lib and dependency declarations included); the analysis then
 * runs over the whole program again, so a fix in any file is seen and no finding is ever stale.
 * What module resolution depended on is seen too, as `tsc --watch` sees it: an import that did
 * not resolve (a package not installed yet, a file not written yet) is resolved again on every
 * refresh, and a package.json that resolution or a file's module format read is fingerprinted;
 * when either changes, TypeScript is told to resolve the files concerned again, since it would
 * otherwise keep the old program's resolutions for every file that did not change.
 * Native: TypeScript 7's API has no program to reuse across snapshots from here, so every
 * `refresh()` opens the project afresh in one compiler process and closes it (and so resolves
 * every import again).
 */
export class ProjectSession {
  private typescript: TypeScript | undefined;
  /** The loaded TypeScript's version warning, given with every snapshot it judges. */
  private warning: string | undefined;
  private program: ts.Program | undefined;
  /** What the program's module resolution depended on: set with `program`. */
  private resolutions: ResolutionWatch | undefined;
  private readonly cache = new Map<string, CachedFile>();
  private last: SessionOutcome | undefined;
  private lastStamp = "";
  /** Set when a file is known to have changed (watch mode): `current()` then refreshes. */
  private stale = false;
  /** Fingerprints taken during one refresh: each file is read once per refresh. */
  private fingerprints = new Map<string, string>();

  constructor(
    readonly configPath: string,
    /** Forced backend; `undefined` chooses per project, as `sourced check` does. */
    private readonly backend: Backend | undefined = undefined,
  ) {}

  /** The last analysis, unless there is none or a file changed since (`invalidate`): then `refresh()`. */
  current(): SessionOutcome {
    return this.last !== undefined && !this.stale ? this.last : this.refresh();
  }

  /** A file changed: the next `current()` re-checks the program. */
  invalidate(): void {
    this.stale = true;
  }

  /** The last analysis when no file of the program changed since, else a fresh one. */
  refresh(): SessionOutcome {
    this.stale = false;
    this.fingerprints = new Map();
    let backend: Backend;
    try {
      backend = chooseBackend(path.dirname(this.configPath), this.backend).backend;
    } catch (error) {
      return this.failure(`cannot choose a TypeScript backend for ${display(this.configPath)}: ${messageOf(error)}`);
    }
    let unavailable: NativeBackendUnavailable | undefined;
    if (backend === "native") {
      const native = this.refreshNative();
      if (!(native instanceof NativeBackendUnavailable)) return native;
      // As `sourced check`: a chosen (not forced) native backend that cannot run falls back.
      unavailable = native;
    }
    const outcome = this.refreshClassic(unavailable);
    return unavailable === undefined ? outcome : { ...outcome, fallback: unavailable.reason };
  }

  private refreshClassic(unavailable: NativeBackendUnavailable | undefined): SessionOutcome {
    let typescript: TypeScript;
    try {
      if (this.typescript === undefined) {
        const directory = path.dirname(this.configPath);
        const loaded = unavailable === undefined ? loadTypeScript(directory) : loadClassicInstead(directory, unavailable);
        this.typescript = loaded.ts;
        this.warning = loaded.warning;
      }
      typescript = this.typescript;
    } catch (error) {
      return this.failure(`cannot load TypeScript for ${display(this.configPath)}: ${messageOf(error)}`);
    }
    try {
      const parsed = this.readConfig(typescript);
      if (!("fileNames" in parsed)) return parsed;
      // The include globs decide the root names: a file added or removed is a change too; and so is
      // an option changed in the config or in a config it extends.
      const config = `${parsed.fileNames.join("|")}#${JSON.stringify(parsed.options)}`;
      const automaticTypes = typescript.getAutomaticTypeDirectiveNames(parsed.options, typescript.sys).join("|");
      const changes = this.program !== undefined && this.resolutions !== undefined ? resolutionChanges(typescript, parsed.options, this.resolutions, automaticTypes, (file) => this.fingerprintOf(file)) : undefined;
      const resolutionsChanged = changes !== undefined && (changes.files.size > 0 || changes.automaticTypes);
      if (this.last !== undefined && this.program !== undefined && !resolutionsChanged && this.lastStamp === `${config}#${this.stampOf(this.program)}`) return this.last;
      const program = typescript.createProgram({
        rootNames: parsed.fileNames,
        options: parsed.options,
        host: this.createHost(typescript, parsed.options, changes),
        ...(this.program !== undefined ? { oldProgram: this.program } : {}),
        configFileParsingDiagnostics: typescript.getConfigFileParsingDiagnostics(parsed),
      });
      this.program = program;
      this.resolutions = resolutionWatchOf(program, parsed.options, automaticTypes, (file) => this.fingerprintOf(file));
      // Files no longer in the program (deleted, no longer imported) leave the cache.
      const current = new Set(program.getSourceFiles().map((sourceFile) => sourceFile.fileName));
      for (const fileName of this.cache.keys()) if (!current.has(fileName)) this.cache.delete(fileName);
      const snapshot = snapshotOf("classic", typescript, analyzeProgram(typescript, program), program.getSourceFiles());
      this.last = this.warning === undefined ? snapshot : { ...snapshot, warning: this.warning };
      this.lastStamp = `${config}#${this.stampOf(program)}`;
      this.fingerprints = new Map();
      return this.last;
    } catch (error) {
      this.program = undefined;
      this.resolutions = undefined;
      return this.failure(`internal error while analysing ${display(this.configPath)}, so its registrations were not checked: ${messageOf(error)}. Please report it.`);
    }
  }

  /** TypeScript 7: the project judged through `analyzeProject`, as `sourced check` judges it. */
  private refreshNative(): SessionOutcome | NativeBackendUnavailable {
    this.program = undefined;
    this.resolutions = undefined;
    this.cache.clear();
    if (!fs.existsSync(this.configPath)) return this.failure(`cannot find ${display(this.configPath)}.`, "missing-config");
    try {
      const project = analyzeProject({ tsconfig: this.configPath, backend: "native" });
      try {
        // Read before `close()`: the nodes stay readable after it, the checker does not.
        this.last = snapshotOf("native", project.ts, project.result, project.sourceFiles);
      } finally {
        project.close();
      }
      this.lastStamp = "";
      return this.last;
    } catch (error) {
      if (error instanceof NativeBackendUnavailable && this.backend === undefined) return error;
      if (error instanceof UsageError) return this.failure(`cannot analyse ${display(this.configPath)} with TypeScript 7: ${error.message}`);
      return this.failure(`internal error while analysing ${display(this.configPath)} with TypeScript 7, so its registrations were not checked: ${messageOf(error)}. Please report it.`);
    }
  }

  private readConfig(typescript: TypeScript): ts.ParsedCommandLine | SessionFailure {
    if (!fs.existsSync(this.configPath)) return this.failure(`cannot find ${display(this.configPath)}.`, "missing-config");
    const unrecoverable: ts.Diagnostic[] = [];
    const parsed = typescript.getParsedCommandLineOfConfigFile(this.configPath, undefined, {
      ...typescript.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => unrecoverable.push(diagnostic),
    });
    // The config's syntax errors too (not in `parsed.errors`): they are the cause of the others.
    const errors = [...unrecoverable, ...(parsed === undefined ? [] : typescript.getConfigFileParsingDiagnostics(parsed))].filter((d) => d.category === typescript.DiagnosticCategory.Error);
    if (parsed === undefined || errors.length > 0) {
      const text = errors.map((d) => configErrorText(typescript, d, process.cwd())).join("; ");
      return this.failure(`${display(this.configPath)} is not a valid TypeScript configuration (${text}); fix it so the tools can be checked.`);
    }
    return parsed;
  }

  /**
   * A compiler host that hands back the very SourceFile of an unchanged file, so TypeScript reuses
   * it, and that tells TypeScript which files' resolutions to redo (`changes`).
   */
  private createHost(typescript: TypeScript, options: ts.CompilerOptions, changes: ResolutionChanges | undefined): ts.CompilerHost {
    const host = parseAsTsc(typescript, typescript.createCompilerHost(options, true));
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
      const fingerprint = this.fingerprintOf(fileName);
      // A file whose module format changed (a package.json's `type`) is parsed again, as TypeScript's own watch does.
      const settings =
        typeof languageVersionOrOptions === "object"
          ? `${languageVersionOrOptions.languageVersion}|${languageVersionOrOptions.impliedNodeFormat ?? ""}|${languageVersionOrOptions.jsDocParsingMode ?? ""}`
          : `${languageVersionOrOptions}`;
      const cached = this.cache.get(fileName);
      if (!shouldCreateNewSourceFile && cached !== undefined && cached.fingerprint === fingerprint && cached.settings === settings) return cached.sourceFile;
      const sourceFile = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
      if (sourceFile !== undefined) this.cache.set(fileName, { sourceFile, fingerprint, settings });
      return sourceFile;
    };
    // A package.json is fingerprinted before TypeScript reads it (or finds it missing): one
    // written meanwhile is then seen by the next refresh, not taken as the version read.
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    host.fileExists = (fileName) => {
      if (isPackageJson(fileName)) this.fingerprintOf(fileName);
      return fileExists(fileName);
    };
    host.readFile = (fileName) => {
      if (isPackageJson(fileName)) this.fingerprintOf(fileName);
      return readFile(fileName);
    };
    if (changes !== undefined) {
      // Without these, TypeScript keeps the old program's resolutions for every file that did not
      // change, the failed ones included.
      host.hasInvalidatedResolutions = (filePath) => changes.files.has(filePath);
      // Internal to TypeScript (5.0 to 6.0): without it, the old program's resolutions of the
      // automatic type references are kept, failed ones included, whenever their names are the same.
      (host as ts.CompilerHost & { hasChangedAutomaticTypeDirectiveNames?: () => boolean }).hasChangedAutomaticTypeDirectiveNames = () => changes.automaticTypes;
    }
    return host;
  }

  /** The fingerprint of every file of the program: what says "nothing changed". */
  private stampOf(program: ts.Program): string {
    return program
      .getSourceFiles()
      .map(({ fileName }) => `${fileName}:${this.fingerprintOf(fileName)}`)
      .join("|");
  }

  private fingerprintOf(file: string): string {
    let fingerprint = this.fingerprints.get(file);
    if (fingerprint === undefined) {
      fingerprint = fingerprintOf(file);
      this.fingerprints.set(file, fingerprint);
    }
    return fingerprint;
  }

  /** Kept as the last outcome (nothing is stamped while it stands); the next `refresh()` tries again. */
  private failure(message: string, failure: SessionFailure["failure"] = "unusable"): SessionFailure {
    this.lastStamp = "";
    const outcome: SessionFailure = { failure, message };
    this.last = outcome;
    return outcome;
  }
}

function snapshotOf(backend: Backend, typescript: SyntaxPort, result: AnalysisResult, sourceFiles: readonly ts.SourceFile[]): ProjectSnapshot {
  const files = new Map<string, AnalysedFile>();
  for (const sourceFile of sourceFiles) files.set(path.resolve(sourceFile.fileName), { ts: typescript, sourceFile, registrations: [] });
  const byFile = new Map<ts.SourceFile, Registration[]>();
  for (const registration of result.registrations) {
    const sourceFile = registration.site.getSourceFile();
    const list = byFile.get(sourceFile);
    if (list === undefined) byFile.set(sourceFile, [registration]);
    else list.push(registration);
  }
  for (const [sourceFile, registrations] of byFile) files.set(path.resolve(sourceFile.fileName), { ts: typescript, sourceFile, registrations });
  return { backend, result, files };
}

/** A path as messages print it: relative to the directory the process runs in. */
export function display(file: string): string {
  return path.relative(process.cwd(), file).split(path.sep).join("/") || file;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
