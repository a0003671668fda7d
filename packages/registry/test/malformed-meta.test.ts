import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport as LegacyStdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport as LegacyStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test } from "vitest";
import { createRegistry, type Registry } from "../dist/index.js";
import { recordingLogger, seedResult } from "./helpers.js";

/*
 * A request whose `params._meta` is no object (a string, a number, an array) is no request MCP
 * accepts. What the SDK's own servers answer depends on their entry: its `createMcpHandler` — which
 * the registry serves 2026-07-28 and stateless 2025-era requests on — answers HTTP 400 with -32600
 * by the request's id; its Streamable HTTP transports, v2's (which the registry's sessions are built
 * on) and v1's, answer 400 with -32700 "Parse error" and `id: null`; its stdio transports, and any
 * server in memory, answer nothing (the client waits out its timeout). The registry answers as
 * `createMcpHandler` on every path, its sessions and stdio included: -32700 is JSON-RPC's code for a
 * body that is no JSON (which the registry answers so), -32600 for JSON that is no valid request,
 * and an answer by the id is one a client can match to its request (docs/registry.md, "What a
 * registry server declares and supports"). Raw posts compare the answers; the v2 and v1 Clients
 * reject the request on the 400 either way, and go on being served.
 */

const REQUESTS = [
  { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: "all" } },
  { jsonrpc: "2.0", id: "call", method: "tools/call", params: { name: "seed", arguments: {}, _meta: 5 } },
  { jsonrpc: "2.0", id: 3, method: "ping", params: { _meta: [] } },
] as const;

const INITIALIZE = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

/** What `createMcpHandler` answers each request: 400, -32600 by its id. */
const BY_ID = REQUESTS.map(({ id }) => `400 ${JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Bad Request: the request body is not a valid JSON-RPC message" }, id })}`);
/** What the SDK's Streamable HTTP transports answer each: 400, -32700 with id null. */
const PARSE_ERROR = REQUESTS.map(() => `400 ${JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON-RPC message" }, id: null })}`);

function registryOf(): Registry {
  const registry = createRegistry({ name: "meta", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
  registry.tool({ name: "seed" })(function seed() {
    return seedResult();
  });
  return registry;
}

const plainV2 = (): McpServer => {
  const server = new McpServer({ name: "plain", version: "1.0.0" });
  server.registerTool("seed", {}, () => ({ content: [{ type: "text", text: "Tokyo" }] }));
  return server;
};

const plainV1 = (): LegacyMcpServer => {
  const server = new LegacyMcpServer({ name: "plain", version: "1.0.0" });
  server.registerTool("seed", {}, () => ({ content: [{ type: "text", text: "Tokyo" }] }));
  return server;
};

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function post(url: URL, body: unknown, headers: Record<string, string>): Promise<{ status: number; session: string | null; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, session: response.headers.get("mcp-session-id"), text: (await response.text()).trim() };
}

/** Each request's answer, `"<status> <body>"`, on 2025-06-18 — in a session opened first when `session` — or on 2026-07-28. */
async function answers(url: URL, era: "2025 stateless" | "2025 session" | "2026-07-28"): Promise<string[]> {
  let headers: Record<string, string> = { "mcp-protocol-version": "2025-06-18" };
  if (era === "2025 session") {
    const opened = await post(url, INITIALIZE, headers);
    headers = { ...headers, "mcp-session-id": opened.session! };
    await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  }
  const seen: string[] = [];
  for (const request of REQUESTS) {
    const modern = era === "2026-07-28" ? { "mcp-protocol-version": "2026-07-28", "mcp-method": request.method, ...(request.method === "tools/call" ? { "mcp-name": "seed" } : {}) } : {};
    const { status, text } = await post(url, request, { ...headers, ...modern });
    seen.push(`${status} ${text}`);
  }
  return seen;
}

async function listening(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<URL> {
  const server = createHttpServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

/** A POST's parsed body; none for a client's GET (its stream) or DELETE (its session's end). */
async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** The plain v2 McpServer behind the SDK's createMcpHandler, the entry the registry serves on. */
const handlerServing = () => listening(toNodeHandler(createMcpHandler(() => plainV2())));

/** The plain v2 McpServer in sessions of the SDK's Streamable HTTP transport, as the registry's sessions are built. */
function v2SessionServing(): Promise<URL> {
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return listening(
    toNodeHandler({
      fetch: async (request: Request) => {
        const known = transports.get(request.headers.get("mcp-session-id") ?? "");
        if (known !== undefined) return known.handleRequest(request);
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, transport) });
        await plainV2().connect(transport);
        return transport.handleRequest(request);
      },
    }),
  );
}

