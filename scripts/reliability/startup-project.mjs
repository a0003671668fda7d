// The start-up check as a developer meets it: a generated project's TypeScript sources run as they
// are (with tsx, which runs decorators too; no build, so nothing is stripped or stamped), every
// program's module loaded as a server loads its tools, then every registry served once and its
// tools listed by the SDK's own Client, one registry after the other (the first judges the
// project, the others answer from its cached verdicts). Prints one JSON document, as
// load-project.mjs does: which modules failed to load, every tool served (with what verified it),
// and the registry's warnings.
//
//   node --import tsx startup-project.mjs <project-dir> <module>...
//   node startup-project.mjs <project-dir>/out <module>...   (plain tsc's output of the same sources)
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { Client, InMemoryTransport } = createRequire(path.join(ROOT, "packages", "registry", "package.json"))("@modelcontextprotocol/client");

const [directory, ...modules] = process.argv.slice(2);
const project = path.resolve(directory);
// The sources are CommonJS TypeScript: tsx's require hook compiles them as Node loads them.
const load = createRequire(path.join(project, "noop.js"));
const failures = {};
const registries = [];
for (const name of modules) {
  const file = [".ts", ".js"].map((extension) => path.join(project, `${name}${extension}`)).find((candidate) => fs.existsSync(candidate));
  try {
    const exports = load(file ?? path.join(project, `${name}.ts`));
    for (const registry of exports.__registries ?? []) registries.push(registry);
  } catch (error) {
    failures[name] = error instanceof Error ? error.message : String(error);
  }
}
// The sources (`lib/registry.ts`), or plain tsc's output of them (`out/lib/registry.js`).
const module = (name) => [".ts", ".js"].map((extension) => path.join(project, `${name}${extension}`)).find((candidate) => fs.existsSync(candidate)) ?? path.join(project, `${name}.ts`);
const shared = load(module("lib/registry"));
let made = [];
try {
  made = load(module("lib/factory")).made;
} catch (error) {
  failures["lib/factory"] = String(error);
}
const tools = [];
for (const registry of [shared.registry, ...made, ...registries]) {
  const server = registry.createServer();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "startup-parity", version: "1.0.0" });
  await client.connect(clientSide);
  const listed = (await client.listTools()).tools.map((tool) => tool.name);
  await client.close();
  const verifiers = new Map(registry.tools.map((tool) => [tool.name, tool.verifiedBy ?? null]));
  for (const name of listed) tools.push({ registry: registry.name, name, verifiedBy: verifiers.get(name) ?? null });
}
process.stdout.write(JSON.stringify({ failures, tools, warnings: shared.warnings }));
