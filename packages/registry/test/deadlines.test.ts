import { connect, type Socket } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, test } from "vitest";
import { ResourceTemplate } from "@modelcontextprotocol/server";
import { createRegistry, type HttpServeOptions, type HttpServing, type RegistryOptions } from "../dist/index.js";
import { compileServers, firstText, recordingLogger, seedResult } from "./helpers.js";

/*
 * Every call is answered in bounded time: a tool that never settles is answered at its deadline
 * (an error result; its signal aborted), close(grace) answers the calls still running at the end
 * of the grace instead of cutting them, and a client that never reads its answer does not keep
 * its request slot. A resource's read is bounded as a call is.
 */

const servings: HttpServing[] = [];
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const serving of servings.splice(0)) await serving.close(0);
});

interface Observed {
  /** The name of each aborted signal's reason, per tool call. */
  aborted: string[];
}

/** A registry with `hang` (never settles), `quick`, `rejects_on_abort` (rejects as fetch does when its signal aborts) and `big`. */
function deadlineRegistry(options: Partial<RegistryOptions> = {}) {
  const logger = recordingLogger();
  const observed: Observed = { aborted: [] };
  const registry = createRegistry({ name: "deadlines", version: "1.0.0", logger, startupCheck: false, ...options }); // the warnings counted are the deadlines' alone
  const onAbort = (extra: { mcpReq: { signal: AbortSignal } }) =>
    extra.mcpReq.signal.addEventListener("abort", () => void observed.aborted.push((extra.mcpReq.signal.reason as Error).name));
  registry.tool()(function hang(_args: unknown, extra: { mcpReq: { signal: AbortSignal } }) {
    onAbort(extra);
    return new Promise(() => {});
  });
  registry.tool({ timeoutMs: 150 })(function hang_briefly(_args: unknown, extra: { mcpReq: { signal: AbortSignal } }) {
    onAbort(extra);
    return new Promise(() => {});
  });
  registry.tool()(async function quick() {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return seedResult();
  });
  registry.tool()(function rejects_on_abort(_args: unknown, extra: { mcpReq: { signal: AbortSignal } }) {
    return new Promise((_resolve, reject) => extra.mcpReq.signal.addEventListener("abort", () => reject(new Error("fetch aborted"))));
  });
  registry.tool()(function big() {
    return { ...seedResult(), content: [{ type: "text", text: "x".repeat(24 * 1024 * 1024) }] };
  });
  return { registry, logger, observed };
}

async function serve(registry: ReturnType<typeof deadlineRegistry>["registry"], limits?: HttpServeOptions["limits"]) {
  const serving = await registry.serveHttp(limits ? { limits } : {});
  servings.push(serving);
  return serving;
}

async function v2Client(url: URL): Promise<Client> {
  const client = new Client({ name: "deadlines", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  cleanups.push(() => client.close());
  return client;
}

async function v1Client(url: URL): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "deadlines", version: "1.0.0" });
  await client.connect(new LegacyStreamableHTTPClientTransport(url));
  cleanups.push(() => client.close());
  return client;
}

