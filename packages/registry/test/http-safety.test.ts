import { connect } from "node:net";
import { request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { createRegistry, type HttpServeOptions, type HttpServing } from "../dist/index.js";
import { recordingLogger, seedResult } from "./helpers.js";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

/*
 * serveHttp as an attacker meets it: raw HTTP on loopback, every header chosen by the test
 * (fetch cannot set Host or Origin, so plain node:http and node:net).
 */

interface RawResponse {
  status: number | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const LIST = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });

function post(url: URL, body: unknown, headers: Record<string, string> = {}, agent?: false): Promise<RawResponse> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, ...(agent === false ? { agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

const servings: HttpServing[] = [];
afterEach(async () => {
  for (const serving of servings.splice(0)) await serving.close();
});

async function serve(options: HttpServeOptions = {}, register = true) {
  const logger = recordingLogger();
  const registry = createRegistry({ name: "safety", version: "1.0.0", startupCheck: false, logger });
  if (register) {
    registry.tool()(function list_cities() {
      return seedResult();
    });
    registry.tool()(async function slow() {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return seedResult();
    });
  }
  const serving = await registry.serveHttp(options);
  servings.push(serving);
  return { serving, logger };
}

describe("serveHttp: who may call", () => {
  test("Origin: absent passes, an allowed one passes, any other is 403", async () => {
    const { serving } = await serve();
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
    expect((await post(serving.url, INITIALIZE, { origin: `http://127.0.0.1:${serving.port}` })).status).toBe(200);
    expect((await post(serving.url, INITIALIZE, { origin: "http://localhost:3000" })).status).toBe(200);
    const foreign = await post(serving.url, INITIALIZE, { origin: "https://attacker.example" });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("origin") } });
    expect((await post(serving.url, INITIALIZE, { origin: "null" })).status).toBe(403);
  });

  test("allowedOrigins overrides the default: an exact origin, scheme and port included", async () => {
    const { serving } = await serve({ allowedOrigins: ["https://app.example.com"] });
    expect((await post(serving.url, INITIALIZE, { origin: "https://app.example.com" })).status).toBe(200);
    expect((await post(serving.url, INITIALIZE, { origin: "http://app.example.com" })).status).toBe(403);
    expect((await post(serving.url, INITIALIZE, { origin: `http://127.0.0.1:${serving.port}` })).status).toBe(403);
  });

  test("Host on a non-default loopback address (127.0.0.2): the bind address passes, any other name is 403", async () => {
    const { serving, logger } = await serve({ host: "127.0.0.2" });
    expect(serving.url.hostname).toBe("127.0.0.2");
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
    expect((await post(serving.url, INITIALIZE, { host: `attacker.example:${serving.port}` })).status).toBe(403);
    expect((await post(serving.url, INITIALIZE, { host: `127.0.0.1:${serving.port}` })).status).toBe(403);
    // Still loopback: no warning about authentication.
    expect(logger.warnings).toEqual([]);
  });

  test("an address or name written in any of its forms allows what clients send: IPv6 expanded, upper case, IPv4 shorthand", async () => {
    // The bind address and allowedHosts are compared as a URL spells a Host header's name.
    const { serving, logger } = await serve({ host: "0:0:0:0:0:0:0:1" });
    expect(serving.url.hostname).toBe("[::1]");
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
    expect((await post(serving.url, INITIALIZE, { host: `[0:0::1]:${serving.port}` })).status).toBe(200);
    expect((await post(serving.url, INITIALIZE, { host: `LOCALHOST:${serving.port}` })).status).toBe(200);
    expect((await post(serving.url, INITIALIZE, { host: `[::2]:${serving.port}` })).status).toBe(403);
    // Loopback in any spelling: no warning about authentication.
    expect(logger.warnings).toEqual([]);
    const listed = await serve({ allowedHosts: ["MCP.Internal", "[0:0::1]", "127.1"] });
    for (const host of ["mcp.internal", "[::1]", "127.0.0.1"]) {
      expect((await post(listed.serving.url, INITIALIZE, { host: `${host}:${listed.serving.port}` })).status, host).toBe(200);
    }
    expect((await post(listed.serving.url, INITIALIZE, { host: `mcp.internal.:${listed.serving.port}` })).status).toBe(403);
  });

  test("allowedHosts overrides the Host allowlist", async () => {
    const { serving } = await serve({ allowedHosts: ["mcp.internal"] });
    expect((await post(serving.url, INITIALIZE, { host: `mcp.internal:${serving.port}` })).status).toBe(200);
    expect((await post(serving.url, INITIALIZE)).status).toBe(403);
  });

  test("bound off loopback without authenticate: one warning; the Host check still holds", async () => {
    const { serving, logger } = await serve({ host: "0.0.0.0" });
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/^serveHttp is bound to 0\.0\.0\.0, off loopback, without an authenticate hook/);
    const url = new URL(`http://127.0.0.1:${serving.port}/mcp`);
    expect((await post(url, INITIALIZE)).status).toBe(200);
    expect((await post(url, INITIALIZE, { host: `attacker.example:${serving.port}` })).status).toBe(403);
  });

  test("authenticate: undefined or a throw is 401; what it returns reaches the tool as extra.http.authInfo", async () => {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "auth", version: "1.0.0", startupCheck: false, logger });
    const seen: unknown[] = [];
    registry.tool()(function whoami(_args: unknown, extra: { http?: { authInfo?: { clientId: string } } }) {
      seen.push(extra.http?.authInfo?.clientId);
      return seedResult();
    });
    const serving = await registry.serveHttp({
      host: "0.0.0.0",
      allowedHosts: ["127.0.0.1"],
      authenticate: (req) => {
        if (req.headers.authorization === "Bearer boom") throw new Error("verifier down");
        return req.headers.authorization === "Bearer good" ? { token: "good", clientId: "alice", scopes: [] } : undefined;
      },
    });
    servings.push(serving);
    expect(logger.warnings).toEqual([]); // an authenticate hook: no warning off loopback
    const url = new URL(`http://127.0.0.1:${serving.port}/mcp`);
    const refused = await post(url, INITIALIZE);
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
    expect(JSON.parse(refused.body)).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Unauthorized" }, id: null });
    expect((await post(url, INITIALIZE, { authorization: "Bearer boom" })).status).toBe(401);
    const call = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } }, {
      authorization: "Bearer good",
      "mcp-protocol-version": "2025-06-18",
    });
    expect(call.status).toBe(200);
    expect(seen).toEqual(["alice"]);
  });
});

