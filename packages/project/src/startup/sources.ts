import * as fs from "node:fs";
import { findSourceMap, SourceMap, type SourceMapPayload } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { configCoverage } from "../config-files";
import type { Frame } from "./protocol";
import type { OutputRecord } from "./records";

/*
 * From the frames a registration's stack names to the source positions the analysis judged:
 * a TypeScript file as it is (Node's type stripping keeps positions; tsx and vitest map their
 * stacks through their own source maps), JavaScript through the source map it names when it was
 * built from TypeScript (plain tsc, a bundler without the plugin).
 */

const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
const JAVASCRIPT = /\.(?:[cm]?js|jsx)$/;
const DEPENDENCY = /[\\/]node_modules[\\/]/;

/** A file the analysis could judge: TypeScript or JavaScript, not a dependency's. */
export function isSourceFile(file: string): boolean {
  return path.isAbsolute(file) && !DEPENDENCY.test(file) && (TYPESCRIPT.test(file) || JAVASCRIPT.test(file));
}

export function isTypeScriptFile(file: string): boolean {
  return TYPESCRIPT.test(file);
}

/** A frame in the sources: where the analysis will look for it. `mapped` when it was traced there from the frame that ran. */
export interface SourcePosition extends Frame {
  readonly mapped?: MappedFrame;
}

/**
 * The frame that ran, traced to a source, and what traced it: the source map its file names, the
 * check's own emit of the source (plain tsc's output: the build's maps are not read), or the map a
 * loader (tsx) gave Node for its transpile of a TypeScript file. Messages say which: only the
 * first is a source map of the build's.
 */
export interface MappedFrame extends Frame {
  readonly through: "source map" | "emit" | "loader";
}

/** A frame that should lead to a source and cannot: why. */
export interface LostPosition {
  readonly lost: string;
}

export interface LoadedMap {
  readonly map: SourceMap;
  readonly mapFile: string;
  readonly sourceRoot: string;
}

/** The source maps read during one check, by the file that names them. */
export type SourceMaps = Map<string, LoadedMap | LostPosition | undefined>;