describe("a call's deadline", () => {
  test("a tool that never settles is answered at callTimeoutMs with an error result; its signal is aborted (TimeoutError); one warning", async () => {
    const { registry, logger, observed } = deadlineRegistry({ callTimeoutMs: 300 });
    const client = await v2Client((await serve(registry)).url);
    const started = Date.now();
    const result = await client.callTool({ name: "hang" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(firstText(result)).toBe('Tool "hang" did not answer within 300 ms, so the call was stopped.');
    expect(observed.aborted).toEqual(["TimeoutError"]);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/^tool "hang" did not answer within 300 ms: the call was answered with an error result and its signal aborted\. If it needs longer, raise its limit: registry\.tool\(\{ timeoutMs \}\)/);
    // The server goes on serving; a call that answers in time is unaffected.
    expect(firstText(await client.callTool({ name: "quick" }))).toContain("Tokyo");
  });

  test("a tool's own timeoutMs wins over the registry's; Infinity is no deadline", async () => {
    const { registry, observed } = deadlineRegistry({ callTimeoutMs: Infinity });
    const client = await v1Client((await serve(registry)).url);
    expect(firstText(await client.callTool({ name: "hang_briefly" }))).toBe('Tool "hang_briefly" did not answer within 150 ms, so the call was stopped.');
    const hanging = client.callTool({ name: "hang" }, undefined, { timeout: 700 }).catch((error: unknown) => String(error));
    expect(await hanging).toMatch(/timed out/i);
    expect(observed.aborted).toEqual(["TimeoutError"]);
  });

  test("what a stopped tool settles with later is neither sent nor logged: a rejection caused by its aborted signal is no second failure", async () => {
    const { registry, logger } = deadlineRegistry({ callTimeoutMs: 200 });
    const client = await v2Client((await serve(registry)).url);
    expect(firstText(await client.callTool({ name: "rejects_on_abort" }))).toBe('Tool "rejects_on_abort" did not answer within 200 ms, so the call was stopped.');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain('tool "rejects_on_abort" did not answer within 200 ms');
  });

  test("over stdio (v1 Client): the deadline answers, the tool's signal is aborted", async () => {
    const outDir = await compileServers("deadlines");
    const stderr: string[] = [];
    const transport = new LegacyStdioClientTransport({
      command: process.execPath,
      args: [`${outDir}/protocol.js`],
      env: { ...process.env, SOURCED_CALL_TIMEOUT_MS: "250" },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new LegacyClient({ name: "deadlines", version: "1.0.0" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(firstText(await client.callTool({ name: "hang" }))).toBe('Tool "hang" did not answer within 250 ms, so the call was stopped.');
    expect(stderr.join("")).toContain("hang: signal aborted (TimeoutError)");
    expect(stderr.join("")).toContain('[sourced] warning: tool "hang" did not answer within 250 ms');
  });

  test("an invalid deadline is a TypeError where it is given", () => {
    expect(() => createRegistry({ name: "x", version: "1", callTimeoutMs: 0 })).toThrow(
      /^createRegistry\(\) at .*deadlines\.test\.ts:\d+:\d+: option "callTimeoutMs" takes a positive number of milliseconds, or Infinity for no deadline, not a number \(0\)\.$/,
    );
    const registry = createRegistry({ name: "x", version: "1" });
    expect(() => registry.tool({ timeoutMs: "5" as unknown as number })(function list_cities() {})).toThrow(
      /^registry\.tool\(\) at .*deadlines\.test\.ts:\d+:\d+: option "timeoutMs" takes a positive number of milliseconds, or Infinity for no deadline, not a string \("5"\)\.$/,
    );
  });
});

describe("close(grace)", () => {
  for (const era of ["2026-07-28 (v2 Client)", "2025 (v1 Client)"] as const) {
    test(`${era}: a call still running at the end of the grace is answered with an error result, not cut`, async () => {
      const { registry, logger, observed } = deadlineRegistry();
      const serving = await serve(registry);
      const client = era.startsWith("2026") ? await v2Client(serving.url) : await v1Client(serving.url);
      const call = client.callTool({ name: "hang" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      await serving.close(300);
      const result = await call;
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(result["isError"]).toBe(true);
      expect(firstText(result)).toBe('Tool "hang" was still running when the server shut down, so the call was stopped.');
      expect(observed.aborted).toEqual(["AbortError"]);
      expect(logger.warnings).toEqual(['tool "hang" was still running at the end of the shutdown grace: the call was answered with an error result and its signal aborted.']);
    });
  }
});

/** A registry serving `memory://stuck` (a read that never settles), `memory://quick` and a template whose reads never settle. */
function stuckReads(options: Partial<RegistryOptions> = {}) {
  const logger = recordingLogger();
  const aborted: string[] = [];
  const registry = createRegistry({ name: "reads", version: "1.0.0", logger, startupCheck: false, ...options });
  const hang = (signal: AbortSignal) => {
    signal.addEventListener("abort", () => void aborted.push((signal.reason as Error).name));
    return new Promise<never>(() => {});
  };
  registry.resource("stuck", "memory://stuck", {}, (_uri, ctx) => hang(ctx.mcpReq.signal));
  registry.resource("stuck_entity", new ResourceTemplate("memory://stuck/{name}", { list: undefined }), {}, (_uri, _variables, ctx) => hang(ctx.mcpReq.signal));
  registry.resource("quick", "memory://quick", {}, async (uri) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { contents: [{ uri: uri.href, text: "fresh" }] };
  });
  return { registry, logger, aborted };
}

describe("a resource read's deadline", () => {
  test("a read that never settles is answered at callTimeoutMs with an MCP error naming the resource; its signal is aborted (TimeoutError); one warning", async () => {
    const { registry, logger, aborted } = stuckReads({ callTimeoutMs: 300 });
    const serving = await serve(registry);
    for (const client of [await v2Client(serving.url), await v1Client(serving.url)]) {
      const started = Date.now();
      await expect(client.readResource({ uri: "memory://stuck" })).rejects.toThrow('Resource "stuck" did not answer within 300 ms, so the read was stopped.');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      // A template's reads too: the request's context is their third argument.
      await expect(client.readResource({ uri: "memory://stuck/alice" })).rejects.toThrow('Resource "stuck_entity" did not answer within 300 ms, so the read was stopped.');
      // The server goes on serving; a read that answers in time is unaffected.
      expect((await client.readResource({ uri: "memory://quick" })).contents).toEqual([{ uri: "memory://quick", text: "fresh" }]);
    }
    expect(aborted).toEqual(["TimeoutError", "TimeoutError", "TimeoutError", "TimeoutError"]);
    expect(logger.warnings).toHaveLength(4);
    expect(logger.warnings[0]).toBe(
      'resource "stuck" did not answer within 300 ms: the read was answered with an error and its signal aborted. If it needs longer, raise the limit: createRegistry({ callTimeoutMs }).',
    );
  });

  test("close(grace): a read still running at the end of the grace is answered with an error, not cut", async () => {
    const { registry, logger, aborted } = stuckReads({ callTimeoutMs: Infinity });
    const serving = await serve(registry);
    const client = await v2Client(serving.url);
    const read = client.readResource({ uri: "memory://stuck" }).then(
      () => "answered",
      (error: unknown) => String(error),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await serving.close(300);
    expect(await read).toContain('Resource "stuck" was still being read when the server shut down, so the read was stopped.');
    expect(aborted).toEqual(["AbortError"]);
    expect(logger.warnings).toEqual(['resource "stuck" was still being read at the end of the shutdown grace: the read was answered with an error and its signal aborted.']);
  });
});

describe("a client that never reads its answer", () => {
  test("does not keep its request slot: past sendTimeoutMs its connection is closed, and the slot serves the next request", async () => {
    const { registry, logger } = deadlineRegistry();
    const serving = await serve(registry, { maxConcurrentRequests: 1, sendTimeoutMs: 500 });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big", arguments: {} } });
    const socket: Socket = connect(serving.port, "127.0.0.1");
    cleanups.push(() => void socket.destroy());
    socket.on("error", () => {});
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.pause(); // never read: the 24 MB answer fills the connection's buffers
    const list = () =>
      fetch(serving.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      }).then(async (response) => (await response.text(), response.status));
    // While the answer waits on the client, its request holds the only slot…
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await list()).toBe(503);
    // …until sendTimeoutMs after the client stopped reading (the paused client itself never notices).
    const started = Date.now();
    let status = await list();
    while (status === 503 && Date.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await list();
    }
    expect(status).toBe(200);
    expect(logger.warnings).toContain("HTTP: a client did not read its answer for 500 ms (sendTimeoutMs); its connection was closed");
  });
});