describe("serveHttp: what it reads", () => {
  test("a JSON-RPC batch is refused (400, -32600) for 2025-06-18 and later, and without a version", async () => {
    const { serving } = await serve();
    const batch = Array.from({ length: 100 }, (_, index) => LIST(index + 1));
    for (const headers of [{}, { "mcp-protocol-version": "2025-06-18" }, { "mcp-protocol-version": "2026-07-28" }] as Array<Record<string, string>>) {
      const refused = await post(serving.url, batch, headers);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: -32600, message: expect.stringContaining("batches") } });
      expect(refused.body.length).toBeLessThan(300);
    }
  });

  test("an oversize body is 413 before it is parsed, whether it declares its length or streams it", async () => {
    const { serving } = await serve({ limits: { maxBodyBytes: 1024 } });
    const big = JSON.stringify({ ...LIST(1), params: { padding: "x".repeat(4096) } });
    const declared = await post(serving.url, big);
    expect(declared.status).toBe(413);
    // Chunked: no Content-Length, counted as it arrives.
    const streamed = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(serving.url, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      for (let i = 0; i < 8; i++) req.write("x".repeat(512));
      req.end();
    });
    expect(streamed).toBe(413);
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
  });

  test("a body that is not JSON is a JSON-RPC parse error (400, -32700)", async () => {
    const { serving } = await serve();
    const broken = await post(serving.url, "{ not json");
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({ error: { code: -32700 } });
  });

  test("a slow body is cut off at requestTimeoutMs (408) while other clients are served", async () => {
    const { serving } = await serve({ limits: { requestTimeoutMs: 600, headersTimeoutMs: 400 } });
    const socket = connect(serving.port, "127.0.0.1");
    const answer = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("close", () => resolve(text));
    });
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`);
    const started = Date.now();
    const drip = setInterval(() => socket.write(" "), 100);
    // Meanwhile another client is served at once.
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
    const text = await answer;
    clearInterval(drip);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test("no server is built for a request whose body has not fully arrived", async () => {
    const registry = createRegistry({ name: "lazy", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.tool()(function list_cities() {
      return seedResult();
    });
    const createServer = registry.createServer.bind(registry);
    let built = 0;
    Object.assign(registry, { createServer: () => (built++, createServer()) });
    const serving = await registry.serveHttp();
    servings.push(serving);
    const sockets = Array.from({ length: 50 }, () => {
      const socket = connect(serving.port, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"jsonrpc":`);
      return socket;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(built).toBe(0);
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
    expect(built).toBe(1);
    for (const socket of sockets) socket.destroy();
  });

  test("GET and DELETE are 405, another path 404", async () => {
    const { serving } = await serve();
    expect((await fetch(serving.url)).status).toBe(405);
    expect((await fetch(serving.url, { method: "DELETE" })).status).toBe(405);
    expect((await post(new URL("/other", serving.url), INITIALIZE)).status).toBe(404);
  });

  test("a request target no URL parser reads is 404, not a 500 with a warning per request", async () => {
    const { serving, logger } = await serve();
    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = connect(serving.port, "127.0.0.1", () => socket.end(`POST //[ HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Length: 0\r\n\r\n`));
      let received = "";
      socket.on("data", (chunk: Buffer) => void (received += chunk.toString()));
      socket.on("close", () => resolve(received.split("\r\n")[0] ?? ""));
      socket.on("error", reject);
    });
    expect(statusLine).toBe("HTTP/1.1 404 Not Found");
    expect(logger.warnings).toEqual([]);
  });
});

describe("serveHttp: load and shutdown", () => {
  test("over maxConcurrentRequests, a request is 503 with Retry-After; the others are answered", async () => {
    const { serving } = await serve({ limits: { maxConcurrentRequests: 2 } });
    const call = (id: number) => post(serving.url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: {} } }, { "mcp-protocol-version": "2025-06-18" });
    const answers = await Promise.all([call(1), call(2), call(3)]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 503]);
    const refused = answers.find((answer) => answer.status === 503);
    expect([refused?.headers["retry-after"], refused?.headers["connection"]]).toEqual(["1", "close"]);
    expect(JSON.parse(refused?.body ?? "")).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Service unavailable: 2 requests are being handled; retry shortly" },
      id: null,
    });
    expect((await call(4)).status).toBe(200);
  });

  test("close() lets a call in flight finish, then refuses new connections", async () => {
    const { serving } = await serve();
    const inFlight = post(serving.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {} } }, { "mcp-protocol-version": "2025-06-18" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = serving.close();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("Tokyo");
    await closed;
    // A new connection (the pooled one was closed with the server).
    await expect(post(serving.url, INITIALIZE, {}, false)).rejects.toThrow(/ECONNREFUSED/);
  });
});
