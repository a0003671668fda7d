import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, describe, expect, test, vi } from "vitest";
import { createRegistry, ResourceTemplate, type DataToolOutput, type HttpServeOptions, type Registry } from "../dist/index.js";
import { literalPrefix } from "../dist/template-index.js";
import type { AnyClient } from "./both-clients.js";
import { connectInMemory, recordingLogger } from "./helpers.js";

/*
 * `resources/read` of a templated URI costs the same whatever the number of templates: the
 * registry's servers try only the templates whose literal prefix starts the URI (template-index.ts),
 * where the SDK's handler tries every template in turn, building and running each one's pattern.
 * Counted, not timed: the SDK's `UriTemplate.match` is spied on, and a read tries as many templates
 * beside 2,000 as beside 20 — as does a tool's source that is a template's instance, which the net
 * accepts (resource-sources.ts), and a subscription to one. Which template answers is the SDK's to say, and stays so: every answer
 * below is the SDK's own `McpServer`'s, with the same registrations, byte for byte.
 */

/** A read answering with its label and, a template's, the variables it was given (a static resource's read is given only the request's context). */
const read =
  (label: string) =>
  (uri: URL, ...rest: unknown[]) => ({ contents: [{ uri: uri.href, text: JSON.stringify({ label, variables: rest.length > 1 ? rest[0] : null }) }] });

/** The class of the templates the registry's build matches with (its copy of the SDK). */
const uriTemplates = Object.getPrototypeOf(new ResourceTemplate("memory://{x}", { list: undefined }).uriTemplate) as { match(uri: string): unknown };
const match = vi.spyOn(uriTemplates, "match");
afterAll(() => match.mockRestore());

