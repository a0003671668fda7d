import { fork, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ROOT } from "./parity";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

/*
 * The run time under load and bad results: the registry's net over the SDK's real Client, in
 * process (10,000 malformed results) and over Streamable HTTP on 127.0.0.1 against a server in its
 * own process (1,000 concurrent calls, memory, a handler that never settles). Loopback only;
 * every server stops by itself.
 */

const fromRegistry = createRequire(path.join(ROOT, "packages/registry/package.json"));
type Sdk = {
  Client: typeof import("../../packages/registry/node_modules/@modelcontextprotocol/sdk/dist/cjs/client/index.js").Client;
  StreamableHTTPClientTransport: typeof import("../../packages/registry/node_modules/@modelcontextprotocol/sdk/dist/cjs/client/streamableHttp.js").StreamableHTTPClientTransport;
  InMemoryTransport: typeof import("../../packages/registry/node_modules/@modelcontextprotocol/sdk/dist/cjs/inMemory.js").InMemoryTransport;
  McpError: typeof import("../../packages/registry/node_modules/@modelcontextprotocol/sdk/dist/cjs/types.js").McpError;
  ErrorCode: typeof import("../../packages/registry/node_modules/@modelcontextprotocol/sdk/dist/cjs/types.js").ErrorCode;
};
/** One SDK module, typed by the part of {@link Sdk} it holds. */
const sdkModule = (specifier: string) => fromRegistry(specifier) as Sdk;
const sdk: Sdk = {
  Client: sdkModule("@modelcontextprotocol/sdk/client/index.js").Client,
  StreamableHTTPClientTransport: sdkModule("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport,
  InMemoryTransport: sdkModule("@modelcontextprotocol/sdk/inMemory.js").InMemoryTransport,
  McpError: sdkModule("@modelcontextprotocol/sdk/types.js").McpError,
  ErrorCode: sdkModule("@modelcontextprotocol/sdk/types.js").ErrorCode,
};
const { z } = fromRegistry("zod") as typeof import("../../packages/registry/node_modules/zod");
const registryModule = createRequire(__filename)(path.join(ROOT, "packages/registry")) as typeof import("../../packages/registry/src/index");

type Client = InstanceType<Sdk["Client"]>;
interface ToolResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

const text = (result: ToolResult) => result.content?.find((block) => block.type === "text")?.text ?? "";

// ---------------------------------------------------------------------------------------------
// 10,000 malformed results.

/** A valid result, to break in one place. */
const valid = () => ({
  content: [{ type: "text", text: "Tokyo has 37,400,068 inhabitants." }],
  structuredContent: { sources: ["https://example.org/cities"], table: [["City", "Population"], ["Tokyo", "37400068"]] as unknown[][] },
});

type Malformed = { kind: string; make: () => unknown };

const at = <T>(kind: string, values: readonly T[], make: (value: T) => unknown): fc.Arbitrary<Malformed> =>
  fc.constantFrom(...values).map((value) => ({ kind, make: () => make(value) }));

/** Results that break the contract in every way the net must catch, one kind per arbitrary. */
const malformedArb: fc.Arbitrary<Malformed> = fc.oneof(
  at("not an object", [null, undefined, 0, 42, "text", true, [], [valid()]], (value) => value),
  at("a function, a symbol or a bigint", ["function", "symbol", "bigint"], (which) => (which === "function" ? () => valid() : which === "symbol" ? Symbol("result") : 10n)),
  at("content missing or not an array", [undefined, null, "text", { type: "text", text: "x" }], (content) => ({ ...valid(), content })),
  at("content without non-empty text", [[], [{ type: "text", text: "" }], [{ type: "text", text: "   " }], [{ type: "image", data: "AAAA", mimeType: "image/png" }]], (content) => ({ ...valid(), content })),
  at("content block malformed", [[{ type: "text" }], [{ type: "text", text: 42 }], [{ type: "video", url: "x" }], [null], ["text"]], (content) => ({ ...valid(), content })),
  at("structuredContent missing or not an object", [undefined, null, [], "sources", 7], (structuredContent) => ({ ...valid(), structuredContent })),
  at("sources missing, empty or not an array", [undefined, [], "https://example.org", { 0: "https://example.org" }], (sources) => ({ ...valid(), structuredContent: { ...valid().structuredContent, sources } })),
  at(
    "a source that is not an absolute http(s) URL",
    ["javascript:alert(1)", "ftp://example.org/data", "mailto:data@example.org", "/relative/path", "example.org", "", "http//missing-colon", "HTTPS://EXAMPLE.ORG/upper", "data:text/plain,x", 42, null],
    (source) => ({ ...valid(), structuredContent: { ...valid().structuredContent, sources: ["https://example.org/ok", source] } }),
  ),
  at(
    "a table that breaks its rules",
    [[], [[1, 2]], [["City"], ["Tokyo", "extra"]], [["City", "Population"], ["Tokyo"]], [["City"], [{ nested: true }]], [["City"], [["Tokyo"]]], [["City"], [undefined]], "table", [["City"], "Tokyo"]],
    (table) => ({ ...valid(), structuredContent: { ...valid().structuredContent, table } }),
  ),
  at("charts that Chart.js cannot draw", [{}, [{}], [{ type: "", data: { datasets: [] } }], [{ type: "bar" }], [{ type: "bar", data: { datasets: "x" } }]], (charts) => ({ ...valid(), structuredContent: { ...valid().structuredContent, charts } })),
  at("force not a string", [42, { text: "x" }, ["x"], null], (force) => ({ ...valid(), structuredContent: { ...valid().structuredContent, force } })),
  at("an unknown key in structuredContent", ["summary", "html", "__proto__x"], (key) => ({ ...valid(), structuredContent: { ...valid().structuredContent, [key]: "<b>unsourced</b>" } })),
  at("isError not a boolean", ["yes", 1, null], (isError) => ({ ...valid(), isError })),
  at("a bigint cell", [1n, 2n ** 70n], (cell) => ({ ...valid(), structuredContent: { ...valid().structuredContent, table: [["n"], [cell]] } })),
  at("the tool throws or rejects", ["Error", "string", "undefined", "reject"], (how) => () => {
    if (how === "Error") throw new Error("database unreachable");
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the net must answer a tool that throws a non-Error
    if (how === "string") throw "a string thrown";
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the net must answer a tool that throws a non-Error
    if (how === "undefined") throw undefined;
    return Promise.reject(new TypeError("rejected"));
  }),
  at("hostile objects: throwing getters and proxies", ["getter", "proxy", "nested-proxy"], (how) => {
    if (how === "getter")
      return Object.defineProperty({ content: valid().content }, "structuredContent", {
        enumerable: true,
        get() {
          throw new Error("getter exploded");
        },
      });
    const trap = new Proxy({}, { get: () => { throw new Error("proxy exploded"); }, ownKeys: () => { throw new Error("proxy exploded"); } });
    return how === "proxy" ? trap : { ...valid(), structuredContent: { sources: trap } };
  }),
);

describe("10,000 malformed results", () => {
  const COUNT = 10_000;
  const samples = fc.sample(malformedArb, { numRuns: COUNT, seed: 20_261_130 });
  const warnings: string[] = [];
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const registry = registryModule.createRegistry({ name: "malformed", version: "1.0.0", startupCheck: false, logger: { warn: (message) => void warnings.push(message) } });
    registry.tool({ name: "malformed", input: { index: z.number().int() } })(function malformed({ index }: { index: number }) {
      const value = samples[index]!.make();
      return typeof value === "function" && samples[index]!.kind === "the tool throws or rejects" ? (value as () => unknown)() : value;
    });
    registry.tool({ name: "healthy", input: { id: z.string() } })(function healthy({ id }: { id: string }) {
      return { content: [{ type: "text", text: id }], structuredContent: { sources: [`https://example.org/${id}`] } };
    });
    const server = registry.createServer();
    const [clientTransport, serverTransport] = sdk.InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    client = new sdk.Client({ name: "reliability", version: "1.0.0" });
    await client.connect(clientTransport);
    close = async () => {
      await client.close();
      await server.close();
    };
  });

  afterAll(async () => close?.());

  it("cover many kinds", () => {
    const kinds = new Set(samples.map((s) => s.kind));
    expect(kinds.size).toBe(16);
  });

  it("100% become error results without structuredContent, logged once unless parsing them throws; a valid call after every 1,000 is served", async () => {
    const outcomes = new Map<string, number>();
    const byText = new Map<string, number>();
    let errors = 0;
    for (let start = 0; start < COUNT; start += 250) {
      const results = (await Promise.all(
        Array.from({ length: Math.min(250, COUNT - start) }, (_, offset) => client.callTool({ name: "malformed", arguments: { index: start + offset } })),
      )) as ToolResult[];
      results.forEach((result, offset) => {
        const { kind } = samples[start + offset]!;
        const ok = result.isError === true && result.structuredContent === undefined && /Tool "malformed"|exploded/.test(text(result));
        const what = /breaks the DataToolOutput contract|cannot be sent as JSON/.test(text(result)) ? "contract" : /^Tool "malformed" failed/.test(text(result)) ? "threw" : "failed inside the SDK";
        byText.set(what, (byText.get(what) ?? 0) + 1);
        if (ok) errors++;
        else outcomes.set(`${kind}: ${JSON.stringify(result).slice(0, 200)}`, (outcomes.get(kind) ?? 0) + 1);
      });
      if ((start + 250) % 1000 === 0) {
        const healthy = (await client.callTool({ name: "healthy", arguments: { id: `after_${start}` } })) as ToolResult;
        expect([healthy.isError ?? false, text(healthy), healthy.structuredContent]).toEqual([false, `after_${start}`, { sources: [`https://example.org/after_${start}`] }]);
      }
    }
    expect([...outcomes.keys()]).toEqual([]);
    expect(errors).toBe(COUNT);
    console.log(`${COUNT} malformed results: ${errors} error results (${[...byText].map(([what, n]) => `${n} ${what}`).join(", ")}); ${warnings.length} warnings`);
    // One warning per refused result, hostile objects (throwing getters and proxies) included.
    expect(warnings.length).toBe(COUNT);
  }, 300_000);
});

