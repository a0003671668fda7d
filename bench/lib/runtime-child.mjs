// Measure 5, run time, in a process of its own:
//
//   node runtime-child.mjs calls <calls> <reps>   tools/call through the registry vs the SDK directly
//   node runtime-child.mjs register <tools> [default]
//                                                 registering <tools> tools, once, in a cold process (start-up
//                                                 check off; `default`: on, as createRegistry() has it, then not served)
//   node runtime-child.mjs http <calls> <reps> <concurrent>
//                                                 over Streamable HTTP on 127.0.0.1 (v2 Client, 2026-07-28):
//                                                 tools/call with 1,000 tools vs 1, tools/list with 1,000 vs 10,
//                                                 then <concurrent> calls at once
//
// One JSON line on stdout.
import { createRequire } from "node:module";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const registryDir = path.join(ROOT, "packages", "registry");
const fromRegistry = (id) => require(require.resolve(id, { paths: [registryDir] }));
const { createRegistry, structuredContentSchema } = require(registryDir);
const { McpServer } = fromRegistry("@modelcontextprotocol/server");
const { Client, InMemoryTransport, StreamableHTTPClientTransport } = fromRegistry("@modelcontextprotocol/client");
const { z } = fromRegistry("zod");

const now = () => performance.now();
const silent = { warn: () => {} };

/** The seed's list_cities, with an input so the SDK's argument validation is part of both paths. */
function listCities({ limit }) {
  const rows = [
    ["Tokyo", "37400068"],
    ["Delhi", "30290936"],
    ["Shanghai", "27058479"],
  ].slice(0, limit);
  return {
    content: [{ type: "text", text: `The ${rows.length} most populated cities are ${rows.map(([city]) => city).join(", ")}.` }],
    structuredContent: { sources: ["https://example.org/cities-data"], table: [["City", "Population"], ...rows] },
  };
}
const description = "Return the top cities by population.";
const input = { limit: z.number().int().min(1).max(3) };

async function connect(server) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  await client.listTools(); // the client caches each tool's outputSchema validator from here
  return client;
}

async function calls(count, reps) {
  // A: through the registry (its net parses every result before it leaves).
  const registry = createRegistry({ name: "bench", version: "1.0.0", logger: silent, startupCheck: false });
  registry.tool({ description, input })(function list_cities(args) {
    return listCities(args);
  });
  const viaRegistry = await connect(registry.createServer());

  // B: the same handler on the SDK alone, with the same input and output schemas, so the only
  // difference left is the registry's net.
  const direct = new McpServer({ name: "bench", version: "1.0.0" });
  direct.registerTool("list_cities", { description, inputSchema: z.object(input), outputSchema: structuredContentSchema }, (args) => listCities(args));
  const viaSdk = await connect(direct);

  // Wall and CPU time per call (the process's CPU time is less disturbed by other work on the machine).
  const run = async (client) => {
    const started = now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      const result = await client.callTool({ name: "list_cities", arguments: { limit: 1 + (i % 3) } });
      if (result.isError || result.structuredContent === undefined) throw new Error(`call failed: ${JSON.stringify(result)}`);
    }
    const used = process.cpuUsage(cpu);
    return { wall: (now() - started) / count, cpu: (used.user + used.system) / 1000 / count };
  };

  // Warm both paths (JIT, validators), then alternate.
  await run(viaRegistry);
  await run(viaSdk);
  const throughRegistry = [];
  const sdk = [];
  for (let rep = 0; rep < reps; rep++) {
    if (rep % 2 === 0) {
      throughRegistry.push(await run(viaRegistry));
      sdk.push(await run(viaSdk));
    } else {
      sdk.push(await run(viaSdk));
      throughRegistry.push(await run(viaRegistry));
    }
  }
  await viaRegistry.close();
  await viaSdk.close();
  return {
    calls: count,
    registry: { wallMs: throughRegistry.map((r) => r.wall), cpuMs: throughRegistry.map((r) => r.cpu) },
    sdk: { wallMs: sdk.map((r) => r.wall), cpuMs: sdk.map((r) => r.cpu) },
  };
}

function register(count, defaults) {
  // The functions exist before timing: a module defines them whatever registers them.
  const functions = Array.from({ length: count }, (_, i) => ({ [`tool_${i}`]: (args) => listCities(args) })[`tool_${i}`]);

  if (defaults) {
    // As createRegistry() is by default: each unstamped registration keeps the deeper stack the
    // start-up check reads. Not served (serving would start the check, which measure 9 times).
    const checked = createRegistry({ name: "bench", version: "1.0.0", logger: silent });
    const started = now();
    for (const fn of functions) checked.tool({ description, input })(fn);
    return { tools: count, registryToolMs: now() - started };
  }
  const registry = createRegistry({ name: "bench", version: "1.0.0", logger: silent, startupCheck: false });
  let started = now();
  for (const fn of functions) registry.tool({ description, input })(fn);
  const registryToolMs = now() - started;

  started = now();
  registry.createServer();
  const createServerMs = now() - started;

  // For scale: the SDK's own registerTool, as many times, in the same process (warm).
  const direct = new McpServer({ name: "bench", version: "1.0.0" });
  started = now();
  for (const fn of functions) direct.registerTool(fn.name, { description, inputSchema: z.object(input), outputSchema: structuredContentSchema }, fn);
  const sdkRegisterToolMs = now() - started;

  if (registry.tools.length !== count) throw new Error(`registered ${registry.tools.length} tools, not ${count}`);
  return { tools: count, registryToolMs, createServerMs, sdkRegisterToolMs };
}

