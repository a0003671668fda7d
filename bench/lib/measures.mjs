// The measures (docs/performance.md), one exported function each, run by bench/run.mjs. Each returns
// a plain object (written to the JSON file as is) with its arms' samples, the ratio against its
// target, and `verified`: whether the front-ends reported exactly the findings the generator
// planted (a benchmark that checks nothing is not a fast one).
//
// Over 400 lines on purpose (benchmark tooling): a list of measures, each read by its name alone,
// all sharing the tools' paths, `alternate` (the arms' interleaved runs) and `verify`.
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { ROOT } from "../generate.mjs";
import { EDITOR_FILES } from "./editor-files.mjs";
import { runNode } from "./process.mjs";
import { percentile, ratio, round, summarize } from "./stats.mjs";

const require = createRequire(import.meta.url);
const TRANSFORMER_DIR = path.join(ROOT, "packages", "transformer");
const resolveFrom = (dir, id) => require.resolve(id, { paths: [dir] });
/** One TypeScript (the repository's, 6.0.3) for every arm: ts-patch's is the same package. */
const TSC = path.join(path.dirname(resolveFrom(TRANSFORMER_DIR, "typescript/package.json")), "bin", "tsc");
const TSPC = path.join(path.dirname(resolveFrom(TRANSFORMER_DIR, "ts-patch/package.json")), "bin", "tspc.js");
const ESLINT = path.join(path.dirname(resolveFrom(ROOT, "eslint/package.json")), "bin", "eslint.js");
const SOURCED = path.join(ROOT, "packages", "cli", "bin", "sourced.js");
/** TypeScript 7.0.2, as CI installs it in fixtures/ts7: its `tsc`, and the native backend's compiler. */
const TS7_DIR = path.join(ROOT, "fixtures", "ts7", "node_modules", "typescript");
const TSC7 = path.join(TS7_DIR, "bin", "tsc");
const TREE = path.join(ROOT, "bench", "lib", "tree-child.mjs");
const FLOOR_SITES = path.join(ROOT, "bench", "lib", "floor-sites.mjs");
const FLOOR_CHECK = path.join(ROOT, "bench", "lib", "floor-check.mjs");
const FLOOR_PLUGIN = path.join(ROOT, "bench", "lib", "floor.cjs");
const { FINDING_KINDS } = require(path.join(ROOT, "packages", "analysis"));
const ID_BY_CODE = new Map(Object.values(FINDING_KINDS).map((kind) => [kind.code, kind.id]));

/**
 * Runs every arm `reps` times, alternating (A B C, then C B A, ...) so drift on a busy machine
 * falls on every arm alike, after `warmup` untimed rounds. Returns per arm `{ wallMs, cpuMs, last }`.
 */
export function alternate(arms, { reps, warmup, log }) {
  const samples = Object.fromEntries(arms.map((arm) => [arm.name, { wallMs: [], cpuMs: [], maxRssKiB: [], ownMs: [], all: [], last: undefined }]));
  for (let round = -warmup; round < reps; round++) {
    const order = round % 2 === 0 ? arms : [...arms].reverse();
    for (const arm of order) {
      const result = arm.run();
      const into = samples[arm.name];
      into.last = result;
      if (round < 0) continue;
      into.wallMs.push(result.wallMs);
      into.cpuMs.push(result.cpuMs);
      into.maxRssKiB.push(result.maxRssKiB);
      into.all.push(result);
      if (result.ownMs !== undefined) into.ownMs.push(result.ownMs);
      log?.(`${round < 0 ? "warm-up" : `rep ${round + 1}/${reps}`} ${arm.name}: ${(result.wallMs / 1000).toFixed(2)} s wall, ${(result.cpuMs / 1000).toFixed(2)} s CPU`);
    }
  }
  return samples;
}

const armSummary = (sample) => ({ wall: summarize(sample.wallMs), cpu: summarize(sample.cpuMs), maxRssMiB: Math.round(Math.max(...sample.maxRssKiB) / 1024) });
const both = (a, b) => ({ wall: ratio(a.wallMs, b.wallMs), cpu: ratio(a.cpuMs, b.cpuMs) });

function countBy(items) {
  const counts = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

/** Whether `reported` (id -> count) is exactly the manifest's planted findings. */
function verify(what, reported, manifest) {
  const expected = manifest.findings;
  const ids = new Set([...Object.keys(expected), ...Object.keys(reported)]);
  const wrong = [...ids].filter((id) => (expected[id] ?? 0) !== (reported[id] ?? 0));
  return wrong.length === 0
    ? { verified: true }
    : {
        verified: false,
        problem: `${what} reported ${JSON.stringify(reported)}, the generator planted ${JSON.stringify(expected)}`,
      };
}

const TS_DIAGNOSTIC = /^(.+?)\(\d+,\d+\): (error|warning) TS(\d+): /gm;
const tsCodes = (output) => [...output.matchAll(TS_DIAGNOSTIC)].map((match) => Number(match[3]));

// -------------------------------------------------------------------------------------------
// 1. tspc + transformer vs tsc

/**
 * A copy of the arms' TypeScript with ts-patch installed in it (`ts-patch install`), the setup
 * docs/transformer.md recommends: its plain `tsc` loads the plugin without evaluating a patched
 * compiler at every start. Made once under bench/out/, re-made when the version changes.
 */
function persistentlyPatchedTsc() {
  const source = path.dirname(TSC);
  const typescriptDir = path.dirname(source);
  const copy = path.join(ROOT, "bench", "out", "ts-patched", "node_modules", "typescript");
  const version = (dir) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
    } catch {
      return undefined;
    }
  };
  const tsc = path.join(copy, "bin", "tsc");
  const patchedMarker = path.join(copy, ".sourced-bench-patched");
  if (version(copy) !== version(typescriptDir) || !fs.existsSync(patchedMarker)) {
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(typescriptDir, copy, { recursive: true, dereference: true });
    const tsPatch = path.join(path.dirname(TSPC), "ts-patch.js");
    runNode(tsPatch, ["install", "-s", "-d", copy], { cwd: path.dirname(copy) });
    fs.writeFileSync(patchedMarker, "");
  }
  return tsc;
}

