import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ResourceTemplate } from "@modelcontextprotocol/server";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test, vi } from "vitest";
import { createRegistry, type RegisteredOffering, type Registry } from "../dist/index.js";
import { connectInMemory, recordingLogger } from "./helpers.js";

/*
 * A subscription ends with its resource. `resources/subscribe` to a URI the registry does not
 * serve is refused (withdrawn-resources.test.ts), and so a subscription made before its resource or
 * template was removed or disabled is held no more: `registry.resourceUpdated()` of it tells no
 * one, and it is not revived when the resource is served again (enabled, or registered anew at its
 * URI) — the client subscribes again, as to a resource new to it. The SDK keeps no subscriptions
 * of its own on either line (the author's `resources/subscribe` handler does), and the specification
 * says nothing of one outliving its resource. A 2026-07-28 listen stream's filter is the client's,
 * fixed when it opened and matched by the SDK against the URI alone: it hears nothing of a URI while
 * the registry does not serve it (a URI never served included), and hears it again once it is served.
 *
 * Each client goes through the same phases; after each, a sentinel of its own (memory://marks/<n>,
 * a template's instance every client subscribed to) is told last on the same stream, so once it has
 * arrived everything told before it has too.
 */

const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: uri.href }] });

const GRAPH = "memory://graph";
const BOB = "memory://people/bob";
const NOWHERE = "memory://nowhere";
const MARKS = [0, 1, 2, 3, 4].map((n) => `memory://marks/${n}`);

interface Served {
  readonly registry: Registry;
  readonly graph: RegisteredOffering;
  readonly people: RegisteredOffering;
}