/** Beside one static resource, `count` templates of their own prefix, and one whose prefix is empty (a candidate for every URI). */
function registryOf(count: number): Registry {
  const registry = createRegistry({ name: "templates", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
  registry.resource("graph", "memory://graph", {}, read("graph"));
  registry.resource("anywhere", new ResourceTemplate("{scheme}://anywhere/{id}", { list: undefined }), {}, read("anywhere"));
  for (let index = 0; index < count; index++) registry.resource(`table ${index}`, new ResourceTemplate(`memory://tables/${index}/{row}`, { list: undefined }), {}, read(`table ${index}`));
  return registry;
}

/** How many templates each read tried: the last template's URI, the first's, the empty prefix's, a static one's, one no template matches. */
async function attempts(client: AnyClient, count: number): Promise<number[]> {
  const tried: number[] = [];
  for (const uri of [`memory://tables/${count - 1}/alice`, "memory://tables/0/bob", "other://anywhere/1", "memory://graph", "memory://tables/nowhere"]) {
    match.mockClear();
    await client.readResource({ uri }).catch((error: unknown) => {
      if (uri !== "memory://tables/nowhere") throw error;
    });
    tried.push(match.mock.calls.length);
  }
  return tried;
}

/** The attempts of each client and path (in memory; HTTP at 2026-07-28, where the SDK's scope-challenge lookup runs before the read, and 2025-era), beside `count` templates. */
async function everyPath(count: number, options: HttpServeOptions): Promise<Record<string, number[]>> {
  const tried: Record<string, number[]> = {};
  const memory = await connectInMemory(registryOf(count));
  tried["v2 in memory"] = await attempts(memory.client, count);
  await memory.close();
  const serving = await registryOf(count).serveHttp(options);
  try {
    const client = new Client({ name: "templates", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(serving.url));
    tried["v2 over HTTP"] = await attempts(client, count);
    await client.close();
    const legacy = new LegacyClient({ name: "templates", version: "1.0.0" });
    await legacy.connect(new LegacyStreamableHTTPClientTransport(serving.url));
    tried["v1 over HTTP"] = await attempts(legacy as unknown as AnyClient, count);
    await legacy.close();
  } finally {
    await serving.close();
  }
  return tried;
}

describe("a templated read tries the same templates whatever their number", () => {
  for (const [label, options] of [
    ["Streamable HTTP, a server per request", {}],
    ["Streamable HTTP with sessions", { sessions: true }],
  ] as const) {
    test(`${label}, in memory too: beside 2,000 templates as beside 20`, async () => {
      const few = await everyPath(20, options);
      const many = await everyPath(2_000, options);
      expect(many).toEqual(few);
      // Each lookup tries the template whose prefix starts the URI and the one whose prefix is empty; a static URI, none.
      for (const tried of Object.values(many)) expect(tried[3]).toBe(0);
      expect(Math.max(...Object.values(many).flat())).toBeLessThanOrEqual(4);
    }, 60_000);
  }
});

/** A registry whose tool cites the last of `count` templates' instances as its source. */
function citingRegistry(count: number): Registry {
  const registry = registryOf(count);
  const last = `memory://tables/${count - 1}/alice`;
  registry.tool()(function read_row(): DataToolOutput {
    return { content: [{ type: "text", text: "Row alice." }], structuredContent: { sources: [last] } };
  });
  return registry;
}

/** How many templates a call citing a template's instance tried (the net accepts it as a source), and a subscription to one (2025-era). */
async function sourceAttempts(count: number): Promise<number[]> {
  const { client, close } = await connectInMemory(citingRegistry(count));
  try {
    match.mockClear();
    expect((await client.callTool({ name: "read_row", arguments: {} })).structuredContent).toEqual({ sources: [`memory://tables/${count - 1}/alice`] });
    const call = match.mock.calls.length;
    match.mockClear();
    await client.subscribeResource({ uri: `memory://tables/${count - 1}/bob` });
    return [call, match.mock.calls.length];
  } finally {
    await close();
  }
}

describe("a template's instance as a source, or subscribed to, tries the same templates whatever their number", () => {
  test("tools/call and resources/subscribe: beside 2,000 templates as beside 20", async () => {
    const few = await sourceAttempts(20);
    expect(await sourceAttempts(2_000)).toEqual(few);
    expect(Math.max(...few)).toBeLessThanOrEqual(2);
  }, 60_000);
});

/** Templates that overlap, in an order that decides, with names an object lists first (array indices); one disabled, one removed. */
function register(target: { registerResource: McpServer["registerResource"] }): Registered {
  const on = target.registerResource.bind(target) as Registered["on"];
  on("graph", "memory://graph", {}, read("graph"));
  on("entities-static", "memory://entities/static", {}, read("a static URI a template matches"));
  for (let index = 0; index < 50; index++) on(`filler ${index}`, template(`filler://${index}/{x}`), {}, read(`filler ${index}`));
  on("z-entities", template("memory://entities/{name}", { name: () => ["alice"] }), {}, read("z-entities"));
  on("7", template("memory://entities/{name}"), {}, read("7: an array index, listed first"));
  on("any-static", template("{scheme}://static/{id}"), {}, read("empty prefix, before"));
  on("memory-static", template("memory://static/{id}"), {}, read("memory-static, after the empty prefix"));
  on("memory-late", template("memory://late/{id}"), {}, read("memory-late, before the empty prefix"));
  on("any-late", template("{scheme}://late/{id}"), {}, read("empty prefix, after"));
  on("path", template("memory://files/{+path}"), {}, read("path"));
  on("search", template("memory://search{?q,limit}"), {}, read("search"));
  on("fixed", template("memory://fixed"), {}, read("no expression"));
  on("explode", template("memory://list/{ids*}"), {}, read("explode"));
  on("dot", template("memory://dot/file{.ext}"), {}, read("dot"));
  on("upper", template("MEMORY://upper/{id}"), {}, read("an upper-case scheme, which no parsed URI has"));
  on("disabled-first", template("memory://disabled/{id}"), {}, read("disabled-first")).disable();
  on("disabled-second", template("memory://disabled/{id}"), {}, read("disabled-second"));
  on("removed", template("memory://removed/{id}"), {}, read("removed")).remove();
  on("removed-later", template("memory://removed/{id}"), {}, read("registered again"));
  const renamed = on("renamed", template("memory://renamed/{id}"), {}, read("renamed: listed last"));
  on("renamed-after", template("memory://renamed/{id}"), {}, read("renamed-after"));
  const solo = on("solo", template("memory://solo/{a}/{b}"), {}, read("solo, renamed"));
  const changed = on("changed", template("memory://before-change/{id}"), {}, read("changed"));
  const assigned = on("assigned", template("memory://before-assign/{a}/{b}"), {}, read("assigned"));
  on("kind-id", template("memory://{kind}/{id}"), {}, read("kind-id"));
  for (let index = 50; index < 100; index++) on(`filler ${index}`, template(`filler://${index}/{x}`), {}, read(`filler ${index}`));
  return { on, renamed, solo, changed, assigned };
}

/** A registration's handle, as the SDK returns it. */
type Handle = ReturnType<McpServer["registerResource"]> & { update(updates: { name?: string | null; template?: ResourceTemplate }): void; resourceTemplate?: ResourceTemplate };

interface Registered {
  on(...args: unknown[]): Handle;
  readonly renamed: Handle;
  readonly solo: Handle;
  readonly changed: Handle;
  readonly assigned: Handle;
}

function template(text: string, complete?: Record<string, () => string[]>): ResourceTemplate {
  return new ResourceTemplate(text, { list: undefined, ...(complete === undefined ? {} : { complete }) });
}

/**
 * The SDK's handles' changes, made alike on both servers: a rename moves a template to the end of
 * the order, a new template (`update()` or an assignment) moves it to another prefix; and a
 * template renamed, then removed, takes with it the one registered since under its first name (the
 * SDK's `update()` deletes the name it was registered under), while it stays.
 */
function change({ on, renamed, solo, changed, assigned }: Registered): void {
  renamed.update({ name: "renamed-now" });
  solo.update({ name: "solo-now" });
  changed.update({ template: template("memory://after-change/{id}") });
  assigned.resourceTemplate = template("memory://after-assign/{a}/{b}");
  const first = on("twice", template("memory://twice-first/{a}/{b}"), {}, read("twice, first: renamed, then removed"));
  first.update({ name: "twice-renamed" });
  on("twice", template("memory://twice-second/{a}/{b}"), {}, read("twice, second"));
  first.remove();
}

const URIS = [
  "memory://graph",
  "memory://entities/static",
  "memory://entities/alice",
  "memory://entities/al%20ice",
  "memory://entities/a b",
  "memory://entities/%E6%9D%B1%E4%BA%AC",
  "memory://entities/東京",
  "MEMORY://entities/Bob",
  "memory://ENTITIES/alice",
  "memory://entities/a,b",
  "memory://entities/",
  "memory://entities/alice#part",
  "memory://entities/alice?x=1",
  "memory://things/1",
  "memory://static/1",
  "other://static/2",
  "memory://late/1",
  "other://late/1",
  "memory://files/a/b/c.txt",
  "memory://search?q=x&limit=2",
  "memory://search?q=x",
  "memory://fixed",
  "memory://fixed/",
  "memory://list/1,2,3",
  "memory://dot/file.json",
  "memory://upper/1",
  "memory://disabled/1",
  "memory://removed/1",
  "memory://renamed/1",
  "memory://before-change/1",
  "memory://after-change/1",
  "memory://solo/1/2",
  "memory://before-assign/1/2",
  "memory://after-assign/1/2",
  "memory://twice-first/1/2",
  "memory://twice-second/1/2",
  "filler://0/a",
  "filler://99/a",
  "filler://100/a",
  "nothing://x",
  "memory:",
  "not a uri",
  "",
];

/** Every answer, or error, of `client` to a read of each URI, and its list of templates; `envelope`: with what the 2026-07-28 HTTP path adds to every result (the server's name, cache hints). */
async function answers(client: AnyClient & Pick<Client, "listResourceTemplates">, envelope = true): Promise<string[]> {
  const bare = (result: object): object => (envelope ? result : Object.fromEntries(Object.entries(result).filter(([key]) => !["_meta", "ttlMs", "cacheScope"].includes(key))));
  const answered: string[] = [];
  for (const uri of URIS) {
    answered.push(
      await client.readResource({ uri }).then(
        (result) => `${uri} → ${JSON.stringify(bare(result))}`,
        (error: unknown) => {
          const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
          return `${uri} ✗ ${JSON.stringify({ code, message, data })}`;
        },
      ),
    );
  }
  answered.push(JSON.stringify(bare(await client.listResourceTemplates())));
  return answered;
}

/** The answers of a server connected in memory to the v2 Client. */
async function inMemoryV2(server: McpServer): Promise<string[]> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "templates", version: "1.0.0" });
  await client.connect(clientTransport);
  const answered = await answers(client);
  await client.close();
  return answered;
}