export function transformerVsTsc(project, options) {
  const { dir, manifest } = project;
  const PERSISTENT = "tsc (ts-patch install) + @sourced/transformer";
  const patchedTsc = persistentlyPatchedTsc();
  const arms = [
    { name: "tsc", run: () => runNode(TSC, ["-p", "tsconfig.json", "--pretty", "false"], { cwd: dir }) },
    { name: "tspc (no plugin)", run: () => runNode(TSPC, ["-p", "tsconfig.tspc-plain.json", "--pretty", "false"], { cwd: dir }) },
    {
      name: "tspc + @sourced/transformer",
      // Findings are errors by default: tsc's "diagnostics present, outputs generated" exit code.
      run: () => runNode(TSPC, ["-p", "tsconfig.transformer.json", "--pretty", "false"], { cwd: dir, okStatuses: [0, 1, 2] }),
    },
    {
      name: PERSISTENT,
      run: () =>
        runNode(patchedTsc, ["-p", "tsconfig.transformer.json", "--outDir", "build/tsc-patched", "--pretty", "false"], {
          cwd: dir,
          okStatuses: [0, 1, 2],
        }),
    },
  ];
  const samples = alternate(arms, options);
  const tscCodes = tsCodes(samples.tsc.last.stdout);
  const findingsOf = (name) => countBy(tsCodes(samples[name].last.stdout).map((code) => ID_BY_CODE.get(code) ?? `TS${code}`));
  const transformerCheck = verify("tspc + @sourced/transformer", findingsOf("tspc + @sourced/transformer"), manifest);
  const persistentCheck = verify(PERSISTENT, findingsOf(PERSISTENT), manifest);
  const check =
    tscCodes.length > 0
      ? { verified: false, problem: `plain tsc reported ${tscCodes.length} errors: the generated project must type-check` }
      : !transformerCheck.verified
        ? transformerCheck
        : persistentCheck;
  return {
    title: "tspc + transformer vs tsc (build with emit)",
    arms: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    ratios: {
      "tspc + transformer / tsc": both(samples.tsc, samples["tspc + @sourced/transformer"]),
      "tspc + transformer / tspc (no plugin)": both(samples["tspc (no plugin)"], samples["tspc + @sourced/transformer"]),
      "tspc (no plugin) / tsc": both(samples.tsc, samples["tspc (no plugin)"]),
      "persistent patch + transformer / tsc": both(samples.tsc, samples[PERSISTENT]),
    },
    targets: [
      { ratio: "tspc + transformer / tspc (no plugin)", max: 1.03 },
      { ratio: "persistent patch + transformer / tsc", max: 1.05 },
    ],
    ...check,
  };
}

// -------------------------------------------------------------------------------------------
// 2. Scaling of the transformer's own time

export function transformerScaling(projects, { reps, log }) {
  const sizes = projects.map(({ dir, manifest }) => {
    log?.(`scaling: ${manifest.tools} tools in ${manifest.files} modules`);
    const run = runNode(path.join(ROOT, "bench", "lib", "scaling-child.mjs"), [dir, String(reps)], {
      cwd: dir,
      nodeOptions: ["--max-old-space-size=12288"],
    });
    const result = JSON.parse(run.stdout);
    // Repetition 0 ran on a cold JIT: reported apart, kept out of the medians.
    const own = result.checkMs.map((check, i) => check + result.emitTransformMs[i]);
    log?.(`  type check ${(result.typeCheckMs[1] / 1000).toFixed(2)} s; transformer ${own.slice(1).map((ms) => ms.toFixed(0)).join(", ")} ms`);
    return {
      tools: manifest.tools,
      files: manifest.files,
      findings: result.findings,
      expectedFindings: manifest.expectedFindings,
      first: { ownMs: own[0], checkMs: result.checkMs[0], emitTransformMs: result.emitTransformMs[0], typeCheckMs: result.typeCheckMs[0] },
      ownMs: summarize(own.slice(1)),
      checkMs: summarize(result.checkMs.slice(1)),
      emitTransformMs: summarize(result.emitTransformMs.slice(1)),
      typeCheckMs: summarize(result.typeCheckMs.slice(1)),
      ownPerToolUs: summarize(own.slice(1).map((ms) => (ms * 1000) / manifest.tools)),
      heapMiB: result.heapMiB,
    };
  });
  const base = sizes[0];
  const largest = sizes[sizes.length - 1];
  const wrong = sizes.find((size) => size.findings !== size.expectedFindings);
  return {
    title: "the transformer's own time as tools grow (same tools per module)",
    sizes,
    ratios: Object.fromEntries(
      sizes.slice(1).map((size) => [
        `${size.tools} / ${base.tools} tools`,
        {
          value: size.ownMs.median / base.ownMs.median,
          linear: size.tools / base.tools,
          pairs: size.ownMs.samples.map((ms, i) => ms / base.ownMs.samples[i]),
        },
      ]),
    ),
    target: { ratio: `${largest.tools} / ${base.tools} tools`, max: (largest.tools / base.tools) * 1.05 },
    ...(wrong
      ? { verified: false, problem: `the transformer reported ${wrong.findings} findings at ${wrong.tools} tools, the generator planted ${wrong.expectedFindings}` }
      : { verified: true }),
  };
}

// -------------------------------------------------------------------------------------------
// 3. ESLint, typed

const RULE_CPU = path.join(ROOT, "bench", "lib", "rule-cpu.mjs");
/** The rule's own CPU time, every thread's (`ms`) and the main thread's (`mainMs`), as `rule-cpu.mjs` reported it on stderr. */
function ruleCpuOf(stderr, rule) {
  const line = /^SOURCED_BENCH_RULE_CPU (.*)$/m.exec(stderr);
  if (line === null) throw new Error(`no own CPU time for ${rule} on stderr:\n${stderr.slice(-2000)}`);
  const { ms, mainMs } = JSON.parse(line[1]);
  return { ms, mainMs };
}

const TIMING_ROW = /^(\S+)\s*\|\s*([\d.]+)\s*\|/gm;
function ruleTimes(stdout) {
  return Object.fromEntries([...stdout.matchAll(TIMING_ROW)].map((match) => [match[1], Number(match[2])]));
}

// -------------------------------------------------------------------------------------------
// The floor (floor.cjs): what any judgement of the contract must ask, measured beside each
// front-end in the same run, so that a ratio to it says what the judgement's own questions cost.

