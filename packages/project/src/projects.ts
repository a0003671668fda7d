import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { NativeSyntaxError } from "@sourced/analysis-native";
import { jsonTokens, referencedConfig, stripJsonComments } from "./config-files";
import { UsageError } from "./errors";
import { parseAsTsc } from "./tsc-parsing";
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
  return `${relativeName(cwd, error.fileName)}(${lineAndColumn(text, start)})`;
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
  // A key written twice counts once, at its last writing, as TypeScript reads the config.
  const references = root.properties.findLast((property) => ts.isPropertyAssignment(property) && ts.isStringLiteral(property.name) && property.name.text === "references");
  if (references === undefined || !ts.isPropertyAssignment(references) || !ts.isArrayLiteralExpression(references.initializer)) return display;
  const element = references.initializer.elements[index];
  if (element === undefined) return display;
  const { line, character } = json.getLineAndCharacterOfPosition(element.getStart(json));
  return `${display}(${line + 1},${character + 1})`;
}

/**
 * A compiler host whose declaration files (lib.*.d.ts, @types, dependencies' typings) are parsed
 * once for all the projects of a run instead of once per project. Only declaration files are
 * shared: how a source file parses can depend on its project's options.
 */
export function createSharedHost(ts: TypeScript, options: ts.CompilerOptions, cache: Map<string, ts.SourceFile>): ts.CompilerHost {
  const host = parseAsTsc(ts, ts.createCompilerHost(options, true));
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
 * `references` are read here, leniently (comments and trailing commas allowed, as in tsconfig),
 * resolved as both compilers resolve them, and a missing one is reported as `readProjects`
 * reports it: at its entry of `references`, naming the tsconfig it stands for.
 */
export function readNativeProjects(configPath: string, seen: Set<string>, cwd: string): string[] {
  const configs: string[] = [];
  const visit = (file: string, referencedFrom: { config: string; text: string; start: number } | undefined): void => {
    const key = canonicalPath(file);
    if (seen.has(key)) return;
    seen.add(key);
    let text: string;
    try {
      // As TypeScript reads it: a byte order mark is no part of the JSON (JSON.parse refuses it).
      text = fs.readFileSync(file, "utf8").replace(/^\uFEFF/, "");
    } catch {
      const where = referencedFrom === undefined ? "" : `${referencePlace(referencedFrom.config, referencedFrom.text, referencedFrom.start, cwd)}: `;
      throw new UsageError(`${where}the referenced project '${file}' does not exist. Fix the path in 'references', or remove the reference.`);
    }
    for (const reference of referencesOf(text)) {
      visit(referencedConfig(path.resolve(path.dirname(file), reference.path)), { config: file, text, start: reference.start });
    }
    configs.push(file);
  };
  visit(configPath, undefined);
  return configs;
}

/** `tsconfig.json(line,col)` of a reference's entry, as `readProjects` places it; the config alone when the entry's place is not known. */
function referencePlace(config: string, text: string, start: number, cwd: string): string {
  const display = path.relative(cwd, config) || config;
  return start < 0 ? display : `${display}(${lineAndColumn(text, start)})`;
}

/** `line,column` of `offset` in `text`, 1-based, counting the line breaks TypeScript counts. */
function lineAndColumn(text: string, offset: number): string {
  const lines = text.slice(0, offset).split(/\r\n|[\n\r\u2028\u2029]/);
  return `${lines.length},${lines.at(-1)!.length + 1}`;
}

/**
 * The `path` of each entry of a tsconfig's `references`, from its JSON-with-comments text, with
 * the offset of the entry's first token (-1 when it cannot be found).
 */
function referencesOf(text: string): { readonly path: string; readonly start: number }[] {
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch {
    return []; // TypeScript 7 reports the malformed file itself
  }
  const references = (json as { references?: unknown } | null)?.references;
  if (!Array.isArray(references)) return [];
  const starts = referenceStarts(text);
  return references.flatMap((reference: unknown, index) => {
    const referencePath = (reference as { path?: unknown } | null)?.path;
    const start = starts?.length === references.length ? starts[index]! : -1;
    return typeof referencePath === "string" ? [{ path: referencePath, start }] : [];
  });
}

/**
 * Where each entry of the top-level `references` array starts: the offset of its first token,
 * past white space and comments, where TypeScript places an error about it. It reads the tokens
 * `stripJsonComments` reads (`jsonTokens`), of text that JSON.parse accepted once comments and
 * trailing commas were stripped, so only nesting needs following; the last `references` counts, as
 * in JSON.parse. `undefined` when no such array is where it should be.
 */
function referenceStarts(text: string): number[] | undefined {
  /** How deep the next token is: 1 in the top-level object. */
  let depth = 0;
  /** At depth 1: whether the next string is a key (after `{` or `,`), and the last key read. */
  let keyNext = false;
  let key: string | undefined;
  /** At depth 1: whether the next token starts the value of `references`. */
  let referencesNext = false;
  /** The entries of the `references` array being read, and whether the next token starts one. */
  let reading: number[] | undefined;
  let entryNext = false;
  let starts: number[] | undefined;
  for (const token of jsonTokens(text)) {
    const piece = text.slice(token.start, token.end);
    if (token.kind === "comment" || (token.kind === "char" && /\s/.test(piece))) continue;
    if (depth === 0) {
      if (piece !== "{") return undefined;
      depth = 1;
      keyNext = true;
      continue;
    }
    if (referencesNext) {
      referencesNext = false;
      if (piece === "[") {
        reading = [];
        entryNext = true;
      } else {
        starts = undefined;
      }
    } else if (reading !== undefined && depth === 2 && entryNext && piece !== "]") {
      reading.push(token.start);
      entryNext = false;
    }
    if (token.kind === "string") {
      // A key as JSON.parse reads it (escapes decoded), as TypeScript matches `references` too.
      if (depth === 1 && keyNext) key = JSON.parse(piece) as string;
      keyNext = false;
    } else if (piece === "{" || piece === "[") {
      depth++;
    } else if (piece === "}" || piece === "]") {
      depth--;
      if (depth === 1 && reading !== undefined) {
        starts = reading;
        reading = undefined;
      }
      if (depth === 0) return starts;
    } else if (piece === ",") {
      if (depth === 1) keyNext = true;
      if (depth === 2) entryNext = true;
    } else if (piece === ":" && depth === 1) {
      referencesNext = key === "references";
    }
  }
  return starts;
}

function canonicalPath(file: string): string {
  try {
    return fs.realpathSync.native(path.resolve(file));
  } catch {
    return path.resolve(file);
  }
}
