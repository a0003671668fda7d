import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileServers } from "./helpers.js";

/* The stdio server as a careless or hostile client meets it: raw lines on its stdin. */

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

let outDir: string;
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  outDir = await compileServers("stdio");
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill();
});

function start(): { child: ChildProcessWithoutNullStreams; next(): Promise<Record<string, unknown>>; stderr: string[]; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [`${outDir}/server.js`]);
  children.push(child);
  const stderr: string[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    stderr,
    exited,
    next: async () => JSON.parse(((await lines.next()).value as string | undefined) ?? "null") as Record<string, unknown>,
  };
}

const send = (child: ChildProcessWithoutNullStreams, message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);

describe("stdio", () => {
  test("a line over the limit (11 MB) is answered with a JSON-RPC error and the server keeps serving", async () => {
    const server = start();
    send(server.child, INITIALIZE);
    expect(await server.next()).toMatchObject({ id: 1, result: { serverInfo: { name: "net-test" } } });
    send(server.child, { jsonrpc: "2.0", method: "notifications/initialized" });
    server.child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"padding":"${"x".repeat(11 * 1024 * 1024)}"}}\n`);
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining("was discarded") } });
    send(server.child, { jsonrpc: "2.0", id: 3, method: "tools/list" });
    const listed = await server.next();
    expect(listed).toMatchObject({ id: 3 });
    expect((listed["result"] as { tools: unknown[] }).tools.length).toBeGreaterThan(1);
  });

  test("a line that is not JSON is a parse error (-32700); the next request is answered", async () => {
    const server = start();
    server.child.stdin.write("{ this is not json\n");
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32700 } });
    send(server.child, INITIALIZE);
    expect(await server.next()).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18" } });
  });

  test("JSON that is no JSON-RPC message (a batch, a bare value, an id without a method) is an invalid request (-32600), answered by its id", async () => {
    const server = start();
    send(server.child, INITIALIZE);
    await server.next();
    send(server.child, { jsonrpc: "2.0", id: 7 });
    expect(await server.next()).toMatchObject({ id: 7, error: { code: -32600 } });
    send(server.child, [{ jsonrpc: "2.0", id: 8, method: "tools/list" }]);
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining("batch") } });
    for (const value of [42, null, "tools/list", { jsonrpc: "1.0", id: 9, method: "tools/list" }]) {
      send(server.child, value);
      expect(await server.next(), JSON.stringify(value)).toMatchObject({ error: { code: -32600 } });
    }
    send(server.child, { jsonrpc: "2.0", id: 10, method: "tools/list" });
    expect(await server.next()).toMatchObject({ id: 10, result: {} });
    // Answered, not dumped into the log as the SDK's schema errors.
    expect(server.stderr.join("")).toBe("");
  }, 10_000);

  test("a client that closes the server's stdout: a clean exit (code 0), no EPIPE crash", async () => {
    const server = start();
    send(server.child, INITIALIZE);
    await server.next();
    server.child.stdout.destroy();
    // The answer to this one meets a closed pipe.
    send(server.child, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    send(server.child, { jsonrpc: "2.0", id: 3, method: "tools/list" });
    const code = await server.exited;
    expect(server.stderr.join("")).not.toMatch(/EPIPE|Unhandled|at .+:\d+:\d+/);
    expect(code).toBe(0);
  });

  test("stdin closed: the server exits with code 0", async () => {
    const server = start();
    send(server.child, INITIALIZE);
    await server.next();
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
  });
});
