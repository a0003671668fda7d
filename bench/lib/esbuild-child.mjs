// Measures 6 and 7: esbuild over a generated project, every module an entry point (the project has
// no single entry), with or without @sourced/unplugin.
//
//   node esbuild-child.mjs <projectDir> build <plugin|none>  -> one JSON line: { findings }
//   node esbuild-child.mjs <projectDir> watch <reps>          -> one JSON line: { coldMs, editMs[], findings[] }
//
// `watch` keeps one esbuild context (what `context.watch()` rebuilds through): the cold build,
// then `reps` edits of one module, alternately breaking one compliant tool's annotation and
// fixing it again, each followed by the rebuild that reports the updated diagnostics. Every
// rebuild's findings are returned, so the caller can check that each edit was seen.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const UNPLUGIN_DIR = path.join(ROOT, "packages", "unplugin");
const require = createRequire(path.join(UNPLUGIN_DIR, "package.json"));
const esbuild = require("esbuild");
const { default: sourced } = await import(pathToFileURL(path.join(UNPLUGIN_DIR, "dist", "esbuild.js")).href);

const [dir, mode, argument] = process.argv.slice(2);

function modules(directory) {
  const found = [];
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...modules(full));
    else if (entry.name.endsWith(".ts")) found.push(full);
  }
  return found.sort();
}

const entryPoints = modules(path.join(dir, "src"));
const options = (withPlugin) => ({
  absWorkingDir: dir,
  entryPoints,
  outdir: path.join(dir, "build", "esbuild"),
  bundle: false,
  format: "cjs",
  platform: "node",
  logLevel: "silent",
  plugins: withPlugin ? [sourced({ severity: "warning" })] : [],
});

/** Finding id per message of the plugin (its `detail` is the diagnostic). */
const findingsOf = (result) => result.warnings.filter((message) => message.pluginName === "sourced").map((message) => message.detail.code);

if (mode === "build") {
  const result = await esbuild.build(options(argument === "plugin"));
  process.stdout.write(`${JSON.stringify({ findings: findingsOf(result) })}\n`);
} else {
  const reps = Number(argument);
  const context = await esbuild.context(options(true));
  let started = performance.now();
  const cold = await context.rebuild();
  const coldMs = performance.now() - started;
  const findings = [findingsOf(cold)];
  const editMs = [];
  // One compliant call-form tool: its annotation is what the edits break and fix.
  const target = entryPoints.find((file) => /\(function \w+\(\): DataToolOutput \{/.test(fs.readFileSync(file, "utf8")));
  const original = fs.readFileSync(target, "utf8");
  const broken = original.replace(/(\(function \w+\(\)): DataToolOutput \{/, "$1: string | DataToolOutput {");
  try {
    for (let rep = 0; rep < reps; rep++) {
      fs.writeFileSync(target, rep % 2 === 0 ? broken : original);
      started = performance.now();
      const result = await context.rebuild();
      editMs.push(performance.now() - started);
      findings.push(findingsOf(result));
    }
  } finally {
    fs.writeFileSync(target, original);
    await context.dispose();
  }
  process.stdout.write(`${JSON.stringify({ coldMs, editMs, findings: findings.map((list) => list.length) })}\n`);
}
