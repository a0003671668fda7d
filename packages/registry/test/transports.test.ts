import { spawn } from "node:child_process";
import { request } from "node:http";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileServers, firstText, recordingLogger } from "./helpers.js";

type ToolsModule = typeof import("./servers/tools.js");

/** What every transport must show: the contract in tools/list, a validated good call, a stopped bad one. */
async function exerciseClient(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain("list_cities");
  for (const tool of tools) expect(tool.outputSchema?.required, tool.name).toEqual(["sources"]);

  const good = await client.callTool({ name: "list_cities" });
  expect(good.isError).toBeUndefined();
  expect(firstText(good)).toContain("Tokyo (37,400,068)");
  expect(good.structuredContent).toMatchObject({ sources: ["https://example.org/cities-data"] });

  const bad = await client.callTool({ name: "javascript_source" });
  expect(bad.isError).toBe(true);
  expect(bad.structuredContent).toBeUndefined();
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

  test("stdio: a spawned server process, with warnings on stderr and nothing but JSON-RPC on stdout", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [`${outDir}/server.js`], stderr: "pipe" });
    const stderr: string[] = [];
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    // A stray write to stdout would corrupt the stream and fail these calls.
    await exerciseClient(client);
    expect(stderr.join("")).toContain('[sourced] warning: Tool "javascript_source" returned a result that breaks');
  });

  test("Streamable HTTP in-process: 127.0.0.1, an ephemeral port, closed after", async () => {
    const { buildRegistry } = (await import(`${outDir}/tools.js`)) as ToolsModule;
    const logger = recordingLogger();
    const serving = await buildRegistry(logger).serveHttp();
    cleanups.push(() => serving.close());
    expect(serving.host).toBe("127.0.0.1");
    expect(serving.port).toBeGreaterThan(0);
    expect(serving.url.href).toBe(`http://127.0.0.1:${serving.port}/mcp`);

    const client = new Client({ name: "http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(serving.url));
    cleanups.push(() => client.close());
    await exerciseClient(client);
    expect(logger.warnings.some((warning) => warning.includes('Tool "javascript_source"'))).toBe(true);

    // DNS rebinding protection on loopback: a foreign Host header is refused.
    // (fetch cannot set Host, so plain node:http.)
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(serving.url, { method: "POST", headers: { host: "attacker.example", "content-type": "application/json" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    });
    expect(status).toBe(403);

    await client.close();
    await serving.close();
    await expect(fetch(serving.url, { method: "POST" })).rejects.toThrow();
  });

  test("Streamable HTTP in a spawned process", async () => {
    const child = spawn(process.execPath, [`${outDir}/server.js`, "--http"], { stdio: ["ignore", "pipe", "ignore"] });
    cleanups.push(async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    });
    const [line] = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next().then((next) => [next.value as string]);
    const url = new URL(line ?? "");
    expect(url.hostname).toBe("127.0.0.1");
    const client = new Client({ name: "http-child-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    cleanups.push(() => client.close());
    await exerciseClient(client);
  });
});
