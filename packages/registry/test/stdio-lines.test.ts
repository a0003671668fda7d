import { PassThrough, Writable } from "node:stream";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, test } from "vitest";
import { createRegistry, type Registry, type StdioServing } from "../dist/index.js";
import { connectInMemory, firstText, rawInitialize, recordingLogger, seedResult } from "./helpers.js";

/*
 * The stdio serving layer in this process, over streams of the test's own: the line guard in front
 * of the SDK's transport at its limits, every answer and warning in the words a client or an
 * operator reads, the connection's end, and stdout kept for the protocol. (stdio.test.ts and
 * stdio-answers.test.ts meet the same layer in a server process; these run where a mutation run
 * can see the source.)
 */

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const LIMIT = 1_000;

interface Served {
  readonly registry: Registry;
  readonly stdin: PassThrough;
  readonly stdout: PassThrough;
  readonly serving: StdioServing;
  readonly warnings: string[];
  /** Every line written to stdout so far. */
  readonly lines: string[];
  /** The next stdout line, parsed. */
  next(): Promise<Record<string, unknown>>;
  send(message: unknown): void;
}

async function served(options: { maxLineBytes?: number; encoding?: BufferEncoding } = {}): Promise<Served> {
  const logger = recordingLogger();
  const registry = createRegistry({ name: "lines", version: "1.0.0", logger, startupCheck: false });
  registry.tool({ name: "seed" })(() => seedResult());
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  if (options.encoding !== undefined) stdin.setEncoding(options.encoding);
  const serving = await registry.serveStdio({ stdin, stdout, ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }) });
  closers.push(() => serving.close());
  const lines: string[] = [];
  let read = 0;
  let waiter: (() => void) | undefined;
  const reader = createInterface({ input: stdout });
  reader.on("line", (line) => {
    lines.push(line);
    waiter?.();
  });
  // readline passes its input's errors on; the tests that fail stdout look at what the server did.
  reader.on("error", () => undefined);
  const next = async (): Promise<Record<string, unknown>> => {
    while (read === lines.length) await new Promise<void>((resolve) => (waiter = resolve));
    return JSON.parse(lines[read++]!) as Record<string, unknown>;
  };
  return {
    registry,
    stdin,
    stdout,
    serving,
    warnings: logger.warnings,
    lines,
    next,
    send: (message) => void stdin.write(`${JSON.stringify(message)}\n`),
  };
}

async function initialized(options?: Parameters<typeof served>[0]): Promise<Served> {
  const server = await served(options);
  server.send(rawInitialize(1));
  expect(await server.next()).toMatchObject({ id: 1, result: { serverInfo: { name: "lines" } } });
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}

/** A `tools/list` request whose line (newline excluded) is exactly `bytes` long. */
function listLine(id: number, bytes: number): string {
  const bare = `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":{"pad":""}}}`;
  const line = bare.replace('"pad":""', `"pad":"${"x".repeat(bytes - bare.length)}"`);
  expect(Buffer.byteLength(line)).toBe(bytes);
  return line;
}

const error = (code: number, message: string, id: string | number | null = null) => ({ jsonrpc: "2.0", id, error: { code, message } });
const invalid = (problem: string, id: string | number | null = null) => error(-32600, `Invalid request: ${problem}`, id);

