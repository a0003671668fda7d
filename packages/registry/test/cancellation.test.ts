import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createRegistry, type Registry } from "../dist/index.js";
import { checkInMemory, type AnyClient } from "./both-clients.js";
import { recordingLogger, seedResult } from "./helpers.js";

/*
 * A call or a read the client cancels: the tool's signal (`extra.mcpReq.signal`, a read's
 * `ctx.mcpReq.signal`) is aborted, the SDK sends no answer for it, and what the tool settles with
 * afterwards — the rejection its aborted signal causes, typically — is not logged as a failure:
 * a cancelled request is the client's decision, not the server's fault. The server goes on serving.
 */

/**
 * What the server's side saw: how many requests started, the reason of each aborted signal, the
 * async input checks still pending (each settled by the test: rejecting, or passing), and how
 * often the tool behind them ran.
 */
interface Seen {
  started: number;
  aborted: string[];
  pendingChecks: ((outcome: "rejects" | "passes") => void)[];
  checkedLookupRuns: number;
}

const newSeen = (): Seen => ({ started: 0, aborted: [], pendingChecks: [], checkedLookupRuns: 0 });

function cancellable(logger: ReturnType<typeof recordingLogger>, seen: Seen): () => Registry {
  return () => {
    const registry = createRegistry({ name: "cancel", version: "1.0.0", startupCheck: false, logger });
    const untilAborted = (signal: AbortSignal) => {
      seen.started++;
      return new Promise<never>((_resolve, reject) => {
        const onAbort = () => {
          seen.aborted.push(String(signal.reason instanceof Error ? signal.reason.message : signal.reason));
          // What fetch(url, { signal }) or signal.throwIfAborted() do: reject with the signal's reason.
          reject(signal.reason as Error);
        };
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort);
      });
    };
    registry.tool()(function slow_lookup(_args: unknown, extra: { mcpReq: { signal: AbortSignal } }) {
      return untilAborted(extra.mcpReq.signal);
    });
    registry.tool()(function list_cities() {
      return seedResult();
    });
    // An input refinement that looks the city up somewhere slow: it settles when the test says.
    const knownCity = z.string().refine(() => {
      seen.started++;
      return new Promise<boolean>((resolve, reject) => {
        seen.pendingChecks.push((outcome) => (outcome === "passes" ? resolve(true) : reject(new Error("the city index went away"))));
      });
    });
    registry.tool({ input: { city: knownCity } })(function checked_lookup() {
      seen.checkedLookupRuns++;
      return seedResult();
    });
    registry.resource("slow", "memory://slow", {}, (_uri, ctx) => untilAborted(ctx.mcpReq.signal));
    return registry;
  };
}

async function until(condition: () => boolean): Promise<void> {
  const started = Date.now();
  while (!condition() && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Starts a request and cancels it once the server runs it. */
async function cancelOnceStarted(seen: Seen, start: (signal: AbortSignal) => Promise<unknown>): Promise<string> {
  const controller = new AbortController();
  const before = seen.started;
  const outcome = start(controller.signal).then(
    () => "answered",
    (error: unknown) => `rejected: ${String(error)}`,
  );
  await until(() => seen.started > before);
  controller.abort(new Error("the user closed the chat"));
  return outcome;
}

/** tools/call with a signal: the v2 Client takes the request's options second; the v1 Client third, after a result schema. */
function callTool(client: AnyClient, params: { name: string; arguments?: Record<string, unknown> }, signal: AbortSignal): Promise<unknown> {
  return client instanceof Client
    ? client.callTool(params, { signal })
    : (client.callTool as (params: object, schema: undefined, options: object) => Promise<unknown>)(params, undefined, { signal });
}

async function expectCancelled(client: AnyClient, logger: ReturnType<typeof recordingLogger>, seen: Seen): Promise<void> {
  seen.aborted.length = 0;
  logger.warnings.length = 0;
  const call = await cancelOnceStarted(seen, (signal) => callTool(client, { name: "slow_lookup" }, signal));
  expect(call).toMatch(/^rejected: /);
  const read = await cancelOnceStarted(seen, (signal) => client.readResource({ uri: "memory://slow" }, { signal }));
  expect(read).toMatch(/^rejected: /);
  // The server hears the cancellation; the tool and the read settle with the signal's reason.
  await until(() => seen.aborted.length === 2);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(seen.aborted).toHaveLength(2);
  expect(logger.warnings).toEqual([]);

  // Arguments still being checked (an async refinement) when the client cancels: the check
  // settling afterwards is no failure to log if it rejects, and starts no tool if it passes.
  for (const outcome of ["rejects", "passes"] as const) {
    const checked = await cancelOnceStarted(seen, (signal) => callTool(client, { name: "checked_lookup", arguments: { city: "Paris" } }, signal));
    expect(checked).toMatch(/^rejected: /);
    // The cancellation reaches the server (a notification in memory, a closed connection over HTTP).
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen.pendingChecks.shift()!(outcome);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(seen.checkedLookupRuns).toBe(0);
  expect(logger.warnings).toEqual([]);
  expect(((await client.callTool({ name: "list_cities" })) as { isError?: boolean }).isError).toBeUndefined();
}

describe("a request the client cancels", () => {
  test("in memory, v2 and v1 Clients: the signal aborts, nothing is logged, the server goes on", async () => {
    const logger = recordingLogger();
    const seen = newSeen();
    await checkInMemory(cancellable(logger, seen), (client) => expectCancelled(client, logger, seen));
  });

  // Over HTTP a 2026-07-28 client cancels by closing its request's connection. (A 2025 client
  // sends notifications/cancelled in a request of its own, which a server without sessions cannot
  // tie to the call: that call runs on until its deadline — docs/registry.md, "Deadlines".)
  test("over HTTP, the v2 Client (2026-07-28): the same", async () => {
    const logger = recordingLogger();
    const seen = newSeen();
    const serving = await cancellable(logger, seen)().serveHttp();
    try {
      const client = new Client({ name: "cancel", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      await client.connect(new StreamableHTTPClientTransport(serving.url));
      await expectCancelled(client, logger, seen);
      await client.close();
    } finally {
      await serving.close();
    }
  });
});