const floorSitesWritten = new Set();
/** The project's registrations for the floor, found once per run in a process of their own. */
function floorSites(dir) {
  const file = path.join(dir, "build", "floor-sites.json");
  if (!floorSitesWritten.has(dir)) {
    runNode(FLOOR_SITES, [dir], { cwd: dir });
    floorSitesWritten.add(dir);
  }
  return file;
}

/** The planted findings the floor can tell (the seed's two): what its verdicts must count. */
function verifyFloor(what, counts, manifest) {
  const expected = { "missing-annotation": manifest.findings["missing-annotation"] ?? 0, "not-data-tool-output": manifest.findings["not-data-tool-output"] ?? 0 };
  const reported = { "missing-annotation": counts["missing-annotation"] ?? 0, "not-data-tool-output": counts["not-data-tool-output"] ?? 0 };
  return JSON.stringify(expected) === JSON.stringify(reported)
    ? { verified: true }
    : { verified: false, problem: `${what} reported ${JSON.stringify(reported)}, the generator planted ${JSON.stringify(expected)}` };
}

/** The ESLint config of the floor's rule, beside the project's own configs. */
function floorEslintConfig(dir) {
  const config = [
    `import { createRequire } from "node:module";`,
    `import sourced from "@sourced/eslint-plugin";`,
    "",
    "// The bench's floor (bench/lib/floor.cjs), required so that rule-cpu.mjs times its listeners.",
    `const floor = createRequire(import.meta.url)(${JSON.stringify(FLOOR_PLUGIN)});`,
    "const recommended = sourced.configs.recommended;",
    "",
    "export default [",
    "  {",
    `    files: ["src/**/*.ts"],`,
    "    languageOptions: { ...recommended.languageOptions, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },",
    "    plugins: { floor },",
    `    linterOptions: { reportUnusedDisableDirectives: "off" },`,
    `    rules: { "floor/floor": "error" },`,
    "  },",
    "];",
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "eslint.floor.config.mjs"), config);
}

export function eslintTyped(project, options) {
  const { dir, manifest } = project;
  const RULE = "sourced/require-data-tool-output";
  const NFP = "@typescript-eslint/no-floating-promises";
  const FLOOR = "floor/floor";
  const sites = floorSites(dir);
  floorEslintConfig(dir);
  const lint = (config, okStatuses, rule) => () => {
    const run = runNode(ESLINT, ["-c", `eslint.${config}.config.mjs`, "-f", "json", "-o", `build/eslint-${config}.json`, "src"], {
      cwd: dir,
      env: { TIMING: "all", SOURCED_BENCH_FLOOR_SITES: sites, ...(rule ? { SOURCED_BENCH_RULE: rule.split("/").pop() } : {}) },
      okStatuses,
      nodeOptions: rule ? ["--import", pathToFileURL(RULE_CPU).href] : [],
    });
    const report = JSON.parse(fs.readFileSync(path.join(dir, "build", `eslint-${config}.json`), "utf8"));
    if (rule === undefined) return { ...run, report };
    const ownMs = ruleTimes(run.stdout)[rule];
    if (ownMs === undefined) throw new Error(`ESLint printed no TIMING row for ${rule}:\n${run.stdout.slice(-2000)}`);
    const cpu = ruleCpuOf(run.stderr, rule);
    return { ...run, report, ownMs, ownCpuMs: cpu.ms, ownMainCpuMs: cpu.mainMs };
  };
  const samples = alternate(
    [
      { name: "no rules (typed parse only)", run: lint("none", [0]) },
      { name: RULE, run: lint("rule", [0, 1], RULE) },
      { name: NFP, run: lint("no-floating-promises", [0, 1], NFP) },
      { name: FLOOR, run: lint("floor", [0, 1], FLOOR) },
    ],
    options,
  );

  // Each rule's own time, from the TIMING table of its own runs (wall), and its CPU time.
  const ruleOwn = samples[RULE].ownMs;
  const nfpOwn = samples[NFP].ownMs;
  const floorOwn = samples[FLOOR].ownMs;
  const cpuOf = (name) => samples[name].all.map((result) => result.ownCpuMs);
  const mainCpuOf = (name) => samples[name].all.map((result) => result.ownMainCpuMs);

  const messages = (name) => samples[name].last.report.flatMap((file) => file.messages);
  const fatal = Object.keys(samples).flatMap((name) => messages(name).filter((message) => message.fatal || message.ruleId === null));
  const ruleMessages = messages(RULE).filter((message) => message.ruleId === RULE);
  const check =
    fatal.length > 0
      ? { verified: false, problem: `ESLint could not parse: ${fatal[0].message}` }
      : verify(RULE, countBy(ruleMessages.map((message) => message.messageId)), manifest);
  const floorChecked = verifyFloor(FLOOR, countBy(messages(FLOOR).filter((message) => message.ruleId === FLOOR).map((message) => message.messageId)), manifest);

  const noRules = samples["no rules (typed parse only)"];
  const wholeRule = both(noRules, samples[RULE]);
  const wholeNfp = both(noRules, samples[NFP]);
  const editor = eslintEditor(project, { RULE, NFP, FLOOR }, samples[RULE].last.report, sites, options);
  return {
    title: "ESLint with typed linting (projectService), same corpus",
    arms: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    ruleOwnMs: { [RULE]: summarize(ruleOwn), [NFP]: summarize(nfpOwn), [FLOOR]: summarize(floorOwn) },
    ruleOwnCpuMs: { [RULE]: summarize(cpuOf(RULE)), [NFP]: summarize(cpuOf(NFP)), [FLOOR]: summarize(cpuOf(FLOOR)) },
    // The same on the main thread alone: without V8's helper threads working meanwhile (rule-cpu.mjs).
    ruleOwnMainCpuMs: { [RULE]: summarize(mainCpuOf(RULE)), [NFP]: summarize(mainCpuOf(NFP)), [FLOOR]: summarize(mainCpuOf(FLOOR)) },
    ratios: {
      "whole lint: rule only / no rules": wholeRule,
      "whole lint: no-floating-promises only / no rules": wholeNfp,
      "whole lint: the floor only / no rules": both(noRules, samples[FLOOR]),
      "own time (TIMING): rule / no-floating-promises": ratio(nfpOwn, ruleOwn),
      "own CPU: rule / the floor": ratio(cpuOf(FLOOR), cpuOf(RULE)),
      "own CPU, main thread: rule / the floor": ratio(mainCpuOf(FLOOR), mainCpuOf(RULE)),
    },
    targets: [
      // The lightest typed rule's cost (its checker, every file bound) plus 5 points.
      { ratio: "whole lint: rule only / no rules", max: round(wholeNfp.cpu.value + 0.05, 3) },
      // Issue 45's, on the figure its rounds read: the rule's own CPU, every thread, ≤ 1.0 s on
      // the tool-heavy shape and ≤ 0.5 s on the realistic one (ESLint's TIMING is wall-clock).
      { figure: `own CPU: ${RULE}`, maxMs: manifest.shape === "realistic" ? 500 : 1000 },
    ],
    editor,
    ...(!check.verified ? check : !floorChecked.verified ? floorChecked : editor.check),
  };
}