describe("stdio lines: the limit of a line", () => {
  test("a line of exactly maxLineBytes is served; one byte more is discarded and answered -32600 (id null) naming the limit; the next line is served", async () => {
    const server = await initialized({ maxLineBytes: LIMIT });
    server.stdin.write(`${listLine(2, LIMIT)}\n`);
    expect(await server.next()).toMatchObject({ id: 2, result: { tools: [{ name: "seed" }] } });
    server.stdin.write(`${listLine(3, LIMIT + 1)}\n`);
    expect(await server.next()).toEqual(invalid(`a message over ${LIMIT} bytes was discarded`));
    server.stdin.write(`${listLine(4, LIMIT - 1)}\n`);
    expect(await server.next()).toMatchObject({ id: 4, result: { tools: [{ name: "seed" }] } });
  });

  test("the limit counts a line over every chunk it arrives in; the line after a discarded one, in the same chunk, is served", async () => {
    const server = await initialized({ maxLineBytes: LIMIT });
    const over = listLine(2, LIMIT + 1);
    // Each chunk under the limit, the line over it.
    server.stdin.write(over.slice(0, 400));
    server.stdin.write(over.slice(400, 800));
    server.stdin.write(`${over.slice(800)}\n${listLine(3, 100)}\n`);
    expect(await server.next()).toEqual(invalid(`a message over ${LIMIT} bytes was discarded`));
    expect(await server.next()).toMatchObject({ id: 3, result: { tools: [{ name: "seed" }] } });
  });

  test("the default limit is 4 MiB: a line of 4 MiB is served, one of 4 MiB + 1 is discarded", async () => {
    const server = await initialized();
    const mib4 = 4 * 1024 * 1024;
    server.stdin.write(`${listLine(2, mib4)}\n`);
    expect(await server.next()).toMatchObject({ id: 2, result: { tools: [{ name: "seed" }] } });
    server.stdin.write(`${listLine(3, mib4 + 1)}\n`);
    expect(await server.next()).toEqual(invalid(`a message over ${mib4} bytes was discarded`));
  });

  test("lines split anywhere — a multi-byte character across two chunks, two messages in one chunk — are read whole", async () => {
    const server = await initialized();
    const call = Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "seed", arguments: {}, _meta: { note: "Zürich → 東京" } } })}\n`);
    const cut = call.indexOf("東") + 1;
    server.stdin.write(call.subarray(0, cut));
    server.stdin.write(call.subarray(cut));
    expect(await server.next()).toMatchObject({ id: 2, result: { structuredContent: { sources: expect.any(Array) } } });
    server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/list" })}\n`);
    expect(await server.next()).toMatchObject({ id: 3 });
    expect(await server.next()).toMatchObject({ id: 4 });
  });

  test("stdin that delivers strings (an encoding set on it) is read as lines", async () => {
    const server = await initialized({ encoding: "utf8" });
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(await server.next()).toMatchObject({ id: 2, result: { tools: [{ name: "seed" }] } });
  });

  test("empty lines and lines of white space only are no message: nothing is answered for them", async () => {
    const server = await initialized();
    server.stdin.write("\n\n   \n\t\r\n\uFEFF\n");
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(await server.next()).toMatchObject({ id: 2 });
    expect(server.lines).toHaveLength(2);
  });

  test("white space around the JSON (a BOM, a no-break space, a carriage return) is not part of the message", async () => {
    const server = await served();
    server.stdin.write(`\uFEFF\u00A0${JSON.stringify(rawInitialize(1))}\r\n`);
    expect(await server.next()).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18" } });
  });
});

