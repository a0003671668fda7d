import { ResourceTemplate } from "@modelcontextprotocol/server";
import { describe, expect, test } from "vitest";
import { createRegistry, type DataToolOutput, type Registry } from "../dist/index.js";
import { checkInMemory, checkOverHttp, type AnyClient } from "./both-clients.js";
import { connectInMemory, firstText, recordingLogger } from "./helpers.js";

/*
 * The URI of a resource the registry serves stands as a source: data read from a local file, a
 * database or memory cites what a client can read back (`resources/read`). The net accepts it, the
 * published outputSchema says so (the v1 Client validates every result against it), and anything
 * else that is no http(s) URL is refused in words that name what the server serves.
 */

const GRAPH = '{"entities":[{"name":"alice"}]}';

function cite(...sources: string[]): DataToolOutput {
  return { content: [{ type: "text", text: "The graph holds 1 entity." }], structuredContent: { sources } };
}

/** Calls one tool of `registry` once, without arguments, over an in-memory connection closed after it. */
async function callOnce(registry: Registry, name: string) {
  const { client, close } = await connectInMemory(registry);
  try {
    return await client.callTool({ name, arguments: {} });
  } finally {
    await close();
  }
}

/** A knowledge-graph server: its graph and each entity served as resources, tools citing them (or not). */
function memoryRegistry(logger = recordingLogger()): Registry {
  const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, logger });
  registry.resource("graph", "memory://graph", { mimeType: "application/json" }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: GRAPH }] }));
  registry.resource("entity", new ResourceTemplate("memory://entities/{name}", { list: undefined }), { mimeType: "application/json" }, (uri, { name }) => ({
    contents: [{ uri: uri.href, text: JSON.stringify({ name }) }],
  }));
  registry.tool()(function read_graph(): DataToolOutput {
    return cite("memory://graph");
  });
  registry.tool()(function open_entity(): DataToolOutput {
    return cite("memory://entities/alice", "https://example.org/about");
  });
  registry.tool()(function misspelt(): DataToolOutput {
    return cite("memory://grahp");
  });
  registry.tool()(function local_file(): DataToolOutput {
    return cite("./data/memory.jsonl");
  });
  registry.tool()(function file_url(): DataToolOutput {
    return cite("file:///srv/memory.jsonl");
  });
  return registry;
}

async function expectResourceSources(client: AnyClient): Promise<void> {
  const graph = await client.callTool({ name: "read_graph", arguments: {} });
  expect(graph.isError).toBeFalsy();
  expect(graph.structuredContent).toEqual({ sources: ["memory://graph"] });
  // What it cites, a client reads back.
  const read = await client.readResource({ uri: "memory://graph" });
  expect(read.contents).toEqual([{ uri: "memory://graph", mimeType: "application/json", text: GRAPH }]);

  const entity = await client.callTool({ name: "open_entity", arguments: {} });
  expect(entity.structuredContent).toEqual({ sources: ["memory://entities/alice", "https://example.org/about"] });

  const misspelt = await client.callTool({ name: "misspelt", arguments: {} });
  expect(misspelt.isError).toBe(true);
  expect(firstText(misspelt)).toContain(
    'structuredContent.sources[0]: must be an absolute http: or https: URL (its scheme is "memory"); it is no URI of a resource this server serves (memory://graph, memory://entities/{name}): did you mean "memory://graph"?',
  );

  for (const name of ["local_file", "file_url"]) {
    const local = await client.callTool({ name, arguments: {} });
    expect(local.isError).toBe(true);
    expect(firstText(local)).toContain("A path or a file: URL is no link a client can open: for local data, serve the file as a resource and cite the resource's URI");
    expect(firstText(local)).toContain('registry.resource("memory.jsonl", "local://memory.jsonl"');
  }
}

