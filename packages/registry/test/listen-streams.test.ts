import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, test } from "vitest";
import { createRegistry, type HttpServeOptions, type HttpServing, type Registry } from "../dist/index.js";
import { firstText, MODERN_ENVELOPE, modernHeaders, recordingLogger, seedResult } from "./helpers.js";

/*
 * `subscriptions/listen` streams (2026-07-28) stay open for as long as the client likes: they must
 * not take the slots calls need. A registry announces no list changes (nothing changes while it
 * serves), so ordinary hosts open no stream; a listen request is answered and ended at once; and
 * a stream a server does keep open has a slot of its own, an idle policy, and ends gracefully
 * when the server closes.
 */

const servings: HttpServing[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const serving of servings.splice(0)) await serving.close(0);
});

function registryOf(): Registry {
  const registry = createRegistry({ name: "listen", version: "1.0.0", logger: recordingLogger() });
  registry.tool()(function list_cities() {
    return seedResult();
  });
  registry.tool()(async function slow() {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return seedResult();
  });
  return registry;
}

/**
 * A registry whose servers do announce tool-list changes (as a server that registers tools while
 * serving would), so the SDK keeps each listen stream open.
 */
function announcingRegistry(): Registry {
  const registry = registryOf();
  const create: (serving?: unknown) => ReturnType<Registry["createServer"]> = registry.createServer.bind(registry);
  Object.assign(registry, {
    createServer: (serving?: unknown) => {
      const server = create(serving);
      server.server.registerCapabilities({ tools: { listChanged: true } });
      return server;
    },
  });
  return registry;
}

async function serve(registry: Registry, limits: HttpServeOptions["limits"] = {}): Promise<HttpServing> {
  const serving = await registry.serveHttp({ limits });
  servings.push(serving);
  return serving;
}

async function modernClient(url: URL, listChanged = false): Promise<Client> {
  const onChanged = () => {};
  const client = new Client(
    { name: "listen-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, ...(listChanged ? { listChanged: { tools: { onChanged }, resources: { onChanged } } } : {}) },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  clients.push(client);
  return client;
}

interface RawListen {
  status: number;
  retryAfter: string | null;
  /** The JSON-RPC messages of the answer so far (SSE `data:` frames, or the one JSON body). */
  messages: Array<Record<string, unknown>>;
  /** Settles when the answer ends, with whether it was cut (the connection closed before the end of the stream). */
  ended: Promise<"ended" | "cut">;
}

/**
 * A raw `subscriptions/listen` POST for every list change a server may announce; resolves once
 * its first message (the acknowledgement, or an error) has arrived.
 */
async function listen(url: URL, id: string): Promise<RawListen> {
  const response = await fetch(url, {
    method: "POST",
    headers: modernHeaders("subscriptions/listen"),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: MODERN_ENVELOPE, notifications: { toolsListChanged: true, resourcesListChanged: true } } }),
  });
  const messages: Array<Record<string, unknown>> = [];
  const result: RawListen = { status: response.status, retryAfter: response.headers.get("retry-after"), messages, ended: Promise.resolve("ended") };
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    messages.push((await response.json()) as Record<string, unknown>);
    return result;
  }
  let first!: () => void;
  const arrived = new Promise<void>((resolve) => (first = resolve));
  result.ended = (async () => {
    let text = "";
    try {
      for await (const chunk of response.body!) {
        text += Buffer.from(chunk).toString();
        let end: number;
        while ((end = text.indexOf("\n\n")) !== -1) {
          const data = text.slice(0, end).split("\n").find((line) => line.startsWith("data: "));
          text = text.slice(end + 2);
          if (data !== undefined) {
            messages.push(JSON.parse(data.slice(6)) as Record<string, unknown>);
            first();
          }
        }
      }
      return "ended" as const;
    } catch {
      return "cut" as const;
    } finally {
      first();
    }
  })();
  await arrived;
  return result;
}

