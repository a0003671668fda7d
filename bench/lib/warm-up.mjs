// What part of the ESLint rule's own time (measures 3b and 3c) is V8 warming up the code it runs,
// and what part is the judgement. A fresh process runs the rule's code, and the checker's code the
// rule is the first to ask, for the first time: V8 interprets it, then compiles what runs often on
// helper threads, which `rule-cpu.mjs` counts in the rule's CPU while its listeners run. Both
// measures start a fresh process, as a CI lint or an editor's first files do.
//
//   node bench/lib/warm-up.mjs <project dir> <smaller project dir> [repetitions]
//
// Per repetition, each in a fresh process, alternated:
// - the whole lint, for the rule and for no-floating-promises: the project alone, and the project
//   linted after the smaller one (another generated project of the same shape) in the same
//   process. Its program and checker are its own either way, and meet the project's, the
//   registry's and zod's types anew; after the smaller project the code is warm, and the heap
//   holds a smaller program besides. Printed: each rule's own CPU on the project, every thread and
//   the main thread;
// - the editor (`editor-child.mjs`), for the rule: measure 3c's session as the bench runs it, and
//   the same session with every other module that reads the registry linted first, untimed.
//   Printed: the p95 over measure 3c's files of the rule's own time (TIMING) and main-thread CPU.
// The figures are the medians over repetitions.
import * as nodeModule from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { EDITOR_FILES } from "./editor-files.mjs";
import { runNode } from "./process.mjs";
import { median, percentile } from "./stats.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RULE_CPU = pathToFileURL(path.join(HERE, "rule-cpu.mjs")).href;

if (process.argv[2] === "--lint") {
  // The child: lints each project in turn in this process, the rule's CPU of each lint. It keeps
  // compiled bytecode on disk as ESLint's own command does (measure 3b runs that command), so
  // what a fresh process pays here is what it pays there.
  nodeModule.enableCompileCache?.();
  const [config, ...dirs] = process.argv.slice(3);
  const require = nodeModule.createRequire(path.join(HERE, "..", "..", "package.json"));
  const { ESLint } = await import(pathToFileURL(require.resolve("eslint")).href);
  const ruleCpu = globalThis.__sourcedBenchRuleCpu;
  if (ruleCpu === undefined) throw new Error("warm-up.mjs --lint needs --import rule-cpu.mjs and SOURCED_BENCH_RULE");
  const lints = [];
  for (const dir of dirs) {
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: path.join(dir, config) });
    const { ms, mainMs } = ruleCpu;
    const results = await eslint.lintFiles(["src"]);
    const fatal = results.flatMap((result) => result.messages).find((message) => message.fatal || message.ruleId === null);
    if (fatal) throw new Error(`${dir}: ${fatal.message}`);
    lints.push({ ms: ruleCpu.ms - ms, mainMs: ruleCpu.mainMs - mainMs });
  }
  process.stdout.write(`${JSON.stringify(lints)}\n`);
} else {
  const [dirText, smallerText, repetitionsText = "3"] = process.argv.slice(2);
  if (dirText === undefined || smallerText === undefined) {
    console.error("usage: node bench/lib/warm-up.mjs <project dir> <smaller project dir> [repetitions]");
    process.exit(2);
  }
  const dir = path.resolve(dirText);
  const smaller = path.resolve(smallerText);

  const rules = [
    { name: "sourced/require-data-tool-output", config: "eslint.rule.config.mjs" },
    { name: "@typescript-eslint/no-floating-promises", config: "eslint.no-floating-promises.config.mjs" },
  ];
  const lintProject = (rule, warm) => {
    const run = runNode(fileURLToPath(import.meta.url), ["--lint", rule.config, ...(warm ? [smaller] : []), dir], {
      cwd: dir,
      env: { SOURCED_BENCH_RULE: rule.name.split("/").pop() },
      nodeOptions: ["--import", RULE_CPU],
    });
    return JSON.parse(run.stdout).at(-1);
  };
  const editor = (before) => {
    const run = runNode(path.join(HERE, "editor-child.mjs"), [dir, rules[0].config, rules[0].name, String(EDITOR_FILES), String(before)], {
      cwd: dir,
      env: { SOURCED_BENCH_RULE: rules[0].name.split("/").pop() },
      nodeOptions: ["--import", RULE_CPU],
    });
    const { before: linted, perFile } = JSON.parse(run.stdout);
    return { before: linted, p95Ms: percentile(perFile.map((file) => file.ruleMs), 95), p95MainCpuMs: percentile(perFile.map((file) => file.ruleMainCpuMs), 95) };
  };

  const samples = { lint: rules.map(() => [[], []]), editor: [[], []] };
  let before = 0;
  for (let repetition = 0; repetition < Number(repetitionsText); repetition++) {
    const order = repetition % 2 === 0 ? [0, 1] : [1, 0];
    for (const index of order) for (const warm of order) samples.lint[index][warm].push(lintProject(rules[index], warm === 1));
    for (const warm of order) {
      const result = editor(warm === 1 ? Number.MAX_SAFE_INTEGER : 0);
      if (warm === 1) before = result.before;
      samples.editor[warm].push(result);
    }
  }

  const ms = (values) => `${Math.round(median(values))} ms`;
  console.log(`${path.basename(dir)}: medians of ${repetitionsText} alternated repetitions`);
  console.log("whole lint, the rule's own CPU (every thread / main thread):");
  rules.forEach((rule, index) => {
    const of = (warm, key) => samples.lint[index][warm].map((lint) => lint[key]);
    console.log(`  ${rule.name}: alone ${ms(of(0, "ms"))} / ${ms(of(0, "mainMs"))}; after ${path.basename(smaller)}, code warm ${ms(of(1, "ms"))} / ${ms(of(1, "mainMs"))}`);
  });
  const p95 = (warm, key) => `${median(samples.editor[warm].map((run) => run[key])).toFixed(1)} ms`;
  console.log(`editor, p95 over ${EDITOR_FILES} files of the rule's own time (TIMING / main-thread CPU):`);
  console.log(`  measure 3c's session: ${p95(0, "p95Ms")} / ${p95(0, "p95MainCpuMs")}`);
  console.log(`  after ${before} other modules that read the registry: ${p95(1, "p95Ms")} / ${p95(1, "p95MainCpuMs")}`);
}
