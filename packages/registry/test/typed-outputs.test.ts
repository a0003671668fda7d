import { describe, expect, expectTypeOf, test } from "vitest";
import { z } from "zod";
import { createRegistry, type DataResult, type DataToolOutput, type ErrorResult, type Registry } from "../dist/index.js";
import { checkInMemory, checkOverHttp, type AnyClient } from "./both-clients.js";
import { connectInMemory, firstText, recordingLogger } from "./helpers.js";

/*
 * A tool's `output` declares the keys its structuredContent carries beside the contract's: a
 * program that reads `entities` keeps reading them. Published in the tool's outputSchema (the v1
 * Client checks every result against it), checked by the net (the declared keys by the tool's own
 * schema, any other key refused), and typed for the function.
 */

const Entity = z.object({ name: z.string(), type: z.string() });
type Entity = z.infer<typeof Entity>;
const GRAPH: Entity[] = [{ name: "alice", type: "person" }];

function text(value: string) {
  return [{ type: "text" as const, text: value }];
}

function graphRegistry(): Registry {
  const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
  registry.tool({ output: { entities: z.array(Entity) } })(function read_graph(): DataResult<{ entities: Entity[] }> {
    return { content: text("1 entity."), structuredContent: { sources: ["https://example.org/graph"], entities: GRAPH } };
  });
  // A zod object, and an optional key.
  registry.tool({ output: z.object({ entities: z.array(Entity), total: z.number().optional() }) })(function search(): Promise<DataResult<{ entities: Entity[]; total?: number }> | ErrorResult> {
    return Promise.resolve({ content: text("1 match."), structuredContent: { sources: ["https://example.org/graph"], entities: GRAPH, total: 1 } });
  });
  registry.tool({ output: { entities: z.array(Entity) } })(function wrong_entity() {
    return { content: text("1 entity."), structuredContent: { sources: ["https://example.org/graph"], entities: [{ name: 7, type: "person" }] } } as unknown as DataResult<{ entities: Entity[] }>;
  });
  registry.tool({ output: { entities: z.array(Entity) } })(function undeclared() {
    return { content: text("1 entity."), structuredContent: { sources: ["https://example.org/graph"], entities: GRAPH, relations: [] } } as DataResult<{ entities: Entity[] }>;
  });
  registry.tool({ output: { entities: z.array(Entity) } })(function missing_entities() {
    return { content: text("Nothing."), structuredContent: { sources: ["https://example.org/graph"] } } as DataResult<{ entities: Entity[] }>;
  });
  // Without output, a key beside the contract's is refused, as ever.
  registry.tool()(function plain(): DataToolOutput {
    return { content: text("1 entity."), structuredContent: { sources: ["https://example.org/graph"], entities: GRAPH } as DataToolOutput["structuredContent"] & object };
  });
  return registry;
}

async function expectTypedOutputs(client: AnyClient): Promise<void> {
  const { tools } = await client.listTools();
  const schema = tools.find((tool) => tool.name === "read_graph")!.outputSchema as { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };
  expect(Object.keys(schema.properties)).toEqual(["sources", "table", "charts", "force", "entities"]);
  expect(schema.required).toEqual(["sources", "entities"]);
  expect(schema.additionalProperties).toBe(false);
  expect(tools.find((tool) => tool.name === "plain")!.outputSchema).not.toHaveProperty("properties.entities");

  const graph = await client.callTool({ name: "read_graph", arguments: {} });
  expect(graph.isError).toBeFalsy();
  expect(graph.structuredContent).toEqual({ sources: ["https://example.org/graph"], entities: GRAPH });
  expect((await client.callTool({ name: "search", arguments: {} })).structuredContent).toEqual({ sources: ["https://example.org/graph"], entities: GRAPH, total: 1 });

  const refusals: Record<string, string> = {
    // The declared keys in the words of the tool's own schema, as its arguments are.
    wrong_entity: "- structuredContent: entities[0].name: Invalid input: expected string, received number",
    undeclared: '- structuredContent: "relations" is not a key of structuredContent, which has sources, table, charts, force and entities only',
    missing_entities: "- structuredContent: entities: Invalid input: expected array, received undefined",
    plain: '- structuredContent: "entities" is not a key of structuredContent, which has sources, table, charts and force only',
  };
  for (const [name, problem] of Object.entries(refusals)) {
    const result = await client.callTool({ name, arguments: {} });
    expect(result.isError, name).toBe(true);
    expect(firstText(result), name).toContain(problem);
  }
}