function served(): Served {
  const registry = createRegistry({ name: "subscriptions", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
  const graph = registry.resource("graph", GRAPH, {}, read);
  const people = registry.resource("people", new ResourceTemplate("memory://people/{name}", { list: undefined }), {}, read);
  registry.resource("marks", new ResourceTemplate("memory://marks/{n}", { list: undefined }), {}, read);
  return { registry, graph, people };
}

/** A connected client as the phases use it: `subscribe` undefined where it listens instead (2026-07-28). */
interface Subscriber {
  readonly told: string[];
  readonly subscribe?: (uri: string) => Promise<unknown>;
}

/** What the client was told of `uri`s in phase `n`: between the last sentinel of the phase before and its own. */
async function phase({ registry }: Served, subscriber: Subscriber, n: number): Promise<string[]> {
  for (const uri of [GRAPH, BOB, NOWHERE]) registry.resourceUpdated(uri);
  registry.resourceUpdated(MARKS[n]!);
  await vi.waitFor(() => expect(subscriber.told).toContain(MARKS[n]));
  const told = subscriber.told;
  return told.slice(told.lastIndexOf(MARKS[n - 1]!) + 1, told.indexOf(MARKS[n]!));
}

/** Every phase: subscribed while served; the graph removed and the people disabled; served again; subscribed again. */
async function phases(offered: Served, subscriber: Subscriber): Promise<string[][]> {
  const { registry } = offered;
  for (const uri of [GRAPH, BOB, ...MARKS]) await subscriber.subscribe?.(uri);
  // Once the stream that carries notifications is open (a session's GET stream): one told before is lost.
  await vi.waitFor(() => {
    registry.resourceUpdated(MARKS[0]!);
    expect(subscriber.told).toContain(MARKS[0]);
  });
  const seen = [await phase(offered, subscriber, 1)];
  offered.graph.remove();
  offered.people.disable();
  seen.push(await phase(offered, subscriber, 2));
  registry.resource("graph", GRAPH, {}, read);
  offered.people.enable();
  seen.push(await phase(offered, subscriber, 3));
  for (const uri of [GRAPH, BOB]) await subscriber.subscribe?.(uri);
  seen.push(await phase(offered, subscriber, 4));
  return seen;
}

/** What a 2025-era subscriber hears, phase by phase: its subscriptions end with the resource, and are made again. */
const SUBSCRIBED = [[GRAPH, BOB], [], [], [GRAPH, BOB]];
/** What a 2026-07-28 listen stream hears: nothing while the registry does not serve a URI, the URI again once served. */
const LISTENING = [[GRAPH, BOB], [], [GRAPH, BOB], [GRAPH, BOB]];

function recordingV2(client: Client): string[] {
  const told: string[] = [];
  client.setNotificationHandler("notifications/resources/updated", ({ params }) => void told.push(params.uri));
  return told;
}

function recordingV1(client: LegacyClient): string[] {
  const told: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => void told.push(params.uri));
  return told;
}

describe("a subscription made before its resource was removed or disabled ends with it", () => {
  test("createServer() in memory: the v2 and the v1 Client", async () => {
    const modern = served();
    const { client, close } = await connectInMemory(modern.registry);
    const told = recordingV2(client);
    expect(await phases(modern, { told, subscribe: (uri) => client.subscribeResource({ uri }) })).toEqual(SUBSCRIBED);
    await close();

    const legacy = served();
    const server = legacy.registry.createServer();
    const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const v1 = new LegacyClient({ name: "subscriptions", version: "1.0.0" });
    const toldV1 = recordingV1(v1);
    await v1.connect(clientTransport);
    expect(await phases(legacy, { told: toldV1, subscribe: (uri) => v1.subscribeResource({ uri }) })).toEqual(SUBSCRIBED);
    await v1.close();
    await server.close();
  });

  test("serveHttp() with sessions: the v2 Client on a 2025-era revision and the v1 Client (each on its session's GET stream), the v2 Client on 2026-07-28 (a listen stream)", async () => {
    const seen: string[][][] = [];
    for (const client of ["v2 legacy", "v1", "v2 listen"] as const) {
      const offered = served();
      const serving = await offered.registry.serveHttp({ sessions: true });
      try {
        if (client === "v1") {
          const v1 = new LegacyClient({ name: "subscriptions", version: "1.0.0" });
          const told = recordingV1(v1);
          await v1.connect(new LegacyStreamableHTTPClientTransport(serving.url));
          seen.push(await phases(offered, { told, subscribe: (uri) => v1.subscribeResource({ uri }) }));
          await v1.close();
        } else if (client === "v2 legacy") {
          const v2 = new Client({ name: "subscriptions", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
          const told = recordingV2(v2);
          await v2.connect(new StreamableHTTPClientTransport(serving.url));
          seen.push(await phases(offered, { told, subscribe: (uri) => v2.subscribeResource({ uri }) }));
          await v2.close();
        } else {
          const v2 = new Client({ name: "subscriptions", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
          const told = recordingV2(v2);
          await v2.connect(new StreamableHTTPClientTransport(serving.url));
          const listening = await v2.listen({ resourceSubscriptions: [GRAPH, BOB, NOWHERE, ...MARKS] });
          seen.push(await phases(offered, { told }));
          await listening.close();
          await v2.close();
        }
      } finally {
        await serving.close();
      }
    }
    expect(seen).toEqual([SUBSCRIBED, SUBSCRIBED, LISTENING]);
  }, 30_000);

  test("a subscription to a template's instance ends only when no registration serves it: the template registered twice, one removed, then the other disabled and enabled", async () => {
    const registry = createRegistry({ name: "subscriptions", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    const first = registry.resource("rows", new ResourceTemplate("memory://rows/{id}", { list: undefined }), {}, read);
    const second = registry.resource("rows-copy", new ResourceTemplate("memory://rows/{id}", { list: undefined }), {}, read);
    registry.resource("marks", new ResourceTemplate("memory://marks/{n}", { list: undefined }), {}, read);
    const { client, close } = await connectInMemory(registry);
    try {
      const told = recordingV2(client);
      for (const uri of ["memory://rows/1", ...MARKS]) await client.subscribeResource({ uri });
      /** The row told, then a sentinel: what the client heard of the row, once the sentinel arrived. */
      const heard = async (n: number) => {
        registry.resourceUpdated("memory://rows/1");
        registry.resourceUpdated(MARKS[n]!);
        await vi.waitFor(() => expect(told).toContain(MARKS[n]));
        return told.slice(told.indexOf(MARKS[n - 1]!) + 1, told.indexOf(MARKS[n]!));
      };
      registry.resourceUpdated(MARKS[0]!);
      first.remove();
      expect(await heard(1)).toEqual(["memory://rows/1"]);
      second.disable();
      second.enable();
      expect(await heard(2)).toEqual([]);
      await client.subscribeResource({ uri: "memory://rows/1" });
      expect(await heard(3)).toEqual(["memory://rows/1"]);
    } finally {
      await close();
    }
  });
});