describe("stdio lines: what is no message is answered, in words", () => {
  test("a line that is not JSON: -32700, id null, the whole answer", async () => {
    const server = await served();
    server.stdin.write("{ this is not json\n");
    expect(await server.next()).toEqual(error(-32700, "Parse error: a message line is not JSON"));
    expect(server.lines[0]).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: a message line is not JSON"}}');
  });

  test("JSON that is no JSON-RPC message: -32600 saying what a message is, by its id when MCP accepts that id", async () => {
    const server = await initialized();
    const cases: Array<[unknown, ReturnType<typeof invalid>]> = [
      [[{ jsonrpc: "2.0", id: 8, method: "tools/list" }], invalid("JSON-RPC batches are not part of MCP since revision 2025-06-18; send one message per line")],
      [42, invalid("a message is a JSON object")],
      [null, invalid("a message is a JSON object")],
      ["tools/list", invalid("a message is a JSON object")],
      [{ jsonrpc: "1.0", id: 9, method: "tools/list" }, invalid('a message has "jsonrpc": "2.0"', 9)],
      [{ id: "nine", method: "tools/list" }, invalid('a message has "jsonrpc": "2.0"', "nine")],
      [{ jsonrpc: "2.0", id: 7 }, invalid('a message has a "method" (a request or a notification), or a "result" or an "error" (a response)', 7)],
      [{ jsonrpc: "2.0", id: 7.5 }, invalid('a message has a "method" (a request or a notification), or a "result" or an "error" (a response)')],
      [{ jsonrpc: "2.0", id: 0, method: 5 }, invalid('a message has a "method" (a request or a notification), or a "result" or an "error" (a response)', 0)],
    ];
    for (const [message, answer] of cases) {
      server.send(message);
      expect(await server.next(), JSON.stringify(message)).toEqual(answer);
    }
    expect(server.warnings).toEqual([]);
  });

  test("a request MCP does not accept: -32600 saying which member is wrong and what it must be, by the request's id", async () => {
    const server = await initialized();
    const notMember = (key: string) => `unknown member ${JSON.stringify(key)}; a message has only "jsonrpc", "id", "method", "params"`;
    const cases: Array<[Record<string, unknown>, ReturnType<typeof invalid>]> = [
      [{ id: true, method: "tools/list" }, invalid('"id" must be a string or an integer, not a boolean')],
      [{ id: 1.5, method: "tools/list" }, invalid('"id" must be a string or an integer, not 1.5')],
      [{ id: {}, method: "tools/list" }, invalid('"id" must be a string or an integer, not an object')],
      [{ id: [], method: "tools/list" }, invalid('"id" must be a string or an integer, not an array')],
      [{ id: null, method: "tools/list" }, invalid('"id" must be a string or an integer, not null')],
      [{ id: 10, method: "tools/list", params: "all" }, invalid('"params" must be an object, not a string', 10)],
      [{ id: 11, method: "tools/list", params: [] }, invalid('"params" must be an object, not an array', 11)],
      [{ id: 12, method: "tools/list", params: null }, invalid('"params" must be an object, not null', 12)],
      [{ id: 13, method: "tools/call", params: 42 }, invalid('"params" must be an object, not 42', 13)],
      [{ id: 14, method: "tools/list", params: { _meta: 5 } }, invalid('"params._meta" must be an object, not 5', 14)],
      [{ id: 15, method: "tools/list", params: { _meta: [] } }, invalid('"params._meta" must be an object, not an array', 15)],
      [{ id: 16, method: "tools/list", params: { _meta: null } }, invalid('"params._meta" must be an object, not null', 16)],
      [{ id: "s-17", method: "tools/list", extra: true }, invalid(notMember("extra"), "s-17")],
      [{ id: 18, method: "tools/list", [`k${"y".repeat(80)}`]: 1 }, invalid(notMember(`k${"y".repeat(59)}`), 18)],
      [{ id: 19, method: "tools/list", params: {}, result: {} }, invalid(notMember("result"), 19)],
    ];
    for (const [message, answer] of cases) {
      server.send({ jsonrpc: "2.0", ...message });
      expect(await server.next(), JSON.stringify(message)).toEqual(answer);
    }
    server.send({ jsonrpc: "2.0", id: 20, method: "tools/list", params: { _meta: { progressToken: {} } } });
    const answer = await server.next();
    expect(answer).toMatchObject({ id: 20, error: { code: -32600 } });
    // The first issue down the closest branch of the union, with its whole path.
    expect((answer["error"] as { message: string }).message).toMatch(/^Invalid request: "params\._meta\.progressToken": Invalid input/);
    // Down the union of the message kinds to the request's branch (the fewest issues), and down
    // progressToken's own union (a string or a number: one issue each) to its first branch.
    server.send({ jsonrpc: "2.0", id: 21, method: "tools/call", params: { _meta: { progressToken: true } } });
    expect(await server.next()).toEqual(invalid('"params._meta.progressToken": Invalid input: expected string, received boolean', 21));
    server.send({ jsonrpc: "2.0", id: 22, method: "tools/list" });
    expect(await server.next()).toMatchObject({ id: 22, result: { tools: [{ name: "seed" }] } });
    expect(server.warnings).toEqual([]);
  });

  test("a notification or a response MCP does not accept is not answered: it is dropped with a warning that says which and why", async () => {
    const server = await initialized();
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: "now" });
    server.send({ jsonrpc: "2.0", id: 5, result: {}, extra: 1 });
    server.send({ jsonrpc: "2.0", id: 6, error: { code: 1, message: "no" }, method: 1 });
    // A notification is judged down its own branch of the union, not the request's (which also misses an id).
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: { progressToken: true } } });
    server.send({ jsonrpc: "2.0", id: 7, method: "tools/list" });
    expect(await server.next()).toMatchObject({ id: 7 });
    expect(server.lines).toHaveLength(2);
    expect(server.warnings).toEqual([
      'stdio: a notification MCP does not accept was dropped: "params" must be an object, not a string',
      'stdio: a response MCP does not accept was dropped: unknown member "extra"; a message has only "jsonrpc", "id", "result", "error"',
      'stdio: a response MCP does not accept was dropped: unknown member "method"; a message has only "jsonrpc", "id", "result", "error"',
      'stdio: a notification MCP does not accept was dropped: "params._meta.progressToken": Invalid input: expected string, received boolean',
    ]);
  });
});

