import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { McpServer } from "@modelcontextprotocol/server";
import { createRegistry, type HttpServing, type Registry } from "../dist/index.js";
import { checkInMemory, type AnyClient } from "./both-clients.js";
import { compileServers, MODERN_ENVELOPE, modernHeaders, rawInitialize, rawStdioProcesses, recordingLogger, type RawStdio } from "./helpers.js";
import { buildFourthRound, GOOD_RESULT, PROMPTS, PUSHED, THROWN_REQUESTS, toJsonCalls, URL_ELICITATION_MESSAGE, URL_ELICITATIONS } from "./servers/fourth-round.js";

/*
 * The fourth run-time round (issue 44), over the real transports — stdio (a compiled server) and
 * Streamable HTTP on 127.0.0.1 — with the v2 and the v1 Client, and raw JSON-RPC where no client
 * would send the mistake: prompts through the net; a client's mistake answered -32602 in plain
 * words, -32603 kept for the server's own failures; calls in flight when stdin closes; the
 * smaller holes (a ToolError whose message cannot be read, control characters in the log, a
 * resource answering contents of a `javascript:` URI, an output shape with an own `__proto__`).
 */

let outDir: string;
const processes = rawStdioProcesses();
const logger = recordingLogger();
let serving: HttpServing;
beforeAll(async () => {
  outDir = await compileServers("fourth-round");
  serving = await buildFourthRound(logger).serveHttp();
});
afterEach(() => processes.stopAll());
afterAll(async () => {
  await serving.close();
});

/** The elicitations the clients were asked for: each client below can answer one, so the SDK would ask it. */
const elicited: string[] = [];
const ELICITATION = { capabilities: { elicitation: {} } };
const elicit = (request: { params: { message?: unknown } }) => {
  elicited.push(String(request.params.message));
  return { action: "accept" as const, content: {} };
};

/** A connected client of each kind, over stdio (the compiled server) or HTTP (the in-process one). */
/** A call bounded by `timeout`: the v1 Client takes its options third (after a result schema), the v2 Client second. */
function callBounded(client: AnyClient, label: string, params: { name: string; arguments: Record<string, unknown> }, timeout: number): ReturnType<AnyClient["callTool"]> {
  if (label.startsWith("v1 ")) return (client as unknown as LegacyClient).callTool(params, undefined, { timeout }) as unknown as ReturnType<AnyClient["callTool"]>;
  return client.callTool(params, { timeout });
}

async function eachClient(check: (client: AnyClient, label: string) => Promise<void>): Promise<void> {
  const server = { command: process.execPath, args: [`${outDir}/fourth-round-server.js`], stderr: "pipe" as const };
  const modern = (options: ConstructorParameters<typeof Client>[1] = {}) => {
    const client = new Client({ name: "fourth-round", version: "1.0.0" }, { ...ELICITATION, ...options });
    client.setRequestHandler("elicitation/create", elicit);
    return client;
  };
  const legacy = () => {
    const client = new LegacyClient({ name: "fourth-round", version: "1.0.0" }, ELICITATION);
    client.setRequestHandler(ElicitRequestSchema, elicit);
    return client;
  };
  const clients: Array<[string, () => Promise<{ client: AnyClient; close(): Promise<void> }>]> = [
    [
      "v2 Client over stdio",
      async () => {
        const client = modern();
        await client.connect(new StdioClientTransport(server));
        return { client, close: () => client.close() };
      },
    ],
    [
      "v1 Client over stdio",
      async () => {
        const client = legacy();
        await client.connect(new LegacyStdioClientTransport(server));
        return { client: client as unknown as AnyClient, close: () => client.close() };
      },
    ],
    [
      "v2 Client over HTTP (2026-07-28)",
      async () => {
        const client = modern({ versionNegotiation: { mode: { pin: "2026-07-28" } } });
        await client.connect(new StreamableHTTPClientTransport(serving.url));
        return { client, close: () => client.close() };
      },
    ],
    [
      "v1 Client over HTTP",
      async () => {
        const client = legacy();
        await client.connect(new LegacyStreamableHTTPClientTransport(serving.url));
        return { client: client as unknown as AnyClient, close: () => client.close() };
      },
    ],
  ];
  for (const [label, connect] of clients) {
    const { client, close } = await connect();
    try {
      await check(client, label);
    } finally {
      await close();
    }
  }
}

/** What a refusal of a request for input returned rather than thrown adds: how to ask instead. */
const RETURNED_HINT = "A request for input is thrown, not returned: throw inputRequired(…) instead.";

