// The bundler plugin as a user meets it: esbuild with @sourced/unplugin over a generated project,
// every module (TypeScript and checked JavaScript) an entry point (a project of many programs has
// no single entry), not bundled, not
// written. Prints one JSON document: the plugin's findings (from esbuild's own messages) and any
// other message esbuild printed (an edit that broke the code would be one).
//
//   node bundle-project.mjs <project-dir>
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const UNPLUGIN_DIR = path.join(ROOT, "packages", "unplugin");
const esbuild = createRequire(path.join(UNPLUGIN_DIR, "package.json"))("esbuild");
const { default: sourced } = await import(pathToFileURL(path.join(UNPLUGIN_DIR, "dist", "esbuild.js")).href);

const directory = path.resolve(process.argv[2]);
const entryPoints = [];
const walk = (folder) => {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith("out") && entry.name !== "node_modules") walk(full);
    } else if (/\.[cm]?[jt]s$/.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name)) entryPoints.push(full);
  }
};
walk(directory);

let messages;
try {
  const result = await esbuild.build({
    absWorkingDir: directory,
    entryPoints,
    outdir: path.join(directory, "out-esbuild"),
    bundle: false,
    write: false,
    format: "cjs",
    logLevel: "silent",
    plugins: [sourced({ severity: "warning" })],
  });
  messages = [...result.errors, ...result.warnings];
} catch (error) {
  messages = [...(error.errors ?? []), ...(error.warnings ?? [])];
}
const findings = [];
const others = [];
for (const message of messages) {
  const diagnostic = message.pluginName === "sourced" ? message.detail : undefined;
  // An import of the registry that does not resolve: a notice for `sourced check` too, not a finding.
  if (diagnostic?.id === "unresolved-registry") continue;
  if (diagnostic?.location === undefined) {
    others.push(message.location ? `${message.location.file}:${message.location.line}: ${message.text}` : message.text);
    continue;
  }
  findings.push({
    file: path.relative(directory, diagnostic.location.file).split(path.sep).join("/"),
    code: Number(diagnostic.code.replace(/^SRC/, "")),
    tool: diagnostic.tool ?? null,
    line: diagnostic.location.line,
    column: diagnostic.location.column,
    message: diagnostic.message,
  });
}
process.stdout.write(`${JSON.stringify({ findings, others })}\n`);
