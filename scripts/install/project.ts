import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { envWithNode, type NodeBinary } from "../node-lines";
import { cleanEnv, type Tarballs } from "./pack";

export type Manager = "npm" | "pnpm";
export const MANAGERS: readonly Manager[] = ["npm", "pnpm"];

/** In a dependency list: install the packed tarball of this workspace package. */
export const PACKED = "packed";

export interface InstallSpec {
  readonly manager: Manager;
  readonly tarballs: Tarballs;
  /** Name to version (pin it: a range resolves to whatever is newest, `typescript` to 7) or {@link PACKED}. */
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  /** Extra arguments for `<manager> install`, e.g. a case that shows what `--legacy-peer-deps` changes. */
  readonly installArgs?: readonly string[];
}

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the project's bins and scripts on one Node binary. */
export interface ProjectRunner {
  /** Runs `node_modules/.bin/<bin>` in `cwd` (default: the project). */
  readonly bin: (bin: string, args: readonly string[], cwd?: string, timeoutMs?: number) => Run;
  /** Runs `node <args>` in `cwd` (default: the project). */
  readonly node: (args: readonly string[], cwd?: string) => Run;
}

export interface InstalledProject extends ProjectRunner {
  readonly directory: string;
  readonly manager: Manager;
  /** What the install printed (npm's engine warnings, pnpm's summary). */
  readonly installOutput: string;
  /**
   * A new directory inside the project holding `files` (path to text), for one case: Node.js and
   * TypeScript resolve packages from the project's `node_modules` above it.
   */
  readonly caseDirectory: (name: string, files: Readonly<Record<string, string>>) => string;
  /**
   * The same runs on another Node binary (`bin` and `node` run on this process's): one install
   * serves every supported line, as `node_modules` does not depend on the Node that runs it.
   */
  readonly on: (node: NodeBinary) => ProjectRunner;
}

const installs = new Map<string, InstalledProject>();

/**
 * A fresh project outside the workspace (a temporary directory, so no workspace `node_modules`,
 * lockfile or `.npmrc` above it takes part) with `spec` installed by `spec.manager`, as a user's
 * `npm install` or `pnpm install` would. Every packed tarball is also an override, so the
 * packages' dependencies on each other resolve to the tarballs, never to a registry.
 *
 * One install per spec and process: cases share it through {@link InstalledProject.caseDirectory}.
 */
export function installProject(spec: InstallSpec): InstalledProject {
  const key = createHash("sha256").update(JSON.stringify([spec.manager, spec.dependencies, spec.devDependencies, spec.installArgs, spec.tarballs])).digest("hex");
  const known = installs.get(key);
  if (known !== undefined) return known;

  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `sourced-install-${spec.manager}-`));
  const resolve = (list: Readonly<Record<string, string>> | undefined) =>
    Object.fromEntries(Object.entries(list ?? {}).map(([name, version]) => [name, version === PACKED ? tarballSpec(spec.tarballs, name) : version]));
  const overrides = Object.fromEntries(Object.keys(spec.tarballs).map((name) => [name, tarballSpec(spec.tarballs, name)]));
  const manifest: Record<string, unknown> = {
    name: "fresh-install",
    version: "1.0.0",
    private: true,
    dependencies: resolve(spec.dependencies),
    devDependencies: resolve(spec.devDependencies),
  };
  if (spec.manager === "npm") manifest["overrides"] = overrides;
  fs.writeFileSync(path.join(directory, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  if (spec.manager === "pnpm") {
    // pnpm reads overrides from its workspace file (a one-project workspace: the project itself).
    const lines = Object.entries(overrides).map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`);
    fs.writeFileSync(path.join(directory, "pnpm-workspace.yaml"), `overrides:\n${lines.join("\n")}\n`);
  }

  // No lockfile yet: pnpm would refuse to write one under CI=true with a frozen lockfile.
  const args = [...(spec.manager === "npm" ? ["install", "--no-audit", "--no-fund", "--prefer-offline"] : ["install", "--prefer-offline", "--no-frozen-lockfile"]), ...(spec.installArgs ?? [])];
  const install = spawnSync(spec.manager, args, { cwd: directory, encoding: "utf8", env: cleanEnv(), timeout: 600_000 });
  const installOutput = `${install.stdout}${install.stderr}`;
  if (install.status !== 0) throw new Error(`${spec.manager} install failed in ${directory} (exit ${install.status}):\n${installOutput}`);

  let cases = 0;
  const runner = (node: string, env: NodeJS.ProcessEnv): ProjectRunner => ({
    bin: (bin, binArgs, cwd = directory, timeoutMs = 120_000) => run(path.join(directory, "node_modules", ".bin", bin), binArgs, cwd, timeoutMs, env),
    node: (nodeArgs, cwd = directory) => run(node, nodeArgs, cwd, 120_000, env),
  });
  const project: InstalledProject = {
    directory,
    manager: spec.manager,
    installOutput,
    caseDirectory: (name, files) => {
      const target = path.join(directory, `${String(++cases).padStart(2, "0")}-${name}`);
      for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
        fs.writeFileSync(path.join(target, file), text);
      }
      return target;
    },
    ...runner(process.execPath, cleanEnv()),
    on: (node) => runner(node.path, envWithNode(node, cleanEnv())),
  };
  installs.set(key, project);
  return project;
}

/** Removes every project this process installed. */
export function removeInstalledProjects(): void {
  for (const project of installs.values()) fs.rmSync(project.directory, { recursive: true, force: true });
  installs.clear();
}

function tarballSpec(tarballs: Tarballs, name: string): string {
  const tarball = tarballs[name];
  if (tarball === undefined) throw new Error(`no packed tarball for ${name}; packed: ${Object.keys(tarballs).join(", ")}`);
  return `file:${tarball}`;
}

function run(command: string, args: readonly string[], cwd: string, timeout: number, env: NodeJS.ProcessEnv): Run {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env, timeout });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