describe("typed outputs with sources", () => {
  test("createServer(), with the v2 and the v1 Client (which checks every result against the published outputSchema)", async () => {
    await checkInMemory(graphRegistry, expectTypedOutputs);
  });

  test("serveHttp(), with the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(graphRegistry, expectTypedOutputs);
  });

  test("an output may not declare the contract's own keys, nor be anything but an object schema", () => {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false });
    expect(() => registry.tool({ output: { sources: z.array(z.string()) } })).toThrow(
      /^registry\.tool\(\) at .*typed-outputs\.test\.ts:\d+:\d+: output declares "sources", which is a key of the contract itself: sources, table, charts and force keep their meaning on every tool/u,
    );
    expect(() => registry.tool({ output: z.array(z.string()) })).toThrow(/output describes "array", not an object/u);
    // @ts-expect-error: output takes a schema
    expect(() => registry.tool({ output: "entities" })).toThrow(/option "output" takes a zod raw shape, a zod object or a Standard Schema, not a string/u);
    // @ts-expect-error: a misspelling is no option
    expect(() => registry.tool({ outptu: { entities: z.array(Entity) } })).toThrow(/unknown option "outptu": did you mean "output"\?/u);
  });

  test("the function must return the declared keys: DataResult<Extra> or an ErrorResult", () => {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false });
    const typed = registry.tool({ output: { entities: z.array(Entity) } });
    const readGraph = typed(function read_graph(): DataResult<{ entities: Entity[] }> {
      return { content: text("1 entity."), structuredContent: { sources: ["https://example.org/graph"], entities: GRAPH } };
    });
    expectTypeOf(readGraph).returns.toEqualTypeOf<DataResult<{ entities: Entity[] }>>();
    // The keys are typed: a wrong entity does not compile.
    typed(function wrong(): DataResult<{ entities: Entity[] }> {
      // @ts-expect-error: name is a string
      return { content: text("1 entity."), structuredContent: { sources: ["https://example.org/graph"], entities: [{ name: 7, type: "person" }] } };
    });
    // @ts-expect-error: a result without the declared keys does not fit
    typed(function no_entities(): DataToolOutput {
      return { content: text("x"), structuredContent: { sources: ["https://example.org/"] } };
    });
    typed(function failing(): ErrorResult {
      return { content: text("The graph is locked."), isError: true };
    });
  });
});

