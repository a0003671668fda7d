import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import type * as ts from "typescript";
import { type CheckerPort, isDeclarationFileName, isExternalFileName, type ProgramPort, type SyntaxPort } from "@sourced/analysis";
import { asCheckerPort, NativeCheckerPort } from "./checker";
import type { NativeApi, NativeAstModule, NativeCompilerOptions, NativeDiagnostic, NativeProject, NativeSnapshot, NativeSourceFile, NativeSyncModule } from "./native-api";
import { createSyntaxPort } from "./syntax";

export type { NativeCompilerOptions } from "./native-api";

/** A syntax error TypeScript 7 reports for a file, positions 0-based. */
export interface NativeSyntaxError {
  readonly fileName: string;
  readonly start: number;
  readonly code: number;
  readonly message: string;
}

/** One project of a native session: the analysis' ports over TypeScript 7's program and checker. */
export interface NativeProjectPorts {
  readonly configFileName: string;
  /** The tsconfig's own files (none for a solution-style tsconfig). */
  readonly rootFiles: readonly string[];
  readonly syntax: SyntaxPort;
  readonly program: ProgramPort;
  /**
   * The program's files that may be the project's own sources (`isAnalysedFile` decides), told
   * by name first, so that no declaration file and nothing under node_modules is materialised.
   */
  candidateSources(): ts.SourceFile[];
  /** The program's syntax errors in `sourceFile`. */
  syntaxErrors(sourceFile: ts.SourceFile): NativeSyntaxError[];
  /** Errors in the tsconfig (or a file it extends) as TypeScript 7 read it; `start` is -1 when it has no place. */
  configErrors(): NativeSyntaxError[];
  /** The program's compiler options as TypeScript 7 resolved them (absolute paths). */
  compilerOptions(): NativeCompilerOptions;
}

/** TypeScript 7's compiler running beside this process (one process for the session's projects). */
export interface NativeSession {
  /** The project of `configPath` (absolute), opened by `openSession`. */
  project(configPath: string): NativeProjectPorts | undefined;
  close(): void;
}

/** A TypeScript 7 install whose IPC API this package can drive. */
export interface NativeTypeScript {
  readonly version: string;
  /** The package's directory (`…/node_modules/typescript`, or wherever an alias installed it). */
  readonly directory: string;
  /** The API entry point used, e.g. `typescript/unstable/sync`. */
  readonly entry: string;
  /** Starts the compiler and loads the given tsconfig files (absolute paths) in one snapshot. */
  openSession(configPaths: readonly string[], cwd: string): NativeSession;
}

/**
 * How to drive one generation of the API. 7.0 ships it as `unstable/*` with `updateSnapshot`;
 * 7.1 renames it (`typescript/sync`, `createSnapshot`): a loader for it is an entry here.
 */
interface Loader {
  readonly accepts: (major: number, minor: number, patch: number) => boolean;
  readonly sync: string;
  readonly ast: string;
  readonly open: (sync: NativeSyncModule, options: NativeApiOptions, configPaths: readonly string[]) => { api: NativeApi; snapshot: NativeSnapshot };
}

const LOADERS: readonly Loader[] = [
  {
    // 7.0.0 and 7.0.1 are not driven: the API this loader drives is 7.0.2's.
    accepts: (major, minor, patch) => major === 7 && minor === 0 && patch >= 2,
    sync: "unstable/sync",
    ast: "unstable/ast",
    open: (sync, options, configPaths) => {
      const api = new sync.API(options);
      try {
        return { api, snapshot: api.updateSnapshot({ openProjects: [...configPaths] }) };
      } catch (error) {
        api.close();
        throw error;
      }
    },
  },
  {
    // 7.1 renames the entry points and opens projects with `createSnapshot`; a snapshot finds a
    // project by its tsconfig with `getConfiguredProject`, and a project's root files are in
    // `parsedCommandLine`.
    accepts: (major, minor) => major === 7 && minor === 1,
    sync: "sync",
    ast: "ast",
    open: (sync, options, configPaths) => {
      const api = new sync.API(options) as NativeApi & { createSnapshot(params: { openProjects: string[] }): NativeSnapshot71 };
      try {
        const snapshot = api.createSnapshot({ openProjects: [...configPaths] });
        const project = (configFileName: string): NativeProject | undefined => {
          const found = snapshot.getConfiguredProject(configFileName);
          return found === undefined ? undefined : Object.assign(Object.create(found) as NativeProject, { rootFiles: found.parsedCommandLine?.fileNames ?? [] });
        };
        return { api, snapshot: { getProjects: () => [], getProject: project, dispose: () => snapshot.dispose() } };
      } catch (error) {
        api.close();
        throw error;
      }
    },
  },
];

