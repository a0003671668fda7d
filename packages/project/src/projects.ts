import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { NativeSyntaxError } from "@sourced/analysis-native";
import { stripJsonComments } from "./config-files";
import { UsageError } from "./errors";
import type { TypeScript } from "./typescript";

/** One tsconfig, parsed, with the TypeScript that reads it. */
export interface Project {
  readonly configPath: string;
  readonly parsed: ts.ParsedCommandLine;
}

/** Configuration problems, as TypeScript reports them, ready to print in its own format. */
export class ConfigError extends UsageError {
  override readonly name: string = "ConfigError";

  constructor(
    message: string,
    /** TypeScript's diagnostics, formatted as tsc prints them. */
    readonly diagnostics: string,
  ) {
    super(message);
  }
}

/**
 * Reads a tsconfig and, depth first, every project it references, referenced projects before the
 * projects that reference them (the order `tsc -b` builds in). Each config appears once however
 * often it is referenced. Configuration errors throw a {@link ConfigError}: a check over a project
 * its own compiler rejects could not be trusted.
 */
export function readProjects(
  ts: TypeScript,
  configPath: string,
  seen: Set<string>,
  extendedConfigCache: Map<string, ts.ExtendedConfigCacheEntry>,
  cwd: string,
): Project[] {
  const projects: Project[] = [];
  const visit = (file: string, referencedFrom: { config: string; reference: number } | undefined): void => {
    const key = canonical(ts, file);
    if (seen.has(key)) return;
    seen.add(key);
    if (!ts.sys.fileExists(file)) {
      const where = referencedFrom === undefined ? "" : `${referenceLocation(ts, referencedFrom.config, referencedFrom.reference, cwd)}: `;
      throw new UsageError(`${where}the referenced project '${file}' does not exist. Fix the path in 'references', or remove the reference.`);
    }
    const unrecoverable: ts.Diagnostic[] = [];
    const host: ts.ParseConfigFileHost = {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => unrecoverable.push(diagnostic),
    };
    const parsed = ts.getParsedCommandLineOfConfigFile(file, undefined, host, extendedConfigCache);
    const errors = [...unrecoverable, ...(parsed ? ts.getConfigFileParsingDiagnostics(parsed) : [])].filter(
      (diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error,
    );
    if (parsed === undefined || errors.length > 0) {
      const formatted = ts.formatDiagnostics(errors, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => cwd, getNewLine: () => "\n" });
      throw new ConfigError(`${path.relative(cwd, file) || file} is not a valid TypeScript configuration; fix the errors above.`, formatted);
    }
    (parsed.projectReferences ?? []).forEach((reference, index) => {
      visit(ts.resolveProjectReferencePath(reference), { config: file, reference: index });
    });
    projects.push({ configPath: file, parsed });
  };
  visit(configPath, undefined);
  return projects;
}

/** A configuration error on one line: `file(line,col): message` where TypeScript places it (the file relative to `cwd`), its message alone where it places nothing. */
export function configErrorText(ts: TypeScript, diagnostic: ts.Diagnostic, cwd: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
  if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
  const { line, character } = ts.getLineAndCharacterOfPosition(diagnostic.file, diagnostic.start);
  return `${relativeName(cwd, diagnostic.file.fileName)}(${line + 1},${character + 1}): ${message}`;
}

/** {@link configErrorText} for TypeScript 7's errors, which it places by offset (leading trivia included). */
export function nativeConfigErrorText(error: NativeSyntaxError, cwd: string): string {
  const place = nativeErrorPlace(error, cwd);
  return place === undefined ? error.message : `${place}: ${error.message}`;
}

/**
 * Where TypeScript 7 places an error of a file (a tsconfig's, a source's syntax): `file(line,col)`,
 * the file relative to `cwd`, past the leading trivia its offset includes; the file alone when it
 * cannot be read; `undefined` when TypeScript places it nowhere. One reading for every front-end
 * that prints such an error (`sourced check`, the project layer).
 */
export function nativeErrorPlace(error: NativeSyntaxError, cwd: string): string | undefined {
  if (error.start < 0) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(error.fileName, "utf8");
  } catch {
    return relativeName(cwd, error.fileName);
  }
  let start = error.start;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  const before = text.slice(0, start).split(/\r?\n/);
  return `${relativeName(cwd, error.fileName)}(${before.length},${before.at(-1)!.length + 1})`;
}

