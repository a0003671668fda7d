// The analysis' own time on unchecked programs, A/B between builds of @sourced/analysis: each
// repetition builds the project's program afresh (parsed files reused, a new checker: what the
// ESLint rule, `sourced check` and the start-up check face), runs `analyzeProgram` from each build
// in turn (A B, then B A), and prints its CPU time, its findings and registrations, and the
// checker's own counts (types created, instantiations), which do not depend on the machine's load.
// CPU time is printed twice: every thread of the process, and the main thread alone (the analysis
// and the checker answering it; the rest is V8's helper threads collecting what came before).
// Run with `--expose-gc` and each timed run starts after a full collection, so what one build
// allocated is not collected in the other's time: the steadier figure on a machine of few cores.
//
//   node [--expose-gc] bench/lib/analysis-ab.mjs <project dir> <repetitions> <analysis dist dir>[,<analysis dist dir>...]
//
// e.g. a copy of packages/analysis/dist from before a change against the current one, on a
// project from bench/generate.mjs. The first round is a warm-up, left out of the medians.
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "package.json"));
const ts = require("typescript");

const [directory, repetitionsText, builds] = process.argv.slice(2);
if (directory === undefined || repetitionsText === undefined || builds === undefined) {
  console.error("usage: node bench/lib/analysis-ab.mjs <project dir> <repetitions> <analysis dist dir>[,<analysis dist dir>...]");
  process.exit(2);
}
const analyses = builds.split(",").map((build) => require(path.resolve(build, "index.js")));
const parsed = ts.getParsedCommandLineOfConfigFile(path.resolve(directory, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const host = ts.createCompilerHost(parsed.options);
let previous;
const cpuMs = analyses.map(() => []);
const mainMs = analyses.map(() => []);
const mainThread = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};
const repetitions = Number(repetitionsText);
for (let round = 0; round <= repetitions; round++) {
  const order = analyses.map((_, index) => index);
  if (round % 2 === 1) order.reverse();
  for (const index of order) {
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, oldProgram: previous });
    previous = program;
    globalThis.gc?.();
    const start = process.cpuUsage();
    const startMain = mainThread();
    const result = analyses[index].analyzeProgram(ts, program);
    const main = mainThread() - startMain;
    const spent = process.cpuUsage(start);
    const ms = (spent.user + spent.system) / 1000;
    if (round > 0) {
      cpuMs[index].push(ms);
      mainMs[index].push(main);
    }
    const checker = program.getTypeChecker();
    console.log(
      `${round === 0 ? "warm-up" : `rep ${round}`} build ${index}: ${ms.toFixed(0)} ms CPU (main thread ${main.toFixed(0)}), ${result.findings.length} findings, ${result.registrations.length} registrations, ` +
        `${checker.getTypeCount()} types, ${checker.getInstantiationCount()} instantiations`,
    );
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${median(values).toFixed(0)} ms [${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}]`;
cpuMs.forEach((values, index) => console.log(`build ${index} (${builds.split(",")[index]}): median ${range(values)} CPU, main thread ${range(mainMs[index])}`));