interface NativeSnapshot71 {
  getConfiguredProject(configFileName: string): (Omit<NativeProject, "rootFiles"> & { readonly parsedCommandLine?: { readonly fileNames?: readonly string[] } }) | undefined;
  dispose(): void;
}

/** The versions this package drives, as the error for any other says. */
export const SUPPORTED_NATIVE_VERSIONS = "7.0.2 to 7.1.x (typescript >=7.0.2 <7.2)";

/**
 * Loads the IPC API of the TypeScript 7 installed at `packageDirectory` (the directory holding its
 * package.json). Client and compiler must come from the same install: the protocol is unversioned.
 */
export function loadNativeTypeScript(directory: string): NativeTypeScript {
  const packageDirectory = path.resolve(directory);
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDirectory, "package.json"), "utf8")) as { version?: string };
  const version = manifest.version ?? "0.0.0";
  const [major = 0, minor = 0, patch = 0] = version.split("-")[0]!.split(".").map((part) => Number.parseInt(part, 10));
  const loader = LOADERS.find((candidate) => candidate.accepts(major, minor, patch));
  if (loader === undefined) {
    throw new Error(`TypeScript ${version} at ${packageDirectory}: the native backend drives TypeScript ${SUPPORTED_NATIVE_VERSIONS}'s API`);
  }
  // Resolved from the package itself, so an alias (`"ts7": "npm:typescript@7"`) works too.
  const load = createRequire(path.join(packageDirectory, "package.json"));
  const name = "typescript";
  const resolveEntry = (subpath: string): string => {
    const file = path.join(packageDirectory, exportTarget(packageDirectory, `./${subpath}`));
    return file;
  };
  let sync: NativeSyncModule;
  let ast: NativeAstModule;
  try {
    sync = load(resolveEntry(loader.sync)) as NativeSyncModule;
    ast = load(resolveEntry(loader.ast)) as NativeAstModule;
  } catch (error) {
    throw new Error(`cannot load ${name}/${loader.sync} from ${packageDirectory}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  const syntax = createSyntaxPort(ast, sync);
  return {
    version,
    directory: packageDirectory,
    entry: `${name}/${loader.sync}`,
    openSession: (configPaths, cwd) => openSession(loader, sync, syntax, configPaths, { cwd, ...compilerWithCapturedErrors(packageDirectory) }, compilerLibraryDirectory(packageDirectory)),
  };
}

/** The file a package's `exports` maps `subpath` to (the API's entry points are plain strings). */
function exportTarget(packageDirectory: string, subpath: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDirectory, "package.json"), "utf8")) as { exports?: Record<string, unknown> };
  const target = manifest.exports?.[subpath];
  const file = typeof target === "string" ? target : typeof (target as { default?: unknown } | undefined)?.default === "string" ? (target as { default: string }).default : undefined;
  if (file === undefined) throw new Error(`the package has no '${subpath}' export`);
  return file;
}

interface NativeApiOptions {
  readonly cwd: string;
  /** The compiler to run (TypeScript 7's own by default). */
  readonly tsserverPath?: string;
  /** Where the compiler's standard error goes, when `tsserverPath` is the wrapper that captures it. */
  readonly errorLog?: string;
}

/**
 * TypeScript 7's compiler shares this process's standard error, and stopping it (the API's
 * `close` kills it) can make it print "context canceled" there. On POSIX it is started through a
 * two-line shell wrapper that sends its standard error to a file instead; `close` forwards what
 * the file holds but that line. Elsewhere (or when the compiler cannot be found) it runs as is.
 */
function compilerWithCapturedErrors(packageDirectory: string): Omit<NativeApiOptions, "cwd"> {
  if (process.platform === "win32") return {};
  const exe = compilerExecutable(packageDirectory);
  if (exe === undefined) return {};
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-tsgo-"));
  const errorLog = path.join(directory, "stderr.log");
  const wrapper = path.join(directory, "tsgo");
  const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${quote(exe)} "$@" 2>>${quote(errorLog)}\n`, { mode: 0o755 });
  return { tsserverPath: wrapper, errorLog };
}

