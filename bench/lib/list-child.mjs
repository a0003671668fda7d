// Measure 11, tools/list at the client, in a process of its own:
//
//   node list-child.mjs <reps>
//
// Over Streamable HTTP on 127.0.0.1, each arm its own served registry and its own client, the arms
// alternated: tools/list of 10 tools vs 1,000 as the v2 Client (2026-07-28) and the v1 Client
// (2025-era) receive it — parsed, checked and kept, the latency a host sees — and of 40 tools on a
// registry serving 10,000 resources vs 1 (each tool's outputSchema says which sources it may cite:
// it must not grow with the number of resources). One JSON line on stdout.
import { Buffer } from "node:buffer";
import { createRequire } from "node:module";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const registryDir = path.join(ROOT, "packages", "registry");
const fromRegistry = (id) => require(require.resolve(id, { paths: [registryDir] }));
const { createRegistry } = require(registryDir);
const { Client, StreamableHTTPClientTransport } = fromRegistry("@modelcontextprotocol/client");
const { Client: LegacyClient } = fromRegistry("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport: LegacyTransport } = fromRegistry("@modelcontextprotocol/sdk/client/streamableHttp.js");

const silent = { warn: () => {} };
const now = () => performance.now();

/** The seed's list_cities, `tools` times under other names, on a registry serving `resources` resources. */
function served(tools, resources) {
  const registry = createRegistry({ name: "bench", version: "1.0.0", logger: silent, startupCheck: false });
  for (let i = 0; i < resources; i++) registry.resource(`row ${i}`, `memory://rows/${i}`, {}, (uri) => ({ contents: [{ uri: uri.href, text: String(i) }] }));
  for (let i = 0; i < tools; i++) {
    registry.tool({ name: `list_cities_${i}`, description: "Return the top cities by population." })(function list_cities() {
      return { content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: [resources > 0 ? "memory://rows/0" : "https://example.org/cities-data"] } };
    });
  }
  return registry.serveHttp();
}

async function connect(url, legacy) {
  if (legacy) {
    const client = new LegacyClient({ name: "bench", version: "1.0.0" });
    await client.connect(new LegacyTransport(url));
    return client;
  }
  const client = new Client({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** Milliseconds per tools/list, over `count` lists; the v2 Client past its cache, so the server answers every one. */
async function timeLists(client, legacy, tools, count) {
  let bytes = 0;
  const started = now();
  for (let i = 0; i < count; i++) {
    const { tools: listed } = legacy ? await client.listTools() : await client.listTools(undefined, { cacheMode: "refresh" });
    if (listed.length !== tools) throw new Error(`tools/list gave ${listed.length} tools, not ${tools}`);
    if (i === 0) bytes = Buffer.byteLength(JSON.stringify(listed));
  }
  return { ms: (now() - started) / count, bytes };
}

async function main() {
  const reps = Number(process.argv[2] ?? 5);
  const arms = {
    "10 tools": { tools: 10, resources: 0 },
    "1,000 tools": { tools: 1000, resources: 0 },
    "40 tools, 1 resource": { tools: 40, resources: 1 },
    "40 tools, 10,000 resources": { tools: 40, resources: 10000 },
  };
  const servings = {};
  for (const [name, { tools, resources }] of Object.entries(arms)) servings[name] = await served(tools, resources);
  const result = { reps, arms: {} };
  for (const legacy of [false, true]) {
    const who = legacy ? "v1 Client" : "v2 Client";
    const clients = {};
    for (const name of Object.keys(arms)) clients[name] = await connect(servings[name].url, legacy);
    // Warm every path, then alternate the arms; fewer lists of the large ones, each still timed whole.
    for (const [name, { tools }] of Object.entries(arms)) await timeLists(clients[name], legacy, tools, 2);
    const samples = Object.fromEntries(Object.keys(arms).map((name) => [name, []]));
    let bytes = {};
    for (let rep = 0; rep < reps; rep++) {
      const order = rep % 2 === 0 ? Object.keys(arms) : Object.keys(arms).reverse();
      for (const name of order) {
        const { tools } = arms[name];
        const { ms, bytes: size } = await timeLists(clients[name], legacy, tools, tools >= 1000 ? (legacy ? 2 : 5) : 20);
        samples[name].push(ms);
        bytes[name] = size;
      }
    }
    for (const client of Object.values(clients)) await client.close();
    result.arms[who] = { samples, bytes };
  }
  for (const serving of Object.values(servings)) await serving.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