describe("stdio lines: the SDK's clients over the streams", () => {
  /** The streams seen from the client's side: it reads the server's stdout and writes its stdin. */
  const clientTransport = (server: Served) => new StdioServerTransport(server.stdout, server.stdin);

  test("the v2 Client on 2026-07-28 lists the tools (sent as the table serialised them) and calls one", async () => {
    const server = await served();
    const client = new Client({ name: "lines", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(clientTransport(server));
    closers.push(() => client.close());
    const inMemory = await connectInMemory(server.registry);
    closers.push(() => inMemory.close());
    expect((await client.listTools()).tools).toEqual((await inMemory.client.listTools()).tools);
    expect(firstText(await client.callTool({ name: "seed" }))).toContain("Tokyo");
  });

  test("the v1 Client likewise; the server is there once the first message chose the era", async () => {
    const server = await served();
    expect(server.serving.server).toBeUndefined();
    const client = new LegacyClient({ name: "lines", version: "1.0.0" });
    await client.connect(clientTransport(server));
    closers.push(() => client.close());
    expect(server.serving.server).toBeDefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["seed"]);
    expect(firstText(await client.callTool({ name: "seed" }))).toContain("Tokyo");
  });
});

describe("stdio lines: the end of a connection", () => {
  test("stdin ending ends the connection: `closed` settles, stdin is no longer read", async () => {
    const server = await initialized();
    server.stdin.end();
    await server.serving.closed;
    expect(server.stdin.listenerCount("data")).toBe(0);
    expect(server.stdin.listenerCount("end")).toBe(0);
    expect(server.stdin.listenerCount("close")).toBe(0);
  });

  test("stdin destroyed (closed without an end) ends it too", async () => {
    const server = await initialized();
    server.stdin.destroy();
    await server.serving.closed;
    expect(server.stdin.listenerCount("data")).toBe(0);
  });

  test("close() ends it: `closed` settles, stdin is paused and no longer read, a later line is not answered", async () => {
    const server = await initialized();
    await server.serving.close();
    await server.serving.closed;
    expect(server.stdin.isPaused()).toBe(true);
    expect(server.stdin.listenerCount("data")).toBe(0);
    expect(server.stdin.listenerCount("end")).toBe(0);
    expect(server.stdin.listenerCount("close")).toBe(0);
    server.stdin.write("not json\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.lines).toHaveLength(1);
  });

  test("stdout closed by the client (EPIPE): the connection ends, nothing is logged", async () => {
    const server = await initialized();
    server.stdout.destroy(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    await server.serving.closed;
    expect(server.warnings).toEqual([]);
  });

  test("stdout failing otherwise: the connection ends and the failure is logged", async () => {
    const server = await initialized();
    server.stdout.destroy(Object.assign(new Error("no space left on device"), { code: "ENOSPC" }));
    await server.serving.closed;
    expect(server.warnings).toEqual(["stdio: stdout failed: no space left on device"]);
  });
});

describe("stdio lines: a stdout whose writes fail", () => {
  /** Serves over a stdout each write to which fails with `error`, and sends the handshake. */
  async function failingWrites(code: string, message: string): Promise<{ serving: StdioServing; warnings: string[] }> {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "lines", version: "1.0.0", logger, startupCheck: false });
    registry.tool({ name: "seed" })(() => seedResult());
    const stdin = new PassThrough();
    const stdout = new Writable({ write: (_chunk, _encoding, callback) => callback(Object.assign(new Error(message), { code })) });
    const serving = await registry.serveStdio({ stdin, stdout });
    closers.push(() => serving.close());
    stdin.write(`${JSON.stringify(rawInitialize(1))}\n`);
    await serving.closed;
    return { serving, warnings: logger.warnings };
  }

  test("EPIPE (the client closed its end): the connection ends, nothing is logged", async () => {
    expect((await failingWrites("EPIPE", "write EPIPE")).warnings).toEqual([]);
  });

  test("any other failure: the connection ends, and both the transport's and the stream's reports are logged", async () => {
    const { warnings } = await failingWrites("EIO", "i/o error");
    expect(warnings).toEqual(["stdio: i/o error", "stdio: stdout failed: i/o error"]);
  });
});

describe("stdio lines: the process's own stdout carries the protocol only", () => {
  type Write = typeof process.stdout.write;
  /** Runs `body` with the process's stdout and stderr writes recorded (never reaching the terminal), and puts them back. */
  async function withRecordedOutput(body: (recorded: { stdout: string[]; stderr: string[]; stdoutWrite: Write }) => Promise<void>): Promise<void> {
    const stdoutOwn = Object.getOwnPropertyDescriptor(process.stdout, "write");
    const stderrOwn = Object.getOwnPropertyDescriptor(process.stderr, "write");
    const recorded = { stdout: [] as string[], stderr: [] as string[], stdoutWrite: undefined as unknown as Write };
    const recorder = (into: string[]): Write =>
      function write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
        into.push(String(chunk));
        const done = typeof encoding === "function" ? encoding : callback;
        if (typeof done === "function") queueMicrotask(() => (done as () => void)());
        return true;
      };
    recorded.stdoutWrite = recorder(recorded.stdout);
    process.stdout.write = recorded.stdoutWrite;
    process.stderr.write = recorder(recorded.stderr);
    try {
      await body(recorded);
    } finally {
      for (const [stream, own] of [[process.stdout, stdoutOwn], [process.stderr, stderrOwn]] as const) {
        if (own === undefined) delete (stream as { write?: unknown }).write;
        else Object.defineProperty(stream, "write", own);
      }
    }
  }

  async function servedOnProcessStdout(): Promise<{ stdin: PassThrough; serving: StdioServing }> {
    const registry = createRegistry({ name: "lines", version: "1.0.0", logger: recordingLogger(), startupCheck: false });
    registry.tool({ name: "chatty" })(() => {
      process.stdout.write("printed by a tool\n");
      return seedResult();
    });
    const stdin = new PassThrough();
    return { stdin, serving: await registry.serveStdio({ stdin }) };
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  test("what a tool writes to process.stdout goes to stderr; the answers go to stdout; stdout's write is its own again after the connection", async () => {
    await withRecordedOutput(async (recorded) => {
      const { stdin, serving } = await servedOnProcessStdout();
      expect(process.stdout.write).not.toBe(recorded.stdoutWrite);
      stdin.write(`${JSON.stringify(rawInitialize(1))}\n`);
      stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "chatty", arguments: {} } })}\n`);
      await expect.poll(() => recorded.stdout.length).toBe(2);
      for (const line of recorded.stdout) expect(JSON.parse(line), line).toMatchObject({ jsonrpc: "2.0" });
      expect(recorded.stderr).toEqual(["printed by a tool\n"]);
      await serving.close();
      expect(process.stdout.write).toBe(recorded.stdoutWrite);
    });
  });

  test("two connections on the process's stdout: routed until the last one ends, however often one is closed", async () => {
    await withRecordedOutput(async (recorded) => {
      const first = await servedOnProcessStdout();
      const second = await servedOnProcessStdout();
      await first.serving.close();
      await first.serving.close();
      first.stdin.end();
      await settle();
      process.stdout.write("still routed\n");
      expect(recorded.stderr).toEqual(["still routed\n"]);
      await second.serving.close();
      expect(process.stdout.write).toBe(recorded.stdoutWrite);
      process.stdout.write("back on stdout\n");
      expect(recorded.stdout).toEqual(["back on stdout\n"]);
    });
  });

  test("a write function put on stdout while serving is kept when the connection ends", async () => {
    await withRecordedOutput(async () => {
      const { serving } = await servedOnProcessStdout();
      const theirs = (() => true) as unknown as Write;
      process.stdout.write = theirs;
      await serving.close();
      expect(process.stdout.write).toBe(theirs);
    });
  });
});