function relativeName(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join("/") || file;
}

function canonical(ts: TypeScript, file: string): string {
  let real = path.resolve(file);
  try {
    real = fs.realpathSync.native(real);
  } catch {
    // A missing file is reported by the caller with the path as written.
  }
  return ts.sys.useCaseSensitiveFileNames ? real : real.toLowerCase();
}

/** `tsconfig.json(line,col)` of the n-th entry of `references`, so a broken reference can be found. */
function referenceLocation(ts: TypeScript, config: string, index: number, cwd: string): string {
  const display = path.relative(cwd, config) || config;
  const text = ts.sys.readFile(config);
  if (text === undefined) return display;
  const json = ts.parseJsonText(config, text);
  const root = json.statements[0]?.expression;
  if (root === undefined || !ts.isObjectLiteralExpression(root)) return display;
  for (const property of root.properties) {
    if (!ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.name) || property.name.text !== "references") continue;
    if (!ts.isArrayLiteralExpression(property.initializer)) break;
    const element = property.initializer.elements[index];
    if (element === undefined) break;
    const { line, character } = json.getLineAndCharacterOfPosition(element.getStart(json));
    return `${display}(${line + 1},${character + 1})`;
  }
  return display;
}

/**
 * A compiler host whose declaration files (lib.*.d.ts, @types, dependencies' typings) are parsed
 * once for all the projects of a run instead of once per project. Only declaration files are
 * shared: how a source file parses can depend on its project's options.
 */
export function createSharedHost(ts: TypeScript, options: ts.CompilerOptions, cache: Map<string, ts.SourceFile>): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (shouldCreateNewSourceFile || !fileName.endsWith(".d.ts")) {
      return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    }
    const settings =
      typeof languageVersionOrOptions === "object"
        ? `${languageVersionOrOptions.languageVersion}|${languageVersionOrOptions.impliedNodeFormat ?? ""}|${languageVersionOrOptions.jsDocParsingMode ?? ""}`
        : `${languageVersionOrOptions}`;
    const key = `${settings}|${fileName}`;
    let sourceFile = cache.get(key);
    if (sourceFile === undefined) {
      sourceFile = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
      if (sourceFile !== undefined) cache.set(key, sourceFile);
    }
    return sourceFile;
  };
  return host;
}

/**
 * The native backend's `readProjects`: the tsconfig files to open, referenced projects first,
 * each once. TypeScript 7 parses each configuration itself (and reports its errors); only the
 * `references` are read here, leniently (comments and trailing commas allowed, as in tsconfig).
 */
export function readNativeProjects(configPath: string, seen: Set<string>, cwd: string): string[] {
  const configs: string[] = [];
  const visit = (file: string, referencedFrom: string | undefined): void => {
    const key = canonicalPath(file);
    if (seen.has(key)) return;
    seen.add(key);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      const where = referencedFrom === undefined ? "" : `${path.relative(cwd, referencedFrom) || referencedFrom}: `;
      throw new UsageError(`${where}the referenced project '${file}' does not exist. Fix the path in 'references', or remove the reference.`);
    }
    for (const reference of referencesOf(text)) {
      const target = path.resolve(path.dirname(file), reference);
      const isDirectory = fs.existsSync(target) && fs.statSync(target).isDirectory();
      visit(isDirectory ? path.join(target, "tsconfig.json") : target, file);
    }
    configs.push(file);
  };
  visit(configPath, undefined);
  return configs;
}

/** The `path` of each entry of a tsconfig's `references`, from its JSON-with-comments text. */
function referencesOf(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch {
    return []; // TypeScript 7 reports the malformed file itself
  }
  const references = (json as { references?: unknown } | null)?.references;
  if (!Array.isArray(references)) return [];
  return references.flatMap((reference: unknown) => {
    const referencePath = (reference as { path?: unknown } | null)?.path;
    return typeof referencePath === "string" ? [referencePath] : [];
  });
}

function canonicalPath(file: string): string {
  try {
    return fs.realpathSync.native(path.resolve(file));
  } catch {
    return path.resolve(file);
  }
}
