// A registry served over Streamable HTTP on 127.0.0.1 in its own process, driven by a test through
// IPC. Run it with `node --expose-gc http-server.mjs`: asked for `heap`, it collects garbage twice
// and reports `process.memoryUsage()`. It stops when asked, when its parent goes away, and in any
// case after SOURCED_SERVER_MAX_MS (default 5 minutes): a bounded, self-stopping server.
//
// Tools: `echo` (returns its unique argument, after an optional delay), `hang` (never settles),
// `stats` (what the server saw: echo calls, hangs started, hang signals aborted, warnings).
/* global setTimeout, clearTimeout */
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fromRegistry = createRequire(path.join(root, "packages/registry/package.json"));
const { createRegistry } = fromRegistry("./dist/index.js");
const { z } = fromRegistry("zod");

const stats = { echo: 0, hangsStarted: 0, hangsAborted: 0, warnings: 0 };
const registry = createRegistry({ name: "reliability", version: "1.0.0", startupCheck: false, logger: { warn: () => void stats.warnings++ } });

registry.tool({ name: "echo", input: { id: z.string(), delay: z.number().int().min(0).max(1000) } })(async function echo({ id, delay }) {
  stats.echo++;
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  return {
    content: [{ type: "text", text: id }],
    structuredContent: { sources: [`https://example.org/echo/${encodeURIComponent(id)}`], table: [["id"], [id]] },
  };
});

registry.tool({ name: "hang" })(function hang(_args, extra) {
  stats.hangsStarted++;
  extra.mcpReq.signal.addEventListener("abort", () => void stats.hangsAborted++);
  return new Promise(() => {});
});

registry.tool({ name: "stats" })(function stats_() {
  return { content: [{ type: "text", text: JSON.stringify(stats) }], structuredContent: { sources: ["https://example.org/stats"] } };
});

const limit = setTimeout(() => {
  console.error("http-server: stopping after its time limit");
  process.exit(3);
}, Number(process.env.SOURCED_SERVER_MAX_MS ?? 5 * 60_000));

const serving = await registry.serveHttp();
process.on("disconnect", () => process.exit(0));
process.on("message", (message) => {
  if (message.type === "heap") {
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, rss, external } = process.memoryUsage();
    process.send({ type: "heap", heapUsed, rss, external });
  } else if (message.type === "stop") {
    clearTimeout(limit);
    serving.close().then(() => process.exit(0));
  }
});
process.send({ type: "ready", url: serving.url.href });
