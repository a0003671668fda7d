// Loads every module of a project in one process, as a server loads its tools, and serves every
// registry the modules created: one JSON document with the modules that failed to load (and why),
// each registry's tools as the SDK's own Client lists them, and every warning a registry logged.
// Run on a checking build's output (`node corpus-registries.mjs --build [--require-verified] <dir>
// <file>...`, the start-up check off: what the build alone serves), on plain tsc's output (`node
// corpus-registries.mjs <dir> <file>...`) or on the sources (`node --import tsx corpus-registries.mjs
// <dir> <file>...`), where the registry's start-up check judges them, it shows what each way of
// running the same project serves.
//
// The registries are found by wrapping `createRegistry` of the registry's CommonJS build, which the
// project's modules load: the wrapper only remembers each registry and gives it a logger that keeps
// its warnings when it has none (and, with --build, turns the start-up check off).
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const fromRegistry = createRequire(path.join(ROOT, "packages", "registry", "package.json"));
const { Client, InMemoryTransport } = fromRegistry("@modelcontextprotocol/client");

const flags = process.argv.slice(2).filter((argument) => argument.startsWith("--"));
const build = flags.includes("--build");
// `--require-verified`: every registry with requireVerified on, as a production server of a checking build runs.
const requireVerified = flags.includes("--require-verified");
const [directory, ...files] = process.argv.slice(2 + flags.length);
const project = path.resolve(directory);
const load = createRequire(path.join(project, "noop.js"));
const registryModule = load(path.join(path.dirname(load.resolve("@sourced/registry/package.json")), "dist", "registry.js"));
const created = [];
const warnings = [];
const keep = { warn: (message) => void warnings.push(message) };
const createRegistry = registryModule.createRegistry;
registryModule.createRegistry = (options) => {
  const registry = createRegistry({ ...options, logger: options.logger ?? keep, ...(build ? { startupCheck: false } : {}), ...(requireVerified ? { requireVerified: true } : {}) });
  created.push(registry);
  return registry;
};

const failures = {};
for (const file of files) {
  try {
    load(path.join(project, file));
  } catch (error) {
    failures[file] = error instanceof Error ? error.message.split("\n")[0] : String(error);
  }
}
const served = [];
for (const registry of created) {
  const server = registry.createServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "corpus", version: "1.0.0" });
  await client.connect(clientSide);
  const known = new Map(registry.tools.map((tool) => [tool.name, tool]));
  for (const tool of (await client.listTools()).tools) {
    // Where it was registered, relative to the project: which module a tool belongs to.
    const file = path.relative(project, (known.get(tool.name)?.site ?? "").replace(/:\d+:\d+$/, "")).split(path.sep).join("/");
    served.push({ tool: `${registry.name}:${tool.name}`, file, verifiedBy: known.get(tool.name)?.verifiedBy ?? null });
  }
  await client.close();
}
served.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
process.stdout.write(JSON.stringify({ failures, served, warnings }));
