import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ResourceTemplate } from "@modelcontextprotocol/server";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, test } from "vitest";
import { createRegistry, type DataToolOutput, type Registry } from "../dist/index.js";
import { connectInMemory, firstText, recordingLogger } from "./helpers.js";

/*
 * A resource or a template removed (`handle.remove()`) or disabled (`handle.disable()`) is no
 * longer served: a tool citing it says where its data came from no better than one citing a URI
 * never served, so the net refuses it as it refuses such a URI, in the same words (naming what is
 * still served), and `resources/subscribe` to it is answered as for a URI never served. Each
 * registry below is compared, answer by answer, with one that registered only what the first still
 * serves: the same tool results, the same subscription answers, the same published outputSchema.
 */

/** What every resource reads: its URI. */
const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: uri.href }] });
const template = (text: string) => new ResourceTemplate(text, { list: undefined });

/** What the tools cite, one tool each (the last one links to a resource in its content). */
const CITED = [
  "memory://graph",
  "memory://entities/alice",
  "memory://draft",
  "memory://people/bob",
  "memory://old",
  "memory://renamed",
  "memory://rows/1",
  "memory://kept",
  "notes://today",
] as const;

/** What the clients subscribe to. */
const SUBSCRIBED = [...CITED, "memory://nowhere"];

function citing(registry: Registry): void {
  CITED.forEach((uri, index) => {
    registry.tool({ name: `cite_${index}` })(function cite(): DataToolOutput {
      return { content: [{ type: "text", text: `Read from ${uri}.` }], structuredContent: { sources: [uri] } };
    });
  });
  registry.tool()(function link_graph(): DataToolOutput {
    return {
      content: [{ type: "text", text: "The graph." }, { type: "resource_link", uri: "memory://graph", name: "graph" }],
      structuredContent: { sources: ["https://example.org/graph"] },
    };
  });
}

/**
 * `withdrawn`: the graph, the entity template and a notes resource removed; a draft and the people
 * template disabled; the resource at memory://old renamed (removed, and registered again at
 * memory://renamed); the rows template registered twice under two names, the first removed;
 * memory://kept removed and registered again. Else: only what that registry still serves.
 */
function memoryRegistry(withdrawn: boolean): Registry {
  const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
  if (withdrawn) {
    registry.resource("graph", "memory://graph", {}, read).remove();
    registry.resource("entity", template("memory://entities/{name}"), {}, read).remove();
    registry.resource("notes", "notes://today", {}, read).remove();
    registry.resource("draft", "memory://draft", {}, read).disable();
    registry.resource("people", template("memory://people/{name}"), {}, read).disable();
    registry.resource("moved", "memory://old", {}, read).remove();
    registry.resource("rows", template("memory://rows/{id}"), {}, read).remove();
    registry.resource("kept", "memory://kept", {}, read).remove();
  }
  registry.resource("kept", "memory://kept", {}, read);
  registry.resource("moved", "memory://renamed", {}, read);
  registry.resource("rows-copy", template("memory://rows/{id}"), {}, read);
  citing(registry);
  return registry;
}

/** A client of either line, as far as these checks go. */
type Either = Pick<Client, "callTool" | "listTools" | "subscribeResource">;

/** Every answer a client gets: each tool's result, the published outputSchemas, and (2025-era) each subscription's answer. */
async function answers(client: Either, subscribes: boolean): Promise<string[]> {
  const seen: string[] = [JSON.stringify((await client.listTools()).tools.map((tool) => tool.outputSchema))];
  for (const name of [...CITED.map((_, index) => `cite_${index}`), "link_graph"]) {
    const { isError, content, structuredContent } = await client.callTool({ name, arguments: {} });
    seen.push(`${name}: ${JSON.stringify({ isError, content, structuredContent })}`);
  }
  if (subscribes) {
    for (const uri of SUBSCRIBED) {
      seen.push(
        await client.subscribeResource({ uri }).then(
          () => `subscribed to ${uri}`,
          // The v1 Client prefixes the server's message with its code.
          (error: { code?: unknown; message?: unknown }) => `${uri}: ${String(error.code)} ${String(error.message).replace(/^MCP error -?\d+: /u, "")}`,
        ),
      );
    }
  }
  return seen;
}

/** What the withdrawn registry answers as it should whatever the baseline says: the removed refused, the renamed and the twin accepted. */
function expectWithdrawn(seen: string[], subscribes: boolean): void {
  const result = (uri: string) => seen.find((line) => line.startsWith(`cite_${CITED.indexOf(uri as (typeof CITED)[number])}: `))!;
  for (const uri of ["memory://graph", "memory://entities/alice", "memory://draft", "memory://people/bob", "memory://old", "notes://today"]) {
    expect(result(uri), uri).toContain('"isError":true');
    expect(result(uri), uri).toContain("it is no URI of a resource this server serves (memory://kept, memory://renamed, memory://rows/{id})");
  }
  for (const uri of ["memory://renamed", "memory://rows/1", "memory://kept"]) expect(result(uri), uri).not.toContain('"isError":true');
  expect(seen.find((line) => line.startsWith("link_graph: "))).toContain("content[1].uri: must be an absolute http: or https: URL (its scheme is \\\"memory\\\"); it is no URI of a resource this server serves (memory://kept");
  // Only the schemes still served are published.
  expect(seen[0]).toContain('"pattern":"^(?:[mM][eE][mM][oO][rR][yY]):"');
  if (!subscribes) return;
  expect(seen).toContain("memory://graph: -32602 Resource memory://graph not found: this server serves no resource of that URI");
  expect(seen).toContain("memory://people/bob: -32602 Resource memory://people/bob not found: this server serves no resource of that URI");
  expect(seen).toContain("subscribed to memory://rows/1");
}

