import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client, LOG_LEVEL_META_KEY, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { firstText, PACKAGE_DIR } from "./helpers.js";

/*
 * What the SDK's server offers a tool beside its answer — logging, resource subscriptions,
 * sampling, elicitation — through a registry, with the v2 and the legacy v1 Client, over stdio and
 * over Streamable HTTP in its sessionful mode; and what the stateless mode answers instead. The
 * server is the everything-server of fixtures/conformance, run from its sources.
 */

const FIXTURE = join(PACKAGE_DIR, "..", "..", "fixtures", "conformance");
const SERVER = ["src/everything-server.ts"];

type CallResult = { content?: unknown; isError?: boolean };

/** What a test asks of either Client. */
interface Connection {
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  setLoggingLevel(level: "debug" | "info" | "warning"): Promise<unknown>;
  subscribe(uri: string): Promise<unknown>;
  unsubscribe(uri: string): Promise<unknown>;
  listTools(): Promise<string[]>;
  readonly logs: Array<{ level: string; data: unknown }>;
  readonly updated: string[];
  /** The lists the server said changed. */
  readonly changed: string[];
  /** The sampling and elicitation requests the client answered. */
  readonly asked: string[];
  close(): Promise<void>;
}

const SAMPLED = "This is a test response from the client";
const ELICITED = { response: "yes" };

function legacyConnection(client: LegacyClient): Connection {
  const connection = {
    logs: [] as Connection["logs"],
    updated: [] as string[],
    changed: [] as string[],
    asked: [] as string[],
    call: (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args ?? {} }) as Promise<CallResult>,
    setLoggingLevel: (level: "debug" | "info" | "warning") => client.setLoggingLevel(level),
    subscribe: (uri: string) => client.subscribeResource({ uri }),
    unsubscribe: (uri: string) => client.unsubscribeResource({ uri }),
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    close: () => client.close(),
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void connection.changed.push("tools"));
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => void connection.logs.push({ level: params.level, data: params.data }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => void connection.updated.push(params.uri));
  client.setRequestHandler(CreateMessageRequestSchema, () => {
    connection.asked.push("sampling/createMessage");
    return { role: "assistant", content: { type: "text", text: SAMPLED }, model: "test-model", stopReason: "endTurn" };
  });
  client.setRequestHandler(ElicitRequestSchema, () => {
    connection.asked.push("elicitation/create");
    return { action: "accept", content: ELICITED };
  });
  return connection;
}

function modernConnection(client: Client): Connection {
  const connection = {
    logs: [] as Connection["logs"],
    updated: [] as string[],
    changed: [] as string[],
    asked: [] as string[],
    call: (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args ?? {} }) as Promise<CallResult>,
    setLoggingLevel: (level: "debug" | "info" | "warning") => client.setLoggingLevel(level),
    subscribe: (uri: string) => client.subscribeResource({ uri }),
    unsubscribe: (uri: string) => client.unsubscribeResource({ uri }),
    listTools: async () => (await client.listTools(undefined, { cacheMode: "refresh" })).tools.map((tool) => tool.name),
    close: () => client.close(),
  };
  client.setNotificationHandler("notifications/tools/list_changed", () => void connection.changed.push("tools"));
  client.setNotificationHandler("notifications/message", ({ params }) => void connection.logs.push({ level: params.level, data: params.data }));
  client.setNotificationHandler("notifications/resources/updated", ({ params }) => void connection.updated.push(params.uri));
  client.setRequestHandler("sampling/createMessage", () => {
    connection.asked.push("sampling/createMessage");
    return { role: "assistant", content: { type: "text", text: SAMPLED }, model: "test-model", stopReason: "endTurn" };
  });
  client.setRequestHandler("elicitation/create", () => {
    connection.asked.push("elicitation/create");
    return { action: "accept", content: ELICITED };
  });
  return connection;
}

