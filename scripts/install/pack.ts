import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const REPO = path.resolve(__dirname, "..", "..");
const PACKAGES = path.join(REPO, "packages");

/** Package name (`@sourced/cli`) to the absolute path of its packed tarball. */
export type Tarballs = Readonly<Record<string, string>>;

export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  readonly directory: string;
}

/** The publishable packages of the workspace: every `packages/*` that is not private. */
export function workspacePackages(): PackedPackage[] {
  return fs
    .readdirSync(PACKAGES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(PACKAGES, entry.name, "package.json")))
    .map((entry) => {
      const directory = path.join(PACKAGES, entry.name);
      const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as { name: string; version: string; private?: boolean };
      return { name: manifest.name, version: manifest.version, directory, private: manifest.private === true };
    })
    .filter((entry) => !entry.private)
    .map(({ name, version, directory }) => ({ name, version, directory }));
}

/** The file name `pnpm pack` gives a package: `@sourced/cli@0.1.0` -> `sourced-cli-0.1.0.tgz`. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

let packed: Tarballs | undefined;
let packedDirectory: string | undefined;

/** Removes the tarballs {@link packWorkspace} wrote (call it from `afterAll`). */
export function removePackedTarballs(): void {
  if (packedDirectory !== undefined) fs.rmSync(packedDirectory, { recursive: true, force: true });
  packed = undefined;
  packedDirectory = undefined;
}

/**
 * Packs every publishable package with `pnpm pack`, as a release would (`workspace:` ranges become
 * version ranges), into a fresh directory outside the workspace. Once per process (until
 * {@link removePackedTarballs}); the packages must be built (`pnpm build`).
 */
export function packWorkspace(): Tarballs {
  if (packed !== undefined) return packed;
  const destination = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-tarballs-"));
  packedDirectory = destination;
  const tarballs: Record<string, string> = {};
  for (const { name, version, directory } of workspacePackages()) {
    if (!fs.existsSync(path.join(directory, "dist"))) throw new Error(`${name} has no dist/: run 'pnpm build' before packing it.`);
    const result = spawnSync("pnpm", ["pack", "--pack-destination", destination], { cwd: directory, encoding: "utf8", env: cleanEnv() });
    const tarball = path.join(destination, tarballName(name, version));
    if (result.status !== 0 || !fs.existsSync(tarball)) {
      throw new Error(`pnpm pack failed for ${name} (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
    tarballs[name] = tarball;
  }
  packed = tarballs;
  return tarballs;
}

/** The files a tarball holds, relative to its `package/` root. */
export function tarballFiles(tarball: string): string[] {
  const result = spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`cannot list ${tarball}: ${result.stderr}`);
  return result.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.replace(/^package\//, ""));
}

/**
 * The environment for a package manager run outside the workspace: without the `npm_*` and
 * `pnpm_config_*` variables a `pnpm test` run exports (they would configure the child like the
 * workspace), and without `NODE_OPTIONS` (a test runner's loader hooks).
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_config_)/i.test(key) || key === "NODE_OPTIONS" || key === "INIT_CWD") continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}
