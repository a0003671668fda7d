// Measure 5, run time, in a process of its own:
//
//   node runtime-child.mjs calls <calls> <reps>   tools/call through the registry vs the SDK directly
//   node runtime-child.mjs register <tools>       registering <tools> tools, once, in a cold process
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
const { Client, InMemoryTransport } = fromRegistry("@modelcontextprotocol/client");
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
  const registry = createRegistry({ name: "bench", version: "1.0.0", logger: silent });
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

function register(count) {
  // The functions exist before timing: a module defines them whatever registers them.
  const functions = Array.from({ length: count }, (_, i) => ({ [`tool_${i}`]: (args) => listCities(args) })[`tool_${i}`]);

  const registry = createRegistry({ name: "bench", version: "1.0.0", logger: silent });
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

async function main() {
  const [mode, first, second] = process.argv.slice(2);
  const result = mode === "calls" ? await calls(Number(first), Number(second)) : mode === "register" ? register(Number(first)) : undefined;
  if (result === undefined) throw new Error(`unknown mode ${mode}: calls <calls> <reps> | register <tools>`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
