import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { DataResult, Registry } from "../dist/index.js";

const require = createRequire(__filename);
const TEST_DIR = __dirname;
export const PACKAGE_DIR = join(TEST_DIR, "..");
export const SERVERS_DIR = join(TEST_DIR, "servers");

/**
 * Compiles test/servers with the repository's real tsc into its own folder per suite (suites run
 * in parallel processes) and returns that folder. Fails with tsc's own diagnostics.
 */
export async function compileServers(suite: string): Promise<string> {
  const outDir = join(SERVERS_DIR, "dist", suite);
  const tsc = require.resolve("typescript/bin/tsc");
  // Nothing from an earlier run may stand in for this compile's output.
  rmSync(outDir, { recursive: true, force: true });
  try {
    await promisify(execFile)(process.execPath, [tsc, "-p", SERVERS_DIR, "--outDir", outDir], { cwd: PACKAGE_DIR });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc -p test/servers failed:\n${stdout}${stderr}`);
  }
  return outDir;
}

/** A logger that keeps what it is told. */
export function recordingLogger(): { warn(message: string): void; warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => void warnings.push(message) };
}

/** The SDK's real (v2) Client connected to a fresh server of `registry` over InMemoryTransport. */
export async function connectInMemory(registry: Pick<Registry, "createServer">): Promise<{ client: Client; close(): Promise<void> }> {
  const server = registry.createServer();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "registry-test", version: "1.0.0" });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a result's first content block. */
export function firstText(result: object): string {
  const content = "content" in result ? result.content : undefined;
  const [block] = (content ?? []) as Array<{ type: string; text?: string }>;
  return block?.type === "text" ? (block.text ?? "") : "";
}

/** The seed's list_cities result, exactly as the platform description gives it. */
export const seedResult = (): DataResult => ({
  content: [{ type: "text", text: "The 3 most populated cities are Tokyo (37,400,068), Delhi (30,290,936) and Shanghai (27,058,479)." }],
  structuredContent: {
    sources: ["https://example.org/cities-data"],
    table: [
      ["City", "Population"],
      ["Tokyo", "37400068"],
      ["Delhi", "30290936"],
      ["Shanghai", "27058479"],
    ],
  },
});

/** A complete example of a docs page: a `ts` or `js` block not marked `fragment`. */
export interface DocExample {
  readonly lang: "ts" | "js";
  /** The words of its info string after the language (`sdk-v1`, `server.mjs`). */
  readonly info: readonly string[];
  /** The file name a `js` block gives in its info string (`server.mjs`, `server.cjs`). */
  readonly file: string | undefined;
  readonly code: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The line above the fence: an HTML comment there tells a test what to do with the example. */
  readonly above: string;
}

/** Every complete example of the page `doc`, in order. */
export function docExamples(doc: string): DocExample[] {
  const text = readFileSync(doc, "utf8");
  const found: DocExample[] = [];
  for (const match of text.matchAll(/^```(ts|js)(?:[ \t]+([^\n]*))?\n([\s\S]*?)^```/gm)) {
    const info = (match[2] ?? "").trim().split(/\s+/).filter(Boolean);
    if (info.includes("fragment")) continue;
    const lines = text.slice(0, match.index).split("\n");
    found.push({
      lang: match[1] as "ts" | "js",
      info,
      file: info.find((word) => /\.[cm]?js$/.test(word)),
      code: match[3] ?? "",
      line: lines.length,
      above: lines.at(-2) ?? "",
    });
  }
  return found;
}

/** Compiles a consumer project's `src` into `out` with the repository's tsc (source maps on), or fails with tsc's diagnostics. */
export async function compileExamples(dir: string): Promise<void> {
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: ["node"], rootDir: "src", outDir: "out", sourceMap: true },
      include: ["src"],
    }),
  );
  try {
    await promisify(execFile)(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", dir], { cwd: dir });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc failed:\n${stdout}${stderr}`);
  }
}

/**
 * Fresh projects outside the workspace, as a user's: a package.json of the given `type` and a
 * node_modules that links what a user would install (the registry, zod, the SDK server package,
 * Node's types, and as development dependencies TypeScript and the project layer the registry's
 * start-up check loads). `removeAll` deletes every project made.
 */
