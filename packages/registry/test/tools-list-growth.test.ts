import { ResourceTemplate } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, test } from "vitest";
import { createRegistry, type HttpServing, type Registry } from "../dist/index.js";
import { checkOverHttp } from "./both-clients.js";
import { firstText, recordingLogger } from "./helpers.js";

/*
 * tools/list does not grow with the resources a registry serves: each tool's published
 * outputSchema says which sources a client may accept without listing every served URI (clients
 * may accept more than the server sends, never less), while the net stays exact — it accepts the
 * URI of a resource served and refuses any other. And a tool's outputSchema is small: at 1,000
 * tools the list is what a client parses and keeps.
 */

const silent = recordingLogger();

/** The published schema as the SDK's Client validates with it (ajv and its formats). */
function clientCheck(schema: Record<string, unknown>): (value: unknown) => boolean {
  const validator = new AjvJsonSchemaValidator().getValidator(schema);
  return (value) => validator(value).valid;
}

/** A registry of `tools` tools, each citing the resource `cite`, serving `resources` resources `memory://rows/<n>`. */
function registryWith(resources: number, tools = 40, cite = "memory://rows/0"): Registry {
  const registry = createRegistry({ name: "growth", version: "1.0.0", startupCheck: false, logger: silent });
  for (let index = 0; index < resources; index++) {
    registry.resource(`row ${index}`, `memory://rows/${index}`, {}, (uri) => ({ contents: [{ uri: uri.href, text: String(index) }] }));
  }
  for (let index = 0; index < tools; index++) {
    registry.tool({ name: `tool_${index}` })(function cite_row() {
      return { content: [{ type: "text", text: "Row." }], structuredContent: { sources: [cite] } };
    });
  }
  return registry;
}

/** The raw `tools/list` answer's body, as a 2025-era client receives it. */
async function rawList(serving: HttpServing): Promise<{ bytes: number; tools: Array<{ name: string; outputSchema: Record<string, unknown> }> }> {
  const response = await fetch(serving.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  const text = await response.text();
  const json = text.split("\n").find((line) => line.startsWith("data: "))!.slice(6);
  return { bytes: Buffer.byteLength(json), tools: (JSON.parse(json) as { result: { tools: Array<{ name: string; outputSchema: Record<string, unknown> }> } }).result.tools };
}

async function listed(registry: Registry): Promise<Awaited<ReturnType<typeof rawList>>> {
  const serving = await registry.serveHttp();
  try {
    return await rawList(serving);
  } finally {
    await serving.close();
  }
}

describe("tools/list does not grow with resources", () => {
  test("10,000 resources and 40 tools: the same tools/list as 2 resources of the scheme, and every tool's outputSchema accepts what the net sends", async () => {
    const few = await listed(registryWith(2));
    const many = await listed(registryWith(10_000));
    expect(many.tools).toHaveLength(40);
    expect(many.bytes).toBe(few.bytes);
    expect(many.bytes).toBeLessThan(40 * 1_500);
    // What a client validates with: the published schema accepts the served URIs (any of them) and http(s) URLs.
    const validate = clientCheck(many.tools[0]!.outputSchema);
    for (const source of ["memory://rows/0", "memory://rows/9999", "https://example.org/cities"]) {
      expect(validate({ sources: [source] }), source).toBe(true);
    }
    // What it refuses: a browser's own scheme, and what is no URI.
    for (const source of ["javascript:alert(1)", "rows/1", ""]) expect(validate({ sources: [source] }), source).toBe(false);
  }, 60_000);

  test("the net stays exact: a served URI is accepted, one not served is refused, with both clients over HTTP", async () => {
    const served = () => registryWith(10_000, 1, "memory://rows/9999");
    await checkOverHttp(served, async (client) => {
      const result = await client.callTool({ name: "tool_0", arguments: {} });
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual({ sources: ["memory://rows/9999"] });
    });
    const unserved = () => registryWith(10_000, 1, "memory://rows/10000");
    await checkOverHttp(unserved, async (client) => {
      const result = await client.callTool({ name: "tool_0", arguments: {} });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain('structuredContent.sources[0]: must be an absolute http: or https: URL');
      expect(firstText(result)).toContain("it is no URI of a resource this server serves");
    });
  }, 60_000);

  test("templates: the published schema names their fixed starts, and does not grow with their number either", async () => {
    const withTemplates = (count: number) => {
      const registry = registryWith(0, 10, "memory://entities/alice");
      for (let index = 0; index < count; index++) {
        registry.resource(`entity ${index}`, new ResourceTemplate(`memory://entities/${index}/{name}`, { list: undefined }), {}, (uri) => ({ contents: [{ uri: uri.href, text: "x" }] }));
      }
      registry.resource("entity", new ResourceTemplate("memory://entities/{name}", { list: undefined }), {}, (uri) => ({ contents: [{ uri: uri.href, text: "x" }] }));
      return registry;
    };
    const few = await listed(withTemplates(1));
    const many = await listed(withTemplates(2_000));
    expect(many.bytes).toBe(few.bytes);
    const validate = clientCheck(many.tools[0]!.outputSchema);
    expect(validate({ sources: ["memory://entities/alice"] })).toBe(true);
  }, 60_000);

  test("a tool's outputSchema is small: about 1 KB (it was 2 KB), so 1,000 tools list in about 1.2 MB", async () => {
    const { tools, bytes } = await listed(registryWith(0, 1_000, "https://example.org/cities"));
    expect(tools).toHaveLength(1_000);
    expect(JSON.stringify(tools[0]!.outputSchema).length).toBeLessThan(1_100);
    expect(bytes).toBeLessThan(1_300_000);
  }, 60_000);
});
