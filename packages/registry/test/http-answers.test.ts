import { connect } from "node:net";
import { request } from "node:http";
import { hostname, networkInterfaces } from "node:os";
import { UnsupportedProtocolVersionError } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createRegistry, type HttpServeOptions, type HttpServing } from "../dist/index.js";
import { HttpErrorLog, isClientRefusal } from "../dist/refusal-log.js";
import { hostsOfBindAddress } from "../dist/http-requests.js";
import { recordingLogger, seedResult } from "./helpers.js";

/*
 * serveHttp's refusals in the words a client reads (status, headers, the JSON-RPC error whole),
 * the host names a bind address allows, and its shutdown: what http-safety.test.ts meets by
 * status, pinned to the letter and at the edges.
 */

interface RawResponse {
  status: number | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const LEGACY = { "mcp-protocol-version": "2025-06-18" };

/** A raw POST; with `pauseMs`, its answer is left unread that long before it is read whole. */
function post(url: URL, body: unknown, headers: Record<string, string> = {}, method = "POST", pauseMs = 0): Promise<RawResponse> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      if (pauseMs > 0) {
        res.pause();
        setTimeout(() => res.resume(), pauseMs);
      }
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(text);
  });
}

const refusal = (message: string, code = -32000, id: string | number | null = null) => ({ jsonrpc: "2.0", error: { code, message }, id });

const servings: HttpServing[] = [];
afterEach(async () => {
  for (const serving of servings.splice(0)) await serving.close(0);
});

async function serve(options: HttpServeOptions = {}) {
  const logger = recordingLogger();
  const registry = createRegistry({ name: "answers", version: "1.0.0", startupCheck: false, logger });
  registry.tool()(function list_cities() {
    return seedResult();
  });
  registry.tool()(function hangs() {
    return new Promise<never>(() => undefined);
  });
  registry.tool()(async function quick() {
    await new Promise((resolve) => setTimeout(resolve, 150));
    return seedResult();
  });
  // Longer than the second a closing server gives answers to leave (ANSWER_FLUSH_MS), shorter than its grace.
  registry.tool()(async function slow() {
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    return seedResult();
  });
  registry.tool()(function big() {
    return { ...seedResult(), _meta: { padding: "x".repeat(32 * 1024 * 1024) } };
  });
  const serving = await registry.serveHttp(options);
  servings.push(serving);
  return { serving, logger };
}