/** TypeScript 7's compiler, as its package finds it; `undefined` when it cannot say. */
function compilerExecutable(packageDirectory: string): string | undefined {
  try {
    const getExePath = (createRequire(path.join(packageDirectory, "package.json"))(path.join(packageDirectory, "lib", "getExePath.js")) as { default: () => string }).default;
    return getExePath();
  } catch {
    return undefined;
  }
}

/**
 * The directory of the compiler's own library files (`lib.es2022.d.ts`…), which sit beside it, as
 * TypeScript 7 names its files (real path, forward slashes); `undefined` when it cannot be told.
 */
function compilerLibraryDirectory(packageDirectory: string): string | undefined {
  const exe = compilerExecutable(packageDirectory);
  if (exe === undefined) return undefined;
  try {
    return fs.realpathSync(path.dirname(exe)).replace(/\\/g, "/");
  } catch {
    return undefined;
  }
}

/** Forwards what the compiler wrote on standard error, but the line its stopping prints. */
function forwardErrors(errorLog: string | undefined): void {
  if (errorLog === undefined) return;
  try {
    const text = fs.readFileSync(errorLog, "utf8");
    const lines = text.split("\n").filter((line) => line !== "" && line !== "context canceled");
    if (lines.length > 0) process.stderr.write(`${lines.join("\n")}\n`);
  } catch {
    // nothing was written
  } finally {
    fs.rmSync(path.dirname(errorLog), { recursive: true, force: true });
  }
}

function openSession(loader: Loader, sync: NativeSyncModule, syntax: SyntaxPort, configPaths: readonly string[], options: NativeApiOptions, libraryDirectory: string | undefined): NativeSession {
  const { errorLog, ...apiOptions } = options;
  let opened: ReturnType<Loader["open"]>;
  try {
    opened = loader.open(sync, apiOptions, configPaths);
  } catch (error) {
    forwardErrors(errorLog);
    throw error;
  }
  const { api, snapshot } = opened;
  const projects = new Map<string, NativeProjectPorts | null>();
  return {
    project(configPath) {
      let ports = projects.get(configPath);
      if (ports === undefined) {
        const project = snapshot.getProject(configPath) ?? snapshot.getProjects().find((candidate) => path.resolve(candidate.configFileName) === path.resolve(configPath));
        ports = project === undefined ? null : projectPorts(project, sync, syntax, libraryDirectory);
        projects.set(configPath, ports);
      }
      return ports ?? undefined;
    },
    close() {
      try {
        snapshot.dispose();
      } finally {
        api.close();
        forwardErrors(errorLog);
      }
    },
  };
}

/** `DiagnosticCategory.Error`, the same number in TypeScript 6 and 7. */
const DIAGNOSTIC_ERROR = 1;

/**
 * Whether file names differ by case on this file system, told as TypeScript tells it: this file's
 * name with its case swapped names no file. Declarations name their files by a canonical path,
 * lower-cased where the case does not count.
 */
const CASE_SENSITIVE_FILE_NAMES = ((): boolean => {
  const swapped = __filename.replace(/\w/g, (character) => (character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase()));
  return swapped === __filename || !fs.existsSync(swapped);
})();