/** What a request fails with: its JSON-RPC code, message and data. */
async function failure(request: Promise<unknown>): Promise<{ code: unknown; message: string; data?: unknown }> {
  try {
    await request;
  } catch (error) {
    const { code, data } = error as { code?: unknown; data?: unknown };
    return { code, message: String((error as Error).message), ...(data === undefined ? {} : { data }) };
  }
  throw new Error("the request succeeded");
}

async function initialized(): Promise<RawStdio> {
  const server = processes.start(`${outDir}/fourth-round-server.js`);
  server.send(rawInitialize(1));
  await server.answer(1);
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}

/** A raw POST of one request to the HTTP server, as a 2025-era client or a 2026-07-28 one sends it; the JSON-RPC answer. */
async function rawPost(method: string, params: Record<string, unknown>, era: "2025" | "2026"): Promise<Record<string, unknown>> {
  const name = typeof params["name"] === "string" ? params["name"] : undefined;
  const headers =
    era === "2026"
      ? modernHeaders(method, method === "tools/call" || method === "prompts/get" ? name : undefined)
      : { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
  const body = { jsonrpc: "2.0", id: 7, method, params: era === "2026" ? { ...params, _meta: MODERN_ENVELOPE } : params };
  const response = await fetch(serving.url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  const json = text.startsWith("{") ? text : text.split("\n").find((line) => line.startsWith("data: "))?.slice(6);
  if (json === undefined) throw new Error(`no JSON-RPC answer to ${method} (${response.status}): ${JSON.stringify(text)}`);
  return JSON.parse(json) as Record<string, unknown>;
}

/** Stderr's warnings of a stdio server, one JSON string per line. */
const warningsOf = (server: RawStdio): string[] =>
  server.stderr
    .join("")
    .split("\n")
    .filter((line) => line.startsWith('"'))
    .map((line) => JSON.parse(line) as string);

describe("prompts through the net", () => {
  test("every answer is checked and copied once: what breaks the contract is answered with an error naming the prompt (both clients, stdio and HTTP)", async () => {
    toJsonCalls.count = 0;
    logger.warnings.length = 0;
    await eachClient(async (client, label) => {
      expect((await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages, label).toEqual([{ role: "user", content: { type: "text", text: "Hello Ada" } }]);
      for (const [name, expected] of Object.entries(PROMPTS)) {
        if ("answer" in expected) {
          expect((await client.getPrompt({ name })).messages, `${label}: ${name}`).toEqual(expected.answer.messages);
          continue;
        }
        const { code, message } = await failure(client.getPrompt({ name }));
        expect(code, `${label}: ${name}`).toBe(-32603);
        for (const part of expected.includes) expect(message, `${label}: ${name}`).toContain(part);
      }
    });
    // The HTTP server's toJSON ran once for each of its two clients: what was checked is what was sent.
    expect(toJsonCalls.count).toBe(2);
    // One warning per refused answer, for each of the two HTTP clients.
    const refused = Object.values(PROMPTS).filter((expected) => !("answer" in expected)).length;
    expect(logger.warnings.filter((warning) => warning.startsWith("Prompt "))).toHaveLength(2 * refused);
  });

  test("raw JSON-RPC over stdio: a prompt answering a BigInt or a cycle is answered, not left silent, and the server keeps serving", async () => {
    const server = await initialized();
    server.send({ jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "bigint" } });
    server.send({ jsonrpc: "2.0", id: 3, method: "prompts/get", params: { name: "cycle" } });
    expect(await server.answer(2, 5_000)).toMatchObject({ error: { code: -32603, message: expect.stringContaining('Prompt "bigint"') } });
    expect(await server.answer(3, 5_000)).toMatchObject({ error: { code: -32603, message: expect.stringContaining('Prompt "cycle"') } });
    server.send({ jsonrpc: "2.0", id: 4, method: "prompts/get", params: { name: "greet", arguments: { who: "Ada" } } });
    expect(await server.answer(4)).toMatchObject({ result: { messages: [{ role: "user", content: { type: "text", text: "Hello Ada" } }] } });
    const warnings = warningsOf(server);
    expect(warnings.filter((warning) => warning.startsWith('Prompt "bigint"'))).toHaveLength(1);
    expect(warnings.filter((warning) => warning.startsWith('Prompt "cycle"'))).toHaveLength(1);
  });

  test("raw HTTP: a prompt answering a BigInt is an error answer, not an empty event stream (both eras)", async () => {
    for (const era of ["2025", "2026"] as const) {
      expect(await rawPost("prompts/get", { name: "bigint" }, era), era).toMatchObject({ error: { code: -32603, message: expect.stringContaining('Prompt "bigint"') } });
    }
  });

  test("a prompt that never settles is answered at the registry's deadline, its signal aborted", async () => {
    let aborted: unknown;
    const registry = createRegistry({ name: "slow-prompt", version: "1.0.0", startupCheck: false, logger: recordingLogger(), callTimeoutMs: 200 });
    registry.prompt("slow", {}, (ctx) => new Promise<never>(() => ctx.mcpReq.signal.addEventListener("abort", () => (aborted = ctx.mcpReq.signal.reason as unknown))));
    const slow = await registry.serveHttp();
    try {
      const client = new Client({ name: "fourth-round", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new StreamableHTTPClientTransport(slow.url));
      const { code, message } = await failure(client.getPrompt({ name: "slow" }));
      expect(code).toBe(-32603);
      expect(message).toContain('Prompt "slow" did not answer within 200 ms');
      expect(aborted).toBeInstanceOf(DOMException);
      await client.close();
    } finally {
      await slow.close();
    }
  });
});

/** Requests a client gets wrong, by method: raw params, and what the plain-words message must say. */
const MISTAKES: Array<{ method: string; params: Record<string, unknown>; says: string }> = [
  { method: "resources/read", params: {}, says: "uri: is missing: it must be a string" },
  { method: "resources/read", params: { uri: 5 }, says: "uri: must be a string, not a number" },
  { method: "resources/read", params: { uri: { href: "memory://graph" } }, says: "uri: must be a string, not an object" },
  { method: "prompts/get", params: { name: "greet", arguments: { who: 5 } }, says: "arguments.who: must be a string, not a number" },
  { method: "prompts/get", params: { name: 5 }, says: "name: must be a string, not a number" },
  { method: "tools/list", params: { cursor: 5 }, says: "cursor: must be a string, not a number" },
  { method: "resources/list", params: { cursor: 5 }, says: "cursor: must be a string, not a number" },
  { method: "resources/templates/list", params: { cursor: {} }, says: "cursor: must be a string, not an object" },
  { method: "prompts/list", params: { cursor: [] }, says: "cursor: must be a string, not a list" },
  { method: "tools/call", params: { name: 5 }, says: "name: must be a string, not a number" },
  { method: "tools/call", params: { name: "fine", arguments: 5 }, says: "arguments: must be an object, not a number" },
];

/** A -32602 in plain words: the method, the parameter, what is wrong; no zod issue JSON. */
function expectPlainInvalidParams(answer: Record<string, unknown>, method: string, says: string, label: string): void {
  const error = answer["error"] as { code: number; message: string } | undefined;
  expect(error?.code, `${label}: ${JSON.stringify(answer)}`).toBe(-32602);
  expect(error?.message, label).toContain(`Invalid params for ${method}: `);
  expect(error?.message, label).toContain(says);
  expect(error?.message, label).not.toMatch(/"code"|"path"|Invalid input: expected/);
}

describe("a client's mistake is answered -32602 in plain words; -32603 is the server's own failure", () => {
  test("raw JSON-RPC over stdio, every method", async () => {
    const server = await initialized();
    let id = 10;
    for (const { method, params, says } of MISTAKES) {
      server.send({ jsonrpc: "2.0", id, method, params });
      expectPlainInvalidParams(await server.answer(id, 5_000), method, says, `stdio ${method} ${JSON.stringify(params)}`);
      id++;
    }
    // The server keeps serving, and logged none of them: they are the client's.
    server.send({ jsonrpc: "2.0", id: 99, method: "resources/read", params: { uri: "memory://graph" } });
    expect(await server.answer(99)).toMatchObject({ result: { contents: [{ uri: "memory://graph" }] } });
    expect(warningsOf(server)).toEqual([]);
  });

  test("raw HTTP, a 2025-era POST and a 2026-07-28 one, every method", async () => {
    for (const era of ["2025", "2026"] as const) {
      for (const { method, params, says } of MISTAKES) {
        expectPlainInvalidParams(await rawPost(method, params, era), method, says, `HTTP ${era} ${method} ${JSON.stringify(params)}`);
      }
    }
  });

  test("initialize with params of the wrong type, over stdio: -32602 in plain words", async () => {
    const server = processes.start(`${outDir}/fourth-round-server.js`);
    server.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 2025, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    expectPlainInvalidParams(await server.answer(1, 5_000), "initialize", "protocolVersion: must be a string, not a number", "stdio initialize");
  });

  test("the clients' own mistakes (what they pass on unchecked) are -32602; a prompt that throws is -32603", async () => {
    await eachClient(async (client, label) => {
      for (const params of [{}, { uri: 5 }, { uri: {} }]) {
        const { code, message } = await failure(client.readResource(params as never));
        expect(code, `${label} ${JSON.stringify(params)}`).toBe(-32602);
        expect(message, label).toContain("Invalid params for resources/read: uri: ");
      }
      const wrongArgument = await failure(client.getPrompt({ name: "greet", arguments: { who: 5 } } as never));
      expect(wrongArgument.code, label).toBe(-32602);
      expect((await failure(client.getPrompt({ name: "throws" }))).code, label).toBe(-32603);
    });
  });
});

describe("stdin closed while calls are in flight", () => {
  test("the calls' signals are aborted and the process exits at once, not at the call deadline", async () => {
    const server = await initialized();
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait_for_abort", arguments: {} } });
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "wait_for_abort", arguments: {} } });
    // Both calls are running (the server answered a ping sent after them).
    server.send({ jsonrpc: "2.0", id: 4, method: "ping" });
    await server.answer(4);
    const closedAt = Date.now();
    server.child.stdin.end();
    const exit = await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 5_000))]);
    expect(exit).toBe(0);
    expect(Date.now() - closedAt).toBeLessThan(3_000);
    expect(warningsOf(server).filter((line) => line === "signal aborted")).toHaveLength(2);
  });
});

