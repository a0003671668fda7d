import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import type * as ts from "typescript";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/*
 * Real compilers in child processes: one "pair" is a TypeScript version and the ts-patch that
 * supports it, both installed in the workspace. Projects are copied from fixtures/transformer into
 * fixtures/transformer/out/ (ignored by git), so a test may edit them and resolution still finds
 * @sourced/registry, zod and @types/node the way a user's project would.
 */

export const ROOT = path.resolve(__dirname, "..", "..", "..");
export const TRANSFORMER_DIR = path.join(ROOT, "packages", "transformer");
export const FIXTURES_DIR = path.join(ROOT, "fixtures", "transformer");
export const WORK_DIR = path.join(FIXTURES_DIR, "out");

export interface Pair {
  /** Short, for directory names. */
  readonly id: string;
  readonly title: string;
  readonly typescriptVersion: string;
  readonly tspc: string;
  readonly tsc: string;
  /** The compiler module itself, for running the analysis in process next to tspc. */
  readonly ts: typeof ts;
  readonly env: NodeJS.ProcessEnv;
}

const ts5Modules = path.join(ROOT, "fixtures", "ts5", "node_modules");
const requireFrom = (directory: string) => createRequire(path.join(directory, "noop.js"));
/** A package's directory as `directory` resolves it (through symlinks, not exports maps). */
const packageDir = (directory: string, name: string) => path.join(directory, "node_modules", name);

export const PAIRS: readonly Pair[] = [
  {
    id: "ts6",
    title: "TypeScript 6.0.3 + ts-patch 4.0.1",
    typescriptVersion: "6.0.3",
    tspc: path.join(packageDir(TRANSFORMER_DIR, "ts-patch"), "bin", "tspc.js"),
    tsc: path.join(packageDir(TRANSFORMER_DIR, "typescript"), "bin", "tsc"),
    ts: requireFrom(TRANSFORMER_DIR)("typescript") as typeof ts,
    env: {},
  },
  {
    id: "ts5",
    title: "TypeScript 5.9.3 + ts-patch 3.3.0",
    typescriptVersion: "5.9.3",
    tspc: path.join(ts5Modules, "ts-patch", "bin", "tspc.js"),
    tsc: path.join(ts5Modules, "typescript", "bin", "tsc"),
    ts: requireFrom(ts5Modules)("typescript") as typeof ts,
    // ts-patch 3 looks for `typescript` next to itself; in this workspace that is the root's 6.0.3.
    env: { TSP_COMPILER_TS_PATH: path.join(ts5Modules, "typescript", "lib", "typescript.js") },
  },
];

export interface Diagnostic {
  /** As tsc prints it: relative to the directory it ran in, `/` separators. */
  readonly file: string | undefined;
  readonly line: number;
  readonly column: number;
  readonly category: "error" | "warning" | "message";
  readonly code: number;
  readonly message: string;
}

export interface Run {
  readonly status: number | null;
  readonly output: string;
  readonly diagnostics: Diagnostic[];
}

const DIAGNOSTIC = /^(?:(.+?)\((\d+),(\d+)\): )?(error|warning|message) TS(\d+): (.*)$/;

/** Parses `--pretty false` output: `file(line,col): error TS92001: message`, continuation lines indented. */
export function parseDiagnostics(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = DIAGNOSTIC.exec(line);
    if (match !== null) {
      diagnostics.push({
        file: match[1]?.split(path.sep).join("/"),
        line: Number(match[2] ?? 0),
        column: Number(match[3] ?? 0),
        category: match[4] as Diagnostic["category"],
        code: Number(match[5]),
        message: match[6]!,
      });
    } else if (/^\s+\S/.test(line) && diagnostics.length > 0) {
      const last = diagnostics.pop()!;
      diagnostics.push({ ...last, message: `${last.message}\n${line.trim()}` });
    }
  }
  return diagnostics;
}