/** `sourceMappingURL` of a JavaScript file's last lines: a file path (relative to it) or a data URL. */
const SOURCE_MAPPING_URL = /\/[/*][#@]\s*sourceMappingURL=(\S+?)\s*(?:\*\/)?\s*$/;

function sourceMapOf(file: string, display: (file: string) => string, maps: SourceMaps): LoadedMap | LostPosition | undefined {
  if (maps.has(file)) return maps.get(file);
  let loaded: LoadedMap | LostPosition | undefined;
  try {
    const text = fs.readFileSync(file, "utf8");
    const tail = text.slice(Math.max(0, text.length - 4096)).trimEnd();
    const match = SOURCE_MAPPING_URL.exec(tail.slice(tail.lastIndexOf("\n") + 1));
    if (match !== null) {
      const url = match[1]!;
      let payload: string;
      let mapFile = file;
      if (url.startsWith("data:")) {
        const comma = url.indexOf(",");
        const body = url.slice(comma + 1);
        payload = url.slice(0, comma).endsWith(";base64") ? Buffer.from(body, "base64").toString("utf8") : decodeURIComponent(body);
      } else {
        mapFile = url.startsWith("file:") ? fileURLToPath(url) : path.resolve(path.dirname(file), decodeURIComponent(url));
        try {
          payload = fs.readFileSync(mapFile, "utf8");
        } catch {
          throw new Lost(`${display(file)} names its source map ${display(mapFile)}, which cannot be read`);
        }
      }
      const parsed = JSON.parse(payload) as SourceMapPayload & { sourceRoot?: string };
      loaded = { map: new SourceMap(parsed), mapFile, sourceRoot: parsed.sourceRoot ?? "" };
    }
  } catch (error) {
    loaded = error instanceof Lost ? { lost: error.message } : undefined;
  }
  maps.set(file, loaded);
  return loaded;
}

class Lost extends Error {}

/**
 * Where the analysis finds `frame`: itself for a TypeScript file, or JavaScript without a source
 * map; the original position for JavaScript whose source map leads to an existing source;
 * `undefined` for a frame that is no source (a dependency, Node's own).
 */
export function sourcePositionOf(frame: Frame, display: (file: string) => string, maps: SourceMaps): SourcePosition | LostPosition | undefined {
  if (!isSourceFile(frame.file)) return undefined;
  if (TYPESCRIPT.test(frame.file)) return throughLoaderMap(frame) ?? frame;
  const loaded = sourceMapOf(frame.file, display, maps);
  if (loaded === undefined) return frame;
  if ("lost" in loaded) return loaded;
  const entry = loaded.map.findEntry(frame.line - 1, frame.column - 1) as Partial<{ originalSource: string; originalLine: number; originalColumn: number }>;
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return frame;
  const source = entry.originalSource.startsWith("file:")
    ? fileURLToPath(entry.originalSource)
    : path.resolve(path.dirname(loaded.mapFile), loaded.sourceRoot, entry.originalSource);
  if (!fs.existsSync(source)) {
    return { lost: `${display(frame.file)} was built from ${display(source)} (its source map says), which is not there` };
  }
  if (!isSourceFile(source)) return undefined;
  // A map that holds the sources' text (bundlers write it; tsc with `inlineSources`) shows whether
  // they changed since the build: the analysis judges them as they are now.
  const index = loaded.map.payload.sources.indexOf(entry.originalSource);
  const content = loaded.map.payload.sourcesContent?.[index];
  if (typeof content === "string" && !sameSourceText(source, content, loaded)) {
    return { lost: `${display(frame.file)} was built from an earlier ${display(source)} (its source map holds the text it was built from): the sources changed after the build, so they are not what runs; rebuild and restart` };
  }
  return { file: source, line: entry.originalLine + 1, column: entry.originalColumn + 1, mapped: { ...frame, through: "source map" } };
}

/**
 * A TypeScript frame at a position its file does not have: the loader's output, not mapped back
 * (tsx writes each file's JavaScript on one line, `define.ts:1:351`, and its source map maps a
 * stack only while Node formats it: a library's own `Error.prepareStackTrace` — a logger's, an
 * APM's — formats raw positions). Node keeps the map the loader gave it: the position through it,
 * when it leads back into the same file. `undefined` for a position the file has (Node's type
 * stripping keeps positions; a mapped stack is in the source already).
 */
function throughLoaderMap(frame: Frame): SourcePosition | undefined {
  if (isInText(frame)) return undefined;
  let map: SourceMap | undefined;
  try {
    map = findSourceMap(frame.file);
  } catch {
    return undefined;
  }
  if (map === undefined) return undefined;
  const entry = map.findEntry(frame.line - 1, frame.column - 1) as Partial<{ originalSource: string; originalLine: number; originalColumn: number }>;
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
  const source = entry.originalSource.startsWith("file:") ? fileURLToPath(entry.originalSource) : path.resolve(path.dirname(frame.file), entry.originalSource);
  if (source !== frame.file) return undefined;
  return { file: source, line: entry.originalLine + 1, column: entry.originalColumn + 1, mapped: { ...frame, through: "loader" } };
}

/** The line lengths of TypeScript files read for `isInText`, by file (a check reads each once). */
const lineLengths = new Map<string, readonly number[] | null>();

/** Whether `frame`'s line and column are in its file's text (a column may stand just past a line's end). */
function isInText(frame: Frame): boolean {
  let lengths = lineLengths.get(frame.file);
  if (lengths === undefined) {
    try {
      lengths = fs.readFileSync(frame.file, "utf8").split("\n").map((line) => line.length);
    } catch {
      lengths = null;
    }
    lineLengths.set(frame.file, lengths);
  }
  if (lengths === null) return true;
  const length = lengths[frame.line - 1];
  return length !== undefined && frame.column <= length + 1;
}

const compared = new WeakMap<LoadedMap, Map<string, boolean>>();

function sameSourceText(source: string, content: string, loaded: LoadedMap): boolean {
  let known = compared.get(loaded);
  if (known === undefined) compared.set(loaded, (known = new Map<string, boolean>()));
  let same = known.get(source);
  if (same === undefined) {
    try {
      same = fs.readFileSync(source, "utf8").replace(/^\uFEFF/, "") === content.replace(/^\uFEFF/, "");
    } catch {
      same = false;
    }
    known.set(source, same);
  }
  return same;
}

/**
 * Whether JavaScript in a tsconfig's output directory is traced by the source map it names rather
 * than as tsc's output: a map of several sources is a bundle's (written where tsc would write),
 * and a map holding its sources' text shows by itself whether they changed.
 */
export function tracedByOwnMap(file: string, display: (file: string) => string, maps: SourceMaps): boolean {
  const loaded = sourceMapOf(file, display, maps);
  if (loaded === undefined || "lost" in loaded) return false;
  const { sources, sourcesContent } = loaded.map.payload;
  return sources.length !== 1 || (sourcesContent !== undefined && sourcesContent.length === sources.length && sourcesContent.every((text) => typeof text === "string"));
}

/**
 * The tsconfig (or jsconfig) of each directory from `file`'s up to the root, nearest first: the
 * configs that may hold it, as an editor looks for them.
 */
export function configsAbove(file: string): string[] {
  const configs: string[] = [];
  for (let directory = path.dirname(file); ; directory = path.dirname(directory)) {
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const candidate = path.join(directory, name);
      if (fs.existsSync(candidate)) {
        configs.push(candidate);
        break;
      }
    }
    if (path.dirname(directory) === directory) return configs;
  }
}

