import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

/*
 * What a tsconfig says about which files it covers, read without TypeScript: the files it
 * extends, and the directories its `include` globs search. The start-up check's cache reads
 * these in the server's own thread, where loading TypeScript would cost more than the check it
 * saves.
 */

/** One token of JSON-with-comments text: what {@link jsonTokens} yields. */
export interface JsonToken {
  /**
   * `string`: a string whole, its quotes and escapes as written; `comment`: a line comment (up to,
   * not including, its line break) or a block comment; `char`: any other single character, white
   * space included.
   */
  readonly kind: "string" | "comment" | "char";
  /** Its offset in the text. */
  readonly start: number;
  /** The offset just past it. */
  readonly end: number;
}

/**
 * The tokens of JSON with comments, as tsconfig files are written, in order and covering the whole
 * text: the one reading of its strings (with their escapes) and comments that every reader of
 * tsconfig text here shares — `stripJsonComments`, and the reader that places each entry of
 * `references` (projects.ts) — so that none of them takes a comment marker inside a string, or a
 * quote inside a comment, differently from the others. An unterminated string or block comment
 * runs to the end of the text.
 */
export function* jsonTokens(text: string): Generator<JsonToken, void, undefined> {
  let at = 0;
  while (at < text.length) {
    const start = at;
    const char = text[at];
    if (char === '"') {
      for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === "\\") at++;
      at = Math.min(at + 1, text.length);
      yield { kind: "string", start, end: at };
    } else if (char === "/" && text[at + 1] === "/") {
      const lineBreak = text.indexOf("\n", at + 2);
      at = lineBreak < 0 ? text.length : lineBreak;
      yield { kind: "comment", start, end: at };
    } else if (char === "/" && text[at + 1] === "*") {
      const close = text.indexOf("*/", at + 2);
      at = close < 0 ? text.length : close + 2;
      yield { kind: "comment", start, end: at };
    } else {
      at++;
      yield { kind: "char", start, end: at };
    }
  }
}

/**
 * JSON with comments and trailing commas, as tsconfig files allow, made plain JSON: strings are
 * kept whole (see `jsonTokens`), so neither a comment marker nor a `,]` inside a string is touched.
 * A leading byte order mark is dropped, as TypeScript drops it when it reads a file: JSON.parse
 * refuses it, and a config saved with one would otherwise be read as saying nothing. Read without
 * TypeScript: the start-up check's cache reads configs in the server's own thread, and TypeScript 7
 * has no config reader in node.
 */
export function stripJsonComments(withMark: string): string {
  const text = withMark.replace(/^\uFEFF/, "");
  let out = "";
  /** Where in `out` a comma waits: dropped if the next token closes an array or object. */
  let pendingComma = -1;
  for (const token of jsonTokens(text)) {
    if (token.kind === "comment") continue; // a line comment's line break is the next token
    const piece = text.slice(token.start, token.end);
    if (token.kind === "string") {
      pendingComma = -1;
    } else if (piece === "}" || piece === "]") {
      if (pendingComma >= 0) out = out.slice(0, pendingComma) + out.slice(pendingComma + 1);
      pendingComma = -1;
    } else if (piece === ",") {
      pendingComma = out.length;
    } else if (!/\s/.test(piece)) {
      pendingComma = -1;
    }
    out += piece;
  }
  return out;
}

type Json = Record<string, unknown>;

