import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import { analyzeProgram, FINDING_KINDS, type AnalysisResult, type Finding, type Registration, type TypeScript as SyntaxPort } from "@sourced/analysis";
import { analyzeProject, chooseBackend, NativeBackendUnavailable, UsageError, type Backend, type LoadedTypeScript } from "@sourced/cli";
import { loadBackend } from "./backend.js";

/** The compiler the classic backend loads for this project (TypeScript 5.x/6.x's API). */
type TypeScript = LoadedTypeScript["ts"];

/** A position in a file, 1-based, as every bundler prints it. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Length of the underlined span on its first line. */
  readonly length: number;
  readonly lineText: string;
}

/** One thing the build must say: a finding, or a problem with the project or the plugin itself. */
export interface Diagnostic {
  /** `error` fails the build; `warning` is shown. Findings take the `severity` option. */
  readonly category: "error" | "warning";
  /** `SRC92001` etc.: the codes `sourced check` prints. */
  readonly code: string;
  /** The finding's id (`not-data-tool-output`, …); `unresolved-registry` for an import of the registry that does not resolve; `internal-error` for the plugin's own problems. */
  readonly id: string;
  readonly message: string;
  readonly location: Location | undefined;
  /** The finding's tool, when it is one. */
  readonly tool?: string | undefined;
}

/** What one analysis of the project produced. */
export interface Analysis {
  readonly diagnostics: readonly Diagnostic[];
  /** The findings exactly as the analysis reported them (for parity with the other front-ends). */
  readonly findings: readonly Finding[];
  /** The analysed source files by absolute path, with their registrations. */
  readonly files: ReadonlyMap<string, AnalysedFile>;
}

export interface AnalysedFile {
  /** The syntax that parsed it: classic `ts`, or TypeScript 7's syntax port (the edit plan reads either). */
  readonly ts: SyntaxPort;
  readonly sourceFile: ts.SourceFile;
  readonly registrations: readonly Registration[];
}

interface CachedFile {
  readonly sourceFile: ts.SourceFile;
  readonly fingerprint: string;
}

const SELF = "@sourced/unplugin";

/**
 * The analysis of one tsconfig's program, kept across builds, on the backend `sourced check`
 * chooses (`chooseBackend`). Classic: `refresh()` re-parses only the files whose fingerprint
 * changed and hands TypeScript the previous program, so a rebuild in watch mode re-parses one
 * file and reuses every other (the lib and dependency declarations included); the analysis then
 * runs over the whole program again, so a fix in any file is seen and no finding is ever stale.
 * Native: TypeScript 7's API has no program to reuse across snapshots from here, so every
 * `refresh()` (each build start) opens the project afresh in one compiler process and closes it.
 */
export class ProjectSession {
  private typescript: TypeScript | undefined;
  private program: ts.Program | undefined;
  private readonly cache = new Map<string, CachedFile>();
  private last: Analysis | undefined;
  private lastStamp = "";
  /** Set when the bundler said a file changed (watch mode): `current()` then refreshes. */
  private stale = false;
  /** Fingerprints taken during one refresh: each file is read once per refresh. */
  private fingerprints = new Map<string, string>();

  constructor(
    readonly configPath: string,
    private readonly severity: "error" | "warning",
    /** As the plugin's `backend` option: `undefined` chooses per project. */
    private readonly backend: Backend | undefined = undefined,
  ) {}

  /** The last analysis, unless there is none or a file changed since (`invalidate`): then `refresh()`. */
  current(): Analysis {
    return this.last !== undefined && !this.stale ? this.last : this.refresh();
  }

  /** A file changed: the next `current()` re-checks the program. */
  invalidate(): void {
    this.stale = true;
  }