describe("a thrown request for input (throw inputRequired(…)) goes through the net's copy before the SDK sees it", () => {
  test("one that cannot be sent as JSON, or reads differently the second time, is an error result naming the tool, and one warning (both clients, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    elicited.length = 0;
    await eachClient(async (client, label) => {
      for (const [name, { includes }] of Object.entries(THROWN_REQUESTS)) {
        // Bounded: an answer the SDK could not send fails here instead of waiting out the client's 60 s.
        const result = await callBounded(client, label, { name, arguments: {} }, 5_000).catch((error: unknown) => ({ failed: String(error) }));
        const text = "content" in result ? (result.content as Array<{ text?: string }>)[0]?.text : undefined;
        expect.soft(result, `${label}: ${name}`).toMatchObject({ isError: true });
        expect.soft(result, `${label}: ${name}`).not.toHaveProperty("structuredContent");
        for (const part of includes) expect.soft(text, `${label}: ${name}`).toContain(part);
      }
    });
    // Nothing of a request the net stopped reached a client.
    expect(elicited).toEqual([]);
    // One warning per call, for each of the two HTTP clients, naming the tool.
    for (const name of Object.keys(THROWN_REQUESTS)) {
      expect(logger.warnings.filter((warning) => warning.startsWith(`Tool "${name}" (registered at `)), name).toHaveLength(2);
    }
  });

  test("one returned rather than thrown is a result that breaks the contract, refused with an error result that says to throw it, and one warning (both clients, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    elicited.length = 0;
    await eachClient(async (client, label) => {
      const result = await callBounded(client, label, { name: "returns_request", arguments: {} }, 5_000);
      const text = (result.content as Array<{ text?: string }>)[0]?.text;
      expect(result, label).toMatchObject({ isError: true });
      expect(text, label).toContain('Tool "returns_request" returned a result that breaks the DataToolOutput contract, so it was not sent');
      expect(text, label).toContain(RETURNED_HINT);
    });
    expect(elicited).toEqual([]);
    expect(logger.warnings.filter((warning) => warning.startsWith('Tool "returns_request" (registered at ') && warning.includes(RETURNED_HINT))).toHaveLength(2);
  });

  test("one the copy takes is read once, and fulfilled from the copy: the client is asked, the tool called again (both clients, stdio and HTTP)", async () => {
    elicited.length = 0;
    await eachClient(async (client, label) => {
      const result = await callBounded(client, label, { name: "ask_read_once", arguments: {} }, 10_000);
      // A stateless 2025-era request cannot bring the answer back: refused with the reason (sdk-features.test.ts).
      if (label === "v1 Client over HTTP") expect(JSON.stringify(result.content), label).toContain("needs a session");
      else expect(result.content, label).toEqual([{ type: "text", text: "inputRequests read 1 time(s)" }]);
    });
    expect(elicited).toEqual(["Proceed?", "Proceed?", "Proceed?"]);
  });
});

