import { PassThrough } from "node:stream";
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { serveStdio as sdkServeStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test, vi } from "vitest";
import { createRegistry, type RegisteredOffering, type Registry, type StdioServing } from "../dist/index.js";
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
 * the registry withdrew it, and hears it again once it is served.
 *
 * That silence is for what the registry withdrew, nothing more: any other URI is told as the SDK's
 * own server tells it — one the registry never served (a listen stream may name any URI), a
 * resource registered on a server the registry built with the SDK's own `registerResource`, which a
 * client of that server subscribes to as to any of the registry's, a registry's resource at an
 * http(s) URL (no source, but a resource). A URI the registry withdrew that a server's own
 * registration still serves is told on that server alone.
 *
 * Each client goes through the same phases; after each, a sentinel of its own (memory://marks/<n>,
 * a template's instance every client subscribed to) is told last on the same stream, so once it has
 * arrived everything told before it has too.
 */

const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: uri.href }] });

const GRAPH = "memory://graph";
const BOB = "memory://people/bob";
const NOWHERE = "memory://nowhere";
const MARKS = [0, 1, 2, 3, 4, 5].map((n) => `memory://marks/${n}`);

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
/**
 * What a 2026-07-28 listen stream hears: nothing of a URI while the registry withdrew it, the URI
 * again once served; and a URI it never served whenever it is told, as the SDK's streams carry it.
 */
const LISTENING = [[GRAPH, BOB, NOWHERE], [NOWHERE], [GRAPH, BOB, NOWHERE], [GRAPH, BOB, NOWHERE]];

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

const MINE = "memory://mine";
const PAGE = "https://example.org/page";
const ROW = "memory://rows/1";
const template = (text: string) => new ResourceTemplate(text, { list: undefined });

/** A client of either line connected in memory to `server`: what it is told, and its subscriptions' answers (`"ok"`, or the error's code). */
interface InMemory {
  readonly told: string[];
  subscribe(uri: string): Promise<string>;
  close(): Promise<void>;
}

async function inMemory(server: McpServer, line: "v2" | "v1"): Promise<InMemory> {
  const answer = (subscribing: Promise<unknown>) =>
    subscribing.then(
      () => "ok",
      (error: unknown) => String((error as { code?: unknown }).code),
    );
  if (line === "v2") {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "subscriptions", version: "1.0.0" });
    const told = recordingV2(client);
    await client.connect(clientTransport);
    return { told, subscribe: (uri) => answer(client.subscribeResource({ uri })), close: () => client.close() };
  }
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new LegacyClient({ name: "subscriptions", version: "1.0.0" });
  const told = recordingV1(client);
  await client.connect(clientTransport);
  return { told, subscribe: (uri) => answer(client.subscribeResource({ uri })), close: () => client.close() };
}

/** What each client was told of `uris` since the sentinel MARKS[n - 1], once MARKS[n], told last, reached every one. */
async function toldTo(registry: Registry, clients: readonly InMemory[], uris: readonly string[], n: number): Promise<string[][]> {
  for (const uri of uris) registry.resourceUpdated(uri);
  registry.resourceUpdated(MARKS[n]!);
  await vi.waitFor(() => {
    for (const { told } of clients) expect(told).toContain(MARKS[n]);
  });
  return clients.map(({ told }) => told.slice(told.indexOf(MARKS[n - 1]!) + 1, told.indexOf(MARKS[n]!)));
}

