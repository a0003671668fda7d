import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRegistry, DATA_VIEW_URI, type Registry } from "../dist/index.js";
import { checkInMemory, checkOverHttp, refusalsOf, type AnyClient } from "./both-clients.js";
import { connectInMemory, PACKAGE_DIR, recordingLogger, seedResult } from "./helpers.js";

/*
 * Resources and prompts beside the tools, registered on the registry and offered by every server
 * it builds: createServer() (in memory), serveHttp() and serveStdio() (a server process), each
 * read by the v2 and the legacy v1 Client. One server module, written once, is imported here and
 * run as a process.
 */

const directory = mkdtempSync(join(tmpdir(), "sourced-offerings-"));
const SERVER = join(directory, "memory-server.mjs");
writeFileSync(
  SERVER,
  `import { createRegistry } from ${JSON.stringify(pathToFileURL(join(PACKAGE_DIR, "dist", "index.js")).href)};

export function build() {
  const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false });
  registry.tool()(function read_graph() {
    return { content: [{ type: "text", text: "The graph holds 2 entities." }], structuredContent: { sources: ["https://example.org/graph"] } };
  });
  registry.resource("graph", "memory://graph", { mimeType: "application/json", description: "The knowledge graph" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "application/json", text: '{"entities":2}' }],
  }));
  registry.prompt("summarise", { description: "Summarise the graph" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "Summarise the knowledge graph." } }],
  }));
  return registry;
}

if (process.argv[2] === "stdio") void build().serveStdio();
`,
);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** What every client must see, whatever the path. */
async function expectOfferings(client: AnyClient): Promise<void> {
  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri).sort()).toEqual(["memory://graph", DATA_VIEW_URI].sort());
  const read = await client.readResource({ uri: "memory://graph" });
  expect(read.contents).toEqual([{ uri: "memory://graph", mimeType: "application/json", text: '{"entities":2}' }]);
  expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["summarise"]);
  const prompt = await client.getPrompt({ name: "summarise" });
  expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Summarise the knowledge graph." } }]);
  // Fixed once serving starts: no list ever changes.
  expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: false }, prompts: { listChanged: false }, tools: { listChanged: false } });
}

let build: () => Registry;
beforeAll(async () => {
  ({ build } = (await import(pathToFileURL(SERVER).href)) as { build: () => Registry });
});

describe("resources and prompts on every serve path", () => {
  test("createServer(), with the v2 and the v1 Client", async () => {
    await checkInMemory(() => build(), expectOfferings);
  });

  test("serveHttp(), with the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(() => build(), expectOfferings);
  });

  test("serveStdio() in a server process, with the v2 and the v1 Client", async () => {
    const client = new Client({ name: "offerings", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER, "stdio"] }));
    await expectOfferings(client);
    await client.close();
    const legacy = new LegacyClient({ name: "offerings", version: "1.0.0" });
    await legacy.connect(new LegacyStdioClientTransport({ command: process.execPath, args: [SERVER, "stdio"] }));
    await expectOfferings(legacy as unknown as AnyClient);
    await legacy.close();
  });
});

/** A registry whose prompts answer well and badly, each bad answer in one way. */
function promptsRegistry(logger = recordingLogger()): Registry {
  const registry = createRegistry({ name: "prompts", version: "1.0.0", startupCheck: false, ui: false, logger });
  const answers: Record<string, unknown> = {
    dialogue: {
      description: "A question and its answer",
      messages: [
        { role: "user", content: { type: "text", text: "How big is the graph?" } },
        { role: "assistant", content: { type: "text", text: "2 entities." } },
      ],
    },
    "message-key": { messages: [{ role: "user", content: { type: "text", text: "x" }, name: "alice" }] },
    "no-messages": {},
    "result-key": { messages: [], next: 2 },
  };
  for (const [name, answer] of Object.entries(answers)) registry.prompt(name, {}, () => answer as never);
  return registry;
}

