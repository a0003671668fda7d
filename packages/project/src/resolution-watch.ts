import * as path from "node:path";
import type * as ts from "typescript";
import type { TypeScript } from "./typescript";

/*
 * What a program's module resolution depended on besides its own files, kept by `ProjectSession`
 * to see, as `tsc --watch` sees them, an import that did not resolve and now does (a package
 * installed, a file written) and a package.json that changed: resolved again, and fingerprinted,
 * on every refresh. Apart from the session because it reads TypeScript's own records of what it
 * resolved (internal: checked on 5.0 to 6.0; a TypeScript without them leaves resolutions
 * unwatched, as before).
 */

/**
 * An import or type reference that resolved to no file of the program: not installed yet, not
 * written yet, or JavaScript without types. It is resolved again on every refresh, as `tsc
 * --watch` watches the places it looked in.
 */
interface PendingResolution {
  readonly kind: "module" | "type";
  readonly name: string;
  readonly mode: ts.ResolutionMode;
  /** The importing file; for a `types` entry or an @types package, the file TypeScript resolves those from. */
  readonly containingFile: string;
  /** The file whose resolutions TypeScript is told to redo; `undefined` for a `types` entry or an @types package. */
  readonly path: ts.Path | undefined;
  readonly resolvedFileName: string | undefined;
}

/** What module resolution depended on in the last program, besides the program's own files. */
export interface ResolutionWatch {
  readonly pending: readonly PendingResolution[];
  /**
   * Each package.json that resolution read or looked for (its `exports`, `types`, `main`), and
   * that decided a file's module format (`type`), with its fingerprint then and the files whose
   * resolutions it decided.
   */
  readonly affecting: ReadonlyMap<string, { readonly fingerprint: string; readonly files: ReadonlySet<ts.Path> }>;
  /**
   * The automatic type references: the `types` entries, a `"*"` among them (or, before TypeScript
   * 6, no `types` at all) widened to every package under node_modules/@types, so one installed
   * there is included.
   */
  readonly automaticTypes: string;
}

/** Since the last program: the files whose resolutions must be redone, and whether the automatic type references must. */
export interface ResolutionChanges {
  readonly files: ReadonlySet<ts.Path>;
  readonly automaticTypes: boolean;
}

/** One resolution as the program keeps it (`ts.ResolvedModuleWithFailedLookupLocations` and its type-reference twin). */
interface KeptResolution {
  readonly resolvedModule?: { readonly resolvedFileName: string };
  readonly resolvedTypeReferenceDirective?: { readonly resolvedFileName?: string | undefined };
  /** Internal to TypeScript (as in 5.0 to 6.0): the package.json files the resolution read. */
  readonly affectingLocations?: readonly string[];
  /** Internal to TypeScript (as in 5.0 to 6.0): every place the resolution looked in and found nothing. */
  readonly failedLookupLocations?: readonly string[];
}

/** A `ts.ModeAwareCache` of resolutions. */
interface KeptResolutions {
  forEach(callback: (resolution: KeptResolution, name: string, mode: ts.ResolutionMode) => void): void;
}

/**
 * Where the program keeps what it resolved. Internal to TypeScript: on the program since 5.3, on
 * each source file before; a TypeScript with neither leaves the resolutions unwatched.
 */
interface ProgramResolutions {
  forEachResolvedModule?(callback: (resolution: KeptResolution, name: string, mode: ts.ResolutionMode, filePath: ts.Path) => void): void;
  forEachResolvedTypeReferenceDirective?(callback: (resolution: KeptResolution, name: string, mode: ts.ResolutionMode, filePath: ts.Path) => void): void;
  getAutomaticTypeDirectiveResolutions?(): KeptResolutions | undefined;
}

interface SourceFileResolutions {
  readonly path: ts.Path;
  readonly resolvedModules?: KeptResolutions;
  readonly resolvedTypeReferenceDirectiveNames?: KeptResolutions;
  /** The package.json files looked for to decide its module format, nearest first, found or not. */
  readonly packageJsonLocations?: readonly string[];
  /** The modules it declares (`declare module "x"`, patterns such as `"*.css"` included). */
  readonly ambientModuleNames?: readonly string[];
}

/** The file TypeScript resolves `types` entries and @types packages from, in the config's directory (its `inferredTypesContainingFile`). */
const INFERRED_TYPES = "__inferred type names__.ts";

/**
 * What `program`'s module resolution depended on: each resolution that found no file of the
 * program, and each package.json read or looked for, by resolution or for a file's format.
 */
