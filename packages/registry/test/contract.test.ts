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
