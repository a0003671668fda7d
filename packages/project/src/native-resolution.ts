import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as path from "node:path";
import type { ResolutionInputs } from "./resolution-watch";

/*
 * What a TypeScript 7 program's module resolution depended on, for the start-up check's record.
 * TypeScript 7's API tells neither what an import looked in nor which package.json it read, which
 * the classic record takes from TypeScript's own (`resolutionInputsOf`). So they are told here
 * from the files' text, as TypeScript looks: every place an import of the program may be found,
 * up to the first that is there, and the package.json of each package found and of each file's
 * scope. A file written or a package installed in one of the places, or a package.json changed (a
 * pnpm link re-pointed, an upgrade), makes the record stale. Told wider than TypeScript looks
 * rather than narrower: a place that does not matter costs one analysis when something appears
 * there, a place missed keeps a verdict about code that is gone.
 */

/** Extensions TypeScript tries after a module's name without one, or in place of a JavaScript one, in its order. */
const TYPESCRIPT_FIRST = [".ts", ".tsx", ".d.ts", ".js", ".jsx"];
const TRIED_FOR: Readonly<Record<string, readonly string[]>> = {
  ".js": TYPESCRIPT_FIRST,
  ".jsx": [".tsx", ".ts", ".d.ts", ".jsx", ".js"],
  ".mjs": [".mts", ".d.mts", ".mjs"],
  ".cjs": [".cts", ".d.cts", ".cjs"],
  ".json": [".d.json.ts", ".json"],
};
/** Extensions a specifier may end with that name the file itself (`allowImportingTsExtensions`, declarations). */
const ITSELF = [".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts"];

/*
 * A module specifier in a file's text: `from "m"`, `import "m"`, `import("m")`, `require("m")`,
 * `/// <reference path="m" />` and `/// <reference types="m" />`. Read from the text, comments
 * and strings that merely look like one included: a place too many costs nothing until a file
 * appears there.
 */
const SPECIFIER = /\b(?:from|import)\s*\(?\s*(["'])([^"'\r\n]+)\1|\brequire\s*\(\s*(["'])([^"'\r\n]+)\3|<reference\s+(path|types)\s*=\s*(["'])([^"'\r\n]+)\6/g;

/** The compiler options resolution reads here, as TypeScript 7 gives them (absolute paths). */
interface ResolutionOptions {
  readonly paths?: Readonly<Record<string, readonly string[]>>;
  readonly baseUrl?: string;
  readonly pathsBasePath?: string;
  readonly configFilePath?: string;
  readonly types?: readonly string[];
}

/**
 * What resolution depended on for `files` (the program's, absolute), in the shape of the classic
 * record: the places looked in that held nothing, and the package.json files read.
 */
export function nativeResolutionInputs(files: readonly string[], options: ResolutionOptions): ResolutionInputs {
  const missing = new Set<string>();
  const packageJsons = new Set<string>();
  // Many files look in the same places (a folder's node_modules, its package.json): each is asked of the disk once.
  const existing = new Map<string, boolean>();
  const exists = (location: string): boolean => {
    let found = existing.get(location);
    if (found === undefined) existing.set(location, (found = fs.existsSync(location)));
    return found;
  };
  const seen = new Set<string>();
  /** Looks in `places` in order up to the first that is there, as TypeScript does; the ones before it are missing. */
  const lookIn = (places: readonly string[]): string | undefined => {
    for (const place of places) {
      if (exists(place)) return place;
      missing.add(place);
    }
    return undefined;
  };
  const lookUp = (specifier: string, directory: string, kind: string): void => {
    const key = `${directory}\0${kind}\0${specifier}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (kind === "path" || isRelative(specifier)) {
      lookIn(kind === "path" ? [path.resolve(directory, specifier)] : fileLookups(path.resolve(directory, specifier)));
      return;
    }
    if (specifier.startsWith("#") || specifier.startsWith("node:") || builtinModules.includes(specifier)) return;
    for (const mapped of mappedLookups(specifier, options)) lookIn(mapped);
    const found = packageLookups(specifier, directory, lookIn);
    if (found !== undefined && exists(path.join(found, "package.json"))) packageJsons.add(path.join(found, "package.json"));
  };
  // The tsconfig's `types` are looked for from its folder (a `"*"` among them, every @types package, is not told).
  if (options.configFilePath !== undefined) for (const name of options.types ?? []) if (name !== "*") lookUp(name, path.dirname(options.configFilePath), "types");
  for (const file of files) {
    const directory = path.dirname(file);
    // The package.json that decides the file's module format and its `#` imports: the nearest, looked for upward.
    const scope = lookIn(ancestors(directory).map((folder) => path.join(folder, "package.json")));
    if (scope !== undefined) packageJsons.add(scope);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const match of text.matchAll(SPECIFIER)) {
      if (match[2] !== undefined) lookUp(match[2], directory, "module");
      else if (match[4] !== undefined) lookUp(match[4], directory, "module");
      else lookUp(match[7]!, directory, match[5]!);
    }
  }
  return { missing: [...missing].sort(), packageJsons: [...packageJsons].sort() };
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === ".." || path.isAbsolute(specifier);
}

