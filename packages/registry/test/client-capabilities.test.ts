import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { compileServers, firstText, rawInitialize, rawStdioProcesses, type RawStdio } from "./helpers.js";

/*
 * A tool's requests to the client (sampling, elicitation) are sent only when the client declared
 * the capability in its handshake; otherwise the tool gets the SDK's error naming it, and nothing
 * reaches the client.
 */

let outDir: string;
const processes = rawStdioProcesses();
const cleanups: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  outDir = await compileServers("client-capabilities");
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  processes.stopAll();
});

async function rawClient(capabilities: Record<string, unknown>): Promise<RawStdio> {
  const server = processes.start(`${outDir}/protocol.js`);
  server.send(rawInitialize(1, capabilities));
  await server.answer(1);
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}

const call = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
const resultText = (message: Record<string, unknown>) => firstText(message["result"] as object);

describe("requests the client never allowed", () => {
  test("raw, no capabilities: sampling and elicitation are refused in the tool, and never sent", async () => {
    const server = await rawClient({});
    server.send(call(2, "ask_model"));
    expect(resultText(await server.answer(2))).toBe("sampling refused: Client does not support sampling (required for sampling/createMessage)");
    server.send(call(3, "ask_user"));
    expect(resultText(await server.answer(3))).toBe("elicitation refused: Client does not support elicitation (required for elicitation/create)");
    const requests = server.stdout.map((line) => JSON.parse(line) as { method?: string }).filter((message) => message.method !== undefined);
    expect(requests).toEqual([]);
  });

  test("raw, capabilities declared: the same requests are sent, and their answers reach the tool", async () => {
    const server = await rawClient({ sampling: {}, elicitation: { form: {} } });
    server.send(call(2, "ask_model"));
    const sampling = await server.waitFor((message) => message["method"] === "sampling/createMessage", "a sampling request");
    server.send({ jsonrpc: "2.0", id: sampling["id"], result: { role: "assistant", content: { type: "text", text: "Tokyo" }, model: "raw" } });
    expect(resultText(await server.answer(2))).toBe('sampled: {"type":"text","text":"Tokyo"}');
    server.send(call(3, "ask_user"));
    const elicitation = await server.waitFor((message) => message["method"] === "elicitation/create", "an elicitation request");
    server.send({ jsonrpc: "2.0", id: elicitation["id"], result: { action: "decline" } });
    expect(resultText(await server.answer(3))).toBe('elicited: {"action":"decline"}');
  });

  test("the v1 Client: without the sampling capability its handler is never asked; with it, it is", async () => {
    const asked: string[] = [];
    for (const declared of [false, true]) {
      const client = new LegacyClient({ name: "capabilities-test", version: "1.0.0" }, { capabilities: declared ? { sampling: {} } : {} });
      if (declared) {
        client.setRequestHandler(CreateMessageRequestSchema, () => {
          asked.push("sampling");
          return { role: "assistant", content: { type: "text", text: "Delhi" }, model: "v1" };
        });
      }
      await client.connect(new LegacyStdioClientTransport({ command: process.execPath, args: [`${outDir}/protocol.js`], stderr: "pipe" }));
      cleanups.push(() => client.close());
      const text = firstText(await client.callTool({ name: "ask_model" }));
      expect(text).toBe(declared ? 'sampled: {"type":"text","text":"Delhi"}' : "sampling refused: Client does not support sampling (required for sampling/createMessage)");
    }
    expect(asked).toEqual(["sampling"]);
  });
});