describe("serveHttp: each refusal, whole", () => {
  test("another path is 404 naming the endpoint (a path of its own too)", async () => {
    const { serving } = await serve({ path: "/tools" });
    expect(serving.url.pathname).toBe("/tools");
    const answer = await post(new URL("/mcp", serving.url), INITIALIZE);
    expect([answer.status, answer.headers["content-type"], JSON.parse(answer.body)]).toEqual([404, "application/json", refusal("Not found: the MCP endpoint is /tools")]);
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
  });

  test("a Host or an Origin not allowed is 403 quoting it; GET is 405 with Allow: POST", async () => {
    const { serving } = await serve();
    const host = await post(serving.url, INITIALIZE, { host: `attacker.example:${serving.port}` });
    expect([host.status, JSON.parse(host.body)]).toEqual([403, refusal(`Forbidden: host "attacker.example:${serving.port}" is not allowed (allowedHosts)`)]);
    const origin = await post(serving.url, INITIALIZE, { origin: "https://attacker.example" });
    expect([origin.status, JSON.parse(origin.body)]).toEqual([403, refusal('Forbidden: origin "https://attacker.example" is not allowed (allowedOrigins)')]);
    const get = await post(serving.url, "", {}, "GET");
    expect([get.status, get.headers["allow"], JSON.parse(get.body)]).toEqual([405, "POST", refusal("Method not allowed: this server serves 2025-era clients statelessly and answers POST only (a GET stream needs a session: serveHttp({ sessions: true }))")]);
  });

  test("a request without a Host header is 403", async () => {
    const { serving } = await serve();
    const statusLine = await new Promise<string>((resolve, reject) => {
      // HTTP/1.0 may leave Host out; node:http would add one.
      const socket = connect(serving.port, "127.0.0.1", () => socket.end("POST /mcp HTTP/1.0\r\nContent-Length: 0\r\n\r\n"));
      let received = "";
      socket.on("data", (chunk: Buffer) => void (received += chunk.toString()));
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
    });
    expect(statusLine).toMatch(/^HTTP\/1\.1 403 /);
    expect(statusLine).toContain('Forbidden: host \\"\\" is not allowed (allowedHosts)');
  });

  test("a body over maxBodyBytes is 413 naming the limit and closing the connection; one of exactly maxBodyBytes is read", async () => {
    const { serving } = await serve({ limits: { maxBodyBytes: 300 } });
    const body = (bytes: number) => {
      const bare = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, _meta: { pad: "" } } });
      return bare.replace('"pad":""', `"pad":"${"x".repeat(bytes - bare.length)}"`);
    };
    expect(Buffer.byteLength(body(300))).toBe(300);
    expect((await post(serving.url, body(300))).status).toBe(200);
    const over = await post(serving.url, body(301));
    expect([over.status, over.headers["connection"], JSON.parse(over.body)]).toEqual([413, "close", refusal("Payload too large: the request body exceeds 300 bytes")]);
  });

  test("a body declaring more than maxBodyBytes is refused at once, before a byte of it arrives", async () => {
    const { serving } = await serve({ limits: { maxBodyBytes: 300 } });
    const answered = new Promise<string>((resolve, reject) => {
      const socket = connect(serving.port, "127.0.0.1", () =>
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Type: application/json\r\nContent-Length: 301\r\n\r\n`),
      );
      let received = "";
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes("bytes\"")) resolve(received);
      });
      socket.on("error", reject);
      setTimeout(() => {
        socket.destroy();
        resolve(`no answer in 3 s; received ${JSON.stringify(received)}`);
      }, 3_000);
    });
    const answer = await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("Payload too large: the request body exceeds 300 bytes");
  });

  test("a body over maxBodyBytes that declares no length is cut off as it streams in, with the same 413", async () => {
    const { serving } = await serve({ limits: { maxBodyBytes: 300 } });
    const answer = await new Promise<RawResponse>((resolve, reject) => {
      const req = request(serving.url, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      });
      req.on("error", reject);
      for (let i = 0; i < 4; i++) req.write("x".repeat(100));
      req.end();
    });
    expect([answer.status, answer.headers["connection"], JSON.parse(answer.body)]).toEqual([413, "close", refusal("Payload too large: the request body exceeds 300 bytes")]);
  });

  test("a body that is not JSON is -32700 in words", async () => {
    const { serving } = await serve();
    const answer = await post(serving.url, "{ not json");
    expect([answer.status, JSON.parse(answer.body)]).toEqual([400, refusal("Parse error: the request body is not JSON", -32700)]);
  });

  test("a batch: refused whole for 2025-06-18 and later; passed on to the SDK for an older revision", async () => {
    const { serving } = await serve();
    const batch = [{ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }];
    const refused = await post(serving.url, batch, LEGACY);
    expect([refused.status, JSON.parse(refused.body)]).toEqual([
      400,
      refusal("Invalid request: JSON-RPC batches are not part of MCP since revision 2025-06-18; send one message per request", -32600),
    ]);
    const older = await post(serving.url, batch, { "mcp-protocol-version": "2025-03-26" });
    expect(older.body).not.toContain("batches are not part of MCP");
  });

  test("JSON nested past maxJsonDepth: 400 by the request's id; a body that is no request is answered by id null, and logged without a method", async () => {
    const { serving, logger } = await serve({ limits: { maxJsonDepth: 3 } });
    const deep = await post(serving.url, { jsonrpc: "2.0", id: "d-1", method: "tools/list", params: { _meta: { a: { b: {} } } } }, LEGACY);
    expect([deep.status, JSON.parse(deep.body)]).toEqual([400, refusal("Invalid request: the JSON is nested deeper than 3 levels", -32600, "d-1")]);
    // An id MCP does not accept is not echoed: the refusal goes to id null.
    const badId = await post(serving.url, { jsonrpc: "2.0", id: 1.5, method: "tools/list", params: { _meta: { a: { b: {} } } } }, LEGACY);
    expect([badId.status, JSON.parse(badId.body)]).toEqual([400, refusal("Invalid request: the JSON is nested deeper than 3 levels", -32600)]);
    const noRequest = await post(serving.url, { jsonrpc: "2.0", id: 2, result: { a: { b: { c: {} } } } }, LEGACY);
    expect([noRequest.status, JSON.parse(noRequest.body)]).toEqual([400, refusal("Invalid request: the JSON is nested deeper than 3 levels", -32600)]);
    expect(logger.warnings).toEqual([
      "HTTP request refused: its JSON nests deeper than 3 levels (maxJsonDepth) (tools/list)",
      "HTTP request refused: its JSON nests deeper than 3 levels (maxJsonDepth) (tools/list)",
      "HTTP request refused: its JSON nests deeper than 3 levels (maxJsonDepth)",
    ]);
  });

  test("arrays nest like objects: [ counts a level, ] closes one", async () => {
    const { serving } = await serve({ limits: { maxJsonDepth: 4 } });
    const deep = await post(serving.url, { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { a: [[]] } } }, LEGACY);
    expect([deep.status, JSON.parse(deep.body)]).toEqual([400, refusal("Invalid request: the JSON is nested deeper than 4 levels", -32600, 4)]);
    const siblings = await post(serving.url, { jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: { a: [], b: [], c: [], d: [] } } }, LEGACY);
    expect(siblings.status).toBe(200);
  });

  test("a body of JSON that is no object (null, a number, a string) is refused as the SDK refuses it, never a 500", async () => {
    const { serving, logger } = await serve();
    for (const body of ["null", "42", '"tools/list"']) {
      const answer = await post(serving.url, body, LEGACY);
      expect(answer.status, body).not.toBe(500);
      expect(answer.status, body).toBeGreaterThanOrEqual(400);
    }
    // The SDK's own refusal, logged in one line by its error handler; never a failure of the layer in front of it.
    expect(logger.warnings).toHaveLength(3);
    for (const warning of logger.warnings) expect(warning).toMatch(/^HTTP request refused: Rejected inbound request \(invalid-json-rpc-body\): [^\n]*$/);
  });

  test("a client sending invalid requests cannot flood the log: 10 refusals a minute are logged, one line each, the rest counted in one line", async () => {
    const { serving, logger } = await serve();
    for (let i = 0; i < 25; i++) expect((await post(serving.url, "42", LEGACY)).status).toBe(400);
    expect(logger.warnings).toHaveLength(10);
    for (const warning of logger.warnings) expect(warning).not.toContain("\n");
    // The count is logged when the minute ends, or when the serving closes first.
    await serving.close(0);
    expect(logger.warnings).toHaveLength(11);
    expect(logger.warnings[10]).toBe("HTTP: 15 more requests were refused as invalid in the same minute, not logged one by one (at most 10 a minute are)");
  });

  test("an escaped quote inside a string does not end it: brackets after it still do not count", async () => {
    const { serving } = await serve({ limits: { maxJsonDepth: 3 } });
    const answer = await post(serving.url, { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { note: '\\" [[[[{{{{' } } }, LEGACY);
    expect(answer.status).toBe(200);
  });
});

describe("serveHttp: where it listens", () => {
  test("a bind address allows the names a client reaching it sends", () => {
    expect(hostsOfBindAddress("127.0.0.1")).toEqual(["127.0.0.1", "localhost"]);
    expect(hostsOfBindAddress("127.1")).toEqual(["127.0.0.1", "localhost"]);
    expect(hostsOfBindAddress("localhost")).toEqual(["localhost"]);
    expect(hostsOfBindAddress("::1")).toEqual(["[::1]", "localhost"]);
    expect(hostsOfBindAddress("0:0:0:0:0:0:0:1")).toEqual(["[::1]", "localhost"]);
    expect(hostsOfBindAddress("192.168.1.5")).toEqual(["192.168.1.5"]);
    expect(hostsOfBindAddress("MCP.Example.COM")).toEqual(["mcp.example.com"]);
    expect(hostsOfBindAddress("[fe80::1]")).toEqual(["[fe80::1]"]);
    // Brackets are taken off only in pairs: a lone one leaves a name no URL reads, kept as written.
    expect(hostsOfBindAddress("[::1")).toEqual(["[[::1]"]);
    expect(hostsOfBindAddress("::1]")).toEqual(["[::1]]"]);
    expect(hostsOfBindAddress("128.0.0.1")).toEqual(["128.0.0.1"]);
    // Loopback is all of 127.0.0.0/8, and only it: the whole name is an IPv4 address in 127.
    expect(hostsOfBindAddress("127.10.200.30")).toEqual(["127.10.200.30", "localhost"]);
    expect(hostsOfBindAddress("127.0.0.1.example")).toEqual(["127.0.0.1.example"]);
    // A name no URL reads (its last label a number, not an address) is kept, in lower case.
    expect(hostsOfBindAddress("X.127.0.0.1")).toEqual(["x.127.0.0.1"]);
  });

  test("bound to localhost, [::1] or 127.0.0.2: loopback, so no warning about authentication", async () => {
    for (const host of ["localhost", "::1", "127.0.0.2"]) {
      const { logger } = await serve({ host });
      expect(logger.warnings, host).toEqual([]);
    }
  });

  test("a wildcard (0.0.0.0, ::, the empty host) allows the loopback names, this machine's name and every address of it", () => {
    const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => (entry.family === "IPv6" ? new URL(`http://[${entry.address}]`).hostname : entry.address)));
    for (const wildcard of ["0.0.0.0", "::", "[::]", ""]) {
      const hosts = hostsOfBindAddress(wildcard);
      expect(hosts.slice(0, 4), wildcard).toEqual(["localhost", "127.0.0.1", "[::1]", hostname().toLowerCase()].filter((name, index, all) => all.indexOf(name) === index));
      for (const address of addresses) expect(hosts, address).toContain(address);
      expect(new Set(hosts).size).toBe(hosts.length);
    }
  });

  test("an allowedOrigins entry that is no origin is refused when serving starts, saying what to write", async () => {
    const registry = createRegistry({ name: "answers", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    await expect(registry.serveHttp({ allowedOrigins: ["https://"] })).rejects.toThrow(
      new TypeError('serveHttp: allowedOrigins entry "https://" is not an origin; write "https://app.example.com" or a host name.'),
    );
  });

  test("a bare host name in allowedOrigins allows it on any scheme and port; an origin entry only its own", async () => {
    const { serving } = await serve({ allowedOrigins: ["App.Example.com", "https://tools.example.org:8443"] });
    for (const origin of ["http://app.example.com", "https://app.example.com:9000", "https://tools.example.org:8443"]) {
      expect((await post(serving.url, INITIALIZE, { origin })).status, origin).toBe(200);
    }
    for (const origin of ["https://tools.example.org", "http://tools.example.org:8443", "not an origin"]) {
      expect((await post(serving.url, INITIALIZE, { origin })).status, origin).toBe(403);
    }
  });

  test("a port in use: serving fails with the listen error, nothing is left listening or running", async () => {
    const { serving } = await serve();
    const registry = createRegistry({ name: "answers", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    // A timer left running would keep the process alive (Node's own, the server's, are not faked).
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      await expect(registry.serveHttp({ port: serving.port })).rejects.toMatchObject({ code: "EADDRINUSE" });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test("after close(), no timer of the server is left running to keep the process alive", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const { serving } = await serve();
      expect((await post(serving.url, INITIALIZE)).status).toBe(200);
      expect(vi.getTimerCount()).toBeGreaterThan(0);
      await serving.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("serveHttp: shutdown and clients that do not read", () => {
  test("close() twice is one shutdown; a call still running after graceMs is answered with an error result", async () => {
    const { serving } = await serve();
    const hanging = post(serving.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hangs", arguments: {} } }, LEGACY);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = serving.close(200);
    expect(serving.close(5_000)).toBe(closing);
    const answer = await hanging;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/"isError":true/);
    await closing;
  });

  test("close() waits for the last call in flight, not the first to end: each is answered with its result", async () => {
    const { serving } = await serve();
    const call = (name: string, id: number) => post(serving.url, { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } }, LEGACY);
    const calls = [call("quick", 2), call("slow", 3)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const closing = serving.close(10_000);
    for (const answer of await Promise.all(calls)) {
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("Tokyo");
      expect(answer.body).not.toMatch(/"isError":true/);
    }
    await closing;
    // The last answer let close() go on: it did not wait for the 10 s grace.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("a request still arriving when close() begins is answered, and its connection ends after it: an SDK answer and a refusal alike", async () => {
    const { serving } = await serve();
    // Before the shutdown, an answer of its own (the SDK's event streams say so themselves) keeps its connection.
    expect((await post(serving.url, INITIALIZE, {}, "GET")).headers["connection"]).toBe("keep-alive");
    /** A request whose body's last byte is sent once `close()` has begun; resolves with the answer's head. */
    const arrivingLate = (body: string) => {
      const socket = connect(serving.port, "127.0.0.1");
      socket.on("error", () => undefined);
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
          `MCP-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, -1)}`,
      );
      let received = "";
      socket.on("data", (chunk: Buffer) => void (received += chunk.toString()));
      return {
        finish: () => socket.write(body.slice(-1)),
        head: new Promise<string>((resolve) => socket.on("close", () => resolve(received.split("\r\n\r\n")[0] ?? ""))),
      };
    };
    const call = arrivingLate(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_cities", arguments: {} } }));
    const notJson = arrivingLate("{ not json }");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = serving.close(10_000);
    call.finish();
    notJson.finish();
    const [callHead, refusalHead] = await Promise.all([call.head, notJson.head]);
    // The SDK's event stream names keep-alive itself: the answer of a closing server says close all the same.
    expect(callHead).toMatch(/^HTTP\/1\.1 200 /);
    expect(callHead).toMatch(/^content-type: text\/event-stream$/im);
    expect(callHead).toMatch(/^connection: close$/im);
    expect(refusalHead).toMatch(/^HTTP\/1\.1 400 /);
    expect(refusalHead).toMatch(/^connection: close$/im);
    await closing;
  });

  test("a call running longer than sendTimeoutMs keeps its connection: only an answer left unread is timed", async () => {
    const { serving, logger } = await serve({ limits: { sendTimeoutMs: 200 } });
    const answer = await post(serving.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: {} } }, LEGACY);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("Tokyo");
    expect(logger.warnings).toEqual([]);
  });

  test("a client that leaves its answer unread for less than sendTimeoutMs keeps its connection and reads it whole", async () => {
    // Swept every 750 ms: a pause of 1.6 s is seen unread by at least two sweeps in a row.
    const { serving, logger } = await serve({ limits: { sendTimeoutMs: 3_000 } });
    const answer = await post(serving.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big", arguments: {} } }, LEGACY, "POST", 1_600);
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThan(32 * 1024 * 1024);
    expect(answer.body).toContain("Tokyo");
    expect(logger.warnings).toEqual([]);
  }, 30_000);

  test("an answer the client does not read for sendTimeoutMs: its connection is closed, with a warning naming the limit", async () => {
    const { serving, logger } = await serve({ limits: { sendTimeoutMs: 300 } });
    const socket = connect(serving.port, "127.0.0.1");
    socket.on("error", () => undefined);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big", arguments: {} } });
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // Never read: the answer (32 MB) fills the connection's buffers.
    socket.pause();
    await expect.poll(() => logger.warnings, { timeout: 20_000 }).toHaveLength(1);
    socket.destroy();
    expect(logger.warnings).toEqual(["HTTP: a client did not read its answer for 300 ms (sendTimeoutMs); its connection was closed"]);
    // The slot is free again.
    expect((await post(serving.url, INITIALIZE)).status).toBe(200);
  }, 30_000);
});

describe("HttpErrorLog: the SDK's reported errors", () => {
  afterEach(() => void vi.useRealTimers());

  test("refusals: 10 a minute in one line each; the rest counted when the minute ends; the next minute logs again", () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const log = new HttpErrorLog(logger);
    const refusal = new Error("Rejected inbound request (invalid-json-rpc-body): the body is\nno message");
    for (let i = 0; i < 12; i++) log.report(refusal);
    expect(logger.warnings).toEqual(Array.from({ length: 10 }, () => "HTTP request refused: Rejected inbound request (invalid-json-rpc-body): the body is no message"));
    vi.advanceTimersByTime(59_999);
    expect(logger.warnings).toHaveLength(10);
    vi.advanceTimersByTime(1);
    expect(logger.warnings.slice(10)).toEqual(["HTTP: 2 more requests were refused as invalid in the same minute, not logged one by one (at most 10 a minute are)"]);
    log.report(new UnsupportedProtocolVersionError({ supported: ["2026-07-28"], requested: "1999-01-01" }));
    expect(logger.warnings).toHaveLength(12);
    expect(logger.warnings[11]).toMatch(/^HTTP request refused: /);
    for (let i = 0; i < 10; i++) log.report(new Error("Unsupported Media Type: Content-Type must be application/json"));
    log.flush();
    expect(logger.warnings.at(-1)).toBe("HTTP: 1 more request was refused as invalid in the same minute, not logged one by one (at most 10 a minute are)");
  });

  test("a failure (anything but a refusal) is logged every time, with its stack", () => {
    const logger = recordingLogger();
    const log = new HttpErrorLog(logger);
    for (let i = 0; i < 12; i++) log.report(new Error("the transport broke"));
    expect(logger.warnings).toHaveLength(12);
    expect(logger.warnings[0]).toMatch(/^HTTP request failed: Error: the transport broke\n {4}at /);
    expect(isClientRefusal(new Error("Rejected 2025-era request on a modern-only endpoint (x): y"))).toBe(true);
    expect(isClientRefusal(new Error("rejected inbound request (x)"))).toBe(false);
  });
});
