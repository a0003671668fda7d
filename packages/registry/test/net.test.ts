import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import {
  createRegistry,
  isVerified,
  markVerified,
  structuredContentSchema,
  VERIFIED_STAMP,
  SOURCE_URL_PATTERN,
  VERIFIED_STAMP_KEY,
  verifiedBy,
  type DataToolOutput,
} from "../dist/index.js";
import { compileServers, connectInMemory, firstText, recordingLogger, seedResult } from "./helpers.js";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

type ToolsModule = typeof import("./servers/tools.js");


describe("the run-time net over the SDK's Client and InMemoryTransport", () => {
  let tools: ToolsModule;
  const logger = recordingLogger();
  let connection: Awaited<ReturnType<typeof connectInMemory>>;

  beforeAll(async () => {
    tools = (await import(`${await compileServers("net")}/tools.js`)) as ToolsModule;
    connection = await connectInMemory(tools.buildRegistry(logger));
  });
  afterAll(() => connection.close());

  test("tools/list publishes the structuredContent schema, generated from zod, with sources required", async () => {
    const { tools: listed } = await connection.client.listTools();
    const cities = listed.find((tool) => tool.name === "list_cities");
    expect(cities?.description).toBe("Return the top 3 cities by population.");
    expect(cities?.outputSchema).toEqual(z.toJSONSchema(structuredContentSchema, { target: "draft-2020-12", io: "output" }));
    expect(cities?.outputSchema?.required).toEqual(["sources"]);
    expect(cities?.outputSchema?.additionalProperties).toBe(false);
    const sources = (cities?.outputSchema?.properties as Record<string, { minItems?: number; items?: object }>).sources;
    expect(sources).toMatchObject({ type: "array", minItems: 1, items: { type: "string", format: "uri" } });
    expect(new RegExp((sources?.items as { pattern: string }).pattern, "u").source).toBe(new RegExp(SOURCE_URL_PATTERN, "u").source);
    // Every tool carries it, including the ones whose results the net will stop.
    expect(listed.every((tool) => (tool.outputSchema?.required as string[] | undefined)?.includes("sources"))).toBe(true);
    const population = listed.find((tool) => tool.name === "population");
    expect(population?.inputSchema).toMatchObject({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
  });

  test("a good result reaches the client and passes the client's own outputSchema validation", async () => {
    // callTool validates structuredContent against the outputSchema cached by listTools (ajv).
    const result = await connection.client.callTool({ name: "list_cities" });
    expect(result.isError).toBeUndefined();
    expect(firstText(result)).toContain("Tokyo (37,400,068)");
    expect(result.structuredContent).toMatchObject({
      sources: ["https://example.org/cities-data"],
      table: [["City", "Population"], ["Tokyo", "37400068"], ["Delhi", "30290936"], ["Shanghai", "27058479"]],
      charts: [{ type: "bar" }],
    });
  });

  test("a tool with an input receives the parsed arguments", async () => {
    const result = await connection.client.callTool({ name: "population", arguments: { city: "Delhi" } });
    expect(firstText(result)).toBe("Delhi has 30290936 inhabitants.");
    expect(result.structuredContent).toEqual({ sources: ["https://example.org/cities-data"], force: "30290936" });
    const invalid = await connection.client.callTool({ name: "population", arguments: { city: 7 } });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toContain("Invalid arguments for tool population");
  });

  test("every bad result becomes an error result naming the tool and its first problem; the next call is answered", async () => {
    for (const name of Object.keys(tools.BAD_RESULTS)) {
      const before = logger.warnings.length;
      const result = await connection.client.callTool({ name });
      expect(CallToolResultSchema.parse(result)).toBeTruthy();
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent, name).toBeUndefined();
      const problem = tools.FIRST_PROBLEM[name]!;
      // A result that is no object at all says so in one sentence; any other names the problem's place.
      const prefix = problem.startsWith("returned ") ? `Tool "${name}" ` : `Tool "${name}" returned a result that breaks the DataToolOutput contract, so it was not sent:\n- `;
      expect(firstText(result)).toContain(`${prefix}${problem}`);
      // Plain words: none of zod's own ("Invalid input: expected array, received string").
      expect(firstText(result)).not.toMatch(/Invalid input|expected \w+, received/);
      expect(logger.warnings.length - before, `one warning for ${name}`).toBe(1);
      // The warning says it too, and where the tool is registered; the client is not told the server's paths.
      expect(logger.warnings.at(-1)).toMatch(new RegExp(`^Tool "${name}" \\(registered at .*tools\\.[jt]s:\\d+:\\d+\\) `));
      expect(logger.warnings.at(-1)).toContain(problem);
      expect(firstText(result)).not.toContain("registered at");
      const next = await connection.client.callTool({ name: "list_cities" });
      expect(next.isError, `the call after ${name}`).toBeUndefined();
    }
  });

  test("a URL fails once, not once per check", async () => {
    const result = await connection.client.callTool({ name: "javascript_source" });
    expect(firstText(result).match(/must be an absolute/g)).toHaveLength(1);
  });

  test.each([
    ["throws", 'Tool "throws" failed: the upstream API is down'],
    ["rejects", 'Tool "rejects" failed: timed out after 5 s'],
  ])("a tool that %s becomes an error result; the server keeps serving", async (name, text) => {
    const before = logger.warnings.length;
    const result = await connection.client.callTool({ name });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe(text);
    expect(logger.warnings.length - before).toBe(1);
    expect(logger.warnings.at(-1)).toMatch(new RegExp(`^Tool "${name}" \\(registered at .*tools\\.[jt]s:\\d+:\\d+\\) threw: Error: `));
    expect(logger.warnings.at(-1)).toContain(`threw: Error: ${text.split(": ").slice(1).join(": ")}`);
    expect((await connection.client.callTool({ name: "population", arguments: { city: "Tokyo" } })).isError).toBeUndefined();
  });

  test("any thenable result is awaited, as `await` would; one whose `then` cannot be read is a tool that threw", async () => {
    const thenLogger = recordingLogger();
    const registry = createRegistry({ name: "t", version: "1.0.0", startupCheck: false, logger: thenLogger });
    registry.tool()(function thenable() {
      return { then: (resolve: (value: unknown) => void) => resolve(seedResult()) };
    });
    registry.tool()(function unreadable_then() {
      return Object.defineProperty(seedResult(), "then", {
        get() {
          throw new Error("then exploded");
        },
      });
    });
    const { client, close } = await connectInMemory(registry);
    const resolved = await client.callTool({ name: "thenable" });
    expect(resolved.isError).toBeUndefined();
    expect(resolved.structuredContent).toEqual(seedResult().structuredContent);
    const failed = await client.callTool({ name: "unreadable_then" });
    expect(failed.isError).toBe(true);
    expect(firstText(failed)).toBe('Tool "unreadable_then" failed: then exploded');
    expect(thenLogger.warnings).toHaveLength(1);
    await close();
  });
});

describe("registration", () => {
  test("the call form registers the function and returns the very same function", () => {
    const registry = createRegistry({ name: "t", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    function list_cities(): DataToolOutput {
      return seedResult();
    }
    expect(registry.tool()(list_cities)).toBe(list_cities);
    expect(registry.tools.map((tool) => tool.name)).toEqual(["list_cities"]);
    expect(registry.tools[0]?.fn).toBe(list_cities);
    expect(registry.tools[0]?.site).toMatch(/net\.test\.ts:\d+:\d+$/);
  });

  test("an anonymous function without a name is a clear error; { name } fixes it", () => {
    const registry = createRegistry({ name: "t", version: "1.0.0", startupCheck: false });
    expect(() => registry.tool()(() => seedResult())).toThrow(
      /^registry\.tool\(\) at .*net\.test\.ts:\d+:\d+ cannot name the tool: the function is anonymous\. Name the function \(function list_cities\(\) \{…\}\) or pass \{ name: "list_cities" \}\. If the source names it, a minifier probably removed the name: build with @sourced\/unplugin or @sourced\/transformer, which state each tool's name in the emitted code, or pass \{ name \}\.$/,
    );
    expect(registry.tools).toEqual([]);
    const named = registry.tool({ name: "list_cities" })(() => seedResult());
    expect(typeof named).toBe("function");
    expect(registry.tools.map((tool) => tool.name)).toEqual(["list_cities"]);
  });

  test("a second tool with the same name is an error naming both registrations", () => {
    const registry = createRegistry({ name: "t", version: "1.0.0", startupCheck: false });
    registry.tool()(function list_cities() {
      return seedResult();
    });
    expect(() => registry.tool({ name: "list_cities" })(function top_cities() {
      return seedResult();
    })).toThrow(
      /^tool "list_cities" is registered twice: first by function list_cities at .*net\.test\.ts:\d+:\d+, then by function top_cities at .*net\.test\.ts:\d+:\d+\. Give one of them another name with \{ name: "…" \}\.$/,
    );
  });

  test("something that is not a function is refused", () => {
    const registry = createRegistry({ name: "t", version: "1.0.0", startupCheck: false });
    expect(() => registry.tool()(42 as never)).toThrow(/expects a function, got number/);
  });

  test("a registry with no tools still answers tools/list", async () => {
    const { client, close } = await connectInMemory(createRegistry({ name: "empty", version: "1.0.0", startupCheck: false }));
    expect((await client.listTools()).tools).toEqual([]);
    await close();
  });

  test("options reach tools/list: title, description, annotations", async () => {
    const registry = createRegistry({ name: "t", version: "1.0.0", startupCheck: false });
    registry.tool({ title: "Top cities", description: "Top 3 by population.", annotations: { readOnlyHint: true } })(
      function list_cities() {
        return seedResult();
      },
    );
    const { client, close } = await connectInMemory(registry);
    const [tool] = (await client.listTools()).tools;
    expect(tool).toMatchObject({ name: "list_cities", title: "Top cities", description: "Top 3 by population.", annotations: { readOnlyHint: true } });
    await close();
  });

  test("a zod object works as input too, and a tool without input receives {}", async () => {
    const registry = createRegistry({ name: "t", version: "1.0.0", startupCheck: false });
    const seen: unknown[] = [];
    registry.tool({ input: z.object({ limit: z.number().int().default(3) }) })(function top(args: { limit: number }) {
      seen.push(args);
      return seedResult();
    });
    registry.tool()(function bare(args: unknown, extra: { mcpReq: { signal?: AbortSignal } }) {
      seen.push(args, extra.mcpReq.signal instanceof AbortSignal);
      return seedResult();
    });
    const { client, close } = await connectInMemory(registry);
    await client.callTool({ name: "top", arguments: {} });
    await client.callTool({ name: "bare" });
    expect(seen).toEqual([{ limit: 3 }, {}, true]);
    await close();
  });
});

describe("requireVerified and the verified stamp", () => {
  test("the stamp's key is also published alone, as @sourced/registry/stamp, a module that loads nothing", () => {
    const load = createRequire(__filename);
    const file = load.resolve("@sourced/registry/stamp");
    expect((load(file) as { VERIFIED_STAMP_KEY: string }).VERIFIED_STAMP_KEY).toBe(VERIFIED_STAMP_KEY);
    expect(readFileSync(file, "utf8")).not.toMatch(/\brequire\(/);
  });

  test("VERIFIED_STAMP is the registered symbol; markVerified stamps a non-enumerable own property", () => {
    expect(VERIFIED_STAMP).toBe(Symbol.for("@sourced/registry:verified"));
    expect(VERIFIED_STAMP).toBe(Symbol.for(VERIFIED_STAMP_KEY));
    const fn = function list_cities() {
      return seedResult();
    };
    expect(isVerified(fn)).toBe(false);
    expect(markVerified(fn, "@sourced/transformer@0.1.0")).toBe(fn);
    expect(isVerified(fn)).toBe(true);
    expect(verifiedBy(fn)).toBe("@sourced/transformer@0.1.0");
    expect(Object.keys(fn)).toEqual([]);
    expect(Object.getOwnPropertyDescriptor(fn, VERIFIED_STAMP)).toMatchObject({ enumerable: false, writable: false });
    // Inherited or non-string stamps do not count.
    const child = Object.setPrototypeOf(function child() {}, fn) as () => void;
    expect(isVerified(child)).toBe(false);
    expect(isVerified(Object.defineProperty(function other() {}, VERIFIED_STAMP, { value: true }))).toBe(false);
  });

  test("an unstamped registration is refused with one warning, returned unchanged, absent from tools/list", async () => {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "prod", version: "1.0.0", startupCheck: false, logger, requireVerified: true });
    function list_cities(): DataToolOutput {
      return seedResult();
    }
    expect(registry.tool()(list_cities)).toBe(list_cities);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(
      /^tool "list_cities" \(.*net\.test\.ts:\d+:\d+\) was not registered: requireVerified is on and the function carries no verified stamp, so no compile step has checked that it returns DataToolOutput\. Build it with @sourced\/transformer \(tspc\) or bundle it with @sourced\/unplugin\.$/,
    );
    // The transformer's inline form: no import of this package, just the registered symbol.
    const stamped = registry.tool()(
      Object.defineProperty(function population() {
        return seedResult();
      }, Symbol.for("@sourced/registry:verified"), { value: "@sourced/transformer@0.1.0" }),
    );
    expect(stamped.name).toBe("population");
    expect(logger.warnings).toHaveLength(1);
    expect(registry.tools.map((tool) => [tool.name, tool.verifiedBy])).toEqual([["population", "@sourced/transformer@0.1.0"]]);

    const { client, close } = await connectInMemory(registry);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["population"]);
    // An unknown tool is a protocol error (-32602), as the specification and the SDK's own tools answer it.
    await expect(client.callTool({ name: "list_cities" })).rejects.toThrow("Tool list_cities not found");
    expect((await client.callTool({ name: "population" })).isError).toBeUndefined();
    await close();
  });

  test("without requireVerified, stamps are recorded but not needed", () => {
    const registry = createRegistry({ name: "dev", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.tool()(function list_cities() {
      return seedResult();
    });
    expect(registry.tools.map((tool) => tool.verifiedBy)).toEqual([undefined]);
  });
});