function projectPorts(project: NativeProject, sync: NativeSyncModule, syntax: SyntaxPort, libraryDirectory: string | undefined): NativeProjectPorts {
  const checker: CheckerPort = asCheckerPort(new NativeCheckerPort(project.checker, project, sync, syntax));
  const native = project.program;
  /**
   * Every file's syntax errors from one request, asked once, rather than a request per file (a
   * file without errors, nearly every file, then costs nothing); per file only if an error came
   * without its file's name.
   */
  let syntaxErrorsByFile: Map<string, NativeDiagnostic[]> | null | undefined;
  const syntaxErrorsOf = (fileName: string): readonly NativeDiagnostic[] => {
    if (syntaxErrorsByFile === undefined) {
      syntaxErrorsByFile = new Map();
      for (const diagnostic of native.getSyntacticDiagnostics()) {
        if (diagnostic.fileName === undefined) {
          syntaxErrorsByFile = null;
          break;
        }
        const list = syntaxErrorsByFile.get(diagnostic.fileName);
        if (list === undefined) syntaxErrorsByFile.set(diagnostic.fileName, [diagnostic]);
        else list.push(diagnostic);
      }
    }
    return syntaxErrorsByFile === null ? native.getSyntacticDiagnostics(fileName) : (syntaxErrorsByFile.get(fileName) ?? []);
  };
  const isCompilerLibrary = (fileName: string): boolean =>
    libraryDirectory !== undefined && fileName.startsWith(`${libraryDirectory}/`) && /^lib\.[^/]*\.d\.ts$/.test(fileName.slice(libraryDirectory.length + 1));
  // The program of a snapshot never changes, and the API asks for its list anew at every call (a
  // round trip and every file's name, five times a check): asked once.
  let fileNames: readonly string[] | undefined;
  const rootFiles = new Set(project.rootFiles);
  const sourceFileNames = (): readonly string[] => (fileNames ??= native.getSourceFileNames());
  const program: ProgramPort = {
    getSourceFileNames: sourceFileNames,
    getSourceFile: (fileName) => native.getSourceFile(fileName) as unknown as ts.SourceFile | undefined,
    getSourceFiles: () => sourceFileNames().flatMap((fileName) => {
      const sourceFile = native.getSourceFile(fileName);
      return sourceFile === undefined ? [] : [sourceFile as unknown as ts.SourceFile];
    }),
    // A file the tsconfig names is never one from an external library: both compilers mark only the
    // files they first reach through node_modules, below the root files. Told without a request
    // (the metadata request otherwise made for every file of the project).
    isSourceFileFromExternalLibrary: (sourceFile) => !rootFiles.has(sourceFile.fileName) && native.isSourceFileFromExternalLibrary(sourceFile as unknown as NativeSourceFile),
    getTypeChecker: () => checker,
    // Asked by name: a library file is never fetched to tell (the API caches the answer per program).
    // A default library is a declaration file (both compilers load only those as libraries): any
    // other file is told by its name, without a request.
    isDefaultLibraryFileName: (fileName) => isDeclarationFileName(fileName) && native.getSourceFileMetadata(fileName)?.isDefaultLibrary === true,
    // The files the module graph may be read from (reach.ts): all but the compiler's own library
    // files (the largest of a program, which import nothing and never declare the mark), told by
    // where they are, without a request.
    getModuleGraphFileNames: () => sourceFileNames().filter((fileName) => !isCompilerLibrary(fileName)),
    // The facts libraries are judged from (packages/analysis/src/sealed-libraries.ts): their text,
    // read from disk (the text TypeScript 7 read them from) rather than fetched as syntax.
    readFileText: (fileName) => {
      try {
        return fs.readFileSync(fileName, "utf8");
      } catch {
        return undefined;
      }
    },
    getCompilerOptions: () => native.getCompilerOptions(),
    useCaseSensitiveFileNames: () => CASE_SENSITIVE_FILE_NAMES,
  };
  return {
    configFileName: project.configFileName,
    rootFiles: project.rootFiles,
    syntax,
    program,
    candidateSources: () =>
      sourceFileNames()
        .filter((fileName) => !isExternalFileName(fileName))
        .flatMap((fileName) => (native.getSourceFile(fileName) as unknown as ts.SourceFile | undefined) ?? []),
    compilerOptions: () => native.getCompilerOptions(),
    configErrors: () =>
      native
        .getConfigFileParsingDiagnostics()
        .filter((diagnostic) => diagnostic.category === DIAGNOSTIC_ERROR)
        .map((diagnostic) => ({ fileName: diagnostic.fileName ?? project.configFileName, start: diagnostic.fileName === undefined ? -1 : diagnostic.pos, code: diagnostic.code, message: diagnostic.text })),
    syntaxErrors: (sourceFile) =>
      syntaxErrorsOf(sourceFile.fileName).map((diagnostic) => ({
        fileName: diagnostic.fileName ?? sourceFile.fileName,
        start: diagnostic.pos,
        code: diagnostic.code,
        message: diagnostic.text,
      })),
  };
}