function readJson(file: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(stripJsonComments(fs.readFileSync(file, "utf8")));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The file an `extends` entry names, resolved as TypeScript resolves it: a path, or a package's tsconfig. */
function resolveExtends(specifier: string, from: string): string | undefined {
  const directory = path.dirname(from);
  if (specifier.startsWith(".") || path.isAbsolute(specifier)) {
    const file = path.resolve(directory, specifier);
    return fs.existsSync(file) || !fs.existsSync(`${file}.json`) ? file : `${file}.json`;
  }
  const require = createRequire(from);
  for (const candidate of [specifier, `${specifier}.json`, `${specifier}/tsconfig.json`]) {
    try {
      return require.resolve(candidate);
    } catch {
      // the next form
    }
  }
  return undefined;
}

export interface ConfigCoverage {
  /** The config and every file it extends, transitively. */
  readonly configFiles: readonly string[];
  /** The directories its `include` globs search (absolute); empty when it lists its `files` only. */
  readonly searched: readonly string[];
  /** Directories that hold no sources: output directories, which builds write into. */
  readonly skipped: readonly string[];
  /** Where tsc writes the JavaScript (`outDir`, the extending config's first); `undefined`: beside each source. */
  readonly outDir: string | undefined;
  /** `rootDir` (the extending config's first): the tree `outDir` mirrors; `undefined` when tsc computes it. */
  readonly rootDir: string | undefined;
  /** `noEmit` as the config (or the first it extends that says) sets it: such a config writes nothing. */
  readonly noEmit: boolean;
  /** The tsconfig files its own `references` name (a directory stands for its tsconfig.json). */
  readonly references: readonly string[];
}

/**
 * Which files a tsconfig's own text makes part of the project: the configs it extends (whose
 * `include`, `files` and `compilerOptions` it inherits, each path relative to the config that
 * wrote it), and the directories `include` makes TypeScript search.
 */
export function configCoverage(configPath: string): ConfigCoverage {
  const configFiles: string[] = [];
  let include: { readonly patterns: readonly unknown[]; readonly base: string } | undefined;
  let hasFiles = false;
  const skipped: string[] = [];
  let outDir: string | undefined;
  let rootDir: string | undefined;
  let noEmit: boolean | undefined;
  const references: string[] = [];
  const visit = (file: string, depth: number): void => {
    if (configFiles.includes(file) || depth > 16) return;
    configFiles.push(file);
    const json = readJson(file);
    if (json === undefined) return;
    const directory = path.dirname(file);
    // The config that extends wins: only the first one that says `include` (or `files`) counts.
    if (include === undefined && Array.isArray(json["include"])) include = { patterns: json["include"] as unknown[], base: directory };
    if (Array.isArray(json["files"])) hasFiles = true;
    const options = json["compilerOptions"] as Json | undefined;
    for (const key of ["outDir", "declarationDir"]) {
      const value = options?.[key];
      if (typeof value === "string") skipped.push(path.resolve(directory, value));
    }
    if (typeof options?.["outDir"] === "string") outDir ??= path.resolve(directory, options["outDir"]);
    if (typeof options?.["rootDir"] === "string") rootDir ??= path.resolve(directory, options["rootDir"]);
    if (typeof options?.["noEmit"] === "boolean") noEmit ??= options["noEmit"];
    // `references` is never inherited through `extends`: only the config's own count.
    if (depth === 0 && Array.isArray(json["references"])) {
      for (const reference of json["references"] as unknown[]) {
        const target = (reference as Json | null)?.["path"];
        if (typeof target !== "string") continue;
        references.push(referencedConfig(path.resolve(directory, target)));
      }
    }
    const extended = json["extends"];
    for (const specifier of typeof extended === "string" ? [extended] : Array.isArray(extended) ? extended : []) {
      if (typeof specifier !== "string") continue;
      const target = resolveExtends(specifier, file);
      if (target !== undefined) visit(target, depth + 1);
    }
  };
  visit(path.resolve(configPath), 0);
  const patterns = include ?? (hasFiles ? { patterns: [], base: path.dirname(configPath) } : { patterns: ["**/*"], base: path.dirname(configPath) });
  const searched = new Set<string>();
  for (const pattern of patterns.patterns) {
    if (typeof pattern !== "string") continue;
    const segments = pattern.split(/[\\/]/);
    const wildcard = segments.findIndex((segment) => /[*?[]/.test(segment));
    const fixed = wildcard < 0 ? segments : segments.slice(0, wildcard);
    searched.add(path.resolve(patterns.base, ...fixed));
  }
  return { configFiles, searched: [...searched], skipped, outDir, rootDir, noEmit: noEmit === true, references };
}

/** Sources TypeScript would pick up in a searched directory. */
const SOURCE = /\.(?:[cm]?tsx?|[cm]?jsx?)$/;
/** Past this many entries a directory tree is not fingerprinted (its project is then never taken from the cache). */
const MAX_ENTRIES = 50_000;

/**
 * A fingerprint of the source files and folders under `directory` (not `node_modules`, hidden
 * folders, or `skipped`): a file added, removed or renamed where `include` searches changes the
 * project's files, and so this. `undefined` for a tree too large to walk at start-up.
 */
export function directoryFingerprint(directory: string, skipped: readonly string[]): string | undefined {
  const hash = createHash("sha1");
  let entries = 0;
  const pending = [directory];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let listing: fs.Dirent[];
    try {
      listing = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      hash.update(`${current}\0-\n`);
      continue;
    }
    const names: string[] = [];
    // Sorted: the walk, and so the fingerprint, must not depend on the order the file system lists in.
    for (const entry of listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.isDirectory()) {
        const full = path.join(current, entry.name);
        if (entry.name === "node_modules" || entry.name.startsWith(".") || skipped.includes(full)) continue;
        names.push(`${entry.name}/`);
        pending.push(full);
      } else if (SOURCE.test(entry.name)) {
        names.push(entry.name);
      }
    }
    entries += names.length;
    if (entries > MAX_ENTRIES) return undefined;
    hash.update(`${current}\0${names.join("\0")}\n`);
  }
  return hash.digest("base64");
}

/**
 * The tsconfig a reference's path stands for, as TypeScript 5/6 (`resolveProjectReferencePath`)
 * and TypeScript 7 resolve it: a path ending in `.json` is the config itself, any other names a
 * directory whose tsconfig.json it is, whatever is on disk (a file `lib.ts` stands for
 * `lib.ts/tsconfig.json`, which cannot exist).
 */
export function referencedConfig(resolved: string): string {
  return resolved.endsWith(".json") ? resolved : path.join(resolved, "tsconfig.json");
}
