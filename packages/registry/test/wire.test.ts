import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createRegistry, WIRE_LIMITS } from "../dist/index.js";
import { callThroughNet } from "../dist/net.js";
import { connectInMemory, firstText, recordingLogger, seedResult } from "./helpers.js";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

/*
 * The wire copy's own rules, through a registry and the SDK's real Client: what JSON semantics it
 * keeps (toJSON, dropped undefined keys, symbol keys), and the limits that bound every call.
 */

const text = [{ type: "text" as const, text: "Tokyo leads." }];
const sources = ["https://example.org/cities-data"];

function sharedBlowUp(levels: number): unknown {
  // Each level holds the one below twice: 2^levels values, in a few dozen objects.
  let node: unknown = [1];
  for (let level = 0; level < levels; level++) node = [node, node];
  return node;
}

function chain(objects: number): unknown {
  let node: unknown = "leaf";
  for (let level = 0; level < objects; level++) node = { next: node };
  return node;
}

const TOOLS: Record<string, () => unknown> = {
  url_object: () => ({ content: text, structuredContent: { sources: [new URL("https://example.org/a b")] } }),
  undefined_key: () => ({ content: text, structuredContent: { sources, force: undefined, table: undefined }, isError: undefined }),
  symbol_key: () => ({ content: text, structuredContent: { sources, [Symbol("hidden")]: "not data" } }),
  proto_key: () => ({ content: text, structuredContent: { sources }, _meta: JSON.parse('{"__proto__": {"polluted": true}}') as unknown }),
  map_value: () => ({ content: text, structuredContent: { sources }, _meta: { rows: new Map([["Tokyo", 1]]) } }),
  class_value: () => ({ content: text, structuredContent: { sources }, _meta: { row: new (class Row { city = "Tokyo"; })() } }),
  nan_cell: () => ({ content: text, structuredContent: { sources, table: [["n"], [Number.NaN]] } }),
  bogus_length: () => ({ content: text, structuredContent: { sources: new Proxy(sources, { get: (target, key) => (key === "length" ? 2 ** 40 : (Reflect.get(target, key) as unknown)) }) } }),
  shared_blowup: () => ({ content: text, structuredContent: { sources }, _meta: { tree: sharedBlowUp(40) } }),
  many_characters: () => {
    const big = "x".repeat(1_000_000);
    return { content: text, structuredContent: { sources }, _meta: { strings: Array.from({ length: 60 }, () => big) } };
  },
  // _meta is one level below the result, so a chain of depth - 1 objects in it reaches the limit.
  at_the_depth_limit: () => ({ ...seedResult(), _meta: { deep: chain(WIRE_LIMITS.depth - 1) } }),
  past_the_depth_limit: () => ({ ...seedResult(), _meta: { deep: chain(WIRE_LIMITS.depth) } }),
};

describe("the wire copy", () => {
  const logger = recordingLogger();
  let connection: Awaited<ReturnType<typeof connectInMemory>>;

  beforeAll(async () => {
    const registry = createRegistry({ name: "wire", version: "1.0.0", startupCheck: false, logger });
    for (const [name, make] of Object.entries(TOOLS)) registry.tool({ name })(() => make());
    connection = await connectInMemory(registry);
  });
  afterAll(() => connection.close());

  const call = async (name: string) => {
    const before = logger.warnings.length;
    const result = await connection.client.callTool({ name }, { timeout: 10_000 });
    return { result, warnings: logger.warnings.length - before };
  };

  test("a toJSON is JSON's: a URL object is sent as its href, then checked like any source", async () => {
    const { result, warnings } = await call("url_object");
    expect(warnings).toBe(0);
    expect(result.structuredContent).toEqual({ sources: ["https://example.org/a%20b"] });
  });

  test("keys whose value is undefined are left out, symbol keys are not data", async () => {
    expect((await call("undefined_key")).result).toEqual({ content: text, structuredContent: { sources } });
    expect((await call("symbol_key")).result).toEqual({ content: text, structuredContent: { sources } });
  });

  test.each([
    ["proto_key", '_meta.__proto__: a key named "__proto__"'],
    ["map_value", "_meta.rows: a Map where plain data belongs"],
    ["class_value", "_meta.row: an instance of Row where plain data belongs"],
    ["nan_cell", "structuredContent.table[1][0]: NaN is not a JSON number"],
    ["bogus_length", "structuredContent.sources: the result holds more than 1,000,000 values"],
    ["shared_blowup", "the result holds more than 1,000,000 values"],
    ["many_characters", "the result holds more than 50,000,000 characters of text"],
  ])("%s is refused with its path, one warning, at once", async (name, problem) => {
    const started = Date.now();
    const { result, warnings } = await call(name);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain(`Tool "${name}" returned a result that cannot be sent as JSON, so it was not sent:\n- `);
    expect(firstText(result)).toContain(problem);
    expect(warnings).toBe(1);
  });

  test("nesting up to the depth limit is sent; one level more is refused", async () => {
    const { result, warnings } = await call("at_the_depth_limit");
    expect([result.isError, warnings]).toEqual([undefined, 0]);
    const deeper = await call("past_the_depth_limit");
    expect(firstText(deeper.result)).toContain(`nested deeper than ${WIRE_LIMITS.depth} levels`);
    expect(deeper.warnings).toBe(1);
  });
});

describe("the error path itself", () => {
  test("when building an error result fails, a fixed one naming the tool stands in, with one warning", () => {
    const logger = recordingLogger();
    const tool = {
      name: "cut_fails",
      site: "src/tools.ts:3:1",
      fn: () => {
        throw new Error("x".repeat(5_000));
      },
      thisArg: undefined,
    };
    // Cutting the long message needs Number#toLocaleString: break it, so the net's own code throws.
    const original = Number.prototype.toLocaleString;
    Number.prototype.toLocaleString = () => {
      throw new Error("toLocaleString broke");
    };
    let result: unknown;
    try {
      result = callThroughNet(tool, {}, {}, logger);
    } finally {
      Number.prototype.toLocaleString = original;
    }
    expect(result).toEqual({
      content: [{ type: "text", text: 'Tool "cut_fails" failed, and its failure could not be described; see the server log.' }],
      isError: true,
    });
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain('Tool "cut_fails" (registered at src/tools.ts:3:1): the net failed while answering the call: Error: toLocaleString broke');
  });

  test("a logger that throws does not lose the warning: it goes to stderr, once", async () => {
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const registry = createRegistry({
        startupCheck: false,
        name: "t",
        version: "1.0.0",
        logger: {
          warn: () => {
            throw new Error("logger down");
          },
        },
      });
      registry.tool({ name: "unsourced" })(() => ({ content: text, structuredContent: { sources: [] } }));
      const { client, close } = await connectInMemory(registry);
      const result = await client.callTool({ name: "unsourced" });
      await close();
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain('Tool "unsourced" returned a result that breaks the DataToolOutput contract');
    } finally {
      write.mockRestore();
    }
    const warnings = written.filter((line) => line.startsWith("[sourced] warning: "));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Tool "unsourced" \(registered at .*wire\.test\.ts:\d+:\d+\) returned a result that breaks the DataToolOutput contract/);
    expect(warnings[0]).toContain("(the registry's logger threw: logger down)");
  });
});