/** The plain v1 McpServer on its Streamable HTTP transport: in sessions, or a server per request. */
function v1Serving(sessions: boolean): Promise<URL> {
  const transports = new Map<string, LegacyStreamableHTTPServerTransport>();
  return listening(async (req, res) => {
    const body = await bodyOf(req);
    const known = transports.get(String(req.headers["mcp-session-id"]));
    if (known !== undefined) return known.handleRequest(req, res, body);
    const transport = new LegacyStreamableHTTPServerTransport({
      sessionIdGenerator: sessions ? () => randomUUID() : undefined,
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    await plainV1().connect(transport);
    await transport.handleRequest(req, res, body);
  });
}

async function registryServing(sessions: boolean): Promise<URL> {
  const serving = await registryOf().serveHttp({ sessions });
  closers.push(() => serving.close());
  return serving.url;
}

describe("a request whose params._meta is no object", () => {
  test("over Streamable HTTP the registry answers as the SDK's createMcpHandler on every path: 400, -32600 by the request's id", async () => {
    const handler = await handlerServing();
    expect(await answers(handler, "2025 stateless")).toEqual(BY_ID);
    expect(await answers(handler, "2026-07-28")).toEqual(BY_ID);
    const stateless = await registryServing(false);
    expect(await answers(stateless, "2025 stateless")).toEqual(BY_ID);
    expect(await answers(stateless, "2026-07-28")).toEqual(BY_ID);
    // In a session too, where the SDK's session transport would answer -32700 with id null (below).
    const sessions = await registryServing(true);
    expect(await answers(sessions, "2025 session")).toEqual(BY_ID);
    expect(await answers(sessions, "2026-07-28")).toEqual(BY_ID);
  }, 30_000);

  test("the SDK's Streamable HTTP transports, v2's in a session and v1's with and without, answer 400 with -32700 and id null: the difference the docs name", async () => {
    expect(await answers(await v2SessionServing(), "2025 session")).toEqual(PARSE_ERROR);
    expect(await answers(await v1Serving(true), "2025 session")).toEqual(PARSE_ERROR);
    expect(await answers(await v1Serving(false), "2025 stateless")).toEqual(PARSE_ERROR);
  }, 30_000);

  test("the v2 Client (2025-era) and the v1 Client reject the request on the 400 from the registry as from the SDK's session transport, and go on being served", async () => {
    const servers: Array<[URL, number]> = [
      [await registryServing(true), -32600],
      [await registryServing(false), -32600],
      [await v2SessionServing(), -32700],
      [await v1Serving(true), -32700],
    ];
    for (const [url, code] of servers) {
      const v2 = new Client({ name: "meta", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
      await v2.connect(new StreamableHTTPClientTransport(url));
      closers.push(() => v2.close());
      await expect(v2.request({ method: "tools/list", params: { _meta: "all" } })).rejects.toThrow(`Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":${code},`);
      expect((await v2.listTools()).tools.map((tool) => tool.name)).toEqual(["seed"]);
      const v1 = new LegacyClient({ name: "meta", version: "1.0.0" });
      await v1.connect(new LegacyStreamableHTTPClientTransport(url));
      closers.push(() => v1.close());
      await expect(v1.request({ method: "tools/list", params: { _meta: "all" as never } }, ListToolsResultSchema)).rejects.toThrow(`Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":${code},`);
      expect((await v1.listTools()).tools.map((tool) => tool.name)).toEqual(["seed"]);
    }
  }, 30_000);

  test("in memory neither the SDK's servers nor the registry's createServer() answer it (the transport is the author's); over stdio the SDK's transports answer nothing, where serveStdio answers -32600 by the id", async () => {
    const inMemory = async (server: { connect(transport: never): Promise<void> }, legacy: boolean): Promise<unknown[]> => {
      const [client, side] = legacy ? LegacyInMemoryTransport.createLinkedPair() : InMemoryTransport.createLinkedPair();
      await server.connect(side as never);
      const seen: unknown[] = [];
      client.onmessage = (message: unknown) => void seen.push(message);
      await client.start();
      for (const request of [INITIALIZE, ...REQUESTS, { jsonrpc: "2.0", id: "last", method: "ping" }]) await client.send(request as never);
      await expect.poll(() => seen.length).toBe(2);
      await client.close();
      return seen.map((message) => (message as { id?: unknown }).id);
    };
    expect(await inMemory(registryOf().createServer() as never, false)).toEqual([0, "last"]);
    expect(await inMemory(plainV2() as never, false)).toEqual([0, "last"]);
    expect(await inMemory(plainV1() as never, true)).toEqual([0, "last"]);

    const overStdio = async (connect: (stdin: PassThrough, stdout: PassThrough) => Promise<unknown>): Promise<unknown[]> => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const seen: unknown[] = [];
      let rest = "";
      stdout.on("data", (chunk: Buffer) => {
        const lines = (rest + chunk.toString("utf8")).split("\n");
        rest = lines.pop()!;
        for (const line of lines) if (line.trim() !== "") seen.push(JSON.parse(line));
      });
      await connect(stdin, stdout);
      for (const request of [INITIALIZE, ...REQUESTS, { jsonrpc: "2.0", id: "last", method: "ping" }]) stdin.write(`${JSON.stringify(request)}\n`);
      await expect.poll(() => (seen as Array<{ id?: unknown }>).some((message) => message.id === "last")).toBe(true);
      stdin.end();
      // Sorted: serveStdio answers a malformed line at once, before the initialize its server answers.
      return seen
        .map((message) => {
          const { id, error } = message as { id?: unknown; error?: { code: number } };
          return error === undefined ? String(id) : `${String(id)}: ${error.code}`;
        })
        .sort();
    };
    // The SDK's transports report the line they drop to the server's onerror, which would log it.
    const quiet = <Server extends { server: { onerror?: (error: Error) => void } }>(server: Server): Server => {
      server.server.onerror = () => undefined;
      return server;
    };
    expect(await overStdio((stdin, stdout) => quiet(plainV2()).connect(new StdioServerTransport(stdin, stdout)))).toEqual(["0", "last"]);
    expect(await overStdio((stdin, stdout) => quiet(plainV1()).connect(new LegacyStdioServerTransport(stdin, stdout)))).toEqual(["0", "last"]);
    expect(await overStdio((stdin, stdout) => registryOf().serveStdio({ stdin, stdout }))).toEqual(["0", "1: -32600", "3: -32600", "call: -32600", "last"]);
  });
});