/** Our diagnostics only (TS92000-TS92099). */
export const ours = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.code >= 92000 && d.code < 92100);

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Run {
  const result = spawnSync(process.execPath, [command, ...args], {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (result.error) throw result.error;
  const output = `${result.stdout}${result.stderr}`;
  return { status: result.status, output, diagnostics: parseDiagnostics(output) };
}

export const tspc = (pair: Pair, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Run =>
  run(pair.tspc, [...args, "--pretty", "false"], cwd, { ...pair.env, ...env });

export const tsc = (pair: Pair, args: readonly string[], cwd: string): Run => run(pair.tsc, [...args, "--pretty", "false"], cwd);

/** Which transformer entry a copied project's plugins get. */
export type PluginEntry = Readonly<Record<string, unknown>>;

export const PROGRAM_ENTRY: PluginEntry = { transform: TRANSFORMER_DIR, transformProgram: true };

/** A program transformer that breaks one part of the real compiler (see faults.cjs), for a plugins entry before ours. */
export const FAULTS_PLUGIN = path.join(TRANSFORMER_DIR, "test", "faults.cjs");

/**
 * Copies fixtures/transformer/<project> to fixtures/transformer/out/<name> (fresh) and points
 * every plugins entry of its tsconfig files at this package, with `entry`'s other keys, after the
 * plugins `before` (other transformers ts-patch runs first).
 */
export function copyProject(project: string, name: string, entry: PluginEntry = PROGRAM_ENTRY, before: readonly PluginEntry[] = []): string {
  const destination = path.join(WORK_DIR, name);
  fs.rmSync(destination, { recursive: true, force: true });
  fs.cpSync(path.join(FIXTURES_DIR, project), destination, {
    recursive: true,
    filter: (source) => !/(^|[\\/])out$/.test(source) && !source.endsWith(".tsbuildinfo"),
  });
  for (const file of fs.readdirSync(destination, { recursive: true, encoding: "utf8" })) {
    if (!/(^|[\\/])tsconfig[^\\/]*\.json$/.test(file)) continue;
    const full = path.join(destination, file);
    const config = JSON.parse(fs.readFileSync(full, "utf8")) as { compilerOptions?: { plugins?: unknown[] } };
    if (config.compilerOptions?.plugins === undefined) continue;
    config.compilerOptions.plugins = [...before, { ...entry, transform: TRANSFORMER_DIR }];
    fs.writeFileSync(full, JSON.stringify(config, null, 2) + "\n");
  }
  return destination;
}

/** Replaces `from` by `to` in a file, failing loudly when `from` is absent. */
export function edit(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  fs.writeFileSync(file, text.replace(from, to));
}

/** 1-based line of the first line of `file` that contains `text`. */
export function lineOf(file: string, text: string): number {
  const index = fs.readFileSync(file, "utf8").split(/\r?\n/).findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${file} has no line with ${JSON.stringify(text)}`);
  return index + 1;
}

/**
 * A `tspc --watch` process (the one watch driver of the tests): each finished compilation's
 * output and diagnostics, in order, however the output is split into chunks.
 */
export class Watch {
  private readonly child: ChildProcess;
  private buffer = "";
  private waiting: ((run: Run) => void) | undefined;
  private readonly finished: Run[] = [];

  constructor(tspcPath: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [tspcPath, "--pretty", "false", "--watch", "--preserveWatchOutput", "-p", "."], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const onData = (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      for (let done = WATCH_DONE.exec(this.buffer); done !== null; done = WATCH_DONE.exec(this.buffer)) {
        const output = this.buffer.slice(0, done.index + done[0].length);
        this.buffer = this.buffer.slice(done.index + done[0].length);
        const result: Run = { status: null, output, diagnostics: parseDiagnostics(output) };
        const resolve = this.waiting;
        this.waiting = undefined;
        if (resolve) resolve(result);
        else this.finished.push(result);
      }
    };
    this.child.stdout!.on("data", onData);
    this.child.stderr!.on("data", onData);
  }

  /** The next finished compilation. */
  next(timeout = 60_000): Promise<Run> {
    const ready = this.finished.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`watch did not finish a compilation in ${timeout} ms:\n${this.buffer}`)), timeout);
      this.waiting = (result) => {
        clearTimeout(timer);
        resolve(result);
      };
    });
  }

  stop(): void {
    this.child.kill();
  }
}

const WATCH_DONE = /Found \d+ errors?\. Watching for file changes\.\r?\n/;

/** Decodes a source map's `mappings`: per generated line (0-based), the original lines (0-based) of its segments. */
export function originalLines(mappings: string): number[][] {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const lines: number[][] = [];
  let originalLine = 0;
  for (const generated of mappings.split(";")) {
    const current: number[] = [];
    for (const segment of generated.split(",")) {
      if (segment === "") continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = alphabet.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      if (values.length >= 4) {
        originalLine += values[2]!;
        current.push(originalLine);
      }
    }
    lines.push(current);
  }
  return lines;
}

/** Lists the tools a server serves, asked by the SDK's real Client over stdio, and what the server logged. */
export async function listTools(command: string, args: string[], cwd: string): Promise<{ tools: string[]; stderr: string }> {
  const transport = new StdioClientTransport({ command, args, cwd, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  // Everything the server wrote, up to its exit: a warning may still be in the pipe when the list arrives.
  const ended = new Promise((resolve) => transport.stderr?.on("end", resolve));
  const client = new Client({ name: "transformer-test", version: "1.0.0" });
  await client.connect(transport);
  let tools: string[];
  try {
    tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
  await ended;
  return { tools, stderr };
}
