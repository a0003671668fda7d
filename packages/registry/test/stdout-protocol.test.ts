import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileServers, firstText, rawInitialize, rawStdioProcesses } from "./helpers.js";

/*
 * While a registry serves stdio, stdout carries the protocol only: what a tool prints with
 * console.log, console.info, console.debug, console.table or process.stdout.write goes to stderr.
 * The v1 client throws on every non-JSON line of stdout, and some hosts drop the connection.
 */

let outDir: string;
const processes = rawStdioProcesses();
const cleanups: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  outDir = await compileServers("stdout-protocol");
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  processes.stopAll();
});

const PRINTED = ["console.log from a tool", "console.info from a tool", "console.debug from a tool", "Tokyo", "a stray process.stdout.write"];

describe("stdout carries only the protocol while serving stdio", () => {
  test("raw: every stdout line is a JSON-RPC message; what the tool printed is on stderr; the console is back on stdout after the connection", async () => {
    const server = processes.start(`${outDir}/protocol.js`);
    server.send(rawInitialize(1));
    await server.answer(1);
    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "chatty", arguments: {} } });
    expect(await server.answer(2)).toMatchObject({ result: { content: [{ text: "chatty answered" }] } });
    for (const line of server.stdout) expect(JSON.parse(line), line).toMatchObject({ jsonrpc: "2.0" });
    const stderr = server.stderr.join("");
    for (const printed of PRINTED) expect(stderr).toContain(printed);

    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    // Routed back once the connection ended: the process's own output is stdout's again.
    expect(server.stdout.at(-1)).toBe("console restored");
    expect(server.stderr.join("")).not.toContain("console restored");
  });

  test("the v1 Client (which throws on every line of stdout that is not JSON-RPC) sees no error", async () => {
    const errors: Error[] = [];
    const stderr: string[] = [];
    const transport = new LegacyStdioClientTransport({ command: process.execPath, args: [`${outDir}/protocol.js`], stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new LegacyClient({ name: "stdout-test", version: "1.0.0" });
    client.onerror = (error) => void errors.push(error);
    await client.connect(transport);
    cleanups.push(() => client.close());
    for (let call = 0; call < 3; call++) expect(firstText(await client.callTool({ name: "chatty" }))).toBe("chatty answered");
    expect(firstText(await client.callTool({ name: "list_cities" }))).toContain("Tokyo");
    expect(errors).toEqual([]);
    expect(stderr.join("")).toContain("console.log from a tool");
  });

  test("the v2 Client on 2026-07-28 likewise", async () => {
    const errors: Error[] = [];
    const transport = new StdioClientTransport({ command: process.execPath, args: [`${outDir}/protocol.js`], stderr: "pipe" });
    const client = new Client({ name: "stdout-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    client.onerror = (error) => void errors.push(error);
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(firstText(await client.callTool({ name: "chatty" }))).toBe("chatty answered");
    expect(errors).toEqual([]);
  });
});
