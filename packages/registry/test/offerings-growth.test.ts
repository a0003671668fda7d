import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { completable, createRegistry, ResourceTemplate, type HttpServeOptions, type Registry } from "../dist/index.js";
import type { AnyClient } from "./both-clients.js";
import { connectInMemory, recordingLogger } from "./helpers.js";

/*
 * What a request costs does not grow with the resources, templates and prompts a registry offers:
 * each is registered once per table (one per serving, as the tools' table), not on every server
 * built — over Streamable HTTP a server per request, over stdio and createServer() a server per
 * connection. Counted, not timed: every resource, template and prompt here carries metadata whose
 * `description` is a getter that counts its reads, and the SDK reads it each time one is
 * registered on a server. Past the first requests (the tables of the serving being built), no
 * request of any kind reads one again.
 */

const RESOURCES = 200;
const TEMPLATES = 20;
const PROMPTS = 20;

/** A registry offering the counted resources, templates and prompts beside one tool; `reads()`: how many times their metadata was read. */
function counted(): { registry: Registry; reads(): number } {
  let reads = 0;
  const described = (text: string, metadata: object = {}) => ({
    ...metadata,
    get description() {
      reads++;
      return text;
    },
  });
  const registry = createRegistry({ name: "growth", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
  registry.tool()(function read_row() {
    return { content: [{ type: "text", text: "Row 0." }], structuredContent: { sources: ["memory://rows/0"] } };
  });
  for (let index = 0; index < RESOURCES; index++) {
    registry.resource(`row ${index}`, `memory://rows/${index}`, described(`Row ${index}`, { mimeType: "text/plain" }), (uri) => ({ contents: [{ uri: uri.href, text: String(index) }] }));
  }
  for (let index = 0; index < TEMPLATES; index++) {
    const template = new ResourceTemplate(`memory://tables/${index}/{row}`, { list: undefined });
    registry.resource(`table ${index}`, template, described(`Table ${index}`), (uri, variables) => ({ contents: [{ uri: uri.href, text: `${index}:${String(variables["row"])}` }] }));
  }
  for (let index = 0; index < PROMPTS; index++) {
    registry.prompt(`prompt_${index}`, described(`Prompt ${index}`), () => ({ messages: [{ role: "user", content: { type: "text", text: `Prompt ${index}.` } }] }));
  }
  return { registry, reads: () => reads };
}

/** Past any cache of the v2 Client's: the server answers every request. */
const REFRESH = { cacheMode: "refresh" } as const;

type RequestingClient = AnyClient & Pick<Client, "ping" | "listResourceTemplates">;

/** One request of every kind a client sends, each answered as it must be (ping: a 2025-era request). */
async function everyRequest(client: RequestingClient, era: "2025" | "2026-07-28"): Promise<void> {
  if (era === "2025") await client.ping();
  expect((await client.listTools(undefined, REFRESH)).tools.map((tool) => tool.name)).toEqual(["read_row"]);
  expect((await client.callTool({ name: "read_row", arguments: {} })).structuredContent).toEqual({ sources: ["memory://rows/0"] });
  const { resources } = await client.listResources(undefined, REFRESH);
  expect(resources.filter((resource) => resource.uri.startsWith("memory://"))).toHaveLength(RESOURCES);
  expect(resources.find((resource) => resource.uri === "memory://rows/7")).toMatchObject({ name: "row 7", description: "Row 7", mimeType: "text/plain" });
  expect((await client.listResourceTemplates(undefined, REFRESH)).resourceTemplates).toHaveLength(TEMPLATES);
  expect((await client.readResource({ uri: "memory://rows/199" }, REFRESH)).contents).toEqual([{ uri: "memory://rows/199", text: "199" }]);
  expect((await client.readResource({ uri: "memory://tables/19/alice" }, REFRESH)).contents).toEqual([{ uri: "memory://tables/19/alice", text: "19:alice" }]);
  const { prompts } = await client.listPrompts(undefined, REFRESH);
  expect(prompts).toHaveLength(PROMPTS);
  expect(prompts[3]).toMatchObject({ name: "prompt_3", description: "Prompt 3" });
  expect((await client.getPrompt({ name: "prompt_19" })).messages).toEqual([{ role: "user", content: { type: "text", text: "Prompt 19." } }]);
}

/** Each connection's `initialize` and every request after it, with the v2 Client (2026-07-28) and the v1 Client (2025-era). */
async function overHttp(url: URL): Promise<void> {
  const client = new Client({ name: "growth", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  await everyRequest(client, "2026-07-28");
  await client.close();
  const legacy = new LegacyClient({ name: "growth", version: "1.0.0" });
  await legacy.connect(new LegacyStreamableHTTPClientTransport(url));
  await everyRequest(legacy as unknown as RequestingClient, "2025");
  await legacy.close();
}

async function servedOverHttp(options: HttpServeOptions): Promise<void> {
  const { registry, reads } = counted();
  const serving = await registry.serveHttp(options);
  try {
    // The first requests build the serving's tables: each offering registered once on each.
    await overHttp(serving.url);
    const built = reads();
    for (let round = 0; round < 3; round++) await overHttp(serving.url);
    expect(reads()).toBe(built);
  } finally {
    await serving.close();
  }
}

describe("a request's cost does not grow with the resources, templates and prompts offered", () => {
  test("Streamable HTTP, a server per request (2026-07-28, and 2025-era statelessly): no request registers them again", async () => {
    await servedOverHttp({});
  }, 60_000);

  test("Streamable HTTP with sessions: neither a new session nor a request in one registers them again", async () => {
    await servedOverHttp({ sessions: true });
  }, 60_000);

  test("createServer(), a server per connection as over stdio: no new connection registers them again", async () => {
    const { registry, reads } = counted();
    const first = await connectInMemory(registry);
    await everyRequest(first.client, "2025");
    await first.close();
    const built = reads();
    for (let round = 0; round < 3; round++) {
      const { client, close } = await connectInMemory(registry);
      await everyRequest(client, "2025");
      await close();
    }
    expect(reads()).toBe(built);
  }, 60_000);
});

describe("served from the tables, as when every server registered them", () => {
  const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: uri.href }] });

  test("HTTP with sessions: a session's client is told when one is registered, disabled or removed while serving, and lists what is left", async () => {
    const registry = createRegistry({ name: "changes", version: "1.0.0", startupCheck: false, listChanged: true, ui: false, logger: recordingLogger() });
    const graph = registry.resource("graph", "memory://graph", {}, read);
    const prompt = registry.prompt("summarise", {}, () => ({ messages: [] }));
    const serving = await registry.serveHttp({ sessions: true });
    try {
      const client = new LegacyClient({ name: "changes", version: "1.0.0" });
      const changed: string[] = [];
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed.push("resources"));
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changed.push("prompts"));
      const updated: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri));
      await client.connect(new LegacyStreamableHTTPClientTransport(serving.url));
      // Once the session's GET stream is open, which carries what the server tells it unasked.
      await client.subscribeResource({ uri: "memory://graph" });
      await vi.waitFor(() => {
        registry.resourceUpdated("memory://graph");
        expect(updated).not.toEqual([]);
      });
      const uris = async () => (await client.listResources()).resources.map((resource) => resource.uri);
      registry.resource("notes", "memory://notes", {}, read);
      expect(await uris()).toEqual(["memory://graph", "memory://notes"]);
      graph.disable();
      expect(await uris()).toEqual(["memory://notes"]);
      await expect(client.readResource({ uri: "memory://graph" })).rejects.toThrow("Resource memory://graph disabled");
      prompt.remove();
      expect((await client.listPrompts()).prompts).toEqual([]);
      await expect(client.getPrompt({ name: "summarise" })).rejects.toThrow("Prompt summarise not found");
      await vi.waitFor(() => expect(changed).toEqual(["resources", "resources", "prompts"]));
      await client.close();
    } finally {
      await serving.close();
    }
  }, 30_000);

  test("createServer(): what is registered on it with the SDK's own methods is offered after the registry's, which it goes on offering as they change", async () => {
    const registry = createRegistry({ name: "own", version: "1.0.0", startupCheck: false, listChanged: true, ui: false, logger: recordingLogger() });
    const graph = registry.resource("graph", "memory://graph", {}, read);
    const server = registry.createServer();
    const mine = server.registerResource("mine", "memory://mine", { description: "Mine" }, read);
    server.registerPrompt("mine", { argsSchema: z.object({ city: completable(z.string(), (value) => ["Tokyo", "Delhi"].filter((city) => city.startsWith(value))) }) }, ({ city }) => ({
      messages: [{ role: "user", content: { type: "text", text: city } }],
    }));
    // What the SDK refuses on a server of its own, it refuses here: the registry's URI is taken.
    expect(() => server.registerResource("again", "memory://graph", {}, read)).toThrow("Resource memory://graph is already registered");
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "own", version: "1.0.0" });
    const changed: string[] = [];
    client.setNotificationHandler("notifications/resources/list_changed", () => void changed.push("resources"));
    await client.connect(clientTransport);
    expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: true }, prompts: { listChanged: true }, completions: {} });
    const uris = async () => (await client.listResources()).resources.map((resource) => resource.uri);
    expect(await uris()).toEqual(["memory://graph", "memory://mine"]);
    expect((await client.readResource({ uri: "memory://mine" })).contents).toEqual([{ uri: "memory://mine", text: "memory://mine" }]);
    expect((await client.getPrompt({ name: "mine", arguments: { city: "Tokyo" } })).messages[0]!.content).toEqual({ type: "text", text: "Tokyo" });
    expect((await client.complete({ ref: { type: "ref/prompt", name: "mine" }, argument: { name: "city", value: "T" } })).completion.values).toEqual(["Tokyo"]);
    mine.disable();
    registry.resource("late", "memory://late", {}, read);
    graph.remove();
    expect(await uris()).toEqual(["memory://late"]);
    await vi.waitFor(() => expect(changed).toEqual(["resources", "resources", "resources"]));
    await client.close();
    await server.close();
  });

  test("registered while serving: a connected server that offered no prompts at its handshake does not offer it, and the warning counts it", async () => {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "late", version: "1.0.0", startupCheck: false, listChanged: true, ui: false, logger });
    registry.resource("graph", "memory://graph", {}, read);
    const { client, close } = await connectInMemory(registry);
    expect(client.getServerCapabilities()).not.toHaveProperty("prompts");
    registry.prompt("late", {}, () => ({ messages: [] }));
    expect(logger.warnings).toEqual([expect.stringMatching(/^registry\.prompt\(\) at .*: registered while serving; 1 connected client whose server offered no prompts at its handshake will see it once it reconnects\.$/u)]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    await close();
    const later = await connectInMemory(registry);
    expect((await later.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["late"]);
    await later.close();
  });

  test("remove(): its URI and its name are free again for the registry, as for the SDK", async () => {
    const registry = createRegistry({ name: "again", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    registry.resource("graph", "memory://graph", {}, () => ({ contents: [{ uri: "memory://graph", text: "first" }] })).remove();
    registry.prompt("summarise", {}, () => ({ messages: [] })).remove();
    registry.resource("graph", "memory://graph", {}, () => ({ contents: [{ uri: "memory://graph", text: "second" }] }));
    registry.prompt("summarise", { description: "again" }, () => ({ messages: [] }));
    const { client, close } = await connectInMemory(registry);
    expect((await client.readResource({ uri: "memory://graph" })).contents).toEqual([{ uri: "memory://graph", text: "second" }]);
    expect((await client.listPrompts()).prompts).toMatchObject([{ name: "summarise", description: "again" }]);
    await close();
  });

  test("completion is declared while a template or a prompt that completes is offered, and not once it is removed", async () => {
    const registry = createRegistry({ name: "completes", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    registry.prompt("plain", {}, () => ({ messages: [] }));
    registry.resource("plain", new ResourceTemplate("memory://plain/{id}", { list: undefined }), {}, read);
    const capabilities = async () => {
      const { client, close } = await connectInMemory(registry);
      const declared = client.getServerCapabilities();
      await close();
      return declared;
    };
    expect(await capabilities()).not.toHaveProperty("completions");
    const entity = registry.resource("entity", new ResourceTemplate("memory://entities/{name}", { list: undefined, complete: { name: () => ["alice"] } }), {}, read);
    expect(await capabilities()).toHaveProperty("completions");
    entity.disable();
    expect(await capabilities()).toHaveProperty("completions");
    entity.remove();
    expect(await capabilities()).not.toHaveProperty("completions");
  });
});