export function consumerProjects(prefix: string): { project(type: "module" | "commonjs"): string; removeAll(): void } {
  const made: string[] = [];
  const root = join(PACKAGE_DIR, "..", "..");
  return {
    project(type) {
      const dir = mkdtempSync(join(tmpdir(), `sourced-${prefix}-${type}-`));
      made.push(dir);
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `${prefix}-${type}`, private: true, type }));
      const links: Record<string, string> = {
        "@sourced/registry": PACKAGE_DIR,
        zod: join(PACKAGE_DIR, "node_modules", "zod"),
        "@modelcontextprotocol/server": join(PACKAGE_DIR, "node_modules", "@modelcontextprotocol", "server"),
        "@types/node": join(root, "node_modules", "@types", "node"),
        "@sourced/project": join(root, "packages", "project"),
        typescript: join(root, "node_modules", "typescript"),
      };
      for (const [name, target] of Object.entries(links)) {
        mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
        symlinkSync(realpathSync(target), join(dir, "node_modules", name), "dir");
      }
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A server process spoken to in raw JSON-RPC lines over its stdin and stdout. */
export interface RawStdio {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line the server wrote to stdout, in order. */
  readonly stdout: string[];
  readonly stderr: string[];
  /** Settles with the exit code. */
  readonly exited: Promise<number | null>;
  send(message: unknown): void;
  sendLine(text: string): void;
  /**
   * The first stdout message from line `from` on (already written or still to come) that
   * `matches`; rejects after `timeoutMs`, saying what it waited for.
   */
  waitFor(matches: (message: Record<string, unknown>) => boolean, what: string, timeoutMs?: number, from?: number): Promise<Record<string, unknown>>;
  /** The answer to the request with this id. */
  answer(id: unknown, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** The 2025 handshake of a raw client declaring `capabilities`. */
export const rawInitialize = (id: number, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "raw", version: "1" } },
});

/** Starts `node file ...args` and speaks raw JSON-RPC lines to it; `stopAll` kills what is still running. */
export function rawStdioProcesses(): { start(file: string, args?: string[], env?: NodeJS.ProcessEnv): RawStdio; stopAll(): void } {
  const started: ChildProcessWithoutNullStreams[] = [];
  return {
    start(file, args = [], env = process.env) {
      const child = spawn(process.execPath, [file, ...args], { env });
      started.push(child);
      const stdout: string[] = [];
      const stderr: string[] = [];
      const waiters = new Set<() => void>();
      child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
      createInterface({ input: child.stdout }).on("line", (line) => {
        stdout.push(line);
        for (const waiter of [...waiters]) waiter();
      });
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      const parsed = (line: string): Record<string, unknown> | undefined => {
        try {
          const value: unknown = JSON.parse(line);
          return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
        } catch {
          return undefined;
        }
      };
      const waitFor: RawStdio["waitFor"] = (matches, what, timeoutMs = 10_000, from = 0) =>
        new Promise((resolve, reject) => {
          let seen = from;
          const check = (): void => {
            for (; seen < stdout.length; seen++) {
              const message = parsed(stdout[seen]!);
              if (message !== undefined && matches(message)) {
                waiters.delete(check);
                clearTimeout(timer);
                resolve(message);
                return;
              }
            }
          };
          const timer = setTimeout(() => {
            waiters.delete(check);
            reject(new Error(`no ${what} within ${timeoutMs} ms; stdout:\n${stdout.join("\n").slice(0, 2000)}\nstderr:\n${stderr.join("").slice(0, 2000)}`));
          }, timeoutMs);
          waiters.add(check);
          check();
        });
      return {
        child,
        stdout,
        stderr,
        exited,
        send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
        sendLine: (text) => void child.stdin.write(`${text}\n`),
        waitFor,
        answer: (id, timeoutMs) =>
          waitFor((message) => message["id"] === id && ("result" in message || "error" in message), `answer to id ${JSON.stringify(id)}`, timeoutMs),
      };
    },
    stopAll() {
      for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/** The `_meta` envelope of a 2026-07-28 request from a raw client that declares no capabilities. */
export const MODERN_ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
} as const;

/** The headers of a raw 2026-07-28 POST of `method` (for `tools/call`, of the tool `name`). */
export const modernHeaders = (method: string, name?: string): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
});