/** The v2 Client (2025-era) and the v1 Client on `build()`'s createServer(), in memory. */
async function inMemory(build: () => Registry): Promise<string[][]> {
  const modern = await connectInMemory(build());
  const seen = [await answers(modern.client, true)];
  await modern.close();
  const server = build().createServer();
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const legacy = new LegacyClient({ name: "withdrawn", version: "1.0.0" });
  await legacy.connect(clientTransport);
  seen.push(await answers(legacy as unknown as Either, true));
  await legacy.close();
  await server.close();
  return seen;
}

/** Over Streamable HTTP with sessions: the v2 Client at 2026-07-28 (no resources/subscribe there) and on a 2025-era revision, and the v1 Client. */
async function overHttp(build: () => Registry): Promise<string[][]> {
  const serving = await build().serveHttp({ sessions: true });
  try {
    const seen: string[][] = [];
    for (const [options, subscribes] of [
      [{ versionNegotiation: { mode: { pin: "2026-07-28" } } }, false],
      [{ versionNegotiation: { mode: "legacy" } }, true],
    ] as const) {
      const client = new Client({ name: "withdrawn", version: "1.0.0" }, options);
      await client.connect(new StreamableHTTPClientTransport(serving.url));
      seen.push(await answers(client, subscribes));
      await client.close();
    }
    const legacy = new LegacyClient({ name: "withdrawn", version: "1.0.0" });
    await legacy.connect(new LegacyStreamableHTTPClientTransport(serving.url));
    seen.push(await answers(legacy as unknown as Either, true));
    await legacy.close();
    return seen;
  } finally {
    await serving.close();
  }
}

describe("a removed or disabled resource is no source, and cannot be subscribed to", () => {
  test("createServer() in memory, the v2 and the v1 Client: answered as a registry that never served it", async () => {
    const seen = await inMemory(() => memoryRegistry(true));
    expect(seen).toEqual(await inMemory(() => memoryRegistry(false)));
    for (const each of seen) expectWithdrawn(each, true);
  });

  test("serveHttp() with sessions, the v2 Client (2026-07-28 and 2025-era) and the v1 Client: answered as a registry that never served it", async () => {
    const seen = await overHttp(() => memoryRegistry(true));
    expect(seen).toEqual(await overHttp(() => memoryRegistry(false)));
    seen.forEach((each, index) => expectWithdrawn(each, index > 0));
  }, 30_000);

  test("withdrawn while a client is connected: refused from its next call on; enabled again, accepted again", async () => {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    const graph = registry.resource("graph", "memory://graph", {}, read);
    const people = registry.resource("people", template("memory://people/{name}"), {}, read);
    registry.resource("kept", "memory://kept", {}, read);
    citing(registry);
    const { client, close } = await connectInMemory(registry);
    try {
      const cite = async (uri: string) => client.callTool({ name: `cite_${CITED.indexOf(uri as (typeof CITED)[number])}`, arguments: {} });
      expect((await cite("memory://graph")).isError).toBeFalsy();
      expect((await cite("memory://people/bob")).isError).toBeFalsy();
      graph.disable();
      people.disable();
      for (const uri of ["memory://graph", "memory://people/bob"]) {
        const refused = await cite(uri);
        expect(refused.isError).toBe(true);
        expect(firstText(refused)).toContain("it is no URI of a resource this server serves (memory://kept)");
        await expect(client.subscribeResource({ uri })).rejects.toThrow(`Resource ${uri} not found: this server serves no resource of that URI`);
      }
      graph.enable();
      people.enable();
      for (const uri of ["memory://graph", "memory://people/bob"]) {
        expect((await cite(uri)).isError).toBeFalsy();
        await client.subscribeResource({ uri });
      }
      graph.remove();
      expect(firstText(await cite("memory://graph"))).toContain("it is no URI of a resource this server serves (memory://kept, memory://people/{name})");
      graph.enable(); // removed for good: enabling it again changes nothing
      expect((await cite("memory://graph")).isError).toBe(true);
    } finally {
      await close();
    }
  });

  test("every resource removed: answered as a registry that serves none", async () => {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    registry.resource("graph", "memory://graph", {}, read).remove();
    registry.resource("entity", template("memory://entities/{name}"), {}, read).remove();
    citing(registry);
    const plain = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
    citing(plain);
    const seen: string[][] = [];
    for (const each of [registry, plain]) {
      const { client, close } = await connectInMemory(each);
      seen.push(await answers(client, false));
      await close();
    }
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]!.join("\n")).toContain("the URI of a resource this server serves may stand as a source: serve the data with registry.resource()");
  });
});
