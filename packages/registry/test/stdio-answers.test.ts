import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileServers, rawInitialize, rawStdioProcesses, type RawStdio } from "./helpers.js";

/*
 * JSON-RPC 2.0 answers every request that has a usable id. Over stdio the registry answers each
 * malformed one as Streamable HTTP does (-32600), by its id; a line with white space around the
 * JSON (a BOM from a PowerShell pipe, a no-break space) is read, not dropped.
 */

let outDir: string;
const processes = rawStdioProcesses();
beforeAll(async () => {
  outDir = await compileServers("stdio-answers");
});
afterEach(() => processes.stopAll());

async function initialized(): Promise<RawStdio> {
  const server = processes.start(`${outDir}/server.js`);
  server.send(rawInitialize(1));
  expect(await server.answer(1)).toMatchObject({ result: { serverInfo: { name: "net-test" } } });
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}

/** Nesting `depth` levels deep: `{"a":{"a":…{}}}`. */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}{}${"}".repeat(depth)}`;

describe("stdio: every request with a usable id is answered", () => {
  test("malformed params, _meta or members: -32600 by the request's id, and the server keeps serving", async () => {
    const server = await initialized();
    const malformed: Array<[string, Record<string, unknown>]> = [
      ["params is a string", { method: "tools/list", params: "all" }],
      ["params is an array", { method: "tools/list", params: [] }],
      ["params is null", { method: "tools/list", params: null }],
      ["params is a number", { method: "tools/call", params: 42 }],
      ["_meta is a number", { method: "tools/list", params: { _meta: 5 } }],
      ["_meta is an array", { method: "tools/list", params: { _meta: [] } }],
      ["_meta is null", { method: "tools/list", params: { _meta: null } }],
      ["progressToken is an object", { method: "tools/list", params: { _meta: { progressToken: {} } } }],
      ["an extra member", { method: "tools/list", extra: true }],
      ["a string id and an extra member", { method: "tools/list", params: {}, result: {} }],
    ];
    let id = 100;
    for (const [what, message] of malformed) {
      const requestId = what.startsWith("a string id") ? `req-${id}` : id;
      server.send({ jsonrpc: "2.0", id: requestId, ...message });
      const answer = await server.answer(requestId, 5_000).catch((error: unknown) => {
        throw new Error(`${what}: ${String(error)}`);
      });
      expect(answer, what).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringMatching(/^Invalid request: /) } });
      id++;
    }
    server.send({ jsonrpc: "2.0", id: 200, method: "tools/list" });
    expect(((await server.answer(200))["result"] as { tools: unknown[] }).tools.length).toBeGreaterThan(1);
    // Answered, not dumped into the log.
    expect(server.stderr.join("")).toBe("");
  });

  test("an id of the wrong type (boolean, fraction, object, array, null) is answered -32600 with id null", async () => {
    const server = await initialized();
    for (const id of [true, 1.5, {}, [], null]) {
      const before = server.stdout.length;
      server.send({ jsonrpc: "2.0", id, method: "tools/list" });
      const answer = await server.waitFor((message) => "error" in message, `an answer to id ${JSON.stringify(id)}`, 5_000, before);
      expect(answer, JSON.stringify(id)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('"id"') } });
    }
    server.send({ jsonrpc: "2.0", id: 7, method: "tools/list" });
    expect(await server.answer(7)).toMatchObject({ result: {} });
  });

  test("arguments or _meta nested 10,000 levels: answered by the id, never a crash; the next request is served", async () => {
    const server = await initialized();
    server.sendLine(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"population","arguments":{"city":${nested(10_000)}}}}`);
    expect(await server.answer(2)).toMatchObject({ result: { isError: true, content: [{ text: expect.stringContaining("Input validation error") }] } });
    server.sendLine(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":${nested(10_000)}}}`);
    expect(await server.answer(3)).toMatchObject({ result: { tools: expect.any(Array) } });
    server.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "population", arguments: { city: "Tokyo" } } });
    expect(await server.answer(4)).toMatchObject({ result: { content: [{ text: "Tokyo has 37400068 inhabitants." }] } });
  });

  test("a malformed notification is not answered (JSON-RPC answers no notification)", async () => {
    const server = await initialized();
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: "now" });
    server.send({ jsonrpc: "2.0", id: 5, method: "tools/list" });
    await server.answer(5);
    // The answer to 5 is the only line after the handshake.
    expect(server.stdout).toHaveLength(2);
  });
});

describe("stdio: white space around a message", () => {
  test("a BOM before the first initialize (PowerShell pipes write one) is read, not dropped", async () => {
    const server = processes.start(`${outDir}/server.js`);
    server.sendLine(`\uFEFF${JSON.stringify(rawInitialize(1))}`);
    expect(await server.answer(1, 5_000)).toMatchObject({ result: { protocolVersion: "2025-06-18" } });
  });

  test("Unicode white space around the JSON (no-break space, line separator, ideographic space, BOM) is read", async () => {
    const server = await initialized();
    const around: Array<[string, string]> = [
      ["\u00A0", "\u00A0"],
      ["", "\u2028"],
      ["\u3000", "\t"],
      ["\uFEFF", "\r"],
    ];
    for (const [index, [before, after]] of around.entries()) {
      server.sendLine(`${before}${JSON.stringify({ jsonrpc: "2.0", id: 10 + index, method: "tools/list" })}${after}`);
      expect(await server.answer(10 + index, 5_000), JSON.stringify([before, after])).toMatchObject({ result: {} });
    }
  });
});