  /** The last analysis when no file of the program changed since, else a fresh one. Every build start asks this. */
  refresh(): Analysis {
    this.stale = false;
    this.fingerprints = new Map();
    let backend: Backend;
    try {
      backend = chooseBackend(path.dirname(this.configPath), this.backend).backend;
    } catch (error) {
      return this.failure(`cannot choose a TypeScript backend for ${display(this.configPath)}: ${messageOf(error)}`);
    }
    let fallback: Diagnostic | undefined;
    if (backend === "native") {
      const native = this.refreshNative();
      if (!(native instanceof NativeBackendUnavailable)) return native;
      // As `sourced check`: a chosen (not forced) native backend that cannot run falls back, said once per build.
      fallback = { category: "warning", code: `SRC${FINDING_KINDS["internal-error"].code}`, id: "typescript-fallback", message: `${SELF}: ${native.reason}; checked with the classic backend.`, location: undefined };
    }
    const analysis = this.refreshClassic();
    return fallback === undefined ? analysis : { ...analysis, diagnostics: [fallback, ...analysis.diagnostics] };
  }

  private refreshClassic(): Analysis {
    let typescript: TypeScript;
    try {
      typescript = this.typescript ??= loadBackend(path.dirname(this.configPath)).ts;
    } catch (error) {
      return this.failure(`cannot load TypeScript for ${display(this.configPath)}: ${messageOf(error)}`);
    }
    try {
      const parsed = this.readConfig(typescript);
      if (typeof parsed === "string") return this.failure(parsed);
      // The include globs decide the root names: a file added or removed is a change too.
      const rootNames = parsed.fileNames.join("|");
      if (this.last !== undefined && this.program !== undefined && this.lastStamp === `${rootNames}#${this.stampOf(this.program)}`) return this.last;
      const host = this.createHost(typescript, parsed.options);
      const program = typescript.createProgram({
        rootNames: parsed.fileNames,
        options: parsed.options,
        host,
        ...(this.program !== undefined ? { oldProgram: this.program } : {}),
        configFileParsingDiagnostics: typescript.getConfigFileParsingDiagnostics(parsed),
      });
      this.program = program;
      // Files no longer in the program (deleted, no longer imported) leave the cache.
      const current = new Set(program.getSourceFiles().map((sourceFile) => sourceFile.fileName));
      for (const fileName of this.cache.keys()) if (!current.has(fileName)) this.cache.delete(fileName);
      this.last = this.analyse(typescript, program);
      this.lastStamp = `${rootNames}#${this.stampOf(program)}`;
      this.fingerprints = new Map();
      return this.last;
    } catch (error) {
      this.program = undefined;
      return this.failure(`internal error while analysing ${display(this.configPath)}, so its registrations were not checked: ${messageOf(error)}. Please report it.`);
    }
  }

