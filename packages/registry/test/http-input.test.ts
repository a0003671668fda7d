import { afterEach, describe, expect, test } from "vitest";
import { createRegistry, type HttpServeOptions, type HttpServing } from "../dist/index.js";
import { MODERN_ENVELOPE, modernHeaders, recordingLogger, seedResult } from "./helpers.js";

/*
 * Client input gets a 4xx and a log line, never a 5xx: JSON nested deeper than the limit (well
 * under the body limit) overflowed the SDK's Node adapter, which re-serialises the parsed body,
 * into a silent 500.
 */

const servings: HttpServing[] = [];
afterEach(async () => {
  for (const serving of servings.splice(0)) await serving.close();
});

async function serve(limits?: HttpServeOptions["limits"]) {
  const logger = recordingLogger();
  const registry = createRegistry({ name: "input", version: "1.0.0", logger, startupCheck: false }); // the warnings counted are the transport's alone
  registry.tool()(function list_cities() {
    return seedResult();
  });
  const serving = await registry.serveHttp(limits ? { limits } : {});
  servings.push(serving);
  return { serving, logger };
}

/** One raw POST of `body` (text), as a 2025-era client or a 2026-07-28 one (which names the method in a header). */
async function post(url: URL, body: string, era: "2025" | "2026", method: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers =
    era === "2026" ? modernHeaders(method, "list_cities") : { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
  const response = await fetch(url, { method: "POST", headers, body });
  const text = await response.text();
  const json = text.startsWith("{") ? text : (text.split("\n").find((line) => line.startsWith("data: "))?.slice(6) ?? "null");
  return { status: response.status, json: JSON.parse(json) as Record<string, unknown> };
}

/** `{"a":{"a":…{}}}`, `depth` objects deep. */
const nested = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

/** A tools/call whose arguments (or `_meta`) carry `deep`. */
function callWith(era: "2025" | "2026", where: "arguments" | "_meta", deep: string): string {
  const meta = era === "2026" ? JSON.stringify(MODERN_ENVELOPE).slice(0, -1) : "{";
  const metaText = where === "_meta" ? `${meta}${meta === "{" ? "" : ","}"deep":${deep}}` : era === "2026" ? JSON.stringify(MODERN_ENVELOPE) : "{}";
  const args = where === "arguments" ? `{"deep":${deep}}` : "{}";
  return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_cities","arguments":${args},"_meta":${metaText}}}`;
}

describe("serveHttp: deeply nested input", () => {
  for (const era of ["2025", "2026"] as const) {
    for (const where of ["arguments", "_meta"] as const) {
      test(`${era}: ${where} nested 10,000 levels is 400 (-32600) by its id, with one warning; the next call is served`, async () => {
        const { serving, logger } = await serve();
        const body = callWith(era, where, nested(10_000));
        expect(body.length).toBeLessThan(200_000); // far under the 1 MiB body limit
        const refused = await post(serving.url, body, era, "tools/call");
        expect(refused.status).toBe(400);
        expect(refused.json).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Invalid request: the JSON is nested deeper than 128 levels" } });
        expect(logger.warnings).toEqual(["HTTP request refused: its JSON nests deeper than 128 levels (maxJsonDepth) (tools/call)"]);
        const served = await post(serving.url, callWith(era, where, nested(3)), era, "tools/call");
        expect(served.status).toBe(200);
        expect(served.json).toMatchObject({ id: 7, result: { structuredContent: { sources: ["https://example.org/cities-data"] } } });
      });
    }
  }

  test("maxJsonDepth: nesting at the limit is served, one level more is refused; brackets inside strings do not count", async () => {
    const { serving } = await serve({ maxJsonDepth: 8 });
    // The body, params and arguments are three levels: 5 more make 8.
    expect((await post(serving.url, callWith("2025", "arguments", nested(5)), "2025", "tools/call")).status).toBe(200);
    expect((await post(serving.url, callWith("2025", "arguments", nested(6)), "2025", "tools/call")).status).toBe(400);
    const brackets = JSON.stringify("[[[[[[[[[[{{{{{{{{{{\\\"]]]");
    expect((await post(serving.url, callWith("2025", "arguments", brackets), "2025", "tools/call")).status).toBe(200);
  });
});
