import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { DataToolOutput, Registry } from "../dist/index.js";

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
export const seedResult = (): DataToolOutput => ({
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
