import { getEventListeners } from "node:events";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { z } from "zod";
import {
  createRegistry,
  isVerified,
  markVerified,
  structuredContentSchema,
  VERIFIED_STAMP,
  VERIFIED_STAMP_KEY,
  verifiedBy,
  type DataToolOutput,
  type Registry,
} from "../dist/index.js";
import { capText, ERROR_TEXT_LIMIT, LOG_TEXT_LIMIT } from "../dist/answers.js";
import { callWithinBounds, withinBounds } from "../dist/bounds.js";
import { callThroughNet } from "../dist/net.js";
import { describeProblems } from "../dist/problems.js";
import { PUBLISHED_SOURCE_URL_PATTERN } from "@sourced/contract-rules";
import { checkInMemory, checkOverHttp, type AnyClient } from "./both-clients.js";
import { compileServers, connectInMemory, firstText, recordingLogger, seedResult } from "./helpers.js";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

type ToolsModule = typeof import("./servers/tools.js");

// These servers are compiled against the built package, which a mutation run does not mutate: there
// they see no mutant, and their compile would be redone for every static mutant.
const MUTATION_RUN = process.env["SOURCED_MUTATION_RUN"] === "1";

describe.skipIf(MUTATION_RUN)("the run-time net over the SDK's Client and InMemoryTransport", () => {
  let tools: ToolsModule;
  const logger = recordingLogger();
  let connection: Awaited<ReturnType<typeof connectInMemory>>;

  beforeAll(async () => {
    tools = (await import(`${await compileServers("net")}/tools.js`)) as ToolsModule;
    connection = await connectInMemory(tools.buildRegistry(logger));
  });
  afterAll(() => connection.close());

  test("tools/list publishes the structuredContent schema, generated from zod, with sources required, smaller and never stricter", async () => {
    const { tools: listed } = await connection.client.listTools();
    const cities = listed.find((tool) => tool.name === "list_cities");
    expect(cities?.description).toBe("Return the top 3 cities by population.");
    const whole = z.toJSONSchema(structuredContentSchema, { target: "draft-2020-12", io: "output" });
    expect(Object.keys(cities?.outputSchema?.properties ?? {})).toEqual(Object.keys(whole.properties ?? {}));
    expect(cities?.outputSchema?.title).toBe(whole.title);
    expect(cities?.outputSchema?.required).toEqual(["sources"]);
    expect(cities?.outputSchema?.additionalProperties).toBe(false);
    const sources = (cities?.outputSchema?.properties as Record<string, { minItems?: number; items?: object }>).sources;
    expect(sources).toMatchObject({ type: "array", minItems: 1, items: { type: "string", format: "uri" } });
    // The URL rule's superset (url-rule.test.ts: it accepts every source the rule accepts); the net checks the rule itself.
    expect((sources?.items as { pattern: string }).pattern).toBe(PUBLISHED_SOURCE_URL_PATTERN);
    expect(JSON.stringify(cities?.outputSchema).length).toBeLessThan(JSON.stringify(whole).length / 2);
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
      /^tool "list_cities" \(.*net\.test\.ts:\d+:\d+\) was not registered: requireVerified is on and the function carries no verified stamp, so no compile step has checked that it returns DataToolOutput\. Build it with @sourced\/transformer \(tspc\) or `sourced build` \(plain tsc\), or bundle it with @sourced\/unplugin\.$/,
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

/*
 * The net's own words, one rule a case: how a problem's path is written, how many problems an error
 * result lists, how long texts are cut, and how each kind of wrong return is told.
 */
describe("the net's messages, rule by rule", () => {
  const line = (path: Array<PropertyKey | { key: PropertyKey }>, root?: string) => describeProblems([{ message: "m", path }], 3, root)[0];

  test("a path is written as JavaScript would reach it; an empty one is the result itself, or the root named", () => {
    expect(line([])).toBe("the result: m");
    expect(line([], "the arguments")).toBe("the arguments: m");
    expect(line(["structuredContent", "sources", 0])).toBe("structuredContent.sources[0]: m");
    expect(line([{ key: "content" }, { key: 1 }, "text"])).toBe("content[1].text: m");
    expect(line(["_meta", "com.example/x", "$a_1"])).toBe('_meta["com.example/x"].$a_1: m');
    expect(line(["a b", "1a", "ok"])).toBe('["a b"]["1a"].ok: m');
    expect(line([Symbol("s")])).toBe('["Symbol(s)"]: m');
    expect(line(["x".repeat(81) + "-"])).toBe(`["${"x".repeat(80)}"]: m`);
  });

  test("a path of up to 300 characters is written whole, a longer one as its first and last 150", () => {
    expect(line(["a".repeat(300)])).toBe(`${"a".repeat(300)}: m`);
    const long = `${"a".repeat(150)}${"b".repeat(151)}`;
    expect(line([long])).toBe(`${"a".repeat(150)}…${"b".repeat(150)}: m`);
  });

  test("up to three problems are listed, then how many more; the same line is listed once", () => {
    const issues = (count: number) => Array.from({ length: count }, (_, index) => ({ message: `problem ${index}`, path: [] }));
    expect(describeProblems(issues(3))).toEqual(["the result: problem 0", "the result: problem 1", "the result: problem 2"]);
    expect(describeProblems(issues(5))).toEqual(["the result: problem 0", "the result: problem 1", "the result: problem 2", "… and 2 more"]);
    expect(describeProblems(issues(2), 1)).toEqual(["the result: problem 0", "… and 1 more"]);
    expect(describeProblems([...issues(1), ...issues(1)])).toEqual(["the result: problem 0"]);
  });

  test("for a union, the branch that came closest is told, at its full path; the first of equals", () => {
    const union = (errors: Array<Array<{ message: string; path?: PropertyKey[] }>>) => ({ code: "invalid_union", message: "Invalid input", path: ["content", 0], errors });
    expect(describeProblems([union([[{ message: "a1" }, { message: "a2" }], [{ message: "b", path: ["text"] }]])])).toEqual(["content[0].text: b"]);
    expect(describeProblems([union([[{ message: "first" }], [{ message: "second" }]])])).toEqual(["content[0]: first"]);
    expect(describeProblems([union([])])).toEqual(["content[0]: Invalid input"]);
    // A Standard Schema's issue may have no path: the value itself, then.
    expect(describeProblems([{ message: "m" }])).toEqual(["the result: m"]);
    expect(describeProblems([{ code: "invalid_union", message: "Invalid input", errors: [[{ message: "inner", path: ["a"] }]] }])).toEqual(["a: inner"]);
    expect(describeProblems([union([[]])])).toEqual(["content[0]: Invalid input"]);
    // Another library's issue may carry zod's code without zod's branches: it is told as it is.
    expect(describeProblems([{ code: "invalid_union", message: "no option matched", path: ["a"] }])).toEqual(["a: no option matched"]);
    expect(describeProblems([{ ...union([[{ message: "inner" }]]), code: "custom" }])).toEqual(["content[0]: Invalid input"]);
    expect(describeProblems([union([[{ ...union([[{ message: "deep", path: ["x"] }]]), path: ["y"] }]])])).toEqual(["content[0].y.x: deep"]);
  });

  test("capText: a text up to its limit is kept; a longer one is cut to exactly the limit, saying how much is left out and where", () => {
    expect(capText("x".repeat(100), 100, "here")).toBe("x".repeat(100));
    const cut = capText("x".repeat(101), 100, "here");
    expect(cut).toBe(`${"x".repeat(100 - " … [cut: 1 more characters here]".length)} … [cut: 1 more characters here]`);
    expect(cut).toHaveLength(100);
    expect(capText("x".repeat(2_000), 10, "here")).toBe(" … [cut: 1,990 more characters here]");
  });

  test("capText never cuts inside a surrogate pair", () => {
    const limit = 60;
    const note = " … [cut: 2 more characters here]";
    const kept = limit - note.length;
    const text = (at: string) => `${"x".repeat(kept - 1)}${at}`.padEnd(limit + 2, "y");
    // A pair whose high half would be the last character kept: the whole pair goes.
    expect(capText(text("😀"), limit, "here")).toBe(`${"x".repeat(kept - 1)}${note}`);
    expect(capText(text("\uDBFF"), limit, "here")).toBe(`${"x".repeat(kept - 1)}${note}`);
    expect(capText(text("\uD800"), limit, "here")).toBe(`${"x".repeat(kept - 1)}${note}`);
    for (const edge of ["\uD7FF", "\uDC00", "\uE000"]) {
      expect(capText(text(edge), limit, "here"), edge.codePointAt(0)!.toString(16)).toBe(`${"x".repeat(kept - 1)}${edge}${note}`);
    }
  });

  const tool = (fn: () => unknown, site = "src/tools.ts:3:1") => ({ name: "t", site, fn: fn as never, thisArg: undefined });
  const call = async (fn: () => unknown, site?: string) => {
    const logger = recordingLogger();
    const result = await callThroughNet(tool(fn, site), {}, {}, logger);
    return { text: firstText(result), isError: result.isError, warnings: logger.warnings };
  };

  test.each([
    [undefined, "nothing (undefined)"],
    [null, "null"],
    [[seedResult()], "a list"],
    ["text", "a string"],
    [42, "a number"],
    [true, "a boolean"],
  ])("a tool that returns %j is told it returned %s, and what to return", async (value, what) => {
    const { text, isError, warnings } = await call(() => value);
    expect(isError).toBe(true);
    expect(text).toBe(`Tool "t" returned ${what}; a tool must return { content, structuredContent: { sources } }.`);
    expect(warnings).toEqual([`Tool "t" (registered at src/tools.ts:3:1) returned ${what}; a tool must return { content, structuredContent: { sources } }.`]);
  });

  test("a function with a then is a thenable; a then that is no function leaves the value to be checked", async () => {
    const thenable = Object.assign(() => undefined, { then: (resolve: (value: unknown) => void) => resolve(seedResult()) });
    expect((await call(() => thenable)).isError).toBeUndefined();
    expect((await call(() => ({ ...seedResult(), then: 1 }))).text).toContain('"then" is not a key of a result');
  });

  test.each([
    [{ content: "Tokyo" }, 'content: must be a list of content blocks, not a string: [{ type: "text", text: "Tokyo" }]'],
    [{ ...seedResult(), content: ["Tokyo"] }, 'content[0]: must be a content block, not a string: { type: "text", text: "Tokyo" }'],
    // A tool result's content is a list: a block given as one keeps these words, not a prompt message's "one content block".
    [{ ...seedResult(), content: [[{ type: "text", text: "x" }]] }, "content[0]: must be an object, not a list"],
    [{ ...seedResult(), content: {} }, 'content: must be a list of content blocks, not one: [{ type: "text", text }]'],
    [{ ...seedResult(), content: { type: "text", text: "Tokyo" } }, 'content: must be a list of content blocks, not one: [{ type: "text", text: "Tokyo" }]'],
    [{ ...seedResult(), content: { type: "image", data: "AAAA", mimeType: "image/png" } }, 'content: must be a list of content blocks, not one: [{ type: "image", … }]'],
    // A value no block is written as (a number, true or false, null): the block to write, its text quoted.
    [{ ...seedResult(), content: [42] }, 'content[0]: must be a content block, not a number: { type: "text", text: "42" }'],
    [{ ...seedResult(), content: [{ type: "text", text: "x" }, null] }, 'content[1]: must be a content block, not null: { type: "text", text }'],
    [{ ...seedResult(), content: 7 }, 'content: must be a list of content blocks, not a number: [{ type: "text", text: "7" }]'],
    [{ ...seedResult(), content: "Tokyo", isError: "no" }, 'content: must be a list of content blocks, not a string: [{ type: "text", text: "Tokyo" }]\n- isError: must be true or false, not a string'],
    [{ ...seedResult(), structuredContent: [] }, "structuredContent: must be an object, not a list"],
    [{ ...seedResult(), structuredContent: null }, "structuredContent: must be an object, not null"],
    [{ ...seedResult(), isError: "no" }, "isError: must be true or false, not a string"],
    [{ ...seedResult(), content: [{ type: "text" }] }, "content[0].text: is missing: it must be a string"],
    [{ ...seedResult(), content: [{ type: "text", text: "x", annotations: { priority: -1 } }] }, "content[0].annotations.priority: must be at least 0"],
    [{ ...seedResult(), content: [{ type: "text", text: "x", annotations: { priority: 2 } }] }, "content[0].annotations.priority: must be at most 1"],
    [{ ...seedResult(), content: [{ type: "text", text: "x", annotations: { priority: "high" } }] }, "content[0].annotations.priority: must be a number, not a string"],
    [{ ...seedResult(), content: [{ type: "text", text: "x", annotations: { audience: ["robot"] } }] }, 'content[0].annotations.audience[0]: must be "user" or "assistant"'],
    [
      { ...seedResult(), content: [{ type: "text", text: "x", annotations: { lastModified: "yesterday" } }] },
      "content[0].annotations.lastModified: must be an ISO 8601 date and time with its offset, e.g. 2026-01-31T12:00:00Z",
    ],
    [{ ...seedResult(), content: [{ type: "text", text: "x" }, { type: "resource_link", uri: "https://example.org/", name: "n", size: 1.5 }] }, "content[1].size: must be int, not a number"],
  ])("%j: the problem in plain words", async (value, problem) => {
    const { text, warnings } = await call(() => value);
    expect(text).toBe(`Tool "t" returned a result that breaks the DataToolOutput contract, so it was not sent:\n- ${problem}`);
    expect(warnings).toHaveLength(1);
  });

  test("zod's own words stand where the net has none of its own (a string too short)", async () => {
    const { text } = await call(() => ({ ...seedResult(), content: [{ type: "text", text: "x" }, { type: "image", data: "", mimeType: "" }] }));
    expect(text).toMatch(/^Tool "t" returned a result that breaks the DataToolOutput contract, so it was not sent:\n- content\[1\]\.mimeType: /u);
    expect(text).not.toContain("must be at least");
  });

  test("when the net's own check throws, the call is still answered: a fixed error result, and the failure in the log", async () => {
    const throwing = z.unknown().superRefine(() => {
      throw new Error("the check broke");
    });
    const contract = { result: throwing, structuredContent: throwing };
    for (const fn of [() => seedResult(), () => Promise.resolve(seedResult())]) {
      const logger = recordingLogger();
      const result = await callThroughNet(tool(fn), {}, {}, logger, undefined, contract);
      expect(result).toEqual({ content: [{ type: "text", text: 'Tool "t" failed, and its failure could not be described; see the server log.' }], isError: true });
      expect(logger.warnings).toHaveLength(1);
      expect(logger.warnings[0]).toMatch(/^Tool "t" \(registered at src\/tools\.ts:3:1\): the net failed while answering the call: Error: the check broke\n {4}at /u);
    }
  });

  test("a thrown Proxy that refuses to say its prototype is no ToolError: it is answered and logged as any other throw", async () => {
    const proxy = new Proxy(new Error("hidden"), {
      getPrototypeOf() {
        throw new Error("no prototype");
      },
    });
    const { text, warnings } = await call(() => {
      throw proxy;
    });
    expect(text).toMatch(/^Tool "t" failed: /u);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Tool "t" \(registered at src\/tools\.ts:3:1\) threw: /u);
  });

  test("what a tool threw: its message in the result, its stack in the log; a throwing stack or site does not stop the answer", async () => {
    const thrown = await call(() => {
      throw new Error("database down");
    });
    expect(thrown.text).toBe('Tool "t" failed: database down');
    expect(thrown.warnings).toHaveLength(1);
    expect(thrown.warnings[0]).toMatch(/^Tool "t" \(registered at src\/tools\.ts:3:1\) threw: Error: database down\n {4}at /u);
    const stackless = Object.defineProperty(new Error("no stack"), "stack", {
      get() {
        throw new Error("stack getter");
      },
    });
    expect((await call(() => Promise.reject(stackless))).warnings).toEqual(['Tool "t" (registered at src/tools.ts:3:1) threw: no stack']);
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a tool may reject with anything
    expect((await call(() => Promise.reject("a string"))).warnings).toEqual(['Tool "t" (registered at src/tools.ts:3:1) threw: a string']);
    const logger = recordingLogger();
    const lost = {
      name: "t",
      get site(): string {
        throw new Error("no site");
      },
      fn: (() => null) as never,
      thisArg: undefined,
    };
    expect(firstText(await callThroughNet(lost, {}, {}, logger))).toBe('Tool "t" returned null; a tool must return { content, structuredContent: { sources } }.');
    expect(logger.warnings).toEqual(['Tool "t" (registered at an unknown place) returned null; a tool must return { content, structuredContent: { sources } }.']);
  });

  test("only an Error's stack stands in the log: a thrown object with a stack string, or an Error whose stack is no string, is logged by its message", async () => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a tool may reject with anything
    const lookalike = await call(() => Promise.reject({ message: "not an Error", stack: "a stack it made up" }));
    expect(lookalike.warnings).toHaveLength(1);
    expect(lookalike.warnings[0]).not.toContain("a stack it made up");
    const oddStack = Object.defineProperty(new Error("odd stack"), "stack", { value: 42 });
    expect((await call(() => Promise.reject(oddStack))).warnings).toEqual(['Tool "t" (registered at src/tools.ts:3:1) threw: odd stack']);
  });

  test("the error result is cut at ERROR_TEXT_LIMIT, the warning at LOG_TEXT_LIMIT, each saying where the rest is", async () => {
    const { text, warnings } = await call(() => {
      throw new Error("x".repeat(LOG_TEXT_LIMIT + 10));
    });
    expect(text).toHaveLength(ERROR_TEXT_LIMIT);
    expect(text).toMatch(/ … \[cut: [\d,]+ more characters in the server log\]$/u);
    expect(warnings[0]).toHaveLength(LOG_TEXT_LIMIT);
    expect(warnings[0]).toMatch(/ … \[cut: [\d,]+ more characters not logged\]$/u);
    const short = await call(() => {
      throw new Error("x".repeat(ERROR_TEXT_LIMIT - 'Tool "t" failed: '.length));
    });
    expect(short.text).toBe(`Tool "t" failed: ${"x".repeat(ERROR_TEXT_LIMIT - 'Tool "t" failed: '.length)}`);
  });

  test("a throwing logger's own error is told on stderr, cut at 1,000 characters", async () => {
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const logger = {
        warn: () => {
          throw new Error("y".repeat(2_000));
        },
      };
      await callThroughNet(tool(() => null), {}, {}, logger);
    } finally {
      write.mockRestore();
    }
    expect(written.join("")).toContain(`(the registry's logger threw: ${"y".repeat(1_000 - " … [cut: 1,000 more characters not shown]".length)} … [cut: 1,000 more characters not shown])`);
  });
});

/** Tools whose content holds a value no block is written as, one slip each; one declaring an output, whose own contract words them alike. */
function contentSlipsRegistry(): Registry {
  const registry = createRegistry({ name: "slips", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
  const contents: Record<string, unknown> = { number_item: [42], boolean_item: [{ type: "text", text: "x" }, true], null_item: [null], number_content: 7, null_content: null };
  for (const [name, content] of Object.entries(contents)) registry.tool({ name })(() => ({ ...seedResult(), content }) as never);
  registry.tool({ name: "typed_null_item", output: { total: z.number() } })(() => ({ ...seedResult(), content: [null], structuredContent: { sources: ["https://example.org/"], total: 1 } }) as never);
  return registry;
}

async function expectContentSlips(client: AnyClient): Promise<void> {
  const refusals: Record<string, string> = {
    number_item: 'content[0]: must be a content block, not a number: { type: "text", text: "42" }',
    boolean_item: 'content[1]: must be a content block, not a boolean: { type: "text", text: "true" }',
    null_item: 'content[0]: must be a content block, not null: { type: "text", text }',
    number_content: 'content: must be a list of content blocks, not a number: [{ type: "text", text: "7" }]',
    null_content: 'content: must be a list of content blocks, not null: [{ type: "text", text }]',
    typed_null_item: 'content[0]: must be a content block, not null: { type: "text", text }',
  };
  const received: Record<string, string> = {};
  for (const name of Object.keys(refusals)) received[name] = firstText(await client.callTool({ name, arguments: {} }));
  expect(received).toEqual(Object.fromEntries(Object.entries(refusals).map(([name, problem]) => [name, `Tool "${name}" returned a result that breaks the DataToolOutput contract, so it was not sent:\n- ${problem}`])));
}

describe("a number, true or false, or null where a content block goes, refused with the block to write", () => {
  test("the v2 and the v1 Client, in memory", async () => {
    await checkInMemory(contentSlipsRegistry, expectContentSlips);
  });
  test("the same over Streamable HTTP, the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(contentSlipsRegistry, expectContentSlips);
  });
});

describe("callWithinBounds: every call answered in bounded time", () => {
  const named = { name: "slow", site: "src/tools.ts:1:1" };
  const never = () => new Promise<never>(() => undefined);

  test("an answer at once is passed on as it is; with no deadline and no shutdown, so is the call's promise", () => {
    const result = { content: [], isError: true };
    expect(callWithinBounds(named, new AbortController().signal, { timeoutMs: 10, shutdown: undefined }, recordingLogger(), () => result)).toBe(result);
    const pending = never();
    expect(callWithinBounds(named, new AbortController().signal, { timeoutMs: Infinity, shutdown: undefined }, recordingLogger(), () => pending)).toBe(pending);
  });

  test("a call still running at its deadline is answered with an error, warned about once, and its signal aborted", async () => {
    const logger = recordingLogger();
    let seen: AbortSignal | undefined;
    const result = await callWithinBounds(named, new AbortController().signal, { timeoutMs: 1_234, shutdown: undefined }, logger, (signal) => {
      seen = signal;
      return never();
    });
    expect(result).toEqual({ content: [{ type: "text", text: 'Tool "slow" did not answer within 1,234 ms, so the call was stopped.' }], isError: true });
    expect(logger.warnings).toEqual([
      'tool "slow" did not answer within 1,234 ms: the call was answered with an error result and its signal aborted. ' +
        "If it needs longer, raise its limit: registry.tool({ timeoutMs }) or createRegistry({ callTimeoutMs }).",
    ]);
    expect(seen?.reason).toMatchObject({ name: "TimeoutError", message: 'tool "slow" did not answer within 1,234 ms' });
  });

  test("a deadline past the longest timer is the longest timer, not one that fires at once", async () => {
    const logger = recordingLogger();
    const answer = { content: [{ type: "text" as const, text: "late" }] };
    const result = await callWithinBounds(named, new AbortController().signal, { timeoutMs: 2 ** 40, shutdown: undefined }, logger, () =>
      new Promise((resolve) => setTimeout(() => resolve(answer), 50)),
    );
    expect(result).toBe(answer);
    expect(logger.warnings).toEqual([]);
  });

  test("a shutdown, before or during the call, answers it with an error and aborts its signal; an answer before it stands", async () => {
    for (const early of [true, false]) {
      const logger = recordingLogger();
      const shutdown = new AbortController();
      if (early) shutdown.abort();
      let seen: AbortSignal | undefined;
      const pending = callWithinBounds(named, new AbortController().signal, { timeoutMs: Infinity, shutdown: shutdown.signal }, logger, (signal) => {
        seen = signal;
        return never();
      });
      shutdown.abort();
      expect(await pending).toEqual({ content: [{ type: "text", text: 'Tool "slow" was still running when the server shut down, so the call was stopped.' }], isError: true });
      expect(logger.warnings).toEqual([
        'tool "slow" was still running at the end of the shutdown grace: the call was answered with an error result and its signal aborted.',
      ]);
      expect(seen?.reason).toMatchObject({ name: "AbortError", message: 'the server shut down while tool "slow" was running' });
    }
    const logger = recordingLogger();
    const shutdown = new AbortController();
    const answer = { content: [{ type: "text" as const, text: "done" }] };
    const result = await callWithinBounds(named, new AbortController().signal, { timeoutMs: 60_000, shutdown: shutdown.signal }, logger, () => Promise.resolve(answer));
    shutdown.abort();
    expect(result).toBe(answer);
    expect(logger.warnings).toEqual([]);
  });

  test("a call answered in time leaves no timer and no shutdown listener behind; a call with no deadline sets no timer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const logger = recordingLogger();
      const shutdown = new AbortController();
      const answer = { content: [{ type: "text" as const, text: "done" }] };
      expect(await callWithinBounds(named, new AbortController().signal, { timeoutMs: 60_000, shutdown: shutdown.signal }, logger, () => Promise.resolve(answer))).toBe(answer);
      // A timer left pending would keep a process that is done serving alive until the deadline.
      expect(vi.getTimerCount()).toBe(0);
      // A listener left on the serving's signal would pile up, one per call, until it shuts down.
      expect(getEventListeners(shutdown.signal, "abort")).toEqual([]);
      let finish!: (value: typeof answer) => void;
      const pending = callWithinBounds(named, new AbortController().signal, { timeoutMs: Infinity, shutdown: shutdown.signal }, logger, () => new Promise<typeof answer>((resolve) => (finish = resolve)));
      expect(vi.getTimerCount()).toBe(0);
      finish(answer);
      expect(await pending).toBe(answer);
      expect(logger.warnings).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a call stopped at its deadline is answered once: what it fails with afterwards is neither answered nor logged", async () => {
    const logger = recordingLogger();
    let fail!: (error: Error) => void;
    const result = await callWithinBounds(named, new AbortController().signal, { timeoutMs: 5, shutdown: undefined }, logger, () => new Promise<never>((_, reject) => (fail = reject)));
    expect(result).toEqual({ content: [{ type: "text", text: 'Tool "slow" did not answer within 5 ms, so the call was stopped.' }], isError: true });
    fail(new Error("late"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/^tool "slow" did not answer within 5 ms: /u);
  });

  test("an answer that throws (a resource read's MCP error) fails the request with what it threw, at the deadline or for a rejection", async () => {
    const refusal = new Error("stopped: an MCP error");
    const stopped = () => ({
      reason: new DOMException("deadline", "TimeoutError"),
      warning: "stopped",
      answer: (): number => {
        throw refusal;
      },
    });
    const request = new AbortController().signal;
    await expect(withinBounds(request, { timeoutMs: 5, shutdown: undefined }, recordingLogger(), () => new Promise<number>(() => undefined), stopped, () => 1)).rejects.toBe(refusal);
    const failure = new Error("failed: an MCP error");
    await expect(
      withinBounds(request, { timeoutMs: 60_000, shutdown: undefined }, recordingLogger(), () => Promise.reject(new Error("read")), stopped, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });

  test("a call whose promise rejects outside the net is answered by the net's fixed error", async () => {
    const logger = recordingLogger();
    const result = await callWithinBounds(named, new AbortController().signal, { timeoutMs: 60_000, shutdown: undefined }, logger, () => Promise.reject(new Error("lost")));
    expect(result).toEqual({ content: [{ type: "text", text: 'Tool "slow" failed, and its failure could not be described; see the server log.' }], isError: true });
    expect(logger.warnings[0]).toMatch(/^Tool "slow" \(registered at src\/tools\.ts:1:1\): the net failed while answering the call: Error: lost/u);
  });
});