  /** TypeScript 7: the project judged through `analyzeProject`, as `sourced check` judges it. */
  private refreshNative(): Analysis | NativeBackendUnavailable {
    this.program = undefined;
    this.cache.clear();
    if (!fs.existsSync(this.configPath)) return this.failure(missingConfig(this.configPath));
    try {
      const project = analyzeProject({ tsconfig: this.configPath, backend: "native" });
      try {
        // Read before `close()`: the nodes stay readable after it, the checker does not.
        this.last = this.analysisOf(project.ts, project.result, project.sourceFiles);
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

  private analyse(typescript: TypeScript, program: ts.Program): Analysis {
    return this.analysisOf(typescript, analyzeProgram(typescript, program), program.getSourceFiles());
  }

  private analysisOf(typescript: SyntaxPort, result: AnalysisResult, sourceFiles: readonly ts.SourceFile[]): Analysis {
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
    const diagnostics: Diagnostic[] = result.findings.map((finding) => ({
      // A weaker guarantee (strictNullChecks off) stays a warning whatever the severity option says.
      category: FINDING_KINDS[finding.id].severity === "warning" ? "warning" : this.severity,
      code: `SRC${finding.code}`,
      id: finding.id,
      message: finding.message,
      location: locate(finding.sourceFile, finding.start, finding.end),
      tool: finding.tool,
    }));
    for (const unresolved of result.unresolvedRegistryImports) {
      diagnostics.push({
        category: "error",
        code: `SRC${FINDING_KINDS["internal-error"].code}`,
        id: "unresolved-registry",
        message:
          `cannot resolve '${unresolved.specifier}', so registrations made through it cannot be recognised and would pass unchecked. ` +
          `Install the project's dependencies (e.g. 'npm install') before building.`,
        location: locate(unresolved.sourceFile, unresolved.start, unresolved.end),
      });
    }
    return { diagnostics, findings: result.findings, files };
  }

  private readConfig(typescript: TypeScript): ts.ParsedCommandLine | string {
    if (!fs.existsSync(this.configPath)) return missingConfig(this.configPath);
    const unrecoverable: ts.Diagnostic[] = [];
    const parsed = typescript.getParsedCommandLineOfConfigFile(this.configPath, undefined, {
      ...typescript.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => unrecoverable.push(diagnostic),
    });
    const errors = [...unrecoverable, ...(parsed?.errors ?? [])].filter((d) => d.category === typescript.DiagnosticCategory.Error);
    if (parsed === undefined || errors.length > 0) {
      const text = errors.map((d) => typescript.flattenDiagnosticMessageText(d.messageText, " ")).join("; ");
      return `${display(this.configPath)} is not a valid TypeScript configuration (${text}); fix it so the tools can be checked.`;
    }
    return parsed;
  }

  /** A compiler host that hands back the very SourceFile of an unchanged file, so TypeScript reuses it. */
  private createHost(typescript: TypeScript, options: ts.CompilerOptions): ts.CompilerHost {
    const host = typescript.createCompilerHost(options, true);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
      const fingerprint = this.fingerprintOf(fileName);
      const cached = this.cache.get(fileName);
      if (!shouldCreateNewSourceFile && cached !== undefined && cached.fingerprint === fingerprint) return cached.sourceFile;
      const sourceFile = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
      if (sourceFile !== undefined) this.cache.set(fileName, { sourceFile, fingerprint });
      return sourceFile;
    };
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

  /** Kept as the last analysis (no file is stamped while it stands); the next build start tries again. */
  private failure(message: string): Analysis {
    this.lastStamp = "";
    this.last = { diagnostics: [{ category: "error", code: `SRC${FINDING_KINDS["internal-error"].code}`, id: "internal-error", message: `${SELF}: ${message}`, location: undefined }], findings: [], files: new Map() };
    return this.last;
  }
}

/**
 * What identifies a file's version: the project's own files by their content (two edits within
 * the clock's resolution must not look alike), declarations under node_modules and TypeScript's
 * libs by size and mtime (hundreds of them, re-read on every rebuild otherwise).
 */
function fingerprintOf(file: string): string {
  try {
    if (/[\\/]node_modules[\\/]/.test(file)) {
      const stat = fs.statSync(file);
      return `${stat.size}:${stat.mtimeMs}`;
    }
    return createHash("sha1").update(fs.readFileSync(file)).digest("base64");
  } catch {
    return "-";
  }
}

function locate(sourceFile: ts.SourceFile, start: number, end: number): Location {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(start);
  const lineStarts = sourceFile.getLineStarts();
  const lineStart = lineStarts[line] ?? 0;
  const lineEnd = lineStarts[line + 1] ?? sourceFile.text.length;
  const lineText = sourceFile.text.slice(lineStart, lineEnd).replace(/\r?\n$/, "");
  return { file: path.resolve(sourceFile.fileName), line: line + 1, column: character + 1, length: Math.max(0, Math.min(end, lineStart + lineText.length) - start), lineText };
}

function missingConfig(configPath: string): string {
  return `cannot find ${display(configPath)}. Pass the project's tsconfig as the plugin's "tsconfig" option, e.g. sourced({ tsconfig: "tsconfig.json" }).`;
}

/** A path as messages print it: relative to the directory the build runs in. */
export function display(file: string): string {
  return path.relative(process.cwd(), file).split(path.sep).join("/") || file;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
