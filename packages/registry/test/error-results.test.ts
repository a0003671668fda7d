import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryTransportV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createRegistry, ToolError, type DataToolOutput, type ErrorResult } from "../dist/index.js";
import { connectInMemory, recordingLogger, seedResult } from "./helpers.js";

// Expected failures, as real servers have them: an error result declared beside the data
// (DataToolOutput | ErrorResult) without a cast, and a ToolError thrown for the LLM to read. The warnings are counted: no start-up check.

const known = new Set(["Tokyo"]);

function buildRegistry(logger: { warn(message: string): void }) {
  const registry = createRegistry({ name: "errors", version: "1.0.0", logger, startupCheck: false });
  // Returned: ErrorResult is `isError: true` without structuredContent.
  registry.tool({ input: { city: z.string() } })(function find_city({ city }): DataToolOutput | ErrorResult {
    if (!known.has(city)) return { content: [{ type: "text", text: `No city named ${city}.` }], isError: true };
    return seedResult();
  });
  // Thrown, in a plain and in an async tool.
  registry.tool()(function lookup_city(): DataToolOutput {
    throw new ToolError("No city named Osaka.");
  });
  registry.tool()(async function rate_limited(): Promise<DataToolOutput> {
    await Promise.resolve();
    throw new ToolError("The city service allows 10 calls a minute.\nTry again in 40 seconds.", { cause: new Error("HTTP 429") });
  });
  registry.tool()(function says_nothing(): DataToolOutput {
    throw new ToolError(" \n");
  });
  registry.tool()(function crashes(): DataToolOutput {
    throw new TypeError("cannot read properties of undefined");
  });
  return registry;
}

describe("error results, returned and thrown (ToolError)", () => {
  const logger = recordingLogger();
  let connection: Awaited<ReturnType<typeof connectInMemory>>;

  beforeAll(async () => {
    connection = await connectInMemory(buildRegistry(logger));
  });
  afterAll(() => connection.close());

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const before = logger.warnings.length;
    const result = await connection.client.callTool({ name, arguments: args });
    return { result, warnings: logger.warnings.slice(before) };
  };

  test("a returned error result without structuredContent is sent as it is, with no warning", async () => {
    const { result, warnings } = await call("find_city", { city: "Osaka" });
    expect(result).toEqual({ content: [{ type: "text", text: "No city named Osaka." }], isError: true });
    expect(warnings).toEqual([]);
  });

  test("a ToolError is answered with its message, and logged in one line: the tool, its site, the message, no stack", async () => {
    const { result, warnings } = await call("lookup_city");
    expect(result).toEqual({ content: [{ type: "text", text: "No city named Osaka." }], isError: true });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Tool "lookup_city" \(registered at .*error-results\.test\.ts:\d+:\d+\) answered with an error: No city named Osaka\.$/u);
  });

  test("from an async tool the same; the message's line breaks stay in the answer, not in the log line", async () => {
    const { result, warnings } = await call("rate_limited");
    expect(result).toEqual({
      content: [{ type: "text", text: "The city service allows 10 calls a minute.\nTry again in 40 seconds." }],
      isError: true,
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain("\n");
    expect(warnings[0]).not.toContain("    at ");
    expect(warnings[0]).toMatch(/^Tool "rate_limited" \(registered at .*\) answered with an error: The city service allows 10 calls a minute\. Try again in 40 seconds\.$/u);
  });

  test("a ToolError without visible text is answered with text naming the tool: the LLM reads only content", async () => {
    const { result, warnings } = await call("says_nothing");
    expect(result).toEqual({ content: [{ type: "text", text: 'Tool "says_nothing" failed.' }], isError: true });
    expect(warnings).toHaveLength(1);
  });

  test("any other throw is still a bug: answered naming the tool, logged with its stack", async () => {
    const { result, warnings } = await call("crashes");
    expect(result).toEqual({ content: [{ type: "text", text: 'Tool "crashes" failed: cannot read properties of undefined' }], isError: true });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("TypeError: cannot read properties of undefined\n    at ");
  });

  test("the legacy v1 Client gets the same answers", async () => {
    const server = buildRegistry(recordingLogger()).createServer();
    const [clientTransport, serverTransport] = InMemoryTransportV1.createLinkedPair();
    await server.connect(serverTransport);
    const client = new ClientV1({ name: "v1", version: "1.0.0" });
    await client.connect(clientTransport);
    try {
      expect(await client.callTool({ name: "lookup_city", arguments: {} })).toEqual({ content: [{ type: "text", text: "No city named Osaka." }], isError: true });
      expect(await client.callTool({ name: "find_city", arguments: { city: "Osaka" } })).toEqual({
        content: [{ type: "text", text: "No city named Osaka." }],
        isError: true,
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
