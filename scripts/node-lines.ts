import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cleanEnv } from "./install/pack";

/*
 * The Node.js binary of each supported line, for the tests that run on every line (the install
 * test, the run from source). Each comes, in this order, from `SOURCED_NODE_<line>` (which
 * `.ci/run` exports), from this process when it is that line, or from the registry's `node`
 * package, installed on demand into the same cache `.ci/run` uses, so a local run needs no setup.
 */

/** The supported lines, oldest first (the packages' `engines`: `^22.18.0 || ^24.0.0 || >=26.0.0`). */
export const NODE_LINES = [22, 24, 26] as const;
export type NodeLine = (typeof NODE_LINES)[number];

/** The oldest supported minor of each line: 22.18 is the first 22 that runs `.ts` files as they are (type stripping on by default). */
const OLDEST_MINOR: Readonly<Record<NodeLine, number>> = { 22: 18, 24: 0, 26: 0 };

export interface NodeBinary {
  readonly line: NodeLine;
  /** Absolute path of the `node` executable. */
  readonly path: string;
  /** What it answers to `--version`, e.g. `v22.18.0`. */
  readonly version: string;
  /** Where it came from, for the test output: `SOURCED_NODE_22`, `this process`, `installed …`, `cached …`. */
  readonly origin: string;
}

const binaries = new Map<NodeLine, NodeBinary>();

/** The cache `.ci/run` installs lines into: `$SOURCED_NODE_CACHE`, else `$XDG_CACHE_HOME/sourced/node`, else `~/.cache/sourced/node`. */
export function nodeCache(): string {
  return process.env["SOURCED_NODE_CACHE"] ?? path.join(process.env["XDG_CACHE_HOME"] ?? path.join(os.homedir(), ".cache"), "sourced", "node");
}

/** The Node binary of `line` (found or installed once per process); throws saying why when there is none. */
export function nodeBinary(line: NodeLine): NodeBinary {
  const known = binaries.get(line);
  if (known !== undefined) return known;
  const binary = findOrInstall(line);
  binaries.set(line, binary);
  return binary;
}

/** `Node v22.18.0 (SOURCED_NODE_22)`: which binary a test runs, for its title. */
export function describeNode(binary: NodeBinary): string {
  return `Node ${binary.version} (${binary.origin})`;
}

/**
 * `env` with `binary`'s directory first on PATH: a package's bin (`#!/usr/bin/env node`, or
 * pnpm's shell shim, which runs `node`) then runs on that line, as in a user's shell.
 */
export function envWithNode(binary: NodeBinary, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PATH: [path.dirname(binary.path), env["PATH"] ?? ""].join(path.delimiter) };
}

function findOrInstall(line: NodeLine): NodeBinary {
  const variable = `SOURCED_NODE_${line}`;
  const fromEnvironment = process.env[variable];
  if (fromEnvironment !== undefined && fromEnvironment !== "") {
    return checked(line, fromEnvironment, variable);
  }
  if (isLine(line, process.version)) return { line, path: process.execPath, version: process.version, origin: "this process" };

  const prefix = path.join(nodeCache(), String(line));
  const cached = path.join(prefix, "bin", "node");
  if (fs.existsSync(cached)) return checked(line, cached, `cached in ${prefix}`);

  // Installed beside the final directory and renamed into place, so test files that ask for the
  // same line at once never see half an install: the first rename wins, the others use it.
  fs.mkdirSync(path.dirname(prefix), { recursive: true });
  const staging = fs.mkdtempSync(`${prefix}.installing-`);
  try {
    const install = spawnSync("npm", ["install", "--global", "--no-fund", "--no-audit", "--prefix", staging, `node@${line}`], { encoding: "utf8", env: cleanEnv(), timeout: 600_000 });
    if (install.status !== 0) {
      throw new Error(`Node ${line} is not installed and 'npm install --global --prefix ${staging} node@${line}' failed (exit ${install.status}):\n${install.stdout}${install.stderr}\nSet ${variable} to a Node ${line} binary instead.`);
    }
    fs.chmodSync(staging, 0o755); // as npm makes a prefix: the cache is shared, not private
    try {
      fs.renameSync(staging, prefix);
    } catch (error) {
      if (!fs.existsSync(cached)) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return checked(line, cached, `installed into ${prefix}`);
}

/** A binary that answers `--version` with a supported release of `line`. */
function checked(line: NodeLine, binary: string, origin: string): NodeBinary {
  const result = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 60_000 });
  const version = result.stdout?.trim() ?? "";
  if (result.status !== 0 || !isLine(line, version)) {
    const answer = result.error ? String(result.error) : JSON.stringify(version);
    throw new Error(`${binary} (${origin}) is not Node ${line}.${OLDEST_MINOR[line]} or a later ${line}.x: it answered ${answer} to --version.`);
  }
  return { line, path: binary, version, origin };
}

function isLine(line: NodeLine, version: string): boolean {
  const match = /^v(\d+)\.(\d+)\./.exec(version);
  return match !== null && Number(match[1]) === line && Number(match[2]) >= OLDEST_MINOR[line];
}
