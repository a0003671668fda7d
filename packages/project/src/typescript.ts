import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as ts from "typescript";
import { UsageError } from "./errors";

export type TypeScript = typeof ts;

export interface LoadedTypeScript {
  readonly ts: TypeScript;
  readonly version: string;
  /** The file `require` loaded. */
  readonly path: string;
  /** Why the project's own `typescript` was passed over, when it was (printed as a note). */
  readonly note: string | undefined;
}

/** The package TypeScript publishes for tools that need the version-6 JavaScript API beside TypeScript 7. */
const TYPESCRIPT6 = "@typescript/typescript6";
const MINIMUM = [5, 0] as const;
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
  for (const [specifier, from] of candidates) {
    const candidate = tryLoad(specifier, from);
    if (candidate === undefined || seen.has(candidate.path)) continue;
    seen.add(candidate.path);
    if (candidate.problem === undefined) {
      const note = passedOver.length > 0 ? `${passedOver.join("; ")}; checking with TypeScript ${candidate.version} from ${candidate.path}.` : undefined;
      return { ts: candidate.ts!, version: candidate.version, path: candidate.path, note };
    }
    passedOver.push(candidate.problem);
  }
  const found = passedOver.length > 0 ? `${passedOver.join("; ")}.` : `no 'typescript' package can be resolved from ${projectDirectory}.`;
  throw new UsageError(
    `${found} sourced check's classic backend needs the TypeScript JavaScript API (typescript >=5.0 <6.1). ` +
      `TypeScript 7 has none (its own API runs with '--backend native'): for the classic backend, install TypeScript 6 beside it, e.g. 'npm install --save-dev ${TYPESCRIPT6}@6' ` +
      `(or, without TypeScript 7, 'npm install --save-dev typescript@6').`,
  );
}

interface Candidate {
  readonly path: string;
  readonly version: string;
  readonly ts: TypeScript | undefined;
  /** Why this copy cannot be used; `undefined` when it can. */
  readonly problem: string | undefined;
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
  const [major = 0, minor = 0] = candidate.version.split(".").map(Number);
  if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
    return { path: entry, version: candidate.version, ts: undefined, problem: `${specifier} ${candidate.version} at ${path.dirname(manifest ?? entry)} is older than ${MINIMUM.join(".")}` };
  }
  return { path: entry, version: candidate.version, ts: candidate as TypeScript, problem: undefined };
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
