import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { dataToolOutputSchema, structuredContentSchema } from "../dist/index.js";
import { seedResult } from "./helpers.js";

// The JSON Schema a client receives as outputSchema, validated the way the SDK's Client does (ajv + formats).
const published = z.toJSONSchema(structuredContentSchema, { target: "draft-7", io: "output" });
const clientCheck = new AjvJsonSchemaValidator().getValidator(published as never);

const seed = seedResult().structuredContent;

describe("the DataToolOutput schema", () => {
  test("the seed's list_cities result passes", () => {
    const result = seedResult();
    expect(dataToolOutputSchema.safeParse(result).success).toBe(true);
    expect(clientCheck(seed).valid).toBe(true);
  });

  test("tables: cells of any JSON scalar, header strings, same width", () => {
    const ok = { sources: seed.sources, table: [["City", "Capital", "Area"], ["Tokyo", true, 2194.07], ["Atlantis", null, 0]] };
    expect(structuredContentSchema.safeParse(ok).success).toBe(true);
    expect(structuredContentSchema.safeParse({ sources: seed.sources, table: [] }).success).toBe(false);
    expect(structuredContentSchema.safeParse({ sources: seed.sources, table: [["City"], [{ name: "Tokyo" }]] }).success).toBe(false);
  });

  test("charts: a Chart.js configuration with type and data.datasets", () => {
    const chart = { type: "pie", data: { labels: ["Tokyo"], datasets: [{ data: [37] }] }, options: { responsive: true } };
    expect(structuredContentSchema.safeParse({ sources: seed.sources, charts: [chart] }).success).toBe(true);
    for (const broken of [{ data: chart.data }, { type: "pie" }, { type: "pie", data: {} }, { type: "", data: chart.data }]) {
      expect(structuredContentSchema.safeParse({ sources: seed.sources, charts: [broken] }).success, JSON.stringify(broken)).toBe(false);
      expect(clientCheck({ sources: seed.sources, charts: [broken] }).valid, JSON.stringify(broken)).toBe(false);
    }
  });

  test("force is a string shown as is", () => {
    expect(structuredContentSchema.safeParse({ sources: seed.sources, force: "Data as of 2024" }).success).toBe(true);
    expect(structuredContentSchema.safeParse({ sources: seed.sources, force: 3 }).success).toBe(false);
  });

  test.each([
    ["https://example.org/cities-data", true],
    ["http://127.0.0.1:8080/data?q=1#top", true],
    ["javascript:alert(1)", false],
    ["/cities-data", false],
    ["example.org/cities-data", false],
    ["not a url at all", false],
    ["ftp://example.org/file.csv", false],
    ["https:example.org", false],
    ["HTTPS://EXAMPLE.ORG", false],
    ["", false],
  ])("source %j: server and client agree (%s)", (source, valid) => {
    expect(structuredContentSchema.safeParse({ sources: [source] }).success).toBe(valid);
    expect(clientCheck({ sources: [source] }).valid).toBe(valid);
  });

  test("sources are required and non-empty, unknown keys rejected — on both sides", () => {
    for (const structured of [{}, { sources: [] }, { sources: seed.sources, soruces: seed.sources }]) {
      expect(structuredContentSchema.safeParse(structured).success, JSON.stringify(structured)).toBe(false);
      expect(clientCheck(structured).valid, JSON.stringify(structured)).toBe(false);
    }
  });

  test("content needs a non-empty text block", () => {
    const structuredContent = { sources: seed.sources };
    for (const content of [[], [{ type: "text", text: "   " }], [{ type: "image", data: "aGk=", mimeType: "image/png" }]]) {
      expect(dataToolOutputSchema.safeParse({ content, structuredContent }).success, JSON.stringify(content)).toBe(false);
    }
    const mixed = [{ type: "image", data: "aGk=", mimeType: "image/png" }, { type: "text", text: "A chart of Tokyo." }];
    expect(dataToolOutputSchema.safeParse({ content: mixed, structuredContent }).success).toBe(true);
  });
});

/** The first problem the net would report for `value`: where, and what the tool's author reads. */
function firstIssue(schema: z.ZodType, value: unknown): { path: PropertyKey[]; message: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error(`${JSON.stringify(value)} passed`);
  const [issue] = parsed.error.issues;
  return { path: issue!.path, message: issue!.message };
}

