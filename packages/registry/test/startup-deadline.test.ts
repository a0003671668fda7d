import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRegistry } from "../dist/index.js";
import { consumerProjects } from "./helpers.js";

/*
 * The start-up check within a deadline: a project whose tsconfig chain blocks (an `extends` that
 * names a FIFO no one writes) must not hold tools/list and tools/call forever. At the deadline the
 * undecided tools are unjudged — served with the warning under "auto", refused under "require" —
 * and the reason is logged. Run as its developer runs it (`node src/server.ts`), over stdio and
 * Streamable HTTP, listed by the v2 and the v1 Client.
 */

const projects = consumerProjects("startup-deadline");
let directory: string;
beforeAll(() => {
  directory = projects.project("module");
  // The FIFO itself: made by mkfifo (Node has no call for it).
  const made = spawn("mkfifo", [join(directory, "base.json")]);
  return new Promise<void>((resolve, reject) => made.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo exited ${code}`)))));
});
afterAll(() => projects.removeAll());

function writeProject(): void {
  writeFileSync(
    join(directory, "tsconfig.json"),
    JSON.stringify({
      extends: "./base.json",
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: ["node"], allowImportingTsExtensions: true, noEmit: true },
      include: ["src"],
    }),
  );
  mkdirSync(join(directory, "src"), { recursive: true });
  writeFileSync(
    join(directory, "src", "server.ts"),
    `import { createRegistry, type DataToolOutput } from "@sourced/registry";
const registry = createRegistry({ name: "deadline", version: "1.0.0", startupCheck: process.env.CHECK === "require" ? "require" : "auto", startupCheckTimeoutMs: 1_000 });
registry.tool()(function list_cities(): DataToolOutput {
  return { content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: ["https://example.org/cities"] } };
});
if (process.argv[2] === "http") {
  const serving = await registry.serveHttp();
  process.stdout.write(\`\${serving.url.href}\\n\`);
} else {
  await registry.serveStdio();
}
`,
  );
}

interface Listed {
  readonly tools: string[];
  readonly stderr: string;
  readonly listMs: number;
}

async function listOverStdio(check: "auto" | "require", legacy: boolean): Promise<Listed> {
  const chunks: string[] = [];
  const options = { command: process.execPath, args: ["src/server.ts"], cwd: directory, env: { ...(process.env as Record<string, string>), CHECK: check }, stderr: "pipe" as const };
  const client = legacy ? new LegacyClient({ name: "deadline", version: "1.0.0" }) : new Client({ name: "deadline", version: "1.0.0" });
  const transport = legacy ? new LegacyStdioClientTransport(options) : new StdioClientTransport(options);
  transport.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  await client.connect(transport);
  const started = Date.now();
  try {
    const { tools } = await client.listTools(undefined, { timeout: 20_000 });
    const listMs = Date.now() - started;
    if (tools.some((tool) => tool.name === "list_cities")) {
      const result = await client.callTool({ name: "list_cities", arguments: {} });
      expect(result.structuredContent).toEqual({ sources: ["https://example.org/cities"] });
    }
    return { tools: tools.map((tool) => tool.name), stderr: chunks.join(""), listMs };
  } finally {
    await client.close();
  }
}

async function listOverHttp(check: "auto" | "require", legacy: boolean): Promise<Listed> {
  const child = spawn(process.execPath, ["src/server.ts", "http"], { cwd: directory, env: { ...process.env, CHECK: check } });
  const chunks: string[] = [];
  child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the server exited ${code}: ${chunks.join("")}`)));
    });
    const client = legacy ? new LegacyClient({ name: "deadline", version: "1.0.0" }) : new Client({ name: "deadline", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(legacy ? new LegacyStreamableHTTPClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url)));
    const started = Date.now();
    const { tools } = await client.listTools(undefined, { timeout: 20_000 });
    const listMs = Date.now() - started;
    await client.close();
    return { tools: tools.map((tool) => tool.name), stderr: chunks.join(""), listMs };
  } finally {
    child.kill();
  }
}

const REASON = "the start-up check did not finish within 1,000 ms";

describe("the start-up check is bounded by its deadline", () => {
  test.each([
    ["stdio", "v2", listOverStdio, false],
    ["stdio", "v1", listOverStdio, true],
    ["HTTP", "v2", listOverHttp, false],
    ["HTTP", "v1", listOverHttp, true],
  ] as const)('a tsconfig extends naming a FIFO, over %s (%s Client): served with the warning under "auto", refused under "require", the reason logged', async (_transport, _client, list, legacy) => {
    writeProject();
    const auto = await list("auto", legacy);
    expect(auto.tools).toEqual(["list_cities"]);
    expect(auto.listMs).toBeLessThan(10_000);
    expect(auto.stderr).toContain(`the start-up check could not judge tool "list_cities"`);
    expect(auto.stderr).toContain(REASON);
    expect(auto.stderr).toContain("Served unchecked (the net still checks every result).");

    const required = await list("require", legacy);
    expect(required.tools).toEqual([]);
    expect(required.stderr).toContain(REASON);
    expect(required.stderr).toContain("Not registered: the check is required.");
  });

  test("startupCheckTimeoutMs takes a positive number of milliseconds", () => {
    expect(() => createRegistry({ name: "x", version: "1", startupCheckTimeoutMs: 0 })).toThrow(/startupCheckTimeoutMs/u);
    expect(() => createRegistry({ name: "x", version: "1", startupCheckTimeoutMs: "5s" as never })).toThrow(/startupCheckTimeoutMs/u);
    expect(() => createRegistry({ name: "x", version: "1", startupCheckTimeoutMs: Infinity })).not.toThrow();
  });
});
