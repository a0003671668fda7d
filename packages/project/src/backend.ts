import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type { NativeTypeScript } from "@sourced/analysis-native";
import { UsageError } from "./errors";
import { type LoadedTypeScript, loadTypeScript } from "./typescript";
import { INSTALL_CLASSIC_BESIDE, INSTALL_NATIVE, majorMinor, NATIVE_RANGE, nativeFit } from "./versions";

/**
 * Which compiler the judgement runs on. `classic`: TypeScript 5.x/6.x's JavaScript API, in
 * process. `native`: TypeScript 7's compiler, through its IPC API (`@sourced/analysis-native`).
 */
export type Backend = "classic" | "native";
export const BACKENDS: readonly Backend[] = ["classic", "native"];

/** A TypeScript package found for a project. */
export interface InstalledTypeScript {
  readonly version: string;
  readonly major: number;
  /** The directory holding its package.json. */
  readonly directory: string;
  /** How it was found: the project's `tsc` command, or the `typescript` package resolved from the project. */
  readonly via: "tsc" | "typescript";
}

const loadModule = createRequire(__filename);

/**
 * The TypeScript the project builds with: the package whose `tsc` is the project's
 * `node_modules/.bin/tsc` (nearest first), so an alias setup (`typescript` → TypeScript 6 for
 * ESLint, TypeScript 7 installed under another name and owning `tsc`) is read as the project's
 * `tsc` is; else the `typescript` package resolved from the project's directory.
 */
export function projectTypeScript(projectDirectory: string): InstalledTypeScript | undefined {
  for (let directory = path.resolve(projectDirectory); ; directory = path.dirname(directory)) {
    const bin = path.join(directory, "node_modules", ".bin", "tsc");
    const owner = fs.existsSync(bin) ? packageOfBin(bin) : undefined;
    if (owner !== undefined) return { ...owner, via: "tsc" };
    if (path.dirname(directory) === directory) break;
  }
  try {
    const manifest = loadModule.resolve("typescript/package.json", { paths: [projectDirectory] });
    const found = readPackage(path.dirname(manifest));
    return found === undefined ? undefined : { ...found, via: "typescript" };
  } catch {
    return undefined;
  }
}

/** The package a `.bin` entry runs: a symlink (npm, yarn) or a shell shim naming the file (pnpm). */
function packageOfBin(bin: string): Omit<InstalledTypeScript, "via"> | undefined {
  let target: string | undefined;
  try {
    if (fs.lstatSync(bin).isSymbolicLink()) target = fs.realpathSync(bin);
    else {
      // pnpm's shim runs `node "$basedir/../typescript/bin/tsc"`; the other `$basedir` paths are node's own.
      const shim = fs.readFileSync(bin, "utf8");
      const match = /"\$basedir\/(\.\.\/[^"]+)"/.exec(shim);
      if (match !== null) target = path.resolve(path.dirname(bin), match[1]!);
    }
  } catch {
    return undefined;
  }
  for (let directory = target === undefined ? undefined : path.dirname(target); directory !== undefined; ) {
    const found = readPackage(directory);
    if (found !== undefined) return found;
    const parent = path.dirname(directory);
    directory = parent === directory ? undefined : parent;
  }
  return undefined;
}

function readPackage(directory: string): Omit<InstalledTypeScript, "via"> | undefined {
  const manifestPath = path.join(directory, "package.json");
  if (!fs.existsSync(manifestPath)) return undefined;
  try {
    const { version } = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as { version?: unknown };
    if (typeof version !== "string") return undefined;
    return { version, major: Number.parseInt(version, 10), directory: fs.realpathSync(directory) };
  } catch {
    return undefined;
  }
}

/** The native backend cannot run for a project: `reason` says why, the message adds what to do. */
export class NativeBackendUnavailable extends UsageError {
  constructor(
    readonly reason: string,
    readonly advice: string,
  ) {
    super(`${reason}. ${advice}`);
  }
}

/** The backend for a project: forced, or native exactly when the project's TypeScript is 7 or later. */
export function chooseBackend(projectDirectory: string, forced: Backend | undefined): { readonly backend: Backend; readonly typescript: InstalledTypeScript | undefined } {
  const typescript = projectTypeScript(projectDirectory);
  if (forced !== undefined) return { backend: forced, typescript };
  return { backend: typescript !== undefined && typescript.major >= 7 ? "native" : "classic", typescript };
}

/**
 * The TypeScript 7 to run the native backend with: the project's own (its `tsc`, or `typescript`
 * when that is 7). Throws {@link UsageError} saying what to install when there is none.
 */
export function loadNative(projectDirectory: string, found: InstalledTypeScript | undefined): NativeTypeScript {
  let candidate = found !== undefined && found.major >= 7 ? found : undefined;
  if (candidate === undefined) {
    try {
      const manifest = loadModule.resolve("typescript/package.json", { paths: [projectDirectory] });
      const typescript = readPackage(path.dirname(manifest));
      if (typescript !== undefined && typescript.major >= 7) candidate = { ...typescript, via: "typescript" };
    } catch {
      // reported below
    }
  }
  if (candidate === undefined) {
    const seen = found === undefined ? "no TypeScript" : `TypeScript ${found.version} (at ${found.directory})`;
    throw new NativeBackendUnavailable(
      `the native backend needs TypeScript 7, and the project at ${projectDirectory} has ${seen}`,
      `Install it ('${INSTALL_NATIVE}'), or drop '--backend native' to check with the classic backend.`,
    );
  }
  // Refused before anything is loaded: TypeScript 7's API is unstable, so a version outside the
  // range is not tried (a newer minor renames its entry points; 7.0.0 and 7.0.1 are not supported).
  const fit = nativeFit(candidate.version);
  if (fit !== "supported") {
    const where = `TypeScript ${candidate.version} at ${candidate.directory}`;
    const beside = `or check it on the classic backend with TypeScript 6 beside it ('${INSTALL_CLASSIC_BESIDE}')`;
    throw fit === "older"
      ? new NativeBackendUnavailable(`${where} is older than the native backend supports (typescript ${NATIVE_RANGE})`, `Upgrade it ('${INSTALL_NATIVE}'), ${beside}.`)
      : new NativeBackendUnavailable(
          `${where} is newer than the native backend supports (typescript ${NATIVE_RANGE}; TypeScript 7's API changes between minor versions)`,
          `Install a supported one ('${INSTALL_NATIVE}') or a release of sourced that supports TypeScript ${majorMinor(candidate.version)}, ${beside}.`,
        );
  }
  // Loaded only now: a classic check never loads the native adapter.
  const native = loadModule("@sourced/analysis-native") as typeof import("@sourced/analysis-native");
  try {
    return native.loadNativeTypeScript(candidate.directory);
  } catch (error) {
    throw new NativeBackendUnavailable(
      error instanceof Error ? error.message : String(error),
      `Use TypeScript ${native.SUPPORTED_NATIVE_VERSIONS}, or '--backend classic' with TypeScript 6 installed beside it.`,
    );
  }
}

/**
 * The classic backend's TypeScript for a project whose chosen native backend cannot run. When there
 * is none either, one error leads with why TypeScript 7 could not run and what to do: the classic
 * loader's own words would only tell a TypeScript 7 project to install TypeScript 6.
 */
export function loadClassicInstead(projectDirectory: string, native: NativeBackendUnavailable, fallbackDirectories?: readonly string[]): LoadedTypeScript {
  try {
    return loadTypeScript(projectDirectory, fallbackDirectories);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`${native.reason}, and the classic backend has no TypeScript 5 or 6 to check it with instead. ${native.advice}`);
  }
}
