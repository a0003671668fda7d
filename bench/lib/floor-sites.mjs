// The registrations of a generated project, for the floor (floor.cjs): run once per project, in a
// process of its own, before the floor's arms, so that none of them finds anything warmed.
//
//   node floor-sites.mjs <projectDir>   -> <projectDir>/build/floor-sites.json
//
// Per file (relative to the project): each registration the analysis finds, its callee's name
// (`registry.tool(…)` → `tool`, `defineTool(…)` → `defineTool`) and the function it registers,
// each as [pos, end, kind name]; `fn` is null where the function is not visible statically.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "package.json"));
const ts = require("typescript");
const { analyzeProgram } = require(path.join(ROOT, "packages", "analysis"));

const [directory] = process.argv.slice(2);
const parsed = ts.getParsedCommandLineOfConfigFile(path.join(directory, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const result = analyzeProgram(ts, program);

const place = (node) => [node.pos, node.end, ts.SyntaxKind[node.kind]];
/** The name a registration's callee reads: `tool` of `registry.tool({…})(fn)` or `@registry.tool()`, the identifier of `defineTool(fn)`. */
function calleeName(site) {
  let callee = site.expression;
  while (ts.isCallExpression(callee)) callee = callee.expression;
  return ts.isPropertyAccessExpression(callee) ? callee.name : callee;
}
const files = {};
for (const registration of result.registrations) {
  const file = path.relative(directory, registration.site.getSourceFile().fileName);
  (files[file] ??= []).push({ callee: place(calleeName(registration.site)), fn: registration.fn === undefined ? null : place(registration.fn) });
}
fs.mkdirSync(path.join(directory, "build"), { recursive: true });
fs.writeFileSync(path.join(directory, "build", "floor-sites.json"), `${JSON.stringify({ registrations: result.registrations.length, files })}\n`);