describe("a served resource's URI as a source", () => {
  test("createServer(), with the v2 and the v1 Client (which checks every result against the published outputSchema)", async () => {
    await checkInMemory(memoryRegistry, expectResourceSources);
  });

  test("serveHttp(), with the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(memoryRegistry, expectResourceSources);
  });

  test("tools/list publishes the schemes of the served URIs and templates beside the URL rule (not each URI: the list would grow with them)", async () => {
    const { client, close } = await connectInMemory(memoryRegistry());
    const { tools } = await client.listTools();
    const items = (tools[0]!.outputSchema as { properties: { sources: { items: { anyOf: object[] } } } }).properties.sources.items;
    expect(items.anyOf.slice(1)).toEqual([{ pattern: "^(?:[mM][eE][mM][oO][rR][yY]):" }]);
    await close();
  });

  test("a source that is no string is refused in the same words, naming what is served", async () => {
    const registry = memoryRegistry();
    registry.tool()(function numbered(): DataToolOutput {
      return { content: [{ type: "text", text: "The graph holds 1 entity." }], structuredContent: { sources: [42 as unknown as string] } };
    });
    const result = await callOnce(registry, "numbered");
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain(
      "structuredContent.sources[0]: must be an absolute http: or https: URL, got number; it is no URI of a resource this server serves (memory://graph, memory://entities/{name})",
    );
  });

  test("without that resource, the same URI is refused, and the refusal says how to serve it", async () => {
    const registry = createRegistry({ name: "plain", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.tool()(function read_graph(): DataToolOutput {
      return cite("memory://graph");
    });
    const result = await callOnce(registry, "read_graph");
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain(
      'structuredContent.sources[0]: must be an absolute http: or https: URL (its scheme is "memory"); the URI of a resource this server serves may stand as a source: serve the data with registry.resource()',
    );
  });

  test("a resource at an http(s) URL serves, but is no source, in no spelling (a misspelt http URL)", async () => {
    const registry = createRegistry({ name: "odd", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    // Registered as the SDK reads it: `HTTPS://Example.org/graph` itself could never be read (unreadable-resources.test.ts).
    registry.resource("odd", "https://example.org/graph", {}, (uri) => ({ contents: [{ uri: uri.href, text: "{}" }] }));
    registry.tool()(function read_graph(): DataToolOutput {
      return cite("HTTPS://Example.org/graph");
    });
    const result = await callOnce(registry, "read_graph");
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("the scheme must be written in lowercase");
  });

  test("a resource whose URI a browser runs or renders itself (javascript:, data:) serves, but is no source", async () => {
    const registry = createRegistry({ name: "odd", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    for (const uri of ["javascript:alert(1)", "data:text/plain,hello"]) {
      registry.resource(uri.slice(0, uri.indexOf(":")), uri, {}, () => ({ contents: [{ uri, text: "hello" }] }));
    }
    registry.tool()(function run_script(): DataToolOutput {
      return cite("javascript:alert(1)");
    });
    registry.tool()(function inline_data(): DataToolOutput {
      return cite("data:text/plain,hello");
    });
    const { client, close } = await connectInMemory(registry);
    for (const [name, scheme] of [["run_script", "javascript"], ["inline_data", "data"]]) {
      const result = await client.callTool({ name: name!, arguments: {} });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain(`structuredContent.sources[0]: must be an absolute http: or https: URL (its scheme is "${scheme}")`);
    }
    await close();
  });
});

describe("a served resource's URI in content (a resource link, an embedded resource)", () => {
  /** The knowledge-graph server, with tools that link to or embed its resources, or others. */
  function linkingRegistry(): Registry {
    const registry = memoryRegistry();
    const answer = (block: object): DataToolOutput => ({
      content: [{ type: "text", text: "The graph holds 1 entity." }, block as DataToolOutput["content"][number]],
      structuredContent: { sources: ["memory://graph"] },
    });
    registry.tool()(function link_graph(): DataToolOutput {
      return answer({ type: "resource_link", uri: "memory://graph", name: "graph", mimeType: "application/json" });
    });
    registry.tool()(function embed_entity(): DataToolOutput {
      return answer({ type: "resource", resource: { uri: "memory://entities/alice", mimeType: "application/json", text: '{"name":"alice"}' } });
    });
    registry.tool()(function link_unserved(): DataToolOutput {
      return answer({ type: "resource_link", uri: "memory://grahp", name: "graph" });
    });
    registry.tool()(function embed_script(): DataToolOutput {
      return answer({ type: "resource", resource: { uri: "javascript:alert(1)", text: "x" } });
    });
    return registry;
  }

  async function expectContentUris(client: AnyClient): Promise<void> {
    const linked = await client.callTool({ name: "link_graph", arguments: {} });
    expect(linked.isError).toBeFalsy();
    expect((linked.content as object[])[1]).toEqual({ type: "resource_link", uri: "memory://graph", name: "graph", mimeType: "application/json" });
    const embedded = await client.callTool({ name: "embed_entity", arguments: {} });
    expect(embedded.isError).toBeFalsy();
    expect((embedded.content as Array<{ resource?: { uri: string } }>)[1]!.resource!.uri).toBe("memory://entities/alice");

    const unserved = await client.callTool({ name: "link_unserved", arguments: {} });
    expect(unserved.isError).toBe(true);
    expect(firstText(unserved)).toContain('content[1].uri: must be an absolute http: or https: URL (its scheme is "memory"); it is no URI of a resource this server serves');
    expect(firstText(unserved)).toContain('did you mean "memory://graph"?');
    const script = await client.callTool({ name: "embed_script", arguments: {} });
    expect(script.isError).toBe(true);
    expect(firstText(script)).toContain('content[1].resource.uri: must be an absolute http: or https: URL (its scheme is "javascript")');
  }

  test("createServer(), with the v2 and the v1 Client: links and embeds of served URIs pass; others are refused, naming what is served", async () => {
    await checkInMemory(linkingRegistry, expectContentUris);
  });

  test("a registry serving no resource still takes http(s) URIs alone in content", async () => {
    const registry = createRegistry({ name: "plain", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.tool()(function link_graph(): DataToolOutput {
      return {
        content: [{ type: "text", text: "x" }, { type: "resource_link", uri: "memory://graph", name: "graph" }],
        structuredContent: { sources: ["https://example.org/graph"] },
      };
    });
    const result = await callOnce(registry, "link_graph");
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('content[1].uri: must be an absolute http: or https: URL (its scheme is "memory")');
  });
});

/*
 * The SDK reads a resource at `new URL(uri).toString()` (resource-uri.ts): the scheme lowercased,
 * `.` and `..` segments dropped, for `file:` an empty or `localhost` host. A tool citing a served
 * resource in such a spelling cites what a client reads back, so the net takes it, as
 * resources/subscribe does; a spelling that reads as no served URI is refused in the same words.
 */
function spellingsRegistry(): Registry {
  const registry = memoryRegistry();
  registry.resource("graph file", "file:///srv/graph.json", { mimeType: "application/json" }, (uri) => ({ contents: [{ uri: uri.href, text: GRAPH }] }));
  registry.tool()(function upper_scheme(): DataToolOutput {
    return cite("MEMORY://graph");
  });
  registry.tool()(function dotted_instance(): DataToolOutput {
    return cite("Memory://entities/./alice");
  });
  registry.tool()(function localhost_file(): DataToolOutput {
    return cite("file://localhost/srv/graph.json");
  });
  registry.tool()(function upper_misspelt(): DataToolOutput {
    return cite("MEMORY://grahp");
  });
  return registry;
}

async function expectOtherSpellings(client: AnyClient): Promise<void> {
  // The published outputSchema takes each spelling too: a client validating with it never refuses what the net sends.
  const { tools } = await client.listTools();
  const published = (tools.find((tool) => tool.name === "upper_scheme")!.outputSchema as { properties: { sources: { items: { anyOf: { pattern: string }[] } } } }).properties.sources.items.anyOf;
  for (const source of ["MEMORY://graph", "Memory://entities/./alice", "file://localhost/srv/graph.json"]) {
    expect(published.some(({ pattern }) => new RegExp(pattern, "u").test(source)), source).toBe(true);
  }
  for (const [name, source] of [
    ["upper_scheme", "MEMORY://graph"],
    ["dotted_instance", "Memory://entities/./alice"],
    ["localhost_file", "file://localhost/srv/graph.json"],
  ] as const) {
    const result = await client.callTool({ name, arguments: {} });
    expect(result.isError, name).toBeFalsy();
    // Sent as the tool wrote it: the net checks, it does not rewrite.
    expect(result.structuredContent, name).toEqual({ sources: [source] });
    // And a client reads it back in that spelling.
    const read = await client.readResource({ uri: source });
    expect(read.contents.length, name).toBe(1);
  }

  const misspelt = await client.callTool({ name: "upper_misspelt", arguments: {} });
  expect(misspelt.isError).toBe(true);
  expect(firstText(misspelt)).toContain(
    'structuredContent.sources[0]: must be an absolute http: or https: URL (its scheme is "MEMORY"); it is no URI of a resource this server serves (memory://graph, file:///srv/graph.json, memory://entities/{name}): did you mean "memory://graph"?',
  );
}

describe("a served resource cited in another spelling the SDK reads", () => {
  test("createServer(), with the v2 and the v1 Client (which checks every result against the published outputSchema)", async () => {
    await checkInMemory(spellingsRegistry, expectOtherSpellings);
  });

  test("serveHttp(), with the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(spellingsRegistry, expectOtherSpellings);
  });
});

/*
 * A path or a file: URL is advised to be served as a resource (`local://…`); on a registry that
 * serves file: resources already, the source is better the URI of one of those: the words say so,
 * and name the one a path's file: URL is, or the nearest served URI.
 */
function filesRegistry(): Registry {
  const registry = createRegistry({ name: "files", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
  registry.resource("graph file", "file:///srv/graph.json", { mimeType: "application/json" }, (uri) => ({ contents: [{ uri: uri.href, text: GRAPH }] }));
  registry.resource("notes", "memory://notes", {}, (uri) => ({ contents: [{ uri: uri.href, text: "{}" }] }));
  for (const [name, source] of [
    ["misspelt_file_url", "file:///srv/grahp.json"],
    ["absolute_path", "/srv/graph.json"],
    ["relative_path", "./data/memory.jsonl"],
    ["other_file_url", "file:///var/lib/cities.sqlite"],
  ] as const) {
    registry.tool({ name })(function cites(): DataToolOutput {
      return cite(source);
    });
  }
  return registry;
}

const SERVED_FILES =
  '. A path or a file: URL is a source only as the URI of a file: resource this server serves: cite the one the data came from, as resources/list names it, or serve this file too with registry.resource() (docs/registry.md, "Local data")';

async function expectServedFileAdvice(client: AnyClient): Promise<void> {
  const served = "it is no URI of a resource this server serves (file:///srv/graph.json, memory://notes)";
  for (const [name, refusal] of [
    ["misspelt_file_url", `must be an absolute http: or https: URL (its scheme is "file"); ${served}: did you mean "file:///srv/graph.json"?`],
    ["absolute_path", `must be an absolute http: or https: URL (it has no scheme (a relative or bare address)); ${served}: did you mean "file:///srv/graph.json"?`],
    ["relative_path", `must be an absolute http: or https: URL (it has no scheme (a relative or bare address)); ${served}`],
    ["other_file_url", `must be an absolute http: or https: URL (its scheme is "file"); ${served}`],
  ] as const) {
    const result = await client.callTool({ name, arguments: {} });
    expect(result.isError, name).toBe(true);
    expect(firstText(result), name).toContain(`structuredContent.sources[0]: ${refusal}${SERVED_FILES}`);
    expect(firstText(result), name).not.toContain("local://");
  }
}

describe("a path or a file: URL on a registry that serves file: resources", () => {
  test("createServer(), with the v2 and the v1 Client", async () => {
    await checkInMemory(filesRegistry, expectServedFileAdvice);
  });

  test("serveHttp(), with the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(filesRegistry, expectServedFileAdvice);
  });
});