const ACKNOWLEDGED = { method: "notifications/subscriptions/acknowledged" };
const graceful = (id: string) => ({ id, result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": id } } });

describe("subscriptions/listen streams and request slots", () => {
  test("ordinary v2 hosts (a Client with listChanged handlers) open no stream: with 2 request slots, 6 hosts are all served", async () => {
    const serving = await serve(registryOf(), { maxConcurrentRequests: 2 });
    for (let host = 0; host < 6; host++) {
      const client = await modernClient(serving.url, true);
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, resources: { listChanged: false } });
      expect(client.autoOpenedSubscription).toBeUndefined();
      expect(firstText(await client.callTool({ name: "list_cities" }))).toContain("Tokyo");
    }
  });

  test("more listen requests than request slots (150 for 100): each answered and ended at once; calls are served", async () => {
    const serving = await serve(registryOf(), { maxConcurrentRequests: 100 });
    const answers = await Promise.all(Array.from({ length: 150 }, (_, index) => listen(serving.url, `listen-${index}`)));
    expect(new Set(await Promise.all(answers.map((answer) => answer.ended)))).toEqual(new Set(["ended"]));
    for (const [index, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      // Acknowledged with nothing honoured (nothing changes), then ended gracefully.
      expect(answer.messages).toMatchObject([{ ...ACKNOWLEDGED, params: { notifications: {} } }, graceful(`listen-${index}`)]);
    }
    const client = await modernClient(serving.url);
    expect(firstText(await client.callTool({ name: "list_cities" }))).toContain("Tokyo");
  });

  test("streams kept open have slots of their own: with 2 request slots and 3 open streams, calls are served; a 4th stream is 503", async () => {
    const serving = await serve(announcingRegistry(), { maxConcurrentRequests: 2, maxListenStreams: 3 });
    const open = await Promise.all(["a", "b", "c"].map((id) => listen(serving.url, id)));
    for (const stream of open) expect(stream.messages).toMatchObject([{ ...ACKNOWLEDGED, params: { notifications: { toolsListChanged: true } } }]);
    const refused = await listen(serving.url, "d");
    expect([refused.status, refused.retryAfter]).toEqual([503, "1"]);
    expect(refused.messages).toMatchObject([{ id: "d", error: { code: -32000, message: expect.stringContaining("3 subscriptions/listen streams are open") } }]);
    const client = await modernClient(serving.url);
    const calls = await Promise.all([client.callTool({ name: "slow" }), client.callTool({ name: "slow" })]);
    for (const call of calls) expect(firstText(call)).toContain("Tokyo");
    expect(open.every((stream) => stream.messages.length === 1)).toBe(true); // still open
  });

  test("idle policy: a stream that carries no notification for listenIdleTimeoutMs ends gracefully and frees its slot", async () => {
    const serving = await serve(announcingRegistry(), { maxListenStreams: 1, listenIdleTimeoutMs: 600 });
    const started = Date.now();
    const stream = await listen(serving.url, "idle");
    expect((await listen(serving.url, "refused")).status).toBe(503);
    expect(await stream.ended).toBe("ended");
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(stream.messages).toMatchObject([ACKNOWLEDGED, graceful("idle")]);
    // The v2 Client sees the end as graceful, and its slot is free again.
    const client = await modernClient(serving.url);
    const subscription = await client.listen({ toolsListChanged: true });
    expect(await subscription.closed).toBe("graceful");
  });

  test("close() ends every stream gracefully at once, without waiting for the grace", async () => {
    const serving = await serve(announcingRegistry());
    const stream = await listen(serving.url, "open");
    const started = Date.now();
    await serving.close(10_000);
    expect(await stream.ended).toBe("ended");
    // Nor for the second a closing server gives answers in flight to leave: the stream's end lets it go on.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(stream.messages).toMatchObject([ACKNOWLEDGED, graceful("open")]);
  });

  test("close() with a stream open and a call in flight: the stream's end does not cut the call, which is answered with its result", async () => {
    const serving = await serve(announcingRegistry());
    const stream = await listen(serving.url, "open");
    const client = await modernClient(serving.url);
    const call = client.callTool({ name: "slow" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const closing = serving.close(10_000);
    expect(await stream.ended).toBe("ended");
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(firstText(result)).toContain("Tokyo");
    await closing;
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