/** The TypeScript sources tsc emits `.js`, `.mjs` or `.cjs` from, by the emitted extension. */
const EMITTED_FROM: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

/**
 * The tsconfig that emitted `file` when it is plain tsc's output: among the configs above it
 * (and the projects they reference), the first whose `outDir` holds it, or, for a config without
 * one, whose sources include a file of its name beside it (tsc writes `server.js` next to
 * `server.ts`). A config nearer to the source the file mirrors (its place under `outDir`, taken
 * under `rootDir`) whose `outDir` holds it too comes first: a second project that extends the
 * first and inherits its `outDir` writes into it (`loose/tsconfig.json` extending
 * `tsconfig.json` writes `out/loose/`), as an editor takes the nearest config for the source.
 * `undefined` for JavaScript no config emits: a bundle, or JavaScript that is its own source.
 * Read from the configs' text; cached per file in `cache`.
 */
export function emittingConfig(file: string, cache: Map<string, string | undefined>): string | undefined {
  if (cache.has(file)) return cache.get(file);
  let found: string | undefined;
  const extension = path.extname(file);
  if (JAVASCRIPT.test(file) && !DEPENDENCY.test(file) && extension in EMITTED_FROM) {
    const seen = new Set<string>();
    const visit = (config: string): string | undefined => {
      if (seen.has(config) || !fs.existsSync(config)) return undefined;
      seen.add(config);
      const coverage = configCoverage(config);
      if (coverage.outDir !== undefined ? isInside(file, coverage.outDir) : isInside(file, path.dirname(config)) && hasSourceBeside(file, extension)) return config;
      for (const reference of coverage.references) {
        const inReference = visit(reference);
        if (inReference !== undefined) return inReference;
      }
      return undefined;
    };
    for (const config of configsAbove(file)) {
      found = visit(config);
      if (found !== undefined) break;
    }
    if (found !== undefined) found = nearerEmitter(file, found) ?? found;
  }
  cache.set(file, found);
  return found;
}

/** A config nearer than `emitter` to the source `file` mirrors, whose `outDir` holds `file` too (see `emittingConfig`). */
function nearerEmitter(file: string, emitter: string): string | undefined {
  const { outDir, rootDir } = configCoverage(emitter);
  if (outDir === undefined) return undefined;
  const mirrored = path.join(rootDir ?? path.dirname(emitter), path.relative(outDir, file));
  for (const config of configsAbove(mirrored)) {
    if (config === emitter) return undefined;
    const coverage = configCoverage(config);
    if (!coverage.noEmit && coverage.outDir !== undefined && isInside(file, coverage.outDir)) return config;
  }
  return undefined;
}

function hasSourceBeside(file: string, extension: string): boolean {
  const stem = file.slice(0, -extension.length);
  return (EMITTED_FROM[extension] ?? []).some((source) => fs.existsSync(`${stem}${source}`));
}

function isInside(file: string, directory: string): boolean {
  return file.startsWith(`${directory}${path.sep}`);
}

/** A frame in plain tsc's output, to be traced back through the config that emitted it. */
export interface OutputPosition {
  readonly output: string;
  readonly config: string;
  readonly frame: Frame;
}

const outputMaps = new WeakMap<OutputRecord, SourceMap>();

/** Where the analysis finds a frame of plain tsc's output: through the map of its emit, when it is traced; else why not. */
export function throughOutput(position: OutputPosition, record: OutputRecord | undefined, display: (file: string) => string): SourcePosition | LostPosition {
  const { frame } = position;
  if (record === undefined) return { lost: `${display(frame.file)} was not traced to its sources. Please report it` };
  if ("failure" in record) return { lost: record.failure };
  let map = outputMaps.get(record);
  if (map === undefined) {
    const payload = { version: 3, file: path.basename(record.file), sources: [record.source], sourcesContent: [], names: [], mappings: record.mappings, sourceRoot: "" };
    map = new SourceMap(payload);
    outputMaps.set(record, map);
  }
  const entry = map.findEntry(frame.line - 1, frame.column - 1) as Partial<{ originalLine: number; originalColumn: number }>;
  if (entry.originalLine === undefined || entry.originalColumn === undefined) {
    return { lost: `${display(frame.file)}:${frame.line}:${frame.column} leads to no place in ${display(record.source)}, which it was emitted from` };
  }
  return { file: record.source, line: entry.originalLine + 1, column: entry.originalColumn + 1, mapped: { ...frame, through: "emit" } };
}
