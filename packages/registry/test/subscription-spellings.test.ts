import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test, vi } from "vitest";
import { createRegistry, type Registry } from "../dist/index.js";
import { recordingLogger } from "./helpers.js";

/*
 * A resource's URI written two ways. The SDK reads the URI `new URL(uri).toString()` (its scheme
 * and an http(s) host lowercased, a default port and `.` segments dropped), so a client reads
 * `HTTPS://Example.org:443/a` as `https://example.org/a`. It subscribes to it in the spelling it
 * reads it in, and is told of it whichever spelling the author passes to `resourceUpdated()`, in
 * the spelling it subscribed: a client finds its subscription by the URI it wrote. A URI
 * `new URL()` cannot parse is compared as written.
 */

const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: uri.href }] });
const template = (text: string) => new ResourceTemplate(text, { list: undefined });

const PAGE = "https://example.org/a";
const PAGE_SHOUTED = "HTTPS://Example.org:443/a";
const BOB = "memory://people/bob";
const BOB_SHOUTED = "MEMORY://people/./bob";
const MINE = "https://example.org/mine";
const MINE_SHOUTED = "HTTPS://EXAMPLE.ORG/mine";
/** No scheme: `new URL()` cannot parse it, so it is matched as written alone. */
const BARE = "graph";
const MARKS = [0, 1, 2, 3, 4, 5].map((n) => `memory://marks/${n}`);

interface Connected {
  readonly told: string[];
  subscribe(uri: string): Promise<string>;
  unsubscribe(uri: string): Promise<string>;
  read(uri: string): Promise<string>;
  close(): Promise<void>;
}

/** "ok", or the error's code. */
async function answer(request: Promise<unknown>): Promise<string> {
  try {
    await request;
    return "ok";
  } catch (error) {
    return String((error as { code?: unknown }).code);
  }
}

async function connected(server: McpServer, line: "v2" | "v1"): Promise<Connected> {
  const told: string[] = [];
  if (line === "v2") {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "spellings", version: "1.0.0" });
    client.setNotificationHandler("notifications/resources/updated", ({ params }) => void told.push(params.uri));
    await client.connect(clientTransport);
    return {
      told,
      subscribe: (uri) => answer(client.subscribeResource({ uri })),
      unsubscribe: (uri) => answer(client.unsubscribeResource({ uri })),
      read: (uri) => answer(client.readResource({ uri })),
      close: () => client.close(),
    };
  }
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new LegacyClient({ name: "spellings", version: "1.0.0" });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => void told.push(params.uri));
  await client.connect(clientTransport);
  return {
    told,
    subscribe: (uri) => answer(client.subscribeResource({ uri })),
    unsubscribe: (uri) => answer(client.unsubscribeResource({ uri })),
    read: (uri) => answer(client.readResource({ uri })),
    close: () => client.close(),
  };
}

/** What each client was told by `tell` since the sentinel MARKS[n - 1], once MARKS[n], told last, reached every one. */
async function toldTo(registry: Registry, clients: readonly Connected[], tell: readonly string[], n: number): Promise<string[][]> {
  for (const uri of tell) registry.resourceUpdated(uri);
  registry.resourceUpdated(MARKS[n]!);
  await vi.waitFor(() => {
    for (const { told } of clients) expect(told).toContain(MARKS[n]);
  });
  return clients.map(({ told }) => told.slice(told.indexOf(MARKS[n - 1]!) + 1, told.indexOf(MARKS[n]!)));
}

describe("a subscription matches its URI as the SDK matches a read of it", () => {
  test.each(["v2", "v1"] as const)("createServer() in memory, the %s Client", async (line) => {
    const registry = createRegistry({ name: "spellings", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    const page = registry.resource("page", PAGE, {}, read);
    registry.resource("people", template("memory://people/{name}"), {}, read);
    registry.resource("bare", BARE, {}, read);
    registry.resource("marks", template("memory://marks/{n}"), {}, read);
    const ownServer = registry.createServer();
    ownServer.registerResource("mine", MINE, {}, read);
    // The first client writes every URI as the SDK would not; the second as it reads them.
    const clients = [await connected(ownServer, line), await connected(registry.createServer(), line)];
    const [shouting, plain] = clients as [Connected, Connected];
    try {
      for (const client of clients) for (const mark of MARKS) expect(await client.subscribe(mark)).toBe("ok");
      // What the SDK reads in either spelling (a bare word it cannot parse, in none: it answers -32602) ...
      expect(await Promise.all([PAGE_SHOUTED, BOB_SHOUTED, MINE_SHOUTED, BARE].map((uri) => shouting.read(uri)))).toEqual(["ok", "ok", "ok", "-32602"]);
      // ... is subscribed to in that spelling: a registry's resource, a template's instance, one
      // registered on the server itself; a URI it cannot parse, as written only.
      expect(await Promise.all([PAGE_SHOUTED, BOB_SHOUTED, MINE_SHOUTED, BARE, "Graph"].map((uri) => shouting.subscribe(uri)))).toEqual(["ok", "ok", "ok", "ok", "-32602"]);
      expect(await Promise.all([PAGE, BOB, BARE].map((uri) => plain.subscribe(uri)))).toEqual(["ok", "ok", "ok"]);

      // Told whichever way the author writes it, each client in the spelling it subscribed.
      expect(await toldTo(registry, clients, [PAGE, BOB, MINE, BARE], 1)).toEqual([
        [PAGE_SHOUTED, BOB_SHOUTED, MINE_SHOUTED, BARE],
        [PAGE, BOB, BARE],
      ]);
      expect(await toldTo(registry, clients, ["https://EXAMPLE.org/./a", "Memory://people/bob", MINE_SHOUTED, "Graph"], 2)).toEqual([
        [PAGE_SHOUTED, BOB_SHOUTED, MINE_SHOUTED],
        [PAGE, BOB],
      ]);

      // Unsubscribed in another spelling: the subscription to that resource ends.
      expect(await shouting.unsubscribe(BOB)).toBe("ok");
      expect(await plain.unsubscribe(BOB_SHOUTED)).toBe("ok");
      expect(await toldTo(registry, clients, [BOB, BOB_SHOUTED], 3)).toEqual([[], []]);

      // Withdrawn by the registry: the subscriptions in either spelling end with it, and an update
      // in either spelling is told to no one.
      page.remove();
      expect(await toldTo(registry, clients, [PAGE, PAGE_SHOUTED], 4)).toEqual([[], []]);
      expect(await Promise.all([shouting.subscribe(PAGE_SHOUTED), plain.subscribe(PAGE)])).toEqual(["-32602", "-32602"]);
      registry.resource("page", PAGE, {}, read);
      expect(await toldTo(registry, clients, [PAGE_SHOUTED], 5)).toEqual([[], []]);
    } finally {
      for (const client of clients) await client.close();
    }
  });
});
