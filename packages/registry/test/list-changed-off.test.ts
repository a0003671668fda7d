import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test, vi } from "vitest";
import { createRegistry, ResourceTemplate, type Registry } from "../dist/index.js";
import { recordingLogger, seedResult } from "./helpers.js";

/*
 * A server that declares `listChanged: false` (the registry's default) sends no
 * `notifications/{tools,resources,prompts}/list_changed`, whatever changes while it serves: a tool
 * disabled, a resource or prompt registered, disabled, enabled or removed, one registered on a
 * `createServer()` server with the SDK's own methods. The SDK's own `McpServer` tells its client of
 * every such change whatever it declared; the registry's servers follow what they declare. With
 * `listChanged: true` the same changes are told (the control: the test would see them).
 *
 * Each client subscribes to memory://notes; after the changes, `registry.resourceUpdated()` sends it
 * a notification on the same stream, after any list change: once that one has arrived, any list
 * change sent before it has too.
 */

const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: uri.href }] });

function registryOf(listChanged: boolean): Registry {
  const registry = createRegistry({ name: "changes", version: "1.0.0", startupCheck: false, ui: false, listChanged, logger: recordingLogger() });
  registry.tool()(function list_cities() {
    return seedResult();
  });
  return registry;
}

/** What a connected client was told: the list changes, and the sentinel `notifications/resources/updated`. */
interface Told {
  readonly changed: string[];
  readonly updated: string[];
}

/** Every change the registry lets a list make while serving, then the sentinel. */
async function changeEverything(registry: Registry, server: ReturnType<Registry["createServer"]> | undefined, told: Told): Promise<void> {
  const graph = registry.resource("graph-late", "memory://graph-late", {}, read);
  registry.resource("entity-late", new ResourceTemplate("memory://late/{name}", { list: undefined }), {}, read);
  const prompt = registry.prompt("late", {}, () => ({ messages: [] }));
  graph.disable();
  graph.enable();
  graph.remove();
  prompt.disable();
  prompt.remove();
  registry.tools[0]!.disable();
  registry.tools[0]!.enable();
  if (server !== undefined) {
    // The SDK's own registrations on a server the registry built.
    server.registerResource("mine", "memory://mine", {}, read).disable();
    server.registerPrompt("mine", {}, () => ({ messages: [] })).remove();
  }
  registry.resourceUpdated("memory://notes");
  await vi.waitFor(() => expect(told.updated).toContain("memory://notes"));
}

/** A registry offering two resources and a prompt, its server connected in memory to a v2 or v1 Client, which subscribes to memory://notes. */
async function inMemory(listChanged: boolean, legacy: boolean): Promise<string[]> {
  const registry = registryOf(listChanged);
  registry.resource("graph", "memory://graph", {}, read);
  registry.resource("notes", "memory://notes", {}, read);
  registry.prompt("summarise", {}, () => ({ messages: [] }));
  const server = registry.createServer();
  const told: Told = { changed: [], updated: [] };
  let close: () => Promise<void>;
  if (legacy) {
    const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new LegacyClient({ name: "changes", version: "1.0.0" });
    recordLegacy(client, told);
    await client.connect(clientTransport);
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged }, resources: { listChanged }, prompts: { listChanged } });
    await client.subscribeResource({ uri: "memory://notes" });
    close = () => client.close();
  } else {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "changes", version: "1.0.0" });
    for (const kind of ["tools", "resources", "prompts"] as const) client.setNotificationHandler(`notifications/${kind}/list_changed`, () => void told.changed.push(kind));
    client.setNotificationHandler("notifications/resources/updated", (notification) => void told.updated.push(notification.params.uri));
    await client.connect(clientTransport);
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged }, resources: { listChanged }, prompts: { listChanged } });
    await client.subscribeResource({ uri: "memory://notes" });
    close = () => client.close();
  }
  await changeEverything(registry, server, told);
  await close();
  await server.close();
  return told.changed;
}

function recordLegacy(client: LegacyClient, told: Told): void {
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void told.changed.push("tools"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void told.changed.push("resources"));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void told.changed.push("prompts"));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void told.updated.push(notification.params.uri));
}

/** The same over Streamable HTTP with sessions, the v1 Client told on its session's GET stream. */
async function overHttpSessions(listChanged: boolean): Promise<string[]> {
  const registry = registryOf(listChanged);
  registry.resource("graph", "memory://graph", {}, read);
  registry.resource("notes", "memory://notes", {}, read);
  registry.prompt("summarise", {}, () => ({ messages: [] }));
  const serving = await registry.serveHttp({ sessions: true });
  try {
    const client = new LegacyClient({ name: "changes", version: "1.0.0" });
    const told: Told = { changed: [], updated: [] };
    recordLegacy(client, told);
    await client.connect(new LegacyStreamableHTTPClientTransport(serving.url));
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged }, resources: { listChanged }, prompts: { listChanged } });
    await client.subscribeResource({ uri: "memory://graph" });
    await client.subscribeResource({ uri: "memory://notes" });
    // Once the session's GET stream is open: a notification sent before it would be lost.
    await vi.waitFor(() => {
      registry.resourceUpdated("memory://graph");
      expect(told.updated).not.toEqual([]);
    });
    await changeEverything(registry, undefined, told);
    await client.close();
    return told.changed;
  } finally {
    await serving.close();
  }
}

/** What each change above tells, in order, where `listChanged` is on (the SDK's own registrations last, where made). */
const TOLD = ["resources", "resources", "prompts", "resources", "resources", "resources", "prompts", "prompts", "tools", "tools"];
const TOLD_OWN = [...TOLD, "resources", "resources", "prompts", "prompts"];

describe("listChanged: false — no list_changed notification, for tools, resources or prompts", () => {
  test("createServer() in memory, with the v2 and the v1 Client", async () => {
    expect(await inMemory(false, false)).toEqual([]);
    expect(await inMemory(false, true)).toEqual([]);
  });

  test("Streamable HTTP with sessions, the v1 Client on its GET stream", async () => {
    expect(await overHttpSessions(false)).toEqual([]);
  }, 30_000);
});

describe("listChanged: true — the same changes are told", () => {
  test("createServer() in memory, with the v2 and the v1 Client", async () => {
    expect(await inMemory(true, false)).toEqual(TOLD_OWN);
    expect(await inMemory(true, true)).toEqual(TOLD_OWN);
  });

  test("Streamable HTTP with sessions, the v1 Client on its GET stream", async () => {
    expect(await overHttpSessions(true)).toEqual(TOLD);
  }, 30_000);
});
