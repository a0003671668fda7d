import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect, test } from "vitest";
import { createRegistry, type DataToolOutput } from "../dist/index.js";
import { connectInMemory, recordingLogger, seedResult } from "./helpers.js";

// What a server says of itself and of its tools, passed through to the SDK and read by its real
// clients, v2 and the legacy v1.

const ICON = { src: "https://example.org/cities.png", mimeType: "image/png", sizes: ["48x48"] };

function citiesRegistry() {
  const registry = createRegistry({
    name: "cities",
    version: "1.0.0",
    title: "City data",
    instructions: "Cite the sources under every answer.",
    icons: [ICON],
    websiteUrl: "https://example.org/cities",
    logger: recordingLogger(),
    startupCheck: false,
  });
  registry.tool({ icons: [ICON], _meta: { "example.org/category": "geography" } })(function list_cities(): DataToolOutput {
    return seedResult();
  });
  registry.tool({ ui: false, _meta: { "example.org/category": "geography" } })(function population(): DataToolOutput {
    return seedResult();
  });
  return registry;
}

const SERVER_INFO = { name: "cities", version: "1.0.0", title: "City data", icons: [ICON], websiteUrl: "https://example.org/cities" };

test("the v2 client reads the server's title, icons, website and instructions, and each tool's icons and _meta", async () => {
  const { client, close } = await connectInMemory(citiesRegistry());
  try {
    expect(client.getServerVersion()).toMatchObject(SERVER_INFO);
    expect(client.getInstructions()).toBe("Cite the sources under every answer.");
    const { tools } = await client.listTools();
    const [listCities, population] = [tools.find((tool) => tool.name === "list_cities")!, tools.find((tool) => tool.name === "population")!];
    expect(listCities.icons).toEqual([ICON]);
    // The tool's own keys beside the data view's.
    expect(listCities._meta).toMatchObject({ "example.org/category": "geography", ui: { resourceUri: expect.any(String) } });
    expect(population._meta).toEqual({ "example.org/category": "geography" });
    expect(population.icons).toBeUndefined();
  } finally {
    await close();
  }
});

test("the legacy v1 client reads the same", async () => {
  const server = citiesRegistry().createServer();
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new LegacyClient({ name: "v1", version: "1.0.0" });
  await client.connect(clientTransport);
  try {
    expect(client.getServerVersion()).toMatchObject(SERVER_INFO);
    expect(client.getInstructions()).toBe("Cite the sources under every answer.");
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "list_cities")).toMatchObject({ icons: [ICON], _meta: { "example.org/category": "geography" } });
  } finally {
    await client.close();
    await server.close();
  }
});

test("a server given none of them says nothing of them", async () => {
  const registry = createRegistry({ name: "plain", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
  registry.tool({ ui: false })(function list_cities(): DataToolOutput {
    return seedResult();
  });
  const { client, close } = await connectInMemory(registry);
  try {
    expect(client.getServerVersion()).toEqual({ name: "plain", version: "1.0.0" });
    expect(client.getInstructions()).toBeUndefined();
    const [tool] = (await client.listTools()).tools;
    expect(tool).not.toHaveProperty("icons");
    expect(tool).not.toHaveProperty("_meta");
  } finally {
    await close();
  }
});

test("each option is checked: a wrong value says what the option takes", () => {
  expect(() => createRegistry({ name: "x", version: "1", icons: "https://example.org/a.png" as never })).toThrow(/option "icons" takes a list of icons/u);
  expect(() => createRegistry({ name: "x", version: "1", instructions: 42 as never })).toThrow(/option "instructions" takes a string, not a number \(42\)/u);
  expect(() => createRegistry({ name: "x", version: "1", websiteURL: "https://example.org" } as never)).toThrow(/unknown option "websiteURL": did you mean "websiteUrl"\?/u);
  const registry = createRegistry({ name: "x", version: "1", startupCheck: false });
  expect(() => registry.tool({ icons: [{ url: "https://example.org/a.png" }] as never })).toThrow(/option "icons" takes a list of icons/u);
  expect(() => registry.tool({ _meta: ["a"] as never })).toThrow(/option "_meta" takes an object/u);
});
