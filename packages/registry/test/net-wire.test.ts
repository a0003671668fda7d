import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ERROR_TEXT_LIMIT } from "../dist/index.js";
import { compileServers, firstText, recordingLogger } from "./helpers.js";
import { CASES, INPUT_CASES } from "./servers/hostile.js";

type HostileModule = typeof import("./servers/hostile.js");

/*
 * Every way the net was seen to let an unchecked answer out — toJSON, getters, values JSON cannot
 * carry, URLs the client rejects, unchecked keys, invisible text, broken error paths — over the
 * SDK's real Client on stdio (a spawned server) and on Streamable HTTP (127.0.0.1): what the
 * client receives, and the warnings the server logs.
 */

interface Connection {
  client: Client;
  /** The warnings logged so far (for stdio, after the server's stderr has been read). */
  warnings(): Promise<string[]>;
  close(): Promise<void>;
}

let hostile: HostileModule;
let outDir: string;

beforeAll(async () => {
  outDir = await compileServers("net-wire");
  hostile = (await import(`${outDir}/hostile.js`)) as HostileModule;
});

async function stdio(): Promise<Connection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [`${outDir}/hostile-server.js`], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name: "net-wire-stdio", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    async warnings() {
      // stderr and stdout are separate pipes: give the last lines a moment to arrive.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return stderr
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as string);
    },
    close: () => client.close(),
  };
}

async function http(): Promise<Connection> {
  const logger = recordingLogger();
  const serving = await hostile.buildHostileRegistry(logger).serveHttp();
  const client = new Client({ name: "net-wire-http", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(serving.url));
  return {
    client,
    warnings: () => Promise.resolve(logger.warnings),
    close: async () => {
      await client.close();
      await serving.close();
    },
  };
}

describe.each([
  ["stdio", stdio],
  ["Streamable HTTP", http],
])("the net over %s with the SDK's real Client", (_transport, connect) => {
  let connection: Connection;
  const received = new Map<string, Awaited<ReturnType<Client["callTool"]>>>();

  beforeAll(async () => {
    connection = await connect();
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...Object.keys(hostile.CASES), ...Object.keys(hostile.INPUT_CASES), "healthy"].sort());
  });
  afterAll(() => connection?.close());

  test.each(Object.keys(CASES))("%s", async (name) => {
    const { expected } = hostile.CASES[name]!;
    // Bounded: a call left unanswered fails here instead of waiting out the client's 60 s.
    const result = await connection.client.callTool({ name }, undefined, { timeout: 10_000 });
    received.set(name, result);
    const warnings = (await connection.warnings()).filter((warning) => warning.includes(`ool "${name}"`));
    expect(warnings, `warnings for ${name}`).toHaveLength(expected.warnings);
    if (expected.error) {
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const text = firstText(result);
      expect(text.length).toBeLessThanOrEqual(ERROR_TEXT_LIMIT);
      for (const part of expected.includes) expect(text).toContain(part);
      // The warning carries the same problems (and, for a throw, the stack).
      expect(warnings[0]).toContain(`"${name}"`);
    } else {
      expect(result).toEqual(expected.result);
    }
  });

  test.each(Object.keys(INPUT_CASES))("%s: the input schema's own failure is an error result, never a raw JSON-RPC error", async (name) => {
    const { args, expected } = hostile.INPUT_CASES[name]!;
    const result = await connection.client.callTool({ name, arguments: args }, undefined, { timeout: 10_000 });
    const warnings = (await connection.warnings()).filter((warning) => warning.includes(`ool "${name}"`));
    expect(warnings, `warnings for ${name}`).toHaveLength(expected.warnings);
    if (expected.error) {
      expect(result.isError).toBe(true);
      const text = firstText(result);
      expect(text.length).toBeLessThanOrEqual(ERROR_TEXT_LIMIT);
      for (const part of expected.includes) expect(text).toContain(part);
    } else {
      expect(result).toEqual(expected.result);
    }
  });

  test("a cut message says so; the log keeps the stack", async () => {
    const text = firstText(received.get("huge_message")!);
    expect(text).toMatch(/ … \[cut: 4,998,\d{3} more characters in the server log\]$/);
    const [warning] = (await connection.warnings()).filter((line) => /^Tool "huge_message" \(registered at .+\) threw: Error: xxx/.test(line));
    expect(warning).toMatch(/more characters not logged\]$/);
    expect(warning!.length).toBe(100_000);
  });

  test("after all of them, a healthy call is answered and passes the client's own outputSchema check", async () => {
    const { tools } = await connection.client.listTools();
    const validate = new AjvJsonSchemaValidator().getValidator(tools.find((tool) => tool.name === "healthy")!.outputSchema as never);
    const result = await connection.client.callTool({ name: "healthy" });
    expect(result.isError).toBeUndefined();
    expect(validate(result.structuredContent).valid).toBe(true);
  });
});