// ---------------------------------------------------------------------------------------------
// A server in its own process, over Streamable HTTP on 127.0.0.1.

interface Heap {
  heapUsed: number;
  rss: number;
  external: number;
}

class ServerProcess {
  readonly child: ChildProcess;
  url!: URL;
  private readonly waiters = new Map<string, Array<(message: Record<string, unknown>) => void>>();

  constructor() {
    this.child = fork(path.join(__dirname, "http-server.mjs"), [], {
      execArgv: ["--expose-gc"],
      env: { ...process.env, NODE_OPTIONS: "", SOURCED_SERVER_MAX_MS: String(5 * 60_000) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child.on("message", (message: Record<string, unknown>) => {
      const waiting = this.waiters.get(message.type as string)?.shift();
      waiting?.(message);
    });
  }

  private next(type: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not answer '${type}' within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.set(type, [
        ...(this.waiters.get(type) ?? []),
        (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      ]);
    });
  }

  async ready(): Promise<void> {
    this.url = new URL((await this.next("ready")).url as string);
  }

  async heap(): Promise<Heap> {
    const answer = this.next("heap");
    this.child.send({ type: "heap" });
    return (await answer) as unknown as Heap;
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.child.send({ type: "stop" });
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

async function connect(url: URL): Promise<Client> {
  const client = new sdk.Client({ name: "reliability", version: "1.0.0" });
  await client.connect(new sdk.StreamableHTTPClientTransport(url));
  return client;
}

async function stats(url: URL): Promise<{ echo: number; hangsStarted: number; hangsAborted: number; warnings: number }> {
  const client = await connect(url);
  try {
    return JSON.parse(text((await client.callTool({ name: "stats" })) as ToolResult)) as Awaited<ReturnType<typeof stats>>;
  } finally {
    await client.close();
  }
}

const MB = 1024 * 1024;

describe("1,000 concurrent tools/call over Streamable HTTP on 127.0.0.1", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess();
    await server.ready();
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  /** 1,000 calls at once through 20 clients, each echoing its unique id after a random delay. */
  async function burst(round: number): Promise<{ answered: number; mixed: string[]; failed: string[] }> {
    const clients = await Promise.all(Array.from({ length: 20 }, () => connect(server.url)));
    const ids = Array.from({ length: 1000 }, (_, i) => `r${round}-call-${i}-${Math.random().toString(36).slice(2)}`);
    const settled = await Promise.allSettled(
      ids.map((id, i) => clients[i % clients.length]!.callTool({ name: "echo", arguments: { id, delay: (i * 7919) % 25 } }) as Promise<ToolResult>),
    );
    await Promise.all(clients.map((client) => client.close()));
    const mixed: string[] = [];
    const failed: string[] = [];
    settled.forEach((outcome, i) => {
      const id = ids[i]!;
      if (outcome.status === "rejected") failed.push(`${id}: ${String(outcome.reason)}`);
      else {
        const result = outcome.value;
        const table = (result.structuredContent as { table?: unknown[][] } | undefined)?.table;
        if (result.isError || text(result) !== id || JSON.stringify(table) !== JSON.stringify([["id"], [id]])) mixed.push(`${id} -> ${JSON.stringify(result).slice(0, 200)}`);
      }
    });
    return { answered: settled.filter((s) => s.status === "fulfilled").length, mixed, failed };
  }

  it("every call answered with its own argument, none lost or mixed; memory back near baseline", async () => {
    await burst(0); // warm-up: the first burst loads and compiles what every later one reuses
    const baseline = await server.heap();
    const first = await burst(1);
    expect(first.failed).toEqual([]);
    expect(first.mixed).toEqual([]);
    expect(first.answered).toBe(1000);
    const after = await server.heap();
    const second = await burst(2);
    expect([second.answered, second.failed, second.mixed]).toEqual([1000, [], []]);
    const afterSecond = await server.heap();
    console.log(
      `heapUsed: baseline ${(baseline.heapUsed / MB).toFixed(1)} MB, after 1,000 calls ${(after.heapUsed / MB).toFixed(1)} MB, after 2,000 ${(afterSecond.heapUsed / MB).toFixed(1)} MB`,
    );
    // Generous: what stays after a burst is bounded and does not grow with the number of bursts.
    expect(after.heapUsed - baseline.heapUsed).toBeLessThan(8 * MB);
    expect(afterSecond.heapUsed - baseline.heapUsed).toBeLessThan(8 * MB);
    expect((await stats(server.url)).echo).toBe(3000);
  }, 180_000);
});

describe("a handler that never settles", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = new ServerProcess();
    await server.ready();
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it("the client's request timeout rejects the call with McpError RequestTimeout; other calls are served meanwhile and after", async () => {
    const client = await connect(server.url);
    try {
      const started = Date.now();
      const hanging = client.callTool({ name: "hang" }, undefined, { timeout: 1_000 }).then(
        () => "resolved",
        (error: unknown) => error,
      );
      const meanwhile = (await client.callTool({ name: "echo", arguments: { id: "meanwhile", delay: 0 } })) as ToolResult;
      expect(text(meanwhile)).toBe("meanwhile");
      const error = await hanging;
      expect(error).toBeInstanceOf(sdk.McpError);
      expect((error as InstanceType<Sdk["McpError"]>).code).toBe(sdk.ErrorCode.RequestTimeout);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      const after = (await client.callTool({ name: "echo", arguments: { id: "after", delay: 0 } })) as ToolResult;
      expect(text(after)).toBe("after");
    } finally {
      await client.close();
    }
  });

  it("an AbortSignal cancels the call on the client at once; the server keeps serving", async () => {
    const client = await connect(server.url);
    try {
      const controller = new AbortController();
      const hanging = client.callTool({ name: "hang" }, undefined, { signal: controller.signal }).then(
        () => "resolved",
        (error: unknown) => error,
      );
      setTimeout(() => controller.abort(new Error("user went away")), 200);
      const error = await hanging;
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message ?? error)).toMatch(/user went away|abort/i);
      expect(text((await client.callTool({ name: "echo", arguments: { id: "still", delay: 0 } })) as ToolResult)).toBe("still");
    } finally {
      await client.close();
    }
  });

  it("stateless HTTP: cancellation cannot reach the handler; its signal aborts only when the client's connection closes", async () => {
    const before = await stats(server.url);
    const client = await connect(server.url);
    const hanging = client.callTool({ name: "hang" }, undefined, { timeout: 300 }).catch((error: unknown) => error);
    await hanging;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelled = await stats(server.url);
    // The timeout sent notifications/cancelled, to a fresh stateless server that knows nothing of
    // the request: the handler still runs, its signal not aborted.
    expect(cancelled.hangsStarted - before.hangsStarted).toBe(1);
    expect(cancelled.hangsAborted - before.hangsAborted).toBe(0);
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const closed = await stats(server.url);
    expect(closed.hangsAborted - before.hangsAborted).toBe(1);
  });

  it("in process (one stateful server): notifications/cancelled aborts the handler's signal", async () => {
    let aborted = 0;
    const registry = registryModule.createRegistry({ name: "hang", version: "1.0.0", startupCheck: false, logger: { warn: () => {} } });
    registry.tool({ name: "hang" })(function hang(_args: unknown, extra: { mcpReq: { signal: AbortSignal } }) {
      extra.mcpReq.signal.addEventListener("abort", () => void aborted++);
      return new Promise(() => {});
    });
    const server = registry.createServer();
    const [clientTransport, serverTransport] = sdk.InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new sdk.Client({ name: "reliability", version: "1.0.0" });
    await client.connect(clientTransport);
    try {
      const error = await client.callTool({ name: "hang" }, undefined, { timeout: 200 }).catch((e: unknown) => e);
      expect((error as InstanceType<Sdk["McpError"]>).code).toBe(sdk.ErrorCode.RequestTimeout);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(aborted).toBe(1);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