const CAPABILITIES = { capabilities: { sampling: {}, elicitation: {} } };
/** The v2 Client on a 2025-era revision, as v2 hosts speak to servers that predate 2026-07-28. */
const V2_2025 = { ...CAPABILITIES, versionNegotiation: { mode: "legacy" } } as const;

const servers: ChildProcess[] = [];

async function startHttp(args: string[]): Promise<URL> {
  const child = spawn(process.execPath, [...SERVER, "--http", ...args], { cwd: FIXTURE, stdio: ["ignore", "pipe", "inherit"] });
  servers.push(child);
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  return new URL(String(first.value));
}

let sessionful: URL;
let stateless: URL;
/** The connections of the blocks below, by name, begun together once the servers are warm. */
const opened = new Map<string, Promise<Connection>>();
const modernOpened = new Map<string, Promise<{ client: Client; connection: Connection }>>();
beforeAll(async () => {
  [sessionful, stateless] = await Promise.all([startHttp(["--sessions"]), startHttp([])]);
  // The first tools/list waits for the start-up check's verdicts, which later server processes
  // (the stdio ones) then find judged: they do not all judge the same sources at once.
  const warm = new LegacyClient({ name: "features", version: "1.0.0" });
  await warm.connect(new LegacyStreamableHTTPClientTransport(stateless));
  await warm.listTools(undefined, { timeout: 120_000 });
  await warm.close();
  // Every connection at once: each stdio one starts a server process of its own, which the tests
  // before it need not wait for. Each block takes its own when it begins.
  for (const [name, connect] of Object.entries(CONNECTIONS)) opened.set(name, connect());
  for (const [name, connect] of Object.entries(MODERN)) modernOpened.set(name, connect());
  for (const pending of [...opened.values(), ...modernOpened.values()]) pending.catch(() => undefined);
});
afterAll(async () => {
  const connections = [...opened.values(), ...[...modernOpened.values()].map(async (pending) => (await pending).connection)];
  await Promise.allSettled(connections.map(async (pending) => (await pending).close()));
  for (const child of servers) child.kill("SIGTERM");
});

const stdio = { command: process.execPath, args: SERVER, cwd: FIXTURE, stderr: "ignore" as const };

/** Where the 2025-era features work: over stdio, and over HTTP with sessions. */
const CONNECTIONS: Record<string, () => Promise<Connection>> = {
  "v1 Client, stdio": async () => {
    const client = new LegacyClient({ name: "features", version: "1.0.0" }, CAPABILITIES);
    const connection = legacyConnection(client);
    await client.connect(new LegacyStdioClientTransport(stdio));
    return connection;
  },
  "v2 Client (2025-11-25), stdio": async () => {
    const client = new Client({ name: "features", version: "1.0.0" }, V2_2025);
    const connection = modernConnection(client);
    await client.connect(new StdioClientTransport(stdio));
    return connection;
  },
  "v1 Client, HTTP with sessions": async () => {
    const client = new LegacyClient({ name: "features", version: "1.0.0" }, CAPABILITIES);
    const connection = legacyConnection(client);
    await client.connect(new LegacyStreamableHTTPClientTransport(sessionful));
    return connection;
  },
  "v2 Client (2025-11-25), HTTP with sessions": async () => {
    const client = new Client({ name: "features", version: "1.0.0" }, V2_2025);
    const connection = modernConnection(client);
    await client.connect(new StreamableHTTPClientTransport(sessionful));
    return connection;
  },
};