/** The answers of a server connected in memory to the v1 Client. */
async function inMemoryV1(server: McpServer): Promise<string[]> {
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new LegacyClient({ name: "templates", version: "1.0.0" });
  await client.connect(clientTransport);
  const answered = await answers(client as unknown as AnyClient & Pick<Client, "listResourceTemplates">);
  await client.close();
  return answered;
}

describe("the template that answers is the SDK's", () => {
  test("literalPrefix: every URI a template of the SDK matches starts with it", () => {
    const templates = [
      "memory://e/{name}",
      "memory://e/{+path}",
      "memory://e/{#frag}",
      "memory://e/file{.ext}",
      "memory://e{/seg}",
      "memory://e{/segs*}",
      "memory://e{?q,limit}",
      "memory://e/x{&more}",
      "memory://e/{a,b}",
      "memory://e/{list*}",
      "{scheme}://e/{id}",
      "{+whole}",
      "memory://fixed",
      "",
      "a.b*c+d?e^f$g(h)i|j[k]l\\m/{x}",
    ];
    const uris = new Set<string>();
    for (const text of templates) {
      const expanded = new ResourceTemplate(text, { list: undefined }).uriTemplate;
      for (const value of ["x", "a/b", "", "%20", "a,b", "東京", "?q=1", "#f", ".json"]) {
        const variables = { name: value, path: value, frag: value, ext: value, seg: value, segs: [value, "z"], q: value, limit: "2", more: value, a: value, b: value, list: [value, "y"], scheme: "memory", id: value, whole: value, x: value };
        const uri = expanded.expand(variables);
        for (const variant of [uri, uri.slice(1), uri.toUpperCase(), `memory://${uri}`, `${uri}/`]) uris.add(variant);
      }
    }
    let matched = 0;
    for (const text of templates) {
      const template = new ResourceTemplate(text, { list: undefined });
      const prefix = literalPrefix({ resourceTemplate: template });
      for (const uri of uris) {
        if (template.uriTemplate.match(uri) === null) continue;
        matched++;
        expect(uri.startsWith(prefix), `${text} matched ${uri}`).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(100);
  });

  test("createServer(), with the v2 and the v1 Client: every read and the list, the SDK's own McpServer's, after renames and a changed template", async () => {
    const sdk = new McpServer({ name: "templates", version: "1.0.0" });
    const sdkHandles = register(sdk);
    const registry = createRegistry({ name: "templates", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    const server = registry.createServer();
    const handles = register(server);
    change(sdkHandles);
    change(handles);
    const expected = await inMemoryV2(sdk);
    expect(expected.filter((answer) => answer.includes(" → "))).toHaveLength(31);
    expect(await inMemoryV2(server)).toEqual(expected);
    expect(await inMemoryV1(server)).toEqual(await inMemoryV1(sdk));
  });

  test("the registry's own templates over Streamable HTTP, both clients: the SDK's answers", async () => {
    // registry.resource() refuses the template of an upper-case scheme, which no read reaches
    // (unreadable-resources.test.ts): both sides leave it out, the SDK's reads of it answer alike.
    const readable = (registerResource: McpServer["registerResource"]) =>
      ({ registerResource: ((name: string, ...rest: unknown[]) => (name === "upper" ? undefined : (registerResource as (...a: unknown[]) => unknown)(name, ...rest))) as McpServer["registerResource"] });
    const sdk = () => {
      const server = new McpServer({ name: "templates", version: "1.0.0" });
      register(readable(server.registerResource.bind(server)));
      return server;
    };
    const expected = await inMemoryV2(sdk());
    const expectedV1 = await inMemoryV1(sdk());

    const registry = createRegistry({ name: "templates", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    register(readable(((...args: Parameters<Registry["resource"]>) => registry.resource(...args)) as unknown as McpServer["registerResource"]));
    const serving = await registry.serveHttp();
    try {
      const client = new Client({ name: "templates", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new StreamableHTTPClientTransport(serving.url));
      expect(await answers(client, false)).toEqual(expected);
      await client.close();
      const legacy = new LegacyClient({ name: "templates", version: "1.0.0" });
      await legacy.connect(new LegacyStreamableHTTPClientTransport(serving.url));
      expect(await answers(legacy as unknown as AnyClient & Pick<Client, "listResourceTemplates">, false)).toEqual(expectedV1);
      await legacy.close();
    } finally {
      await serving.close();
    }
  });
});