/** Where a module at `base` (a path, as written) may be: a file, then a folder's package.json and index. */
function fileLookups(base: string): string[] {
  const itself = ITSELF.find((extension) => base.endsWith(extension));
  const extension = itself === undefined ? Object.keys(TRIED_FOR).find((known) => base.endsWith(known)) : undefined;
  const stem = extension === undefined ? base : base.slice(0, -extension.length);
  const files = itself !== undefined ? [base] : (extension === undefined ? TYPESCRIPT_FIRST : TRIED_FOR[extension]!).map((tried) => stem + tried);
  return [...files, path.join(base, "package.json"), ...TYPESCRIPT_FIRST.map((tried) => path.join(base, `index${tried}`))];
}

/** The places `paths` (and `baseUrl`) map a bare specifier to, each a list looked in on its own. */
function mappedLookups(specifier: string, options: ResolutionOptions): string[][] {
  const base = options.pathsBasePath ?? options.baseUrl ?? (options.configFilePath === undefined ? undefined : path.dirname(options.configFilePath));
  if (base === undefined) return [];
  const lookups: string[][] = [];
  for (const [pattern, substitutions] of Object.entries(options.paths ?? {})) {
    const star = pattern.indexOf("*");
    const matched =
      star < 0
        ? pattern === specifier
          ? ""
          : undefined
        : specifier.length >= pattern.length - 1 && specifier.startsWith(pattern.slice(0, star)) && specifier.endsWith(pattern.slice(star + 1))
          ? specifier.slice(star, specifier.length - (pattern.length - star - 1))
          : undefined;
    if (matched === undefined) continue;
    for (const substitution of substitutions) lookups.push(fileLookups(path.resolve(base, substitution.replace("*", matched))));
  }
  if (options.baseUrl !== undefined) lookups.push(fileLookups(path.resolve(options.baseUrl, specifier)));
  return lookups;
}

/**
 * A package's folder as node_modules folders hold it, looked for from `directory` upward beside its
 * @types package, up to the first folder holding either; the package's folder when found.
 */
function packageLookups(specifier: string, directory: string, lookIn: (places: readonly string[]) => string | undefined): string | undefined {
  const segments = specifier.split("/");
  const name = specifier.startsWith("@") ? segments.slice(0, 2).join("/") : segments[0]!;
  const types = `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;
  for (const folder of ancestors(directory)) {
    if (path.basename(folder) === "node_modules") continue;
    const modules = path.join(folder, "node_modules");
    const own = lookIn([path.join(modules, name)]);
    const typed = lookIn([path.join(modules, types)]);
    if (own !== undefined || typed !== undefined) return own ?? typed;
  }
  return undefined;
}

/** `directory` and every folder above it, nearest first. */
function ancestors(directory: string): string[] {
  const folders: string[] = [];
  for (let folder = directory; ; folder = path.dirname(folder)) {
    folders.push(folder);
    if (path.dirname(folder) === folder) return folders;
  }
}