/** Waits until `ready()` or `ms`; what a notification needs to cross a process boundary. */
async function until(ready: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.each(Object.keys(CONNECTIONS))("%s", (name) => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await opened.get(name)!;
  });

  test("logging: messages come at the level the client set (logging/setLevel), and notify sends one as the SDK does", async () => {
    await connection.setLoggingLevel("warning");
    const quiet = await connection.call("test_tool_with_logging");
    expect(quiet.isError).toBeFalsy();
    const notified = await connection.call("test_log_through_notify");
    expect(notified.isError, firstText(notified)).toBeFalsy();
    await until(() => connection.logs.length >= 1);
    expect(connection.logs).toEqual([{ level: "warning", data: "Sent through notify" }]);

    await connection.setLoggingLevel("info");
    await connection.call("test_tool_with_logging");
    await until(() => connection.logs.length >= 4);
    expect(connection.logs.slice(1)).toEqual([
      { level: "info", data: "Tool execution started" },
      { level: "info", data: "Tool processing data" },
      { level: "info", data: "Tool execution completed" },
    ]);
  });

  test("resource subscriptions: an update published while subscribed reaches the client; none after unsubscribing", async () => {
    await connection.subscribe("test://watched-resource");
    await connection.call("test_update_watched_resource", { text: "first" });
    await until(() => connection.updated.length >= 1);
    expect(connection.updated).toEqual(["test://watched-resource"]);
    await connection.unsubscribe("test://watched-resource");
    await connection.call("test_update_watched_resource", { text: "second" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(connection.updated).toEqual(["test://watched-resource"]);
  });

  test("sampling: the tool's request reaches the client, and its answer the tool", async () => {
    const result = await connection.call("test_sampling", { prompt: "Say something" });
    expect(firstText(result)).toBe(`LLM response: ${SAMPLED}`);
    expect(connection.asked).toContain("sampling/createMessage");
  });

  test("elicitation: the tool's request reaches the client, and its answer the tool", async () => {
    const result = await connection.call("test_elicitation", { message: "Proceed?" });
    expect(firstText(result)).toBe(`User response: action=accept, content=${JSON.stringify(ELICITED)}`);
    expect(connection.asked).toContain("elicitation/create");
  });

  test("a tool that throws inputRequired(…): the SDK asks the client and calls it again with the answers", async () => {
    const result = await connection.call("test_ask_any_era");
    expect(firstText(result)).toBe(`model: ${SAMPLED}; user: accept ${JSON.stringify(ELICITED)}`);
  });

  test("list changes: a tool registered, disabled, enabled and removed while serving; the client is told each time, and the late tool is checked as every tool is", async () => {
    const before = connection.changed.length;
    await connection.call("test_change_tools", { action: "add" });
    await until(() => connection.changed.length > before);
    expect(await connection.listTools()).toContain("test_dynamic_tool");
    const dynamic = await connection.call("test_dynamic_tool");
    expect([dynamic.isError, firstText(dynamic)]).toEqual([undefined, "Registered while serving, checked as every tool is."]);
    await connection.call("test_change_tools", { action: "disable" });
    await until(() => connection.changed.length > before + 1);
    expect(await connection.listTools()).not.toContain("test_dynamic_tool");
    await connection.call("test_change_tools", { action: "enable" });
    await until(() => connection.changed.length > before + 2);
    expect(await connection.listTools()).toContain("test_dynamic_tool");
    await connection.call("test_change_tools", { action: "remove" });
    await until(() => connection.changed.length > before + 3);
    expect(await connection.listTools()).not.toContain("test_dynamic_tool");
    expect(connection.changed.slice(before)).toEqual(["tools", "tools", "tools", "tools"]);
  });
});