describe("a prompt or a resource read asks for input as a tool does (throw inputRequired(…)), through the same copy", () => {
  /** Bounded: an answer the SDK could not send fails here instead of waiting out the client's 60 s. */
  const BOUNDED = { timeout: 10_000 };
  const ASKED = ["Answer the prompt?", "Read the resource?"];
  const STATELESS = "failed: Asking the client for input (inputRequired) needs a session, and this server serves 2025-era clients statelessly";
  let sessions: HttpServing;
  beforeAll(async () => {
    sessions = await buildFourthRound(logger).serveHttp({ sessions: true });
  });
  afterAll(async () => {
    await sessions.close();
  });

  /**
   * Beside `eachClient`'s (whose v2 Client over stdio negotiates 2025-11-25): the v2 Client pinned
   * to 2026-07-28 over stdio, and the v1 Client in a session of the sessionful HTTP mode.
   */
  async function moreClients(check: (client: AnyClient, label: string) => Promise<void>): Promise<void> {
    const modern = new Client({ name: "fourth-round", version: "1.0.0" }, { ...ELICITATION, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    modern.setRequestHandler("elicitation/create", elicit);
    await modern.connect(new StdioClientTransport({ command: process.execPath, args: [`${outDir}/fourth-round-server.js`], stderr: "pipe" }));
    try {
      await check(modern, "v2 Client over stdio (2026-07-28)");
    } finally {
      await modern.close();
    }
    const legacy = new LegacyClient({ name: "fourth-round", version: "1.0.0" }, ELICITATION);
    legacy.setRequestHandler(ElicitRequestSchema, elicit);
    await legacy.connect(new LegacyStreamableHTTPClientTransport(sessions.url));
    try {
      await check(legacy as unknown as AnyClient, "v1 Client in an HTTP session");
    } finally {
      await legacy.close();
    }
  }

  test("the client is asked, and the prompt or the read called again with its answer: on 2026-07-28 by the client, on a 2025-era connection by the SDK (stdio, an HTTP session); a stateless 2025-era request is refused with the reason (both clients)", async () => {
    elicited.length = 0;
    logger.warnings.length = 0;
    const check = async (client: AnyClient, label: string): Promise<void> => {
      if (label === "v1 Client over HTTP") {
        // A stateless 2025-era request: no later request could bring the answer back, as for a tool (sdk-features.test.ts).
        for (const [what, request] of [
          ['Prompt "ask_confirm"', client.getPrompt({ name: "ask_confirm" }, BOUNDED)],
          ['Resource "ask_confirm"', client.readResource({ uri: "memory://asks/confirm" }, BOUNDED)],
        ] as const) {
          const { code, message } = await failure(request);
          expect(code, `${label}: ${what}`).toBe(-32603);
          expect(message, `${label}: ${what}`).toContain(`${what} ${STATELESS}`);
        }
        return;
      }
      const prompt = await client.getPrompt({ name: "ask_confirm" }, BOUNDED);
      // Its request's inputRequests (a getter) read once: by the net's copy, which is what the SDK sent or fulfilled.
      expect(prompt.messages, label).toEqual([{ role: "user", content: { type: "text", text: "answered accept; inputRequests read 1 time(s)" } }]);
      const read = await client.readResource({ uri: "memory://asks/confirm" }, BOUNDED);
      expect(read.contents, label).toEqual([{ uri: "memory://asks/confirm", mimeType: "text/plain", text: "read accept" }]);
    };
    await eachClient(check);
    // In a session, the SDK asks the 2025-era client on the session's stream.
    await moreClients(check);
    // Asked once each by every client that can answer: all but the stateless one.
    expect(elicited).toEqual([...ASKED, ...ASKED, ...ASKED, ...ASKED, ...ASKED]);
    // The two stateless refusals, one warning each; nothing else was worth one.
    expect(logger.warnings).toHaveLength(2);
    expect(logger.warnings.every((warning) => warning.includes(STATELESS)), logger.warnings.join("\n")).toBe(true);
  });

  test("one that cannot be sent as JSON, or reads differently the second time, is an MCP error naming the prompt or the resource, and one warning; one returned is refused as a result, saying to throw it; nothing reaches the client (both clients, stdio and HTTP)", async () => {
    elicited.length = 0;
    logger.warnings.length = 0;
    const check = async (client: AnyClient, label: string): Promise<void> => {
      for (const [name, { includes }] of Object.entries(THROWN_REQUESTS)) {
        for (const [kind, request] of [
          ["Prompt", () => client.getPrompt({ name }, BOUNDED)],
          ["Resource", () => client.readResource({ uri: `memory://asks/${name}` }, BOUNDED)],
        ] as const) {
          const { code, message } = await failure(request());
          expect.soft(code, `${label}: ${kind} ${name}`).toBe(-32603);
          for (const part of includes) expect.soft(message, `${label}: ${kind} ${name}`).toContain(part.replace(`Tool "${name}"`, `${kind} "${name}"`));
        }
      }
      // Returned rather than thrown: an answer, checked against its contract as a tool's result is,
      // and refused, saying to throw it.
      const prompt = await failure(client.getPrompt({ name: "returns_request" }, BOUNDED));
      expect(prompt.message, label).toContain('Prompt "returns_request" answered with a result that breaks the GetPromptResult contract, so it was not sent');
      expect(prompt.message, label).toContain('"resultType", "inputRequests" are not keys of a prompt result');
      expect(prompt.message, label).toContain(RETURNED_HINT);
      const read = await failure(client.readResource({ uri: "memory://asks/returns_request" }, BOUNDED));
      expect(read.message, label).toContain('Resource "returns_request" answered with a result that breaks the ReadResourceResult contract, so it was not sent');
      expect(read.message, label).toContain(RETURNED_HINT);
    };
    // Refused before the SDK sees it, whatever the era: eachClient's four clients.
    await eachClient(check);
    // Nothing of a request the net stopped reached a client.
    expect(elicited).toEqual([]);
    // One warning per request refused, for each of the two HTTP clients, naming what asked.
    for (const name of Object.keys(THROWN_REQUESTS)) {
      for (const kind of ["Prompt", "Resource"]) expect(logger.warnings.filter((warning) => warning.startsWith(`${kind} "${name}" asked for input with a request that`)), `${kind} ${name}`).toHaveLength(2);
    }
    // The returned ones' warnings say to throw it too.
    for (const kind of ["Prompt", "Resource"]) expect(logger.warnings.filter((warning) => warning.startsWith(`${kind} "returns_request"`) && warning.includes(RETURNED_HINT)), kind).toHaveLength(2);
  });
});

describe("a prompt or a resource read that asks the client pushed (ctx.mcpReq.elicitInput), as a tool may", () => {
  test("works where the client's answer comes back (stdio), points to inputRequired on 2026-07-28 as for a tool, and on a stateless 2025-era request is refused with the reason a tool is given, word for word, never sent (both clients)", async () => {
    elicited.length = 0;
    const BOUNDED = { timeout: 10_000 };
    await eachClient(async (client, label) => {
      const tool = await callBounded(client, label, { name: "push_elicit", arguments: {} }, BOUNDED.timeout);
      const toolText = (tool.content as Array<{ text?: string }>)[0]?.text ?? "";
      const asked = [
        ["Prompt", () => client.getPrompt({ name: "push_elicit" }, BOUNDED)],
        ["Resource", () => client.readResource({ uri: "memory://asks/push_elicit" }, BOUNDED)],
      ] as const;
      if (label === "v1 Client over HTTP") {
        // No later request could bring the user's answer back to the server that asked.
        expect(tool.isError, label).toBe(true);
        expect(toolText, label).toContain('Tool "push_elicit" failed: Elicitation (elicitation/create) needs a session, and this server serves 2025-era clients statelessly');
        for (const [kind, request] of asked) {
          const { code, message } = await failure(request());
          expect(code, `${label}: ${kind}`).toBe(-32603);
          expect(message, `${label}: ${kind}`).toBe(`MCP error -32603: ${toolText.replace('Tool "push_elicit"', `${kind} "push_elicit"`)}`);
        }
        return;
      }
      if (label === "v2 Client over HTTP (2026-07-28)") {
        // No requests to the client on this revision: the SDK's error points to inputRequired, for each alike.
        expect(tool.isError, label).toBe(true);
        expect(toolText, label).toContain("inputRequired");
        for (const [kind, request] of asked) expect((await failure(request())).message, `${label}: ${kind}`).toContain("inputRequired");
        return;
      }
      expect(toolText, label).toBe("pushed accept");
      expect((await asked[0][1]()).messages, label).toEqual([{ role: "user", content: { type: "text", text: "pushed accept" } }]);
      expect((await asked[1][1]()).contents, label).toEqual([{ uri: "memory://asks/push_elicit", text: "pushed accept" }]);
    });
    // Asked by the tool, the prompt and the read, over each stdio connection; never statelessly.
    expect(elicited).toEqual(Array<string>(6).fill(PUSHED));
  });
});

describe("a URL elicitation thrown (UrlElicitationRequiredError, -32042) leaves as the SDK lets it leave, through the net's copy", () => {
  /** Bounded: an answer the SDK could not send fails here instead of waiting out the client's 60 s. */
  const BOUNDED = { timeout: 10_000 };
  /** What a tool, a prompt and a read of `name` are asked, by what names them in a message. */
  const requests = (client: AnyClient, label: string, name: string) =>
    [
      ["Tool", () => callBounded(client, label, { name, arguments: {} }, BOUNDED.timeout)],
      ["Prompt", () => client.getPrompt({ name }, BOUNDED)],
      ["Resource", () => client.readResource({ uri: `memory://asks/${name}` }, BOUNDED)],
    ] as const;

  test("a tool, a prompt and a read that throw one: -32042 with its message and data on a 2025-era request (stdio, stateless HTTP), the SDK's own refusal on 2026-07-28, nothing logged (both clients)", async () => {
    logger.warnings.length = 0;
    await eachClient(async (client, label) => {
      for (const [name, entry] of Object.entries(URL_ELICITATIONS)) {
        if (!("passed" in entry)) continue;
        for (const [kind, request] of requests(client, label, name)) {
          const failed = await failure(request()).catch((error: unknown) => ({ answered: String(error) }));
          if (label === "v2 Client over HTTP (2026-07-28)") {
            // The SDK's seam: the -32042 error of earlier revisions does not exist on this one.
            expect(failed, `${label}: ${kind} ${name}`).toMatchObject({ code: -32603, message: expect.stringContaining("URL elicitation cannot be signalled by throwing UrlElicitationRequiredError on protocol revision 2026-07-28") as unknown });
          } else {
            // The v1 Client prefixes the code to every error's message.
            const message = label.startsWith("v1 ") ? `MCP error -32042: ${URL_ELICITATION_MESSAGE}` : URL_ELICITATION_MESSAGE;
            expect(failed, `${label}: ${kind} ${name}`).toEqual({ code: -32042, message, data: entry.passed });
          }
        }
      }
    });
    // An expected answer: nothing worth a warning.
    expect(logger.warnings).toEqual([]);
  });

  test("exactly as the SDK's own server passes it on: the same code, message and data (in memory, the v2 and the v1 Client)", async () => {
    const make = URL_ELICITATIONS.url_elicitation.make;
    const sdkServer = (): McpServer => {
      const server = new McpServer({ name: "sdk", version: "1.0.0" });
      server.registerTool("url_elicitation", {}, () => {
        throw make();
      });
      server.registerPrompt("url_elicitation", {}, () => {
        throw make();
      });
      server.registerResource("url_elicitation", "memory://asks/url_elicitation", {}, () => {
        throw make();
      });
      return server;
    };
    const outcomes = async (build: () => Registry): Promise<unknown[]> => {
      const seen: unknown[] = [];
      await checkInMemory(build, async (client) => {
        for (const request of [client.callTool({ name: "url_elicitation", arguments: {} }), client.getPrompt({ name: "url_elicitation" }), client.readResource({ uri: "memory://asks/url_elicitation" })]) {
          seen.push(await failure(request).catch((error: unknown) => ({ answered: String(error) })));
        }
      });
      return seen;
    };
    const sdk = await outcomes(() => ({ createServer: sdkServer }) as unknown as Registry);
    expect(sdk).toHaveLength(6);
    expect(sdk.every((outcome) => (outcome as { code?: unknown }).code === -32042)).toBe(true);
    expect(await outcomes(() => buildFourthRound(recordingLogger()))).toEqual(sdk);
  });

  test("one whose data cannot be sent as JSON is refused as a thrown request for input is: an error naming what threw it, and one warning (both clients, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    await eachClient(async (client, label) => {
      for (const [name, entry] of Object.entries(URL_ELICITATIONS)) {
        if (!("includes" in entry)) continue;
        for (const [kind, request] of requests(client, label, name)) {
          const includes = entry.includes.map((part) => (part.startsWith('"') ? `${kind} ${part}` : part));
          if (kind === "Tool") {
            const result = await request();
            const text = "content" in result ? (result.content as Array<{ text?: string }>)[0]?.text : undefined;
            expect.soft(result, `${label}: ${kind} ${name}`).toMatchObject({ isError: true });
            for (const part of includes) expect.soft(text, `${label}: ${kind} ${name}`).toContain(part);
          } else {
            const { code, message } = await failure(request());
            expect.soft(code, `${label}: ${kind} ${name}`).toBe(-32603);
            for (const part of includes) expect.soft(message, `${label}: ${kind} ${name}`).toContain(part);
          }
        }
      }
    });
    // One warning per refusal, for each of the two HTTP clients, naming what threw it.
    for (const kind of ["Tool", "Prompt", "Resource"]) {
      expect(logger.warnings.filter((warning) => warning.startsWith(`${kind} "url_bigint"`) && warning.includes("asked for input with a URL elicitation")), kind).toHaveLength(2);
    }
  });
});