/**
 * The editor's view (`editor-child.mjs`): a warm ESLint instance lints single files in turn. The
 * rule and no-floating-promises run in their own processes, alternated; per repetition, the p95
 * (and median) of the rule's own time per file; the figures are the medians over repetitions.
 * Verified: the rule reports, file by file, what the whole-project lint reported in those files.
 */
function eslintEditor(project, { RULE, NFP, FLOOR }, wholeLintReport, sites, options) {
  const { dir } = project;
  const child = path.join(ROOT, "bench", "lib", "editor-child.mjs");
  const editorRun = (config, rule) => () => {
    const run = runNode(child, [dir, `eslint.${config}.config.mjs`, rule, String(EDITOR_FILES)], {
      cwd: dir,
      env: { SOURCED_BENCH_RULE: rule.split("/").pop(), SOURCED_BENCH_FLOOR_SITES: sites },
      nodeOptions: ["--import", pathToFileURL(RULE_CPU).href],
    });
    const result = JSON.parse(run.stdout);
    const own = result.perFile.map((file) => file.ruleMs);
    const ownCpu = result.perFile.map((file) => file.ruleCpuMs);
    const ownMainCpu = result.perFile.map((file) => file.ruleMainCpuMs);
    return {
      ...run,
      result,
      p95Ms: percentile(own, 95),
      p50Ms: percentile(own, 50),
      p95CpuMs: percentile(ownCpu, 95),
      p95MainCpuMs: percentile(ownMainCpu, 95),
      ownMs: own.reduce((sum, ms) => sum + ms, 0),
    };
  };
  const arms = [
    { name: RULE, run: editorRun("rule", RULE) },
    { name: NFP, run: editorRun("no-floating-promises", NFP) },
    { name: FLOOR, run: editorRun("floor", FLOOR) },
  ];
  const p95 = Object.fromEntries(arms.map((arm) => [arm.name, []]));
  const p50 = Object.fromEntries(arms.map((arm) => [arm.name, []]));
  const p95Cpu = Object.fromEntries(arms.map((arm) => [arm.name, []]));
  const p95MainCpu = Object.fromEntries(arms.map((arm) => [arm.name, []]));
  const samples = alternate(
    arms.map((arm) => ({
      name: arm.name,
      run: () => {
        const result = arm.run();
        p95[arm.name].push(result.p95Ms);
        p50[arm.name].push(result.p50Ms);
        p95Cpu[arm.name].push(result.p95CpuMs);
        p95MainCpu[arm.name].push(result.p95MainCpuMs);
        return result;
      },
    })),
    options,
  );
  // The warm-up rounds pushed too: keep the timed repetitions only.
  const timed = (list) => list.slice(options.warmup);
  const last = samples[RULE].last.result;
  // ESLint names files under its working directory, which the system gives resolved: a project
  // reached through a symbolic link is compared by its real paths on both sides.
  const real = (file) => (fs.existsSync(file) ? fs.realpathSync(file) : file);
  const linted = new Set(last.perFile.map((file) => real(path.join(dir, file.file))));
  const expected = countBy(
    wholeLintReport
      .filter((file) => linted.has(real(file.filePath)))
      .flatMap((file) => file.messages.filter((message) => message.ruleId === RULE).map((message) => message.messageId)),
  );
  const reported = countBy(last.perFile.flatMap((file) => file.messageIds.filter((id) => id !== null)));
  const same = JSON.stringify(Object.entries(expected).sort()) === JSON.stringify(Object.entries(reported).sort());
  return {
    title: `one warm ESLint instance linting ${last.perFile.length} single files in turn (after one untimed file)`,
    files: last.perFile.length,
    warmUpRuleMs: last.warmUp.ruleMs,
    perFileOwnMs: Object.fromEntries(
      arms.map((arm) => [
        arm.name,
        {
          p95: summarize(timed(p95[arm.name])),
          p50: summarize(timed(p50[arm.name])),
          p95Cpu: summarize(timed(p95Cpu[arm.name])),
          p95MainCpu: summarize(timed(p95MainCpu[arm.name])),
        },
      ]),
    ),
    processes: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    target: { arm: RULE, figure: "p95 of the rule's own time per file", maxMs: 10 },
    check: same
      ? { verified: true }
      : { verified: false, problem: `the editor lint reported ${JSON.stringify(reported)} in its files, the whole lint ${JSON.stringify(expected)}` },
  };
}

// -------------------------------------------------------------------------------------------
// 4. sourced check vs tsc --noEmit

