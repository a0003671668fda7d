// Measure 3, the editor's view: one warm ESLint instance (typed linting through the project
// service) lints single files of the project in turn, as an editor does on every open or edit.
//
//   node editor-child.mjs <projectDir> <config> <rule> <files> [<before>]   -> one JSON line on stdout
//
// The instance first lints one file untimed (it builds the program and the checker, a cost paid
// once per editor session), then each of <files> modules, spread evenly over the project, with
// `lintText` and the file's own text. Per file: the rule's own time from ESLint's `stats`
// (the same clock as TIMING, per file), its CPU time, every thread's and the main thread's
// (`rule-cpu.mjs`, preloaded), the whole lint's wall time, and the messages' ids.
//
// <before> (warm-up.mjs; measure 3 passes none): that many of the other modules that read the
// registry are linted, untimed, after the first file and before the timed ones: a session whose
// code V8 has run and optimized on other files' registrations, and whose timed files are still new
// to the checker.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { editorFiles } from "./editor-files.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "package.json"));
const { ESLint } = await import(pathToFileURL(require.resolve("eslint")).href);

const [dir, config, rule, countText, beforeText = "0"] = process.argv.slice(2);
const { modules, warmUp, files } = editorFiles(dir, Number(countText));
const beforeCount = Number(beforeText);
const before = [];
for (const file of modules) {
  if (before.length >= beforeCount) break;
  if (file !== warmUp && !files.includes(file) && fs.readFileSync(file, "utf8").includes("registry")) before.push(file);
}

const eslint = new ESLint({ cwd: dir, overrideConfigFile: path.join(dir, config), stats: true });

const ruleCpu = globalThis.__sourcedBenchRuleCpu;
if (ruleCpu === undefined) throw new Error("editor-child.mjs needs --import rule-cpu.mjs and SOURCED_BENCH_RULE");

async function lint(file) {
  const createdBefore = ruleCpu.perFile.length;
  const started = performance.now();
  const [result] = await eslint.lintText(fs.readFileSync(file, "utf8"), { filePath: file });
  const wallMs = performance.now() - started;
  const fatal = result.messages.find((message) => message.fatal || message.ruleId === null);
  if (fatal) throw new Error(`${path.relative(dir, file)}: ${fatal.message}`);
  const ruleMs = (result.stats?.times.passes ?? []).reduce((sum, pass) => sum + (pass.rules?.[rule]?.total ?? 0), 0);
  const created = ruleCpu.perFile.slice(createdBefore);
  const ruleCpuMs = created.reduce((sum, { ms }) => sum + ms, 0);
  const ruleMainCpuMs = created.reduce((sum, { mainMs }) => sum + mainMs, 0);
  return { file: path.relative(dir, file), wallMs, ruleMs, ruleCpuMs, ruleMainCpuMs, messageIds: result.messages.map((message) => message.messageId) };
}

const first = await lint(warmUp);
for (const file of before) await lint(file);
const perFile = [];
for (const file of files) perFile.push(await lint(file));
process.stdout.write(`${JSON.stringify({ warmUp: first, before: before.length, perFile })}\n`);
