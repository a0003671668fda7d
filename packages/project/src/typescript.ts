import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as ts from "typescript";
import { UsageError } from "./errors";
import { CLASSIC_RANGE, classicFit, INSTALL_CLASSIC, INSTALL_CLASSIC_BESIDE } from "./versions";

export type TypeScript = typeof ts;

export interface LoadedTypeScript {
  readonly ts: TypeScript;
  readonly version: string;
  /** The file `require` loaded. */
  readonly path: string;
  /** Why the project's own `typescript` was passed over, when it was (printed as a note). */
  readonly note: string | undefined;
  /**
   * Set when the TypeScript loaded is a newer 6.x than the classic backend supports: it is used,
   * and this says so (a warning, as typescript-eslint gives for a TypeScript it was not tested on).
   */
  readonly warning: string | undefined;
}

/** The package TypeScript publishes for tools that need the version-6 JavaScript API beside TypeScript 7. */
const TYPESCRIPT6 = "@typescript/typescript6";
/** `require` by resolved path: the TypeScript to load is known only at run time. */
const loadModule = createRequire(__filename);

/**
 * Loads the TypeScript the checked project builds with, so that the check sees the project as its
 * own compiler does: `typescript` resolved from the project's directory; when that one is TypeScript 7
 * (no JavaScript API) or missing, `@typescript/typescript6` beside it; then the CLI's own peer.
 *
 * `fallbackDirectories` is where the CLI itself resolves from (a parameter so tests can move it).
 */
export function loadTypeScript(projectDirectory: string, fallbackDirectories: readonly string[] = [__dirname]): LoadedTypeScript {
  const passedOver: string[] = [];
  const candidates: Array<[specifier: string, from: string]> = [
    ["typescript", projectDirectory],
    [TYPESCRIPT6, projectDirectory],
    ...fallbackDirectories.flatMap((from): Array<[string, string]> => [
      ["typescript", from],
      [TYPESCRIPT6, from],
    ]),
  ];
  const seen = new Set<string>();
  let sawTypeScript7 = false;
  for (const [specifier, from] of candidates) {
    const candidate = tryLoad(specifier, from);
    if (candidate === undefined || seen.has(candidate.path)) continue;
    seen.add(candidate.path);
    if (candidate.problem === undefined) {
      const note = passedOver.length > 0 ? `${passedOver.join("; ")}; checking with TypeScript ${candidate.version} from ${candidate.path}.` : undefined;
      return { ts: candidate.ts!, version: candidate.version, path: candidate.path, note, warning: candidate.warning };
    }
    passedOver.push(candidate.problem);
    if (Number.parseInt(candidate.version, 10) >= 7) sawTypeScript7 = true;
  }
  const found = passedOver.length > 0 ? `${passedOver.join("; ")}.` : `no 'typescript' package can be resolved from ${projectDirectory}.`;
  const needs = `sourced check's classic backend needs the TypeScript JavaScript API (typescript ${CLASSIC_RANGE}).`;
  throw new UsageError(
    sawTypeScript7
      ? `${found} ${needs} TypeScript 7 has none (its own API runs with '--backend native'): for the classic backend, install TypeScript 6 beside it, e.g. '${INSTALL_CLASSIC_BESIDE}' ` +
          `(or, without TypeScript 7, '${INSTALL_CLASSIC}').`
      : `${found} ${needs} Install it: '${INSTALL_CLASSIC}'.`,
  );
}

interface Candidate {
  readonly path: string;
  readonly version: string;
  readonly ts: TypeScript | undefined;
  /** Why this copy cannot be used; `undefined` when it can. */
  readonly problem: string | undefined;
  /** Why this copy, usable, is used with a warning. */
  readonly warning?: string | undefined;
}

function tryLoad(specifier: string, from: string): Candidate | undefined {
  const manifest = resolve(`${specifier}/package.json`, from);
  const entry = resolve(specifier, from);
  if (manifest === undefined && entry === undefined) return undefined;
  const version = manifest === undefined ? "(unknown version)" : readVersion(manifest);
  const where = entry ?? path.dirname(manifest!);
  const label = `${specifier} ${version} at ${path.dirname(manifest ?? where)}`;
  if (entry === undefined) return { path: where, version, ts: undefined, problem: `${label} has no JavaScript API` };
  let loaded: unknown;
  try {
    loaded = loadModule(entry);
  } catch (error) {
    return { path: entry, version, ts: undefined, problem: `${label} cannot be loaded (${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  }
  const candidate = loaded as Partial<TypeScript> | undefined;
  if (typeof candidate?.createProgram !== "function" || typeof candidate.version !== "string") {
    return { path: entry, version, ts: undefined, problem: `${label} has no JavaScript API` };
  }
  const loadedLabel = `${specifier} ${candidate.version} at ${path.dirname(manifest ?? entry)}`;
  const fit = classicFit(candidate.version);
  if (fit === "older") {
    return { path: entry, version: candidate.version, ts: undefined, problem: `${loadedLabel} is older than 5.0, the oldest the classic backend supports (typescript ${CLASSIC_RANGE})` };
  }
  if (fit === "newer" && Number.parseInt(candidate.version, 10) > 6) {
    // A major version is a break by definition: refused, where a newer 6.x minor is only warned about.
    return { path: entry, version: candidate.version, ts: undefined, problem: `${loadedLabel} is a major version the classic backend does not support (typescript ${CLASSIC_RANGE})` };
  }
  const warning =
    fit === "newer"
      ? `${loadedLabel} is newer than the classic backend supports (typescript ${CLASSIC_RANGE}); checking with it anyway, as its JavaScript API seldom changes within a major version, ` +
        `but sourced was not tested on it: if a verdict looks wrong, check with a supported TypeScript ('${INSTALL_CLASSIC}') before reporting it`
      : undefined;
  return { path: entry, version: candidate.version, ts: candidate as TypeScript, problem: undefined, warning };
}

function resolve(specifier: string, from: string): string | undefined {
  try {
    return loadModule.resolve(specifier, { paths: [from] });
  } catch {
    return undefined;
  }
}

function readVersion(manifest: string): string {
  try {
    const { version } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : "(unknown version)";
  } catch {
    return "(unknown version)";
  }
}