export function checkVsNoEmit(project, options) {
  const { dir, manifest } = project;
  floorSites(dir);
  const samples = alternate(
    [
      { name: "tsc --noEmit", run: () => runNode(TSC, ["--noEmit", "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir }) },
      { name: "sourced check", run: () => runNode(SOURCED, ["check", "-p", "tsconfig.json", "--format", "json"], { cwd: dir, okStatuses: [0, 1] }) },
      { name: FLOOR_CHECK_ARM, run: () => runNode(FLOOR_CHECK, ["classic", dir], { cwd: dir }) },
    ],
    options,
  );
  const findings = JSON.parse(samples["sourced check"].last.stdout);
  const floor = JSON.parse(samples[FLOOR_CHECK_ARM].last.stdout);
  const checked = verify("sourced check", countBy(findings.map((finding) => finding.id)), manifest);
  return {
    title: "sourced check vs tsc --noEmit",
    arms: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    ratios: {
      "sourced check / tsc --noEmit": both(samples["tsc --noEmit"], samples["sourced check"]),
      "the floor / tsc --noEmit": both(samples["tsc --noEmit"], samples[FLOOR_CHECK_ARM]),
    },
    target: { ratio: "sourced check / tsc --noEmit", max: 0.8 },
    ...(checked.verified ? verifyFloor(FLOOR_CHECK_ARM, { "missing-annotation": floor.unannotated, "not-data-tool-output": floor.notDataToolOutput }, manifest) : checked),
  };
}

/** Measure 4's floor: the program tsc builds, its checker, and the floor's questions (floor.cjs). */
const FLOOR_CHECK_ARM = "the floor (TS 6): program, checker, callee symbols, declared return types";

// -------------------------------------------------------------------------------------------
// 6. sourced check on TypeScript 7 (native backend) vs tsc --noEmit of TypeScript 7 and 6

/** `node <script> ...args` measured as a process tree (see tree-child.mjs): CPU and memory of every process. */
function runTree(script, args, { cwd, okStatuses = [0] }) {
  const measured = runNode(TREE, [script, ...args], { cwd });
  const result = JSON.parse(measured.stdout);
  if (!okStatuses.includes(result.status)) {
    throw new Error(`${path.basename(script)} ${args.join(" ")} (in ${cwd}) exited with ${result.status}:\n${(result.stderr || result.stdout).slice(0, 4000)}`);
  }
  const peak = Math.max(...result.processes.map((process) => process.peakRssKiB));
  return { ...result, maxRssKiB: peak };
}

/**
 * The generated project as a TypeScript 7 project: a tsconfig beside it extending its own, and a
 * `node_modules/.bin/tsc` that is TypeScript 7's, so `sourced check` picks the native backend as it
 * would in a user's TypeScript 7 project.
 */
function typescript7Project(dir) {
  const ts7 = `${dir}-ts7`;
  fs.mkdirSync(path.join(ts7, "node_modules", ".bin"), { recursive: true });
  fs.writeFileSync(path.join(ts7, "tsconfig.json"), `${JSON.stringify({ extends: path.join(dir, "tsconfig.json") })}\n`);
  const bin = path.join(ts7, "node_modules", ".bin", "tsc");
  fs.rmSync(bin, { force: true });
  fs.symlinkSync(TSC7, bin);
  return ts7;
}

/** Measure 6's first floor (floor-check.mjs): what the native backend costs before its first question. */
const NATIVE_FLOOR_ARM = "the floor (TS 7's API): project opened, every file read";
/** Its second: the same, and the seed's questions asked through the API, as measures 3 and 4's floors ask them. */
const NATIVE_SEED_FLOOR_ARM = "the seed's floor (TS 7's API): and callee symbols, declared return types";

export function nativeCheck(project, options) {
  const { dir, manifest } = project;
  const ts7 = typescript7Project(dir);
  const sites = floorSites(dir);
  const samples = alternate(
    [
      { name: "tsc --noEmit (TS 6)", run: () => runTree(TSC, ["--noEmit", "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir }) },
      { name: "tsc --noEmit (TS 7)", run: () => runTree(TSC7, ["--noEmit", "-p", "tsconfig.json", "--pretty", "false"], { cwd: ts7 }) },
      { name: "sourced check (TS 7, native)", run: () => runTree(SOURCED, ["check", "-p", "tsconfig.json", "--format", "json"], { cwd: ts7, okStatuses: [0, 1] }) },
      { name: NATIVE_FLOOR_ARM, run: () => runTree(FLOOR_CHECK, ["native", ts7], { cwd: ts7 }) },
      { name: NATIVE_SEED_FLOOR_ARM, run: () => runTree(FLOOR_CHECK, ["native-seed", ts7, sites], { cwd: ts7 }) },
    ],
    options,
  );
  // The floor read every file the check judged (`sourced check` names each file it read in its summary).
  const floorRead = JSON.parse(samples[NATIVE_FLOOR_ARM].last.stdout);
  const last = samples["sourced check (TS 7, native)"].last;
  const findings = JSON.parse(last.stdout);
  const summary = (() => {
    const text = runNode(SOURCED, ["check", "-p", "tsconfig.json"], { cwd: ts7, okStatuses: [0, 1] }).stdout.trim().split("\n").at(-1);
    if (!/with TypeScript 7\.\d+\.\d+ \(native\)\.$/.test(text)) return { verified: false, problem: `sourced check did not run on the native backend: ${text}` };
    const judged = /registrations? in (\d+) files?/.exec(text);
    return judged !== null && Number(judged[1]) === floorRead.files
      ? { verified: true }
      : { verified: false, problem: `the floor read ${floorRead.files} files, sourced check judged: ${text}` };
  })();
  const checked = verify("sourced check (TS 7, native)", countBy(findings.map((finding) => finding.id)), manifest);
  const seed = JSON.parse(samples[NATIVE_SEED_FLOOR_ARM].last.stdout);
  const seedChecked = verifyFloor(NATIVE_SEED_FLOOR_ARM, { "missing-annotation": seed.unannotated, "not-data-tool-output": seed.notDataToolOutput }, manifest);
  const peaks = (name) => {
    const byName = {};
    for (const process of samples[name].last.processes) byName[process.name] = Math.max(byName[process.name] ?? 0, Math.round(process.peakRssKiB / 1024));
    return byName;
  };
  return {
    title: "sourced check on TypeScript 7 (native backend) vs tsc --noEmit of TypeScript 7 and of TypeScript 6",
    arms: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    peakRssMiBByProcess: Object.fromEntries(Object.keys(samples).map((name) => [name, peaks(name)])),
    ratios: {
      "native check / tsc --noEmit (TS 7)": both(samples["tsc --noEmit (TS 7)"], samples["sourced check (TS 7, native)"]),
      "native check / tsc --noEmit (TS 6)": both(samples["tsc --noEmit (TS 6)"], samples["sourced check (TS 7, native)"]),
      "the API's floor / tsc --noEmit (TS 7)": both(samples["tsc --noEmit (TS 7)"], samples[NATIVE_FLOOR_ARM]),
      "the seed's floor / tsc --noEmit (TS 7)": both(samples["tsc --noEmit (TS 7)"], samples[NATIVE_SEED_FLOOR_ARM]),
    },
    targets: [
      { ratio: "native check / tsc --noEmit (TS 7)", max: 1.5 },
      { ratio: "native check / tsc --noEmit (TS 6)", max: 0.3 },
    ],
    ...(!checked.verified ? checked : !seedChecked.verified ? seedChecked : summary),
  };
}

// -------------------------------------------------------------------------------------------
// 5. Run time

export function runTime({ calls, reps, registerTools, concurrent, log }) {
  const child = path.join(ROOT, "bench", "lib", "runtime-child.mjs");
  log?.(`run time: ${calls} tools/call per repetition`);
  const call = JSON.parse(runNode(child, ["calls", String(calls), String(reps)], { cwd: ROOT }).stdout);
  // Registration is a start-up cost: each repetition is a cold process.
  const registrations = [];
  const defaultRegistrations = [];
  for (let rep = 0; rep < reps; rep++) {
    registrations.push(JSON.parse(runNode(child, ["register", String(registerTools)], { cwd: ROOT }).stdout));
    defaultRegistrations.push(JSON.parse(runNode(child, ["register", String(registerTools), "default"], { cwd: ROOT }).stdout));
    log?.(`run time: rep ${rep + 1}/${reps} registering ${registerTools} tools: ${registrations[rep].registryToolMs.toFixed(0)} ms, ${defaultRegistrations[rep].registryToolMs.toFixed(0)} ms with the start-up check on`);
  }
  log?.(`run time: over HTTP, ${calls} tools/call per repetition, then ${concurrent} at once`);
  const http = JSON.parse(runNode(child, ["http", String(calls), String(reps), String(concurrent)], { cwd: ROOT }).stdout);
  return {
    title: "run time: tools/call through the registry vs the SDK alone; over HTTP by number of tools; registering tools",
    http: {
      arms: {
        "tools/call, 1 tool": summarize(http.callMs[1]),
        "tools/call, 1,000 tools": summarize(http.callMs[1000]),
        "tools/list, 10 tools (v2 Client)": summarize(http.listMs[10]),
        "tools/list, 1,000 tools (v2 Client)": summarize(http.listMs[1000]),
        "tools/list, 10 tools (raw HTTP)": summarize(http.rawListMs[10]),
        "tools/list, 1,000 tools (raw HTTP)": summarize(http.rawListMs[1000]),
        "tools/list, 10 tools (raw HTTP, 2026-07-28)": summarize(http.rawModernListMs[10]),
        "tools/list, 1,000 tools (raw HTTP, 2026-07-28)": summarize(http.rawModernListMs[1000]),
      },
      concurrent: http.concurrent,
    },
    calls: {
      perRepetition: call.calls,
      "registry (net)": { wallMs: summarize(call.registry.wallMs), cpuMs: summarize(call.registry.cpuMs) },
      "SDK registerTool": { wallMs: summarize(call.sdk.wallMs), cpuMs: summarize(call.sdk.cpuMs) },
    },
    register: {
      tools: registerTools,
      "registry.tool()": summarize(registrations.map((r) => r.registryToolMs)),
      "registry.tool(), start-up check on (the default)": summarize(defaultRegistrations.map((r) => r.registryToolMs)),
      "registry.createServer()": summarize(registrations.map((r) => r.createServerMs)),
      "SDK registerTool": summarize(registrations.map((r) => r.sdkRegisterToolMs)),
    },
    ratios: {
      "tools/call: registry / SDK": { wall: ratio(call.sdk.wallMs, call.registry.wallMs), cpu: ratio(call.sdk.cpuMs, call.registry.cpuMs) },
      "HTTP tools/call: 1,000 tools / 1 tool": { wall: ratio(http.callMs[1], http.callMs[1000]) },
      "tools/list: 1,000 tools / 10 (raw HTTP: the server and the payload)": { wall: ratio(http.rawListMs[10], http.rawListMs[1000]) },
      "tools/list: 1,000 tools / 10 (raw HTTP, 2026-07-28)": { wall: ratio(http.rawModernListMs[10], http.rawModernListMs[1000]) },
      "tools/list: 1,000 tools / 10 (v2 Client, which validates every tool)": { wall: ratio(http.listMs[10], http.listMs[1000]) },
    },
    targets: [
      { ratio: "tools/call: registry / SDK", max: 1.05 },
      { ratio: "HTTP tools/call: 1,000 tools / 1 tool", max: 1.2 },
      { ratio: "tools/list: 1,000 tools / 10 (raw HTTP: the server and the payload)", max: 10 },
      { ratio: "tools/list: 1,000 tools / 10 (raw HTTP, 2026-07-28)", max: 10 },
      { figure: `registry.tool() x ${registerTools}`, maxMs: 100 },
    ],
    // Every one of the concurrent calls must be answered: a lost call is a failed run, not a slow one.
    verified: http.concurrent.lost === 0,
    ...(http.concurrent.lost === 0 ? {} : { problem: `${http.concurrent.lost} of ${http.concurrent.calls} concurrent calls lost: ${JSON.stringify(http.concurrent.problems)}` }),
  };
}

// -------------------------------------------------------------------------------------------
// 11. tools/list at the client: by number of tools, and by number of resources

export function toolsListAtClient({ reps, log }) {
  const child = path.join(ROOT, "bench", "lib", "list-child.mjs");
  log?.(`tools/list at the client: ${reps} repetitions, v2 and v1 Client`);
  const { arms } = JSON.parse(runNode(child, [String(reps)], { cwd: ROOT }).stdout);
  const v2 = arms["v2 Client"];
  const v1 = arms["v1 Client"];
  const kib = (bytes) => Math.round(bytes / 1024);
  return {
    title: "tools/list at the client over Streamable HTTP (127.0.0.1): 1,000 tools vs 10, and 40 tools beside 10,000 resources vs 1",
    arms: Object.fromEntries(
      Object.entries(arms).flatMap(([who, { samples, bytes }]) => Object.entries(samples).map(([name, values]) => [`${name} (${who})`, { ms: summarize(values), kib: kib(bytes[name]) }])),
    ),
    ratios: {
      "tools/list: 1,000 tools / 10 (v2 Client)": { wall: ratio(v2.samples["10 tools"], v2.samples["1,000 tools"]) },
      "tools/list: 1,000 tools / 10 (v1 Client, which compiles every tool's outputSchema)": { wall: ratio(v1.samples["10 tools"], v1.samples["1,000 tools"]) },
      "tools/list: 10,000 resources / 1 (v2 Client)": { wall: ratio(v2.samples["40 tools, 1 resource"], v2.samples["40 tools, 10,000 resources"]) },
      "tools/list: 10,000 resources / 1 (v1 Client)": { wall: ratio(v1.samples["40 tools, 1 resource"], v1.samples["40 tools, 10,000 resources"]) },
    },
    // Beside 10,000 resources the list is the same (verified below), and so is its latency: a
    // request's server answers from the resources' table and registers none of them (docs/performance.md).
    targets: [
      { ratio: "tools/list: 1,000 tools / 10 (v2 Client)", max: 10 },
      { ratio: "tools/list: 10,000 resources / 1 (v2 Client)", max: 1.5 },
      { ratio: "tools/list: 10,000 resources / 1 (v1 Client)", max: 1.5 },
    ],
    // The list must not grow with the resources: the same bytes for 10,000 as for 1.
    verified: v2.bytes["40 tools, 10,000 resources"] === v2.bytes["40 tools, 1 resource"],
    ...(v2.bytes["40 tools, 10,000 resources"] === v2.bytes["40 tools, 1 resource"]
      ? {}
      : { problem: `tools/list grew with the resources: ${v2.bytes["40 tools, 1 resource"]} bytes beside 1, ${v2.bytes["40 tools, 10,000 resources"]} beside 10,000` }),
  };
}

// -------------------------------------------------------------------------------------------
// 6. esbuild + @sourced/unplugin vs sourced check; 7. the plugin in watch mode

const ESBUILD_CHILD = path.join(ROOT, "bench", "lib", "esbuild-child.mjs");

export function pluginVsCheck(project, options) {
  const { dir, manifest } = project;
  const samples = alternate(
    [
      { name: "sourced check", run: () => runNode(SOURCED, ["check", "-p", "tsconfig.json", "--format", "json"], { cwd: dir, okStatuses: [0, 1] }) },
      { name: "esbuild alone", run: () => runNode(ESBUILD_CHILD, [dir, "build", "none"], { cwd: dir }) },
      { name: "esbuild + @sourced/unplugin", run: () => runNode(ESBUILD_CHILD, [dir, "build", "plugin"], { cwd: dir }) },
    ],
    options,
  );
  const { findings } = JSON.parse(samples["esbuild + @sourced/unplugin"].last.stdout);
  const codes = findings.map((code) => ID_BY_CODE.get(Number(code.replace(/^SRC/, ""))) ?? code);
  return {
    title: "esbuild + @sourced/unplugin vs sourced check alone",
    arms: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    ratios: {
      "esbuild + plugin / sourced check": both(samples["sourced check"], samples["esbuild + @sourced/unplugin"]),
      "esbuild + plugin / esbuild alone": both(samples["esbuild alone"], samples["esbuild + @sourced/unplugin"]),
    },
    target: { ratio: "esbuild + plugin / sourced check", max: 1.1 },
    ...verify("esbuild + @sourced/unplugin", countBy(codes), manifest),
  };
}

export function pluginWatch(project, { reps, log }) {
  const { dir, manifest } = project;
  // Edits alternate break / fix: an even number ends where it started.
  const edits = Math.max(2, reps * 2);
  const run = runNode(ESBUILD_CHILD, [dir, "watch", String(edits)], { cwd: dir });
  const { coldMs, editMs, findings } = JSON.parse(run.stdout);
  log?.(`cold ${(coldMs / 1000).toFixed(2)} s, edits ${editMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")}`);
  const planted = Object.values(manifest.findings).reduce((sum, count) => sum + count, 0);
  const expected = [planted, ...editMs.map((_, index) => (index % 2 === 0 ? planted + 1 : planted))];
  const seen = JSON.stringify(findings) === JSON.stringify(expected);
  const edit = summarize(editMs);
  return {
    title: "esbuild + @sourced/unplugin in watch mode: updated diagnostics after one edit vs the cold build",
    coldMs,
    editMs: edit,
    ratios: { "one edit / cold": { wall: { value: edit.median / coldMs, pairMin: edit.min / coldMs, pairMax: edit.max / coldMs, pairs: editMs.map((ms) => ms / coldMs) } } },
    target: { ratio: "one edit / cold", max: 0.2 },
    verified: seen,
    ...(seen ? {} : { problem: `findings per rebuild ${JSON.stringify(findings)}, expected ${JSON.stringify(expected)}` }),
  };
}

// -------------------------------------------------------------------------------------------
// 9. The start-up check: the first tools/list from source, cold and warm, vs the stamped build

const STARTUP_CHILD = path.join(ROOT, "bench", "lib", "startup-child.mjs");
/** tsx, as `node --import tsx` loads it: the generated project's decorators and `.js` specifiers need it (Node's type stripping runs neither). */
const TSX_LOADER = pathToFileURL(resolveFrom(path.join(ROOT, "packages", "registry"), "tsx")).href;

/**
 * The time from spawning a server to its first `tools/list` answer, as the SDK's Client sees it
 * over stdio: the tspc build (stamped: the registry judges nothing), and the same sources run with
 * `node --import tsx`, where the registry's start-up check judges every tool — warm (its verdicts
 * cached from the previous start) and cold (the cache removed first) — beside `sourced check` of
 * the project, the cold target's yardstick. CPU is the server process's own, its check's worker
 * thread included (the check's: its process).
 */
export function startupFromSource(project, options) {
  const { dir, manifest } = project;
  // The stamped build the arms compare with, once, untimed.
  runNode(TSPC, ["-p", "tsconfig.transformer.json", "--pretty", "false"], { cwd: dir, okStatuses: [0, 1, 2] });
  // Where the check keeps its verdicts: node_modules/.cache/sourced of the nearest directory above the tsconfig with a node_modules.
  const cache = path.join(path.dirname(dir), "node_modules", ".cache", "sourced");
  const start = (args, env = {}) => {
    const result = runNode(STARTUP_CHILD, [dir, ...args], { cwd: dir, env });
    const answer = JSON.parse(result.stdout);
    return { ...result, wallMs: answer.listMs, cpuMs: answer.serverCpuMs ?? Number.NaN, initMs: answer.initMs, tools: answer.tools, warnings: answer.warnings };
  };
  const fromSource = ["--import", TSX_LOADER, "src/server.ts"];
  start(fromSource); // the first start from source writes the cache the warm arm reads
  const samples = alternate(
    [
      { name: "tspc build (stamped)", run: () => start(["build/tspc/server.js"]) },
      { name: "from source, warm", run: () => start(fromSource) },
      // The same start without the check: what tsx and loading the sources cost on their own.
      { name: "from source, check off", run: () => start(fromSource, { SOURCED_BENCH_STARTUP_CHECK: "off" }) },
      {
        name: "from source, cold",
        run: () => {
          fs.rmSync(cache, { recursive: true, force: true });
          return start(fromSource);
        },
      },
      { name: "sourced check", run: () => runNode(SOURCED, ["check", "-p", "tsconfig.json", "--format", "json"], { cwd: dir, okStatuses: [0, 1] }) },
    ],
    options,
  );
  const stamped = samples["tspc build (stamped)"];
  const warm = samples["from source, warm"];
  const cold = samples["from source, cold"];
  const check = samples["sourced check"];
  // Served: every registration but the rejected ones (an escaped decorator value is never applied).
  const rejected = (manifest.findings["missing-annotation"] ?? 0) + (manifest.findings["not-data-tool-output"] ?? 0);
  const served = manifest.tools - manifest.expectedFindings;
  const problems = [];
  const unchecked = samples["from source, check off"];
  // The check off serves the rejected tools too, silently: the net alone stands behind them.
  for (const [name, sample, tools, warnings] of [
    ["tspc build (stamped)", stamped, served, 0],
    ["from source, warm", warm, served, rejected],
    ["from source, cold", cold, served, rejected],
    ["from source, check off", unchecked, served + rejected, 0],
  ]) {
    for (const run of sample.all) {
      if (run.tools !== tools) problems.push(`${name} listed ${run.tools} tools, expected ${tools}`);
      if (run.warnings !== warnings) problems.push(`${name} wrote ${run.warnings} warnings, expected ${warnings} (one per refused tool)`);
    }
  }
  const sum = (a, b) => a.map((value, i) => value + b[i]);
  return {
    title: `the start-up check: the first tools/list answer from source (node --import tsx), cold and warm, vs the stamped tspc build (${manifest.files} modules, ${manifest.tools} tools)`,
    arms: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    initializeMs: Object.fromEntries(
      Object.entries(samples)
        .filter(([name]) => name !== "sourced check")
        .map(([name, sample]) => [name, summarize(sample.all.map((run) => run.initMs))]),
    ),
    ratios: {
      "from source, warm / tspc build": { wall: ratio(stamped.wallMs, warm.wallMs) },
      "from source, cold / (sourced check + tspc build)": { wall: ratio(sum(check.wallMs, stamped.wallMs), cold.wallMs) },
      "from source, cold / tspc build": { wall: ratio(stamped.wallMs, cold.wallMs) },
      // What bounds the warm start: tsx's own start, and the check's share of it.
      "from source, check off / tspc build": { wall: ratio(stamped.wallMs, unchecked.wallMs) },
      "from source, warm / from source, check off": { wall: ratio(unchecked.wallMs, warm.wallMs) },
    },
    targets: [
      { ratio: "from source, warm / tspc build", max: 1.2 },
      { ratio: "from source, cold / (sourced check + tspc build)", max: 1.2 },
    ],
    verified: problems.length === 0,
    ...(problems.length === 0 ? {} : { problem: [...new Set(problems)].join("; ") }),
  };
}

/**
 * 10. The start-up check on plain tsc's output (TypeScript 6, no source maps, no transformer): the
 * first tools/list of `build/tsc/server.js`, warm (its verdicts and the trace of the output to the
 * sources read from the cache), against the stamped tspc build of the same sources.
 */
export function startupFromPlainTsc(project, options) {
  const { dir, manifest } = project;
  runNode(TSPC, ["-p", "tsconfig.transformer.json", "--pretty", "false"], { cwd: dir, okStatuses: [0, 1, 2] });
  runNode(TSC, ["-p", "tsconfig.json", "--pretty", "false", "--sourceMap", "false"], { cwd: dir, okStatuses: [0, 1, 2] });
  const start = (args) => {
    const result = runNode(STARTUP_CHILD, [dir, ...args], { cwd: dir });
    const answer = JSON.parse(result.stdout);
    return { ...result, wallMs: answer.listMs, cpuMs: answer.serverCpuMs ?? Number.NaN, initMs: answer.initMs, tools: answer.tools, warnings: answer.warnings };
  };
  const plain = ["build/tsc/server.js"];
  start(plain); // the first start judges the project and traces the output: the cache the warm arm reads
  const samples = alternate(
    [
      { name: "tspc build (stamped)", run: () => start(["build/tspc/server.js"]) },
      { name: "plain tsc build, warm", run: () => start(plain) },
    ],
    options,
  );
  const stamped = samples["tspc build (stamped)"];
  const warm = samples["plain tsc build, warm"];
  const rejected = (manifest.findings["missing-annotation"] ?? 0) + (manifest.findings["not-data-tool-output"] ?? 0);
  const served = manifest.tools - manifest.expectedFindings;
  const problems = [];
  for (const [name, sample, warnings] of [
    ["tspc build (stamped)", stamped, 0],
    ["plain tsc build, warm", warm, rejected],
  ]) {
    for (const run of sample.all) {
      if (run.tools !== served) problems.push(`${name} listed ${run.tools} tools, expected ${served}`);
      if (run.warnings !== warnings) problems.push(`${name} wrote ${run.warnings} warnings, expected ${warnings} (one per refused tool)`);
    }
  }
  return {
    title: `the start-up check on plain tsc output (TypeScript 6, no source maps), warm: the first tools/list answer vs the stamped tspc build (${manifest.files} modules, ${manifest.tools} tools)`,
    arms: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, armSummary(sample)])),
    initializeMs: Object.fromEntries(Object.entries(samples).map(([name, sample]) => [name, summarize(sample.all.map((run) => run.initMs))])),
    ratios: { "plain tsc build, warm / tspc build": { wall: ratio(stamped.wallMs, warm.wallMs) } },
    targets: [{ ratio: "plain tsc build, warm / tspc build", max: 1.2 }],
    verified: problems.length === 0,
    ...(problems.length === 0 ? {} : { problem: [...new Set(problems)].join("; ") }),
  };
}