async function expectCheckedPrompts(client: AnyClient): Promise<void> {
  const dialogue = await client.getPrompt({ name: "dialogue" });
  expect(dialogue.description).toBe("A question and its answer");
  expect(dialogue.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  const refused = (name: string) => `Prompt "${name}" answered with a result that breaks the GetPromptResult contract, so it was not sent:\n- `;
  const refusals: Record<string, string> = {
    "message-key": `${refused("message-key")}messages[0]: "name" is not a key of a prompt message, which has role and content only`,
    "no-messages": `${refused("no-messages")}messages: is missing: a prompt answers with its messages, [{ role: "user", content: { type: "text", text } }]`,
    "result-key": `${refused("result-key")}the result: "next" is not a key of a prompt result, which has description, messages and _meta only`,
  };
  for (const [name, message] of Object.entries(refusals)) {
    await expect(client.getPrompt({ name }), name).rejects.toThrow(message);
  }
}

describe("a prompt's answers through the net", () => {
  test("with the v2 and the v1 Client: a message of either role leaves; a result that breaks GetPromptResult is an error in the contract's words", async () => {
    const logger = recordingLogger();
    await checkInMemory(() => promptsRegistry(logger), expectCheckedPrompts);
    // One warning per refused answer, per client.
    expect(logger.warnings).toHaveLength(6);
  });
});

/** Prompts whose one message is malformed in one way each: a key left out, or a value of the wrong kind (a text, a list, a number, true or false, null). */
function malformedMessages(): Registry {
  const registry = createRegistry({ name: "messages", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
  const text = { type: "text", text: "x" };
  const messages: Record<string, unknown> = {
    "no-role": { content: text },
    "no-content": { role: "user" },
    "system-role": { role: "system", content: text },
    "string-content": { role: "user", content: "Compare the two cities." },
    "long-string-content": { role: "user", content: "Compare the two cities by population, area and climate." },
    "listed-content": { role: "user", content: [text] },
    "number-content": { role: "user", content: 42 },
    "boolean-content": { role: "assistant", content: false },
    "null-content": { role: "user", content: null },
  };
  for (const [name, message] of Object.entries(messages)) registry.prompt(name, {}, () => ({ messages: [message] }) as never);
  return registry;
}

async function expectMessageRefusals(client: AnyClient): Promise<void> {
  const refused = (name: string, problem: string) => `Prompt "${name}" answered with a result that breaks the GetPromptResult contract, so it was not sent:\n- messages[0].${problem}`;
  const refusals: Record<string, string> = {
    "no-role": refused("no-role", 'role: is missing: a message has a role ("user" or "assistant") and one content block'),
    "no-content": refused("no-content", 'content: is missing: a message has a role ("user" or "assistant") and one content block'),
    "system-role": refused("system-role", 'role: must be "user" or "assistant"'),
    // The text itself, the other slip: said with the block that carries it, the text quoted as other messages quote a value.
    "string-content": refused("string-content", 'content: must be one content block, not a string: { type: "text", text: "Compare the two cities." }'),
    "long-string-content": refused("long-string-content", 'content: must be one content block, not a string: { type: "text", text: "Compare the two cities by population, ar…" }'),
    // The tool-result habit (`content: [{ type: "text", text }]`): a message holds one block, said with what to write.
    "listed-content": refused("listed-content", 'content: must be one content block, not a list: { type: "text", text }'),
    // A value no block is written as: the block to write, a number's or true or false's text quoted, null's left to write.
    "number-content": refused("number-content", 'content: must be one content block, not a number: { type: "text", text: "42" }'),
    "boolean-content": refused("boolean-content", 'content: must be one content block, not a boolean: { type: "text", text: "false" }'),
    "null-content": refused("null-content", 'content: must be one content block, not null: { type: "text", text }'),
  };
  expect(await refusalsOf(Object.keys(refusals), (name) => client.getPrompt({ name }))).toEqual(refusals);
}

describe("a prompt message refused in the message's words", () => {
  test("without its role or its content: what a message has; a wrong role or content: what to write instead; the v2 and the v1 Client, in memory", async () => {
    await checkInMemory(() => malformedMessages(), expectMessageRefusals);
  });
  test("the same over Streamable HTTP, the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(() => malformedMessages(), expectMessageRefusals);
  });
});

describe("registering them", () => {
  test("what the SDK refuses throws at the registration, naming its place", () => {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false });
    const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: "{}" }] });
    registry.resource("graph", "memory://graph", {}, read);
    expect(() => registry.resource("graph again", "memory://graph", {}, read)).toThrow(/^registry\.resource\(\) at .*resources-prompts\.test\.ts:\d+:\d+: .*memory:\/\/graph/u);
  });

  test("registered while serving: a connected server that offers prompts offers it, and its client is told; servers built afterwards offer it", async () => {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, listChanged: true, logger });
    registry.prompt("first", {}, () => ({ messages: [] }));
    const changed: string[] = [];
    const server = registry.createServer();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "late", version: "1.0.0" });
    client.setNotificationHandler("notifications/prompts/list_changed", () => void changed.push("prompts"));
    await client.connect(clientTransport);
    expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: true });
    registry.prompt("late", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: "late" } }] }));
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["first", "late"]);
    expect(changed).toEqual(["prompts"]);
    const { client: later, close } = await connectInMemory(registry);
    expect((await later.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["first", "late"]);
    await close();
    await client.close();
    expect(logger.warnings).toEqual([]);
  });

  test("disable(), enable() and remove() while serving: a connected client's lists follow and it is told; servers built afterwards offer what is left", async () => {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, listChanged: true, ui: false, logger });
    const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: "{}" }] });
    const graph = registry.resource("graph", "memory://graph", {}, read);
    registry.resource("notes", "memory://notes", {}, read);
    const prompt = registry.prompt("summarise", {}, () => ({ messages: [] }));
    const server = registry.createServer();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "changes", version: "1.0.0" });
    const changed: string[] = [];
    client.setNotificationHandler("notifications/resources/list_changed", () => void changed.push("resources"));
    client.setNotificationHandler("notifications/prompts/list_changed", () => void changed.push("prompts"));
    await client.connect(clientTransport);
    const uris = async (of: Client) => (await of.listResources()).resources.map((resource) => resource.uri);
    graph.disable();
    expect(graph.enabled).toBe(false);
    expect(await uris(client)).toEqual(["memory://notes"]);
    await expect(client.readResource({ uri: "memory://graph" })).rejects.toThrow();
    graph.enable();
    expect(await uris(client)).toEqual(["memory://graph", "memory://notes"]);
    graph.remove();
    prompt.remove();
    expect(await uris(client)).toEqual(["memory://notes"]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect(changed).toEqual(["resources", "resources", "resources", "prompts"]);
    const { client: later, close } = await connectInMemory(registry);
    expect(await uris(later)).toEqual(["memory://notes"]);
    await close();
    await client.close();
    expect(logger.warnings).toEqual([]);
  });

  test("a server with neither, and no data view, declares no resources or prompts", async () => {
    const registry = createRegistry({ name: "plain", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    registry.tool()(function list_cities() {
      return seedResult();
    });
    const server = registry.createServer();
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "offerings", version: "1.0.0" });
    await client.connect(clientTransport);
    expect(client.getServerCapabilities()).not.toHaveProperty("resources");
    expect(client.getServerCapabilities()).not.toHaveProperty("prompts");
    await client.close();
    await server.close();
  });
});