/** The v2 Client on 2026-07-28: no sessions, no requests to the client; the level in each request, changes on a listen stream. */
const MODERN: Record<string, () => Promise<{ client: Client; connection: Connection }>> = {
  "2026-07-28, Streamable HTTP": async () => {
    const client = new Client({ name: "features", version: "1.0.0" }, { ...CAPABILITIES, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const connection = modernConnection(client);
    await client.connect(new StreamableHTTPClientTransport(stateless));
    return { client, connection };
  },
  "2026-07-28, stdio": async () => {
    const client = new Client({ name: "features", version: "1.0.0" }, { ...CAPABILITIES, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const connection = modernConnection(client);
    await client.connect(new StdioClientTransport(stdio));
    return { client, connection };
  },
};

describe.each(Object.keys(MODERN))("v2 Client, %s", (name) => {
  let client: Client;
  let connection: Connection;
  beforeAll(async () => {
    ({ client, connection } = await modernOpened.get(name)!);
  });

  test("logging: messages come at the level the client asks for in each request (no level: none)", async () => {
    const call = (level?: string) => client.callTool({ name: "test_tool_with_logging", arguments: {}, ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}) });
    await call();
    await call("warning");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connection.logs).toEqual([]);
    await call("info");
    await until(() => connection.logs.length >= 3);
    expect(connection.logs.map((log) => log.data)).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
  });

  test("subscriptions/listen: a resource update and a tool list change reach the listen stream that asked for them; none after it closed", async () => {
    const subscription = await client.listen({ resourceSubscriptions: ["test://watched-resource"], toolsListChanged: true });
    try {
      await connection.call("test_update_watched_resource", { text: "modern" });
      await until(() => connection.updated.length >= 1);
      expect(connection.updated).toEqual(["test://watched-resource"]);
      await connection.call("test_change_tools", { action: "add" });
      await until(() => connection.changed.length >= 1);
      expect(connection.changed).toEqual(["tools"]);
      expect(await connection.listTools()).toContain("test_dynamic_tool");
      expect(firstText(await connection.call("test_dynamic_tool"))).toBe("Registered while serving, checked as every tool is.");
      await connection.call("test_change_tools", { action: "remove" });
      await until(() => connection.changed.length >= 2);
    } finally {
      await subscription.close();
    }
    await connection.call("test_update_watched_resource", { text: "unheard" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(connection.updated).toEqual(["test://watched-resource"]);
  });

  test("a tool that throws inputRequired(…): the client answers the input_required result and calls again", async () => {
    const result = await connection.call("test_ask_any_era");
    expect(firstText(result)).toBe(`model: ${SAMPLED}; user: accept ${JSON.stringify(ELICITED)}`);
    expect(connection.asked.sort()).toEqual(["elicitation/create", "sampling/createMessage"]);
  });

  test("a push-style request (requestSampling) is refused in the tool, pointing to inputRequired", async () => {
    const result = await connection.call("test_sampling", { prompt: "Say something" });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("inputRequired");
  });
});

describe("the stateless mode, to a 2025-era client: what needs a session is refused with the reason and the way out", () => {
  const refusal = /serves 2025-era clients statelessly[^]*serveHttp\(\{ sessions: true \}\)/;

  test.each([
    ["v1 Client", async () => {
      const client = new LegacyClient({ name: "features", version: "1.0.0" }, CAPABILITIES);
      const connection = legacyConnection(client);
      await client.connect(new LegacyStreamableHTTPClientTransport(stateless));
      return connection;
    }],
    ["v2 Client (2025-11-25)", async () => {
      const client = new Client({ name: "features", version: "1.0.0" }, V2_2025);
      const connection = modernConnection(client);
      await client.connect(new StreamableHTTPClientTransport(stateless));
      return connection;
    }],
  ] as const)("%s: sampling, elicitation and subscriptions; logging still works within the call", async (_name, connect) => {
    const connection = await connect();
    try {
      for (const [tool, args] of [["test_sampling", { prompt: "Say something" }], ["test_elicitation", { message: "Proceed?" }]] as const) {
        const result = await connection.call(tool, args);
        expect(result.isError).toBe(true);
        expect(firstText(result)).toMatch(refusal);
        expect(firstText(result)).not.toContain("does not support");
      }
      const asked = await connection.call("test_ask_any_era");
      expect(asked.isError).toBe(true);
      expect(firstText(asked)).toMatch(refusal);
      expect(connection.asked).toEqual([]);
      await expect(connection.subscribe("test://watched-resource")).rejects.toThrow(refusal);

      await connection.call("test_tool_with_logging");
      await until(() => connection.logs.length >= 3);
      expect(connection.logs.map((log) => log.data)).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    } finally {
      await connection.close();
    }
  });
});

/** The events of an SSE body, read until it ends or `ms` pass. */
async function events(response: Response, ms = 3_000): Promise<Array<{ id?: string; retry?: number; data: string }>> {
  const found: Array<{ id?: string; retry?: number; data: string }> = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = setTimeout(() => void reader.cancel().catch(() => undefined), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
  } catch {
    // Cancelled at the deadline: what arrived is the answer.
  } finally {
    clearTimeout(deadline);
  }
  for (const block of text.split("\n\n")) {
    if (block.trim() === "" || block.startsWith(":")) continue;
    const event: { id?: string; retry?: number; data: string } = { data: "" };
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) event.id = line.slice(4);
      else if (line.startsWith("retry: ")) event.retry = Number(line.slice(7));
      else if (line.startsWith("data: ")) event.data += line.slice(6);
      else if (line === "data:") event.data += "";
    }
    found.push(event);
  }
  return found;
}

describe("the sessionful mode's streams (raw HTTP, revision 2025-11-25)", () => {
  const REVISION = "2025-11-25";
  const post = (body: object, session?: string, revision = REVISION) =>
    fetch(sessionful, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": revision, ...(session ? { "mcp-session-id": session } : {}) },
      body: JSON.stringify(body),
    });
  async function open(revision = REVISION): Promise<string> {
    const answer = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }, undefined, revision);
    const session = answer.headers.get("mcp-session-id");
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    // At 2025-11-25 a priming event comes first.
    const initialized = (await events(answer)).find((event) => event.data !== "");
    expect(JSON.parse(initialized!.data)).toMatchObject({ result: { protocolVersion: revision } });
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session!, revision)).status).toBe(202);
    return session!;
  }

  test("a POST stream opens with a priming event (an id, retry, no data); a stream closed mid-call resumes on GET with Last-Event-ID, and the answer is replayed", async () => {
    const session = await open();
    const first = await events(await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "test_reconnection", arguments: {} } }, session));
    // The tool closed its stream before answering: only the priming event came.
    expect(first).toEqual([{ id: expect.any(String), retry: 1_000, data: "" }]);
    const resumed = await fetch(sessionful, { headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": REVISION, "last-event-id": first[0]!.id! } });
    expect(resumed.status).toBe(200);
    const replayed = await events(resumed);
    const answer = replayed.map((event) => JSON.parse(event.data) as { id?: number; result?: { content: Array<{ text: string }> } }).find((message) => message.id === 1);
    expect(answer?.result?.content[0]?.text).toMatch(/^Reconnection test completed successfully/);
  });

  test("a 2025-03-26 session gets no priming event (its clients break on empty data), and no stream closed early (they could not resume it): the answer comes on the POST stream", async () => {
    const session = await open("2025-03-26");
    const answer = await events(await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "test_reconnection", arguments: {} } }, session, "2025-03-26"));
    expect(answer.map((event) => [event.retry, event.data === "" ? "empty" : (JSON.parse(event.data) as { id?: number }).id])).toEqual([[undefined, 1]]);
  });

  test("GET opens the session's stream (one at a time); DELETE ends the session, whose id then answers 404", async () => {
    const session = await open();
    const headers = { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": REVISION };
    const stream = await fetch(sessionful, { headers });
    expect([stream.status, stream.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    expect((await fetch(sessionful, { headers })).status).toBe(409);
    await stream.body!.cancel();
    expect((await fetch(sessionful, { method: "DELETE", headers })).status).toBe(200);
    const gone = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, session);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: -32001, message: expect.stringContaining("Session not found") } });
  });

  test("a request without a session id that is no initialize is answered 400, saying a session starts with one", async () => {
    const answer = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { message: expect.stringContaining("a session starts with an initialize request") } });
  });
});
