import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileServers, firstText, recordingLogger } from "./helpers.js";

type ToolsModule = typeof import("./servers/tools.js");

/** What the tests ask of a client, whichever SDK line it comes from. */
interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string; outputSchema?: { [key: string]: unknown } }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{ [key: string]: unknown }>;
  close(): Promise<void>;
}

/**
 * The two eras every transport serves: the v2 Client pinned to revision 2026-07-28, and the v1
 * (`@modelcontextprotocol/sdk` 1.32.2) Client, which speaks the 2025 handshake.
 */
const ERAS = [
  {
    era: "2026-07-28 (v2 Client)",
    revision: "2026-07-28",
    async stdio(command: string, args: string[], stderr: string[]): Promise<AnyClient> {
      const transport = new StdioClientTransport({ command, args, stderr: "pipe" });
      transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
      const client = new Client({ name: "stdio-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(transport);
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      return client;
    },
    async http(url: URL): Promise<AnyClient> {
      const client = new Client({ name: "http-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new StreamableHTTPClientTransport(url));
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      return client;
    },
  },
  {
    era: "2025 (v1 Client)",
    revision: "2025",
    async stdio(command: string, args: string[], stderr: string[]): Promise<AnyClient> {
      const transport = new LegacyStdioClientTransport({ command, args, stderr: "pipe" });
      transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
      const client = new LegacyClient({ name: "stdio-test", version: "1.0.0" });
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe("net-test");
      return client;
    },
    async http(url: URL): Promise<AnyClient> {
      const client = new LegacyClient({ name: "http-test", version: "1.0.0" });
      const transport = new LegacyStreamableHTTPClientTransport(url);
      await client.connect(transport);
      expect(transport.protocolVersion).toMatch(/^2025-/);
      return client;
    },
  },
] as const;

/** What every transport must show: the contract in tools/list, a validated good call, a stopped bad one. */
async function exerciseClient(client: AnyClient): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain("list_cities");
  for (const tool of tools) expect(tool.outputSchema?.["required"], tool.name).toEqual(["sources"]);

  const good = await client.callTool({ name: "list_cities" });
  expect(good["isError"]).toBeUndefined();
  expect(firstText(good)).toContain("Tokyo (37,400,068)");
  expect(good["structuredContent"]).toMatchObject({ sources: ["https://example.org/cities-data"] });

  const bad = await client.callTool({ name: "javascript_source" });
  expect(bad["isError"]).toBe(true);
  expect(bad["structuredContent"]).toBeUndefined();
  expect(firstText(bad)).toContain('Tool "javascript_source" returned a result that breaks the DataToolOutput contract');

  const thrown = await client.callTool({ name: "rejects" });
  expect(firstText(thrown)).toBe('Tool "rejects" failed: timed out after 5 s');

  const next = await client.callTool({ name: "population", arguments: { city: "Shanghai" } });
  expect(firstText(next)).toBe("Shanghai has 27058479 inhabitants.");
}

describe("real transports", () => {
  let outDir: string;
  const cleanups: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    outDir = await compileServers("transports");
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The test server over HTTP in a process of its own (stopped after the test); its endpoint. */
  async function spawnHttpServer(): Promise<URL> {
    const child = spawn(process.execPath, [`${outDir}/server.js`, "--http"], { stdio: ["ignore", "pipe", "ignore"] });
    cleanups.push(async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    });
    const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
    return new URL(String(first.value));
  }

  describe.each(ERAS)("$era", (era) => {
    test("stdio: a spawned server process, with warnings on stderr and nothing but JSON-RPC on stdout", async () => {
      const stderr: string[] = [];
      const client = await era.stdio(process.execPath, [`${outDir}/server.js`], stderr);
      cleanups.push(() => client.close());
      // A stray write to stdout would corrupt the stream and fail these calls.
      await exerciseClient(client);
      expect(stderr.join("")).toMatch(/\[sourced\] warning: Tool "javascript_source" \(registered at .*tools\.js:\d+:\d+\) returned a result that breaks/);
    });

    test("Streamable HTTP in-process: 127.0.0.1, an ephemeral port, closed after", async () => {
      const { buildRegistry } = (await import(`${outDir}/tools.js`)) as ToolsModule;
      const logger = recordingLogger();
      const serving = await buildRegistry(logger).serveHttp();
      cleanups.push(() => serving.close());
      expect(serving.host).toBe("127.0.0.1");
      expect(serving.port).toBeGreaterThan(0);
      expect(serving.url.href).toBe(`http://127.0.0.1:${serving.port}/mcp`);

      const client = await era.http(serving.url);
      cleanups.push(() => client.close());
      await exerciseClient(client);
      expect(logger.warnings.some((warning) => warning.includes('Tool "javascript_source"'))).toBe(true);
      expect(logger.warnings.some((warning) => warning.includes("off loopback"))).toBe(false);

      await client.close();
      await serving.close();
      await expect(fetch(serving.url, { method: "POST" })).rejects.toThrow();
    });

    test("Streamable HTTP in a spawned process", async () => {
      const url = await spawnHttpServer();
      expect(url.hostname).toBe("127.0.0.1");
      const client = await era.http(url);
      cleanups.push(() => client.close());
      await exerciseClient(client);
    });
  });

  test("50 clients of both eras, 2,000 calls over HTTP to a server in its own process: every call answered, none reset", async () => {
    const url = await spawnHttpServer();
    const clients = await Promise.all(Array.from({ length: 50 }, (_, index) => ERAS[index % 2]!.http(url)));
    cleanups.push(() => Promise.all(clients.map((client) => client.close())));
    const failures: string[] = [];
    const cities = ["Tokyo", "Delhi", "Shanghai"];
    await Promise.all(
      clients.map(async (client, index) => {
        for (let call = 0; call < 40; call++) {
          const city = cities[(index + call) % 3]!;
          try {
            const result = await client.callTool({ name: "population", arguments: { city } });
            if (!firstText(result).startsWith(`${city} has `)) failures.push(`client ${index} call ${call}: ${firstText(result)}`);
          } catch (error) {
            failures.push(`client ${index} call ${call}: ${String(error)}`);
          }
          // Uneven pauses, so sockets go idle and are reused at every moment.
          if (call % 10 === index % 10) await new Promise((resolve) => setTimeout(resolve, 20 + ((index * 7) % 50)));
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 120_000);
});