/** The v2 Client on 2026-07-28 over a pair of streams that `serve` serves (the registry's serveStdio, or the SDK's own). */
async function overStdio(serve: (stdin: PassThrough, stdout: PassThrough) => { close(): Promise<void> } | Promise<{ close(): Promise<void> }>): Promise<{ client: Client; told: string[]; close(): Promise<void> }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const serving = await serve(stdin, stdout);
  const client = new Client({ name: "subscriptions", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  const told = recordingV2(client);
  // The client's side of the streams: it reads the server's stdout and writes its stdin.
  await client.connect(new StdioServerTransport(stdout, stdin));
  return {
    client,
    told,
    close: async () => {
      await client.close();
      await serving.close();
    },
  };
}

/** What a listen stream was told before the sentinel `mark`, told last on the same channel. */
async function toldBefore(told: string[], tell: () => void, mark: string): Promise<string[]> {
  tell();
  await vi.waitFor(() => expect(told).toContain(mark));
  return told.slice(0, told.indexOf(mark));
}

describe("a URI the registry did not withdraw is told as the SDK tells it", () => {
  test.each(["v2", "v1"] as const)(
    "createServer() in memory, the %s Client: a resource registered on the server itself and one of the registry's at an http(s) URL are subscribed to and told of; one the registry withdrew, only on a server whose own registration serves it",
    async (line) => {
      const registry = createRegistry({ name: "subscriptions", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
      const rows = registry.resource("rows", template("memory://rows/{id}"), {}, read);
      const graph = registry.resource("graph", GRAPH, {}, read);
      const page = registry.resource("page", PAGE, {}, read);
      registry.resource("marks", template("memory://marks/{n}"), {}, read);
      // The first server holds resources of its own beside the registry's, one of them a template the registry's rows
      // overlap; the other holds none.
      const ownServer = registry.createServer();
      const mine = ownServer.registerResource("mine", MINE, {}, read);
      ownServer.registerResource("own-rows", template("memory://rows/{n}"), {}, read);
      const clients = [await inMemory(ownServer, line), await inMemory(registry.createServer(), line)];
      const [own, other] = clients as [InMemory, InMemory];
      try {
        const subscribed = async (client: InMemory, uris: readonly string[]) => Promise.all(uris.map((uri) => client.subscribe(uri)));
        for (const client of clients) await subscribed(client, MARKS);
        expect([await subscribed(own, [MINE, PAGE, ROW, GRAPH]), await subscribed(other, [MINE, PAGE, ROW, GRAPH])]).toEqual([
          ["ok", "ok", "ok", "ok"],
          // A resource registered on the first server alone: the other serves no resource of that URI.
          ["-32602", "ok", "ok", "ok"],
        ]);
        registry.resourceUpdated(MARKS[0]!);
        const told = (n: number) => toldTo(registry, clients, [MINE, PAGE, ROW, GRAPH], n);
        expect(await told(1)).toEqual([
          [MINE, PAGE, ROW, GRAPH],
          [PAGE, ROW, GRAPH],
        ]);

        // Withdrawn by the registry: told no more, but the row on the first server, whose own template still serves it.
        rows.remove();
        graph.remove();
        page.disable();
        expect(await told(2)).toEqual([[MINE, ROW], []]);

        // The graph registered on the first server itself once the registry removed it: its subscription ended
        // with the registry's graph (that server did not serve it then), and a new one is accepted there alone.
        const ownGraph = ownServer.registerResource("own-graph", GRAPH, {}, read);
        expect(await told(3)).toEqual([[MINE, ROW], []]);
        expect([await own.subscribe(GRAPH), await other.subscribe(GRAPH)]).toEqual(["ok", "-32602"]);
        expect(await told(4)).toEqual([[MINE, ROW, GRAPH], []]);

        // Removed by their SDK handles: the registry ends no subscription of the author's own, nor does a
        // later withdrawal of another of its resources. The URI it never knew is still told, as the SDK
        // tells it; the graph, which the registry withdrew, no longer.
        mine.remove();
        ownGraph.remove();
        registry.resource("later", "memory://later", {}, read).remove();
        expect(await told(5)).toEqual([[MINE, ROW], []]);
      } finally {
        for (const client of clients) await client.close();
      }
    },
  );

  test("serveStdio() on 2026-07-28: a listen stream hears what the SDK's own serveStdio tells it — a URI never served, a resource of the server's own, one of the registry's — but a URI the registry withdrew that nothing serves", async () => {
    const GONE = "memory://gone";
    const OLD = "memory://old";
    const filter = [GRAPH, MINE, OLD, NOWHERE, GONE, MARKS[0]!];

    // The SDK's own server: the author declares subscriptions, registers the resources, and tells each update.
    let plain: McpServer | undefined;
    const sdk = await overStdio((stdin, stdout) =>
      sdkServeStdio(
        () => {
          plain = new McpServer({ name: "plain", version: "1.0.0" });
          plain.server.registerCapabilities({ resources: { subscribe: true } });
          for (const uri of [GRAPH, MINE, OLD]) plain.registerResource(uri, uri, {}, read);
          return plain;
        },
        { transport: new StdioServerTransport(stdin, stdout) },
      ),
    );
    await sdk.client.listen({ resourceSubscriptions: filter });
    const sdkTold = await toldBefore(sdk.told, () => {
      for (const uri of filter) void plain!.server.sendResourceUpdated({ uri });
    }, MARKS[0]!);
    await sdk.close();

    // The registry: the graph its own, GONE and OLD withdrawn, and OLD registered again on the connection's server
    // itself (once removed: a disabled resource still holds its URI on the SDK's server).
    const registry = createRegistry({ name: "subscriptions", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    registry.resource("graph", GRAPH, {}, read);
    registry.resource("gone", GONE, {}, read).disable();
    registry.resource("old", OLD, {}, read).remove();
    registry.resource("marks", template("memory://marks/{n}"), {}, read);
    let serving: StdioServing | undefined;
    const served = await overStdio(async (stdin, stdout) => (serving = await registry.serveStdio({ stdin, stdout })));
    try {
      serving!.server!.registerResource("mine", MINE, {}, read);
      serving!.server!.registerResource("own-old", OLD, {}, read);
      await served.client.listen({ resourceSubscriptions: filter });
      const registryTold = await toldBefore(served.told, () => {
        for (const uri of filter) registry.resourceUpdated(uri);
      }, MARKS[0]!);
      expect(sdkTold).toEqual([GRAPH, MINE, OLD, NOWHERE, GONE]);
      expect(registryTold).toEqual(sdkTold.filter((uri) => uri !== GONE));
    } finally {
      await served.close();
    }
  });

  test("the registry remembers the last 10,000 registrations it withdrew: one withdrawn before them is told as a URI it never served", async () => {
    const registry = createRegistry({ name: "subscriptions", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    const gone = (n: number) => `memory://gone/${n}`;
    for (let n = 0; n <= 10_000; n++) registry.resource(`gone-${n}`, gone(n), {}, read).remove();
    registry.resource("marks", template("memory://marks/{n}"), {}, read);
    const served = await overStdio((stdin, stdout) => registry.serveStdio({ stdin, stdout }));
    try {
      const filter = [gone(0), gone(1), gone(10_000), MARKS[0]!];
      await served.client.listen({ resourceSubscriptions: filter });
      expect(
        await toldBefore(served.told, () => {
          for (const uri of filter) registry.resourceUpdated(uri);
        }, MARKS[0]!),
      ).toEqual([gone(0)]);
    } finally {
      await served.close();
    }
  });
});
