// Loads the emitted JavaScript of a generated project in one process, as a server would at
// start-up, and prints one JSON document: which modules failed to load (and why), every tool the
// project's registries serve (with the verifier its stamp names), and the registry's warnings;
// the start-up check off, as the build alone serves it.
//
//   node load-project.mjs <out-dir> <module>...
import { createRequire } from "node:module";
import * as path from "node:path";

const [outDir, ...modules] = process.argv.slice(2);
const out = path.resolve(outDir);
// The emitted modules are CommonJS: load them as the server's own `require` would.
const load = createRequire(path.join(out, "noop.js"));
// What the build alone serves: the registry's start-up check, which would judge the emitted code
// again through its source maps, is off (the run from source is compared separately).
const registryModule = load(path.join(path.dirname(load.resolve("@sourced/registry/package.json")), "dist", "registry.js"));
const createRegistry = registryModule.createRegistry;
registryModule.createRegistry = (options) => createRegistry({ ...options, startupCheck: false });
const failures = {};
const registries = [];
for (const name of modules) {
  try {
    const exports = load(path.join(out, `${name}.js`));
    for (const registry of exports.__registries ?? []) registries.push(registry);
  } catch (error) {
    failures[name] = error instanceof Error ? error.message : String(error);
  }
}
const shared = load(path.join(out, "lib/registry.js"));
let made = [];
try {
  made = load(path.join(out, "lib/factory.js")).made;
} catch (error) {
  failures["lib/factory"] = String(error);
}
const tools = [shared.registry, ...made, ...registries].flatMap((registry) =>
  registry.tools.map((tool) => ({ registry: registry.name, name: tool.name, verifiedBy: tool.verifiedBy ?? null })),
);
process.stdout.write(JSON.stringify({ failures, tools, warnings: shared.warnings }));
