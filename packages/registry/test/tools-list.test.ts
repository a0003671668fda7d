import { PassThrough } from "node:stream";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, test } from "vitest";
import { createRegistry, type HttpServing, type Registry, type StdioServing } from "../dist/index.js";
import { connectInMemory, MODERN_ENVELOPE, modernHeaders, rawInitialize, recordingLogger, seedResult } from "./helpers.js";

/*
 * tools/list at scale: the list is serialised once per set of registrations, not per request
 * (at 1,000 tools that serialisation was most of a request's cost), it carries the 2026-07-28
 * cache hints, and its order is the registration order on every transport and in every era.
 */

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A registry of `count` tools whose shared annotations count how often they are serialised. */
function countingRegistry(count: number): { registry: Registry; serialised: () => number; names: string[] } {
  let serialised = 0;
  // Not enumerable: registry.tool() refuses an annotation it does not know, and JSON.stringify still calls it.
  const annotations = Object.defineProperty({ readOnlyHint: true }, "toJSON", {
    value: () => {
      serialised++;
      return { readOnlyHint: true };
    },
  });
  const registry = createRegistry({ name: "list", version: "1.0.0", logger: recordingLogger() });
  const names = Array.from({ length: count }, (_, index) => `tool_${String((index * 7) % count).padStart(3, "0")}`);
  for (const name of names) registry.tool({ name, annotations })(() => seedResult());
  return { registry, serialised: () => serialised, names };
}

async function serveHttp(registry: Registry): Promise<HttpServing> {
  const serving = await registry.serveHttp();
  closers.push(() => serving.close(0));
  return serving;
}

async function rawList(url: URL, era: "2025" | "2026"): Promise<Record<string, unknown>> {
  const headers = era === "2026" ? modernHeaders("tools/list") : { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
  const params = era === "2026" ? { _meta: MODERN_ENVELOPE } : {};
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params }) });
  const text = await response.text();
  const json = text.startsWith("{") ? text : text.split("\n").find((line) => line.startsWith("data: "))?.slice(6);
  return (JSON.parse(json ?? "null") as { result: Record<string, unknown> }).result;
}

/** Serves `registry` over stdio in this process (streams of the test's own) and returns a raw line client. */
async function stdioLists(registry: Registry): Promise<{ list(id: number): Promise<Record<string, unknown>> }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const serving: StdioServing = await registry.serveStdio({ stdin, stdout });
  closers.push(() => serving.close());
  const lines = createInterface({ input: stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as { result: Record<string, unknown> };
  stdin.write(`${JSON.stringify(rawInitialize(0))}\n`);
  await next();
  return {
    list: async (id) => {
      stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" })}\n`);
      return (await next()).result;
    },
  };
}

describe("tools/list", () => {
  test("serialised once per set of registrations, not per request: over HTTP (both eras, both SDK clients) and stdio", async () => {
    const { registry, serialised } = countingRegistry(20);
    const serving = await serveHttp(registry);
    const v2 = new Client({ name: "list", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await v2.connect(new StreamableHTTPClientTransport(serving.url));
    closers.push(() => v2.close());
    const v1 = new LegacyClient({ name: "list", version: "1.0.0" });
    await v1.connect(new LegacyStreamableHTTPClientTransport(serving.url));
    closers.push(() => v1.close());
    const stdio = await stdioLists(registry);
    for (let round = 0; round < 5; round++) {
      expect((await rawList(serving.url, "2025"))["tools"]).toHaveLength(20);
      expect((await rawList(serving.url, "2026"))["tools"]).toHaveLength(20);
      expect((await v2.listTools(undefined, { cacheMode: "refresh" })).tools).toHaveLength(20);
      expect((await v1.listTools()).tools).toHaveLength(20);
      expect((await stdio.list(round + 1))["tools"]).toHaveLength(20);
    }
    // Each of the 20 tools' annotations serialised once, for all 25 answers.
    expect(serialised()).toBe(20);
    // A registration changes the list: serialised once more, for the servers built after it.
    registry.tool({ name: "added" })(() => seedResult());
    expect((await rawList(serving.url, "2026"))["tools"]).toHaveLength(21);
    expect((await rawList(serving.url, "2025"))["tools"]).toHaveLength(21);
    expect(serialised()).toBe(40);
  });

  test("the order is the registration order, the same on every transport and era, and what is sent is the table exactly", async () => {
    const { registry, names } = countingRegistry(12);
    const serving = await serveHttp(registry);
    const inMemory = await connectInMemory(registry);
    closers.push(() => inMemory.close());
    const expected = (await inMemory.client.listTools()).tools;
    expect(expected.map((tool) => tool.name)).toEqual(names);
    const modern = await rawList(serving.url, "2026");
    const legacy = await rawList(serving.url, "2025");
    const stdio = await (await stdioLists(registry)).list(1);
    for (const listed of [modern, legacy, stdio]) expect(listed["tools"]).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  test("2026-07-28: the list carries cache hints (ttlMs, cacheScope public), as does resources/list", async () => {
    const { registry } = countingRegistry(3);
    const serving = await serveHttp(registry);
    expect(await rawList(serving.url, "2026")).toMatchObject({ resultType: "complete", ttlMs: 300_000, cacheScope: "public" });
    const response = await fetch(serving.url, {
      method: "POST",
      headers: modernHeaders("resources/list"),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/list", params: { _meta: MODERN_ENVELOPE } }),
    });
    expect(((await response.json()) as { result: unknown }).result).toMatchObject({ resources: [{ uri: "ui://sourced/data-view.html" }], ttlMs: 300_000, cacheScope: "public" });
  });
});