/** A registry of `count` tools (list_cities and count - 1 others like it), served over HTTP. */
async function servedRegistry(count, limits) {
  const registry = createRegistry({ name: "bench", version: "1.0.0", logger: silent, startupCheck: false });
  registry.tool({ description, input })(function list_cities(args) {
    return listCities(args);
  });
  for (let i = 1; i < count; i++) registry.tool({ name: `tool_${i}`, description, input })((args) => listCities(args));
  return registry.serveHttp(limits ? { limits } : {});
}

async function httpClient(url) {
  const client = new Client({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

async function http(count, reps, concurrent) {
  const servings = { 1: await servedRegistry(1), 10: await servedRegistry(10), 1000: await servedRegistry(1000) };
  // Separate clients for the call arms and the list arms: a v2 Client that holds a tools/list
  // answer looks each called tool up in it (client-side work that grows with the list), which
  // is not the server's cost being measured.
  const clients = {};
  const listClients = {};
  for (const [tools, serving] of Object.entries(servings)) {
    clients[tools] = await httpClient(serving.url);
    listClients[tools] = await httpClient(serving.url);
  }
  const timeCalls = async (client) => {
    const started = now();
    for (let i = 0; i < count; i++) {
      const result = await client.callTool({ name: "list_cities", arguments: { limit: 1 + (i % 3) } });
      if (result.isError || result.structuredContent === undefined) throw new Error(`call failed: ${JSON.stringify(result)}`);
    }
    return (now() - started) / count;
  };
  const lists = Math.max(5, Math.round(count / 20));
  const timeLists = async (client, tools) => {
    const started = now();
    for (let i = 0; i < lists; i++) {
      // refresh: past the client's cache, so the server answers every one.
      const { tools: listed } = await client.listTools(undefined, { cacheMode: "refresh" });
      if (listed.length !== tools) throw new Error(`tools/list gave ${listed.length} tools, not ${tools}`);
    }
    return (now() - started) / lists;
  };
  // The same tools/list as raw HTTP (the answer's JSON parsed): the server's own cost and the
  // payload, without the v2 Client's validation of every listed tool. As a 2025-era POST, and as a
  // 2026-07-28 one (the per-request envelope and headers the v2 Client sends).
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const rawList = async (url, tools, era = "2025") => {
    const headers =
      era === "2026"
        ? { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }
        : { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const started = now();
    for (let i = 0; i < lists; i++) {
      const response = await globalThis.fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/list", params: era === "2026" ? { _meta: envelope } : {} }),
      });
      const text = await response.text();
      const json = text.startsWith("{") ? text : text.split("\n").find((line) => line.startsWith("data: "))?.slice(6);
      const listed = JSON.parse(json ?? "null")?.result?.tools;
      if (listed?.length !== tools) throw new Error(`raw tools/list gave ${listed?.length} tools, not ${tools}`);
    }
    return (now() - started) / lists;
  };
  // Warm every path, then alternate the arms.
  await timeCalls(clients[1]);
  await timeCalls(clients[1000]);
  await timeLists(listClients[10], 10);
  await timeLists(listClients[1000], 1000);
  const call = { 1: [], 1000: [] };
  const list = { 10: [], 1000: [] };
  const raw = { 10: [], 1000: [] };
  const rawModern = { 10: [], 1000: [] };
  await rawList(servings[10].url, 10);
  await rawList(servings[1000].url, 1000);
  await rawList(servings[10].url, 10, "2026");
  await rawList(servings[1000].url, 1000, "2026");
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? [1, 1000] : [1000, 1];
    for (const tools of order) call[tools].push(await timeCalls(clients[tools]));
    for (const tools of rep % 2 === 0 ? [10, 1000] : [1000, 10]) {
      list[tools].push(await timeLists(listClients[tools], tools));
      raw[tools].push(await rawList(servings[tools].url, tools));
      rawModern[tools].push(await rawList(servings[tools].url, tools, "2026"));
    }
  }
  for (const client of [...Object.values(clients), ...Object.values(listClients)]) await client.close();
  for (const serving of Object.values(servings)) await serving.close();

  // <concurrent> calls at once, from 50 clients, to one server whose concurrency limit admits them.
  const serving = await servedRegistry(1, { maxConcurrentRequests: concurrent });
  const pool = await Promise.all(Array.from({ length: 50 }, () => httpClient(serving.url)));
  const latencies = [];
  let lost = 0;
  const problems = new Map();
  const started = now();
  await Promise.all(
    Array.from({ length: concurrent }, async (_, i) => {
      const begun = now();
      try {
        const result = await pool[i % pool.length].callTool({ name: "list_cities", arguments: { limit: 1 + (i % 3) } });
        if (result.isError || result.structuredContent === undefined) throw new Error("error result");
        latencies.push(now() - begun);
      } catch (error) {
        lost++;
        const key = String(error instanceof Error ? error.message : error).slice(0, 120);
        problems.set(key, (problems.get(key) ?? 0) + 1);
      }
    }),
  );
  const totalMs = now() - started;
  for (const client of pool) await client.close();
  await serving.close();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    calls: count,
    lists,
    callMs: call,
    listMs: list,
    rawListMs: raw,
    rawModernListMs: rawModern,
    concurrent: { calls: concurrent, lost, problems: Object.fromEntries(problems), p50Ms: at(0.5), p99Ms: at(0.99), maxMs: latencies.at(-1) ?? NaN, totalMs },
  };
}

async function main() {
  const [mode, first, second, third] = process.argv.slice(2);
  const result =
    mode === "calls"
      ? await calls(Number(first), Number(second))
      : mode === "register"
        ? register(Number(first), second === "default")
        : mode === "http"
          ? await http(Number(first), Number(second), Number(third))
          : undefined;
  if (result === undefined) throw new Error(`unknown mode ${mode}: calls <calls> <reps> | register <tools> [default] | http <calls> <reps> <concurrent>`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