export function resolutionWatchOf(
  program: ts.Program,
  options: ts.CompilerOptions,
  automaticTypes: string,
  fingerprintOf: (file: string) => string,
  /** Shown every resolution the program kept (`filePath` undefined for an automatic type reference). */
  visit?: (resolution: KeptResolution, name: string, mode: ts.ResolutionMode, filePath: ts.Path | undefined) => void,
): ResolutionWatch {
  const pending: PendingResolution[] = [];
  const affecting = new Map<string, { fingerprint: string; files: Set<ts.Path> }>();
  const dependsOn = (location: string, filePath: ts.Path): void => {
    let entry = affecting.get(location);
    if (entry === undefined) affecting.set(location, (entry = { fingerprint: fingerprintOf(location), files: new Set() }));
    entry.files.add(filePath);
  };
  const ambient = new Set<string>();
  for (const sourceFile of program.getSourceFiles() as unknown as SourceFileResolutions[]) for (const name of sourceFile.ambientModuleNames ?? []) ambient.add(name);
  const watch =
    (kind: PendingResolution["kind"]) =>
    (resolution: KeptResolution, name: string, mode: ts.ResolutionMode, filePath: ts.Path): void => {
      visit?.(resolution, name, mode, filePath);
      for (const location of resolution.affectingLocations ?? []) dependsOn(location, filePath);
      const resolvedFileName = resolution.resolvedModule?.resolvedFileName ?? resolution.resolvedTypeReferenceDirective?.resolvedFileName;
      if (resolvedFileName !== undefined && program.getSourceFile(resolvedFileName) !== undefined) return;
      // A module the program declares (`declare module "node:fs"`, as @types/node declares every
      // built-in) is what the checker takes before any file an import resolves to: a file
      // appearing there changes nothing.
      if (kind === "module" && ambient.has(name)) return;
      const containing = program.getSourceFileByPath(filePath);
      if (containing !== undefined) pending.push({ kind, name, mode, containingFile: containing.fileName, path: filePath, resolvedFileName });
    };
  const kept = program as ts.Program & ProgramResolutions;
  if (kept.forEachResolvedModule !== undefined && kept.forEachResolvedTypeReferenceDirective !== undefined) {
    kept.forEachResolvedModule(watch("module"));
    kept.forEachResolvedTypeReferenceDirective(watch("type"));
  } else {
    // TypeScript 5.0 to 5.2 keep them on each source file.
    for (const sourceFile of program.getSourceFiles() as unknown as SourceFileResolutions[]) {
      sourceFile.resolvedModules?.forEach((resolution, name, mode) => watch("module")(resolution, name, mode, sourceFile.path));
      sourceFile.resolvedTypeReferenceDirectiveNames?.forEach((resolution, name, mode) => watch("type")(resolution, name, mode, sourceFile.path));
    }
  }
  const inferred = path.join(typeof options.configFilePath === "string" ? path.dirname(options.configFilePath) : program.getCurrentDirectory(), INFERRED_TYPES);
  kept.getAutomaticTypeDirectiveResolutions?.()?.forEach((resolution, name, mode) => {
    visit?.(resolution, name, mode, undefined);
    const resolvedFileName = resolution.resolvedTypeReferenceDirective?.resolvedFileName;
    if (resolvedFileName === undefined || program.getSourceFile(resolvedFileName) === undefined) pending.push({ kind: "type", name, mode, containingFile: inferred, path: undefined, resolvedFileName });
  });
  for (const sourceFile of program.getSourceFiles() as unknown as SourceFileResolutions[]) {
    for (const location of sourceFile.packageJsonLocations ?? []) dependsOn(location, sourceFile.path);
  }
  return { pending, affecting, automaticTypes };
}

/** What changed since `watch` was taken: a pending resolution that now finds something else, a package.json changed. */
export function resolutionChanges(
typescript: TypeScript,
options: ts.CompilerOptions,
watch: ResolutionWatch,
automaticTypes: string,
fingerprintOf: (file: string) => string,
): ResolutionChanges {
  const files = new Set<ts.Path>();
  let automatic = automaticTypes !== watch.automaticTypes;
  const cache = watch.pending.length > 0 ? typescript.createModuleResolutionCache(typescript.sys.getCurrentDirectory(), (name) => name, options) : undefined;
  for (const entry of watch.pending) {
    const now =
      entry.kind === "module"
        ? typescript.resolveModuleName(entry.name, entry.containingFile, options, typescript.sys, cache, undefined, entry.mode).resolvedModule?.resolvedFileName
        : typescript.resolveTypeReferenceDirective(entry.name, entry.containingFile, options, typescript.sys, undefined, undefined, entry.mode).resolvedTypeReferenceDirective?.resolvedFileName;
    if (now === entry.resolvedFileName) continue;
    if (entry.path === undefined) automatic = true;
    else files.add(entry.path);
  }
  for (const [location, { fingerprint, files: dependents }] of watch.affecting) {
    if (fingerprintOf(location) !== fingerprint) for (const file of dependents) files.add(file);
  }
  return { files, automaticTypes: automatic };
}

/** Whether `file` is a package.json, which module resolution and a file's module format read. */
export function isPackageJson(file: string): boolean {
  return /(?:^|[\\/])package\.json$/.test(file);
}

/** What a program's resolution depended on, as paths a record keeps and checks without TypeScript. */
export interface ResolutionInputs {
  /** Every place a resolution that found no file of the program looked in: one appearing is a change. */
  readonly missing: readonly string[];
  /** Every package.json resolution read or looked for, or that decided a file's module format. */
  readonly packageJsons: readonly string[];
}

/**
 * What the start-up check's record of `program` must see change, as the session sees it (see
 * `resolutionWatchOf`): an import that did not resolve because its file was not written or its
 * package not installed, and a package.json changed (a pnpm link re-pointed, a `type` written).
 * Taken from the same records, so the two agree on what an unresolved import is.
 */
export function resolutionInputsOf(program: ts.Program, options: ts.CompilerOptions): ResolutionInputs {
  const missing = new Set<string>();
  const failed = new Map<string, readonly string[]>();
  const collect = (resolution: KeptResolution, name: string): void => {
    const lookups = resolution.failedLookupLocations ?? [];
    failed.set(name, lookups);
  };
  const pending = new Set<string>();
  const watch = resolutionWatchOf(program, options, "", () => "", (resolution, name, mode, filePath) => {
    collect(resolution, `${name}\0${String(mode)}\0${filePath ?? ""}`);
  });
  for (const entry of watch.pending) pending.add(`${entry.name}\0${String(entry.mode)}\0${entry.path ?? ""}`);
  for (const [key, lookups] of failed) if (pending.has(key)) for (const location of lookups) missing.add(location);
  return { missing: [...missing].sort(), packageJsons: [...watch.affecting.keys()].sort() };
}