describe("a tool's own contract (built for its output) says what the default contract says", () => {
  const SOURCES = { sources: ["https://example.org/graph"] };
  const CONTENT = text("1 entity.");
  const BROKEN = "returned a result that breaks the DataToolOutput contract, so it was not sent:\n- ";

  function ownContractRegistry(): Registry {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    const tool = (name: string, output: z.ZodType | z.ZodRawShape, result: unknown) =>
      registry.tool({ output } as never)(Object.defineProperty(() => result, "name", { value: name }) as never);
    const throwing = z.number().refine(() => {
      throw new Error("the check broke");
    });
    tool("throwing_output", { n: throwing }, { content: CONTENT, structuredContent: { ...SOURCES, n: 1 } });
    tool("async_output", { n: z.number().refine(() => Promise.resolve(true)) }, { content: CONTENT, structuredContent: { ...SOURCES, n: 1 } });
    // Its check is never awaited, so a rejection must not be left unhandled.
    tool("async_rejected_output", { n: z.number().refine(() => Promise.reject(new Error("the check is down"))) }, { content: CONTENT, structuredContent: { ...SOURCES, n: 1 } });
    tool("no_sources", { n: z.number() }, { content: CONTENT, structuredContent: { sources: [], n: 1 } });
    tool("no_content", { n: z.number() }, { structuredContent: { ...SOURCES, n: 1 } });
    tool("extra_key", { n: z.number() }, { content: CONTENT, structuredContent: { ...SOURCES, n: 1 }, extra: 1 });
    // Only the declared keys the result carries reach the tool's schema: an absent key is absent, not undefined.
    tool("absent_key", z.object({ total: z.number().exactOptional() }), { content: CONTENT, structuredContent: SOURCES });
    // An object schema with no properties declares no key (and registering it does not throw).
    tool("record_output", z.record(z.string(), z.number()), { content: CONTENT, structuredContent: SOURCES });
    return registry;
  }

  test("its refusals, in the net's words, and what it accepts", async () => {
    const { client, close } = await connectInMemory(ownContractRegistry());
    const refusals: Record<string, string> = {
      throwing_output: "structuredContent: the tool's output schema threw while checking it: the check broke",
      async_output: "structuredContent: the tool's output schema is asynchronous, and the net checks every result at once: declare a synchronous one",
      async_rejected_output: "structuredContent: the tool's output schema is asynchronous, and the net checks every result at once: declare a synchronous one",
      no_sources: "structuredContent.sources: needs at least one source",
      no_content: "content: is missing: the LLM reads only content",
      extra_key: 'the result: "extra" is not a key of a result, which has content, structuredContent, isError and _meta only',
    };
    for (const [name, problem] of Object.entries(refusals)) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      expect(firstText(result), name).toBe(`Tool "${name}" ${BROKEN}${problem}`);
    }
    for (const name of ["absent_key", "record_output"]) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBeUndefined();
      expect(result.structuredContent, name).toEqual(SOURCES);
    }
    await close();
  });

  test("on a registry whose resources none may stand as a source (an https: URI), its sources follow the URL rule alone", async () => {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.resource("page", "https://example.org/page", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri: uri.href, text: "page" }] }));
    registry.tool({ output: { n: z.number() } })(function local_source() {
      return { content: CONTENT, structuredContent: { sources: ["./data/graph.json"], n: 1 } };
    });
    const { client, close } = await connectInMemory(registry);
    const { tools } = await client.listTools();
    const source = (tools[0]!.outputSchema as { properties: Record<string, { items?: Record<string, unknown> }> }).properties["sources"]?.items;
    expect(source).toHaveProperty("pattern");
    expect(source).not.toHaveProperty("anyOf");
    const text = firstText(await client.callTool({ name: "local_source", arguments: {} }));
    expect(text).toContain('Tool "local_source" ' + BROKEN + "structuredContent.sources[0]: ");
    expect(text).not.toContain("resource this server serves");
    await close();
  });

  test("its published outputSchema carries the contract's title and the descriptions of sources, which a client shows or gives the LLM (the others would be repeated by every tool: issue 44)", async () => {
    const { client, close } = await connectInMemory(ownContractRegistry());
    const { tools } = await client.listTools();
    const published = tools.find((listed) => listed.name === "no_content")!.outputSchema as {
      title: string;
      properties: Record<string, { description?: string; items?: { description?: string } }>;
    };
    expect(published.title).toBe("DataToolOutput structuredContent");
    expect(Object.keys(published.properties)).toEqual(["sources", "table", "charts", "force", "n"]);
    expect(published.properties["sources"]?.description).toBe("Links to the original data, rendered as source links under the answer");
    expect(published.properties["sources"]?.items?.description).toBe("An absolute http: or https: URL of the original data");
    for (const key of ["table", "charts", "force"]) expect(published.properties[key]?.description, key).toBeUndefined();
    const record = tools.find((listed) => listed.name === "record_output")!.outputSchema as { properties: Record<string, unknown> };
    expect(Object.keys(record.properties)).toEqual(["sources", "table", "charts", "force"]);
    await close();
  });

  test("a tool without output, on a registry serving resources, publishes the contract's keys alone, and says a source may be a served URI", async () => {
    const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.resource("graph", "memory://graph", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri: uri.href, text: "graph" }] }));
    registry.tool()(function plain(): DataToolOutput {
      return { content: CONTENT, structuredContent: { sources: ["memory://graph"] } };
    });
    const { client, close } = await connectInMemory(registry);
    const { tools } = await client.listTools();
    const published = tools[0]!.outputSchema as { properties: Record<string, { items?: { description?: string } }> };
    expect(Object.keys(published.properties)).toEqual(["sources", "table", "charts", "force"]);
    expect(published.properties["sources"]?.items?.description).toBe("An absolute http: or https: URL of the original data, or the URI of a resource this server serves");
    await close();
  });
});