const text = (value: string) => ({ type: "text", text: value });
const sources = seed.sources;
const result = (content: unknown[], extra: object = {}) => ({ content, structuredContent: { sources }, ...extra });

describe("each refusal of the contract, as its message says it", () => {
  test("a table needs its header row; header cells are strings; every row has the header's width", () => {
    expect(firstIssue(structuredContentSchema, { sources, table: [] })).toEqual({ path: ["table"], message: "needs at least the header row" });
    expect(firstIssue(structuredContentSchema, { sources, table: [["City", 1]] })).toEqual({ path: ["table", 0, 1], message: "header cells must be strings, got 1" });
    const rows = [["City", "Population"], ["Tokyo", 37], ["Delhi"], ["Shanghai", 27, 3]];
    const parsed = structuredContentSchema.safeParse({ sources, table: rows });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [["table", 2], "row 2 has 1 cells, the header has 2"],
      [["table", 3], "row 3 has 3 cells, the header has 2"],
    ]);
    expect(structuredContentSchema.safeParse({ sources, table: [["City"]] }).success).toBe(true);
    expect(structuredContentSchema.safeParse({ sources, table: [[]] }).success).toBe(true);
  });

  test("a chart needs its type; its data needs datasets", () => {
    const data = { datasets: [] };
    expect(firstIssue(structuredContentSchema, { sources, charts: [{ type: "", data }] })).toEqual({ path: ["charts", 0, "type"], message: 'needs the chart type, e.g. "bar"' });
    expect(structuredContentSchema.safeParse({ sources, charts: [{ type: "b", data }] }).success).toBe(true);
    expect(structuredContentSchema.safeParse({ sources, charts: [{ type: "bar", data, options: [] }] }).success).toBe(false);
    expect(structuredContentSchema.safeParse({ sources, charts: [{ type: "bar", data: { datasets: [], labels: "x" } }] }).success).toBe(false);
  });

  test("structuredContent: sources missing, sources empty, and keys it does not have, each told so", () => {
    expect(firstIssue(structuredContentSchema, {}).path).toEqual(["sources"]);
    expect(firstIssue(structuredContentSchema, undefined)).toEqual({ path: [], message: "is missing: every result says where its data came from in structuredContent.sources" });
    expect(firstIssue(dataToolOutputSchema, { content: [text("x")] })).toEqual({
      path: ["structuredContent"],
      message: "is missing: every result says where its data came from in structuredContent.sources",
    });
    expect(firstIssue(structuredContentSchema, { sources: [] })).toEqual({ path: ["sources"], message: "needs at least one source" });
    expect(firstIssue(structuredContentSchema, { sources: [42] })).toEqual({ path: ["sources", 0], message: "must be an absolute http: or https: URL, got number" });
    // A string the URL rule refuses, in the schema's own words (a source's carry the advice for local data; a link's do not).
    expect(firstIssue(structuredContentSchema, { sources: ["ftp://example.org/x"] }).message).toBe(
      'must be an absolute http: or https: URL (its scheme is "ftp"); the URI of a resource this server serves may stand as a source: serve the data with registry.resource() (docs/registry.md, "Local data")',
    );
    expect(firstIssue(dataToolOutputSchema, result([text("x"), { type: "resource_link", uri: "ftp://example.org/x", name: "x" }]))).toEqual({
      path: ["content", 1, "uri"],
      message: 'must be an absolute http: or https: URL (its scheme is "ftp")',
    });
    expect(firstIssue(structuredContentSchema, { sources, soruces: sources }).message).toBe('"soruces" is not a key of structuredContent, which has sources, table, charts and force only');
    expect(firstIssue(structuredContentSchema, { sources, a: 1, b: 2 }).message).toBe('"a", "b" are not keys of structuredContent, which has sources, table, charts and force only');
    const long = "k".repeat(81);
    expect(firstIssue(structuredContentSchema, { sources, [long]: 1 }).message).toBe(`"${"k".repeat(80)}" is not a key of structuredContent, which has sources, table, charts and force only`);
  });

  test("content: missing, empty, or without a visible text block, each told so", () => {
    expect(firstIssue(dataToolOutputSchema, { structuredContent: { sources } })).toEqual({ path: ["content"], message: "is missing: the LLM reads only content" });
    expect(firstIssue(dataToolOutputSchema, result([]))).toEqual({
      path: ["content"],
      message: "is empty: it needs at least one text block with visible text (the LLM reads only content)",
    });
    for (const invisible of ["", " \n\t", "\u200B", "\u2800", "\u0301", "\u202E", "\uFEFF", "\uD800"]) {
      expect(firstIssue(dataToolOutputSchema, result([text(invisible)])), JSON.stringify(invisible)).toEqual({
        path: ["content"],
        message: "needs at least one text block with visible text (the LLM reads only content)",
      });
    }
    for (const visible of ["x", " .", "日", "\u00E9", "e\u0301"]) expect(dataToolOutputSchema.safeParse(result([text(visible)])).success, visible).toBe(true);
  });

  test("a block of no known type, and keys a block does not have, are told so", () => {
    expect(firstIssue(dataToolOutputSchema, result([{ type: "video" }])).message).toBe('needs "type": one of "text", "image", "audio", "resource_link", "resource"');
    expect(firstIssue(dataToolOutputSchema, result([{ ...text("x"), foo: 1 }])).message).toBe('"foo" is not a key of a text block, which has type, text, annotations and _meta only');
    expect(firstIssue(dataToolOutputSchema, result([{ type: "image", data: "aGk=", mimeType: "image/png", foo: 1 }, text("x")])).message).toBe(
      '"foo" is not a key of a image block, which has type, data, mimeType, annotations and _meta only',
    );
    expect(firstIssue(dataToolOutputSchema, result([{ type: "resource_link", uri: sources[0], name: "n", foo: 1 }, text("x")])).message).toBe(
      '"foo" is not a key of a resource_link block, which has type, uri, name, title, description, mimeType, size, annotations and _meta only',
    );
    expect(firstIssue(dataToolOutputSchema, result([{ type: "resource", resource: { uri: sources[0], text: "t" }, foo: 1 }, text("x")])).message).toBe(
      '"foo" is not a key of a resource block, which has type, resource, annotations and _meta only',
    );
    for (const contents of [{ text: "t" }, { blob: "aGk=" }]) {
      expect(firstIssue(dataToolOutputSchema, result([text("x"), { type: "resource", resource: { uri: sources[0], ...contents, foo: 1 } }]))).toEqual({
        path: ["content", 1, "resource"],
        message: '"foo" is not a key of a resource, which has uri, mimeType, _meta and text or blob only',
      });
    }
    expect(firstIssue(dataToolOutputSchema, result([text("x")], { extra: 1 })).message).toBe('"extra" is not a key of a result, which has content, structuredContent, isError and _meta only');
    expect(firstIssue(dataToolOutputSchema, result([{ ...text("x"), annotations: { audience: ["user"], foo: 1 } }])).message).toBe(
      '"foo" is not a key of annotations, which has audience, priority and lastModified only',
    );
  });

  test("media: canonical base64 and a MIME type", () => {
    const image = (data: string, mimeType = "image/png") => result([{ type: "image", data, mimeType }, text("x")]);
    for (const data of ["", "aGk=", "aA==", "aGVsbG8h", "a+/9"]) expect(dataToolOutputSchema.safeParse(image(data)).success, data).toBe(true);
    for (const data of ["aGk", "a===", "aGk=aGk=", "aG!=", " aGk="]) expect(firstIssue(dataToolOutputSchema, image(data)).message, data).toBe("must be base64");
    expect(firstIssue(dataToolOutputSchema, image("aGk=", "")).path).toEqual(["content", 0, "mimeType"]);
    // Audio is the other media block, held to the same rules.
    expect(dataToolOutputSchema.safeParse(result([{ type: "audio", data: "aGk=", mimeType: "audio/wav" }, text("x")])).success).toBe(true);
    expect(firstIssue(dataToolOutputSchema, result([{ type: "audio", data: "aGk", mimeType: "audio/wav" }, text("x")])).message).toBe("must be base64");
  });

  test("annotations: priority from 0 to 1, a datetime with its offset", () => {
    const annotated = (annotations: object) => result([{ ...text("x"), annotations }]);
    for (const priority of [0, 0.5, 1]) expect(dataToolOutputSchema.safeParse(annotated({ priority })).success, String(priority)).toBe(true);
    for (const priority of [-0.01, 1.01]) expect(dataToolOutputSchema.safeParse(annotated({ priority })).success, String(priority)).toBe(false);
    expect(dataToolOutputSchema.safeParse(annotated({ lastModified: "2026-01-02T03:04:05+01:00", audience: ["assistant"] })).success).toBe(true);
    expect(dataToolOutputSchema.safeParse(annotated({ audience: ["robot"] })).success).toBe(false);
  });

  test("a resource link's size is a whole number from 0; its uri is a source URL", () => {
    const link = (extra: object) => result([{ type: "resource_link", uri: sources[0], name: "n", ...extra }, text("x")]);
    expect(dataToolOutputSchema.safeParse(link({ size: 0 })).success).toBe(true);
    for (const size of [-1, 1.5]) expect(dataToolOutputSchema.safeParse(link({ size })).success, String(size)).toBe(false);
    expect(firstIssue(dataToolOutputSchema, link({ uri: "ftp://example.org/" })).message).toBe('must be an absolute http: or https: URL (its scheme is "ftp")');
  });

  test("an embedded resource carries text or blob, not another key", () => {
    const embedded = (resource: object) => result([{ type: "resource", resource }, text("x")]);
    expect(dataToolOutputSchema.safeParse(embedded({ uri: sources[0], blob: "aGk=" })).success).toBe(true);
    expect(dataToolOutputSchema.safeParse(embedded({ uri: sources[0], text: "t", mimeType: "text/plain" })).success).toBe(true);
    expect(dataToolOutputSchema.safeParse(embedded({ uri: sources[0] })).success).toBe(false);
  });

  test("an error result needs its visible text and may leave structuredContent out; otherwise structuredContent is required", () => {
    expect(dataToolOutputSchema.safeParse({ content: [text("failed")], isError: true }).success).toBe(true);
    expect(firstIssue(dataToolOutputSchema, { content: [text("failed")], isError: false }).path).toEqual(["structuredContent"]);
    expect(firstIssue(dataToolOutputSchema, { content: [], isError: true }).path).toEqual(["content"]);
  });

  test.each([
    ["com.example/name", true],
    ["name", true],
    ["a", true],
    ["a.b-c_d", true],
    ["com.example-1.x/n", true],
    // The specification's name may be empty: "unless empty, must begin and end with an alphanumeric character".
    ["com.example/", true],
    ["", true],
    ["-name", false],
    ["name-", false],
    ["com./name", false],
    ["1com.example/name", false],
    ["com.example-/name", false],
    ["a b", false],
  ])("_meta key %j is in the MCP key format: %s", (key, valid) => {
    const parsed = dataToolOutputSchema.safeParse(result([text("x")], { _meta: { [key]: 1 } }));
    if (valid) expect(parsed.success).toBe(true);
    else
      expect(parsed.error?.issues[0]).toMatchObject({
        path: ["_meta", key],
        message: `the key ${JSON.stringify(key)} is not a _meta key in the MCP format (an optional reverse-DNS prefix and a slash, then a name of letters, digits, '.', '_', '-')`,
      });
  });

  test.each(["mcp/x", "modelcontextprotocol/x", "io.modelcontextprotocol/x", "dev.mcp.tools/x", "MCP/x", "io.MCP/x"])("_meta key %j has a prefix MCP reserves", (key) => {
    expect(firstIssue(dataToolOutputSchema, result([text("x")], { _meta: { [key]: 1 } })).message).toBe(`the key ${JSON.stringify(key)} has a prefix MCP reserves for itself`);
  });

  test("_meta keys that only look reserved, the protocol's progressToken, and a long key quoted to 80 characters", () => {
    for (const key of ["mcpx/x", "xmcp/x", "io.mcpx/x", "mcp", "a/mcp"]) expect(dataToolOutputSchema.safeParse(result([text("x")], { _meta: { [key]: 1 } })).success, key).toBe(true);
    expect(firstIssue(dataToolOutputSchema, result([text("x")], { _meta: { progressToken: 1 } })).message).toBe(
      'the key "progressToken" is the protocol\'s own progressToken, which a result does not carry',
    );
    const long = `-${"k".repeat(90)}`;
    expect(firstIssue(dataToolOutputSchema, result([text("x")], { _meta: { [long]: 1 } })).message).toMatch(new RegExp(`^the key "${long.slice(0, 80)}" is not a _meta key`, "u"));
  });
});