describe("the smaller holes", () => {
  test("a ToolError whose message getter throws reaches the wire with the tool's name (both clients, stdio and HTTP)", async () => {
    await eachClient(async (client, label) => {
      const result = await client.callTool({ name: "unreadable", arguments: {} });
      expect(result.isError, label).toBe(true);
      expect(result.content, label).toEqual([{ type: "text", text: 'Tool "unreadable" failed.' }]);
    });
  });

  test("control characters from a tool's text are escaped in the log, over stdio and HTTP", async () => {
    const server = await initialized();
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ansi", arguments: {} } });
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ansi_thrown", arguments: {} } });
    // The client still gets the text as the tool wrote it: it is the LLM's.
    expect(await server.answer(2)).toMatchObject({ result: { isError: true, content: [{ text: "\u001b[31mThe upstream is down\u001b[0m\u0007 \u009b2J" }] } });
    await server.answer(3);
    const logged = warningsOf(server);
    expect(logged.find((line) => line.includes("The upstream is down"))).toContain("\\x1b[31mThe upstream is down\\x1b[0m\\x07 \\x9b2J");
    expect(logged.find((line) => line.includes("broken"))).toContain("\\x1b]0;owned\\x07broken");
    // Nothing on stderr carries a raw control character but the line ends (and the stack's).
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(server.stderr.join("")).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u);

    logger.warnings.length = 0;
    const client = new Client({ name: "fourth-round", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(serving.url));
    await client.callTool({ name: "ansi", arguments: {} });
    await client.close();
    expect(logger.warnings).toEqual(['Tool "ansi" (registered at ' + logger.warnings[0]!.slice('Tool "ansi" (registered at '.length).split(")")[0] + ") answered with an error: \\x1b[31mThe upstream is down\\x1b[0m\\x07 \\x9b2J"]);
  });

  test("a resource read answering contents of a javascript: or data: URI is refused; tools/list names the served resources' scheme, not their URIs (both clients, stdio and HTTP)", async () => {
    await eachClient(async (client, label) => {
      // tools-list-growth.test.ts measures it; here, that what every transport and client lists does not grow with the resources either.
      const { tools } = await client.listTools();
      const published = JSON.stringify(tools.find((tool) => tool.name === "fine")?.outputSchema);
      expect(published, label).toContain('"pattern":"^(?:[mM][eE][mM][oO][rR][yY]):"');
      expect(published, label).not.toContain("memory://");
      expect((await client.readResource({ uri: "memory://graph" })).contents, label).toEqual([{ uri: "memory://graph", mimeType: "application/json", text: "{}" }]);
      for (const uri of ["memory://script", "memory://data-uri"]) {
        const { code, message } = await failure(client.readResource({ uri }));
        expect(code, `${label} ${uri}`).toBe(-32603);
        expect(message, `${label} ${uri}`).toContain("breaks the ReadResourceResult contract, so it was not sent");
        expect(message, `${label} ${uri}`).toContain("contents[0].uri: ");
      }
    });
  });

  test("an output shape with an own __proto__ key is refused at registration, as a __proto__ tool name is", () => {
    const registry = createRegistry({ name: "proto", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    const shape = JSON.parse('{"__proto__": 1}') as Record<string, unknown>;
    shape["__proto__"] = z.string();
    expect(Object.hasOwn(shape, "__proto__")).toBe(true);
    expect(() => registry.tool({ name: "proto", output: shape as never })).toThrow(/registry\.tool\(\) at .*: output declares "__proto__"/u);
    expect(() => registry.tool({ name: "proto", output: z.object(shape as never) as never })).toThrow(/output declares "__proto__"/u);
    // The tool it would have been is not served; GOOD_RESULT stays what the net accepts.
    expect(registry.tools).toEqual([]);
    expect(GOOD_RESULT.structuredContent.sources).toHaveLength(1);
  });
});
