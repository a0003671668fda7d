import * as fs from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { configCoverage } from "../config-files";
import type { Frame } from "./protocol";

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

/** A frame in the sources: where the analysis will look for it. `mapped` when a source map led there. */
export interface SourcePosition extends Frame {
  readonly mapped?: Frame;
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
  if (TYPESCRIPT.test(frame.file)) return frame;
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
  return { file: source, line: entry.originalLine + 1, column: entry.originalColumn + 1, mapped: frame };
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

/**
 * Why `file`, JavaScript in a tsconfig's output directory, cannot be judged: plain tsc built it
 * without the source maps that lead back to the sources. Said the same for every file of one
 * output directory, so its registrations share one warning. `undefined` for JavaScript elsewhere.
 */
export function builtWithoutSourceMaps(file: string, configs: readonly string[], display: (file: string) => string): string | undefined {
  for (const config of configs) {
    const outDir = configCoverage(config).skipped.find((directory) => file.startsWith(`${directory}${path.sep}`));
    if (outDir !== undefined) {
      return `${display(outDir)} holds the output of a TypeScript build without source maps, which would lead back to its sources ("sourceMap": true in ${display(config)} gives them)`;
    }
  }
  return undefined;
}
