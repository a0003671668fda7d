// `pnpm bench`: what sourced costs its users, every figure a ratio measured side by side in one
// run (arms alternated, medians and spreads). See docs/performance.md.
//
//   node bench/run.mjs [--files 2000] [--tools 10000] [--seed 1] [--reps 5] [--warmup 1]
//                      [--scaling 10000,20000,40000] [--calls 2000] [--register 10000] [--concurrent 5000]
//                      [--startup 300,1500] [--only 1,2,3,4,5,6,7,8,9,10,11] [--json bench/out/results.json] [--smoke] [--quiet]
//                      [--compare <git ref> [--rounds 2]]
//
// Exit code 1 when a front-end did not report exactly the findings the generator planted (the
// figures would then time the wrong work); a missed target is printed, not an error.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_OUT, ROOT, SHAPES, generateProject } from "./generate.mjs";
import { compare } from "./compare.mjs";
import { checkVsNoEmit, eslintTyped, nativeCheck, pluginVsCheck, pluginWatch, runTime, startupFromPlainTsc, startupFromSource, toolsListAtClient, transformerScaling, transformerVsTsc } from "./lib/measures.mjs";
import { round } from "./lib/stats.mjs";

/** `startup`: the modules and tools of measure 9's project (the mid size). */
const DEFAULTS = { files: 2000, tools: 10000, seed: 1, reps: 5, warmup: 1, scaling: [10000, 20000, 40000], calls: 2000, register: 10000, concurrent: 5000, startup: [300, 1500], only: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], shapes: SHAPES };
/**
 * CI size: tiny projects, but every measure runs on both shapes, so a run takes a few minutes; the figures
 * mean little, the command and its output shape are what is checked.
 */
const SMOKE = { files: 12, tools: 60, reps: 2, warmup: 0, scaling: [60, 120, 240], calls: 200, register: 10000, concurrent: 500, startup: [12, 60] };

const USAGE = `usage: node bench/run.mjs [--files N] [--tools M] [--seed S] [--reps R] [--warmup W]
       [--scaling T1,T2,...] [--calls C] [--register T] [--concurrent N] [--startup FILES,TOOLS] [--only 1,2,3,4,5,6,7,8,9,10,11]
       [--shape tools|realistic|both] [--hints] [--zod-objects] [--json FILE] [--smoke] [--quiet]
       [--compare REF [--rounds N]]   the same measures on REF and on the working tree, each figure's change`;

function parseFlags(argv) {
  const flags = { ...DEFAULTS, json: path.join(DEFAULT_OUT, "results.json"), quiet: false, hints: false, zodObjects: false };
  const set = {};
  const list = (text) => text.split(",").map((item) => Number(item.trim()));
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i].split("=", 2);
    const value = () => {
      const text = inline ?? argv[++i];
      if (text === undefined) throw new Error(`${key} needs a value\n${USAGE}`);
      return text;
    };
    switch (key) {
      case "--files":
      case "--tools":
      case "--seed":
      case "--reps":
      case "--warmup":
      case "--calls":
      case "--register":
      case "--concurrent":
        set[key.slice(2)] = Number(value());
        break;
      case "--scaling":
      case "--startup":
      case "--only":
        set[key.slice(2)] = list(value());
        break;
      case "--shape": {
        const shape = value();
        set.shapes = shape === "both" ? SHAPES : [shape];
        break;
      }
      case "--json":
        flags.json = path.resolve(value());
        break;
      case "--smoke":
        Object.assign(flags, SMOKE);
        break;
      case "--hints":
      case "--zod-objects":
        // The projects write each tool's hints in place (`annotations: { … }`), or their inputs as
        // zod objects (`z.object({ … })`): generate.mjs.
        flags[key === "--hints" ? "hints" : "zodObjects"] = true;
        break;
      case "--quiet":
        flags.quiet = true;
        break;
      case "--help":
      case "-h":
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  Object.assign(flags, set); // explicit flags win over --smoke, wherever they stand
  for (const key of ["files", "tools", "reps", "calls", "register", "concurrent"]) {
    if (!Number.isInteger(flags[key]) || flags[key] < 1) throw new Error(`--${key} must be a positive integer, got ${flags[key]}`);
  }
  if (!Number.isInteger(flags.warmup) || flags.warmup < 0) throw new Error(`--warmup must be 0 or more, got ${flags.warmup}`);
  if (flags.scaling.length < 2 || flags.scaling.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--scaling needs two or more tool counts, e.g. 10000,20000,40000`);
  }
  if (flags.startup.length !== 2 || flags.startup.some((n) => !Number.isInteger(n) || n < 1) || flags.startup[1] < flags.startup[0]) {
    throw new Error(`--startup takes the modules and tools of measure 9's project, e.g. 300,1500`);
  }
  if (flags.only.some((n) => ![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].includes(n))) throw new Error(`--only takes measure numbers 1 to 11, e.g. --only 1,4`);
  if (flags.shapes.some((shape) => !SHAPES.includes(shape))) throw new Error(`--shape takes ${SHAPES.join(", ")} or both`);
  return flags;
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim(),
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    loadAverage1m: round(os.loadavg()[0], 2),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    typescript: JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "typescript", "package.json"), "utf8")).version,
  };
}

// -------------------------------------------------------------------------------------------
// Printing

const seconds = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`);
const range = (s, unit = seconds) => `${unit(s.median)} [${unit(s.min)}–${unit(s.max)}]`;
const times = (r) => `${r.value.toFixed(3)}× [${r.pairMin.toFixed(3)}–${r.pairMax.toFixed(3)}]`;
const verdict = (value, max) => (value <= max ? `met (≤ ${max}×)` : `MISSED (target ≤ ${max}×)`);
const msVerdict = (value, max) => (value <= max ? `met (≤ ${seconds(max)})` : `MISSED (target ≤ ${seconds(max)})`);

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row) => `  ${row.map((cell, column) => String(cell).padEnd(widths[column])).join("   ")}`.trimEnd()).join("\n");
}

function printArms(measure) {
  const rows = [["arm", "wall median [min–max]", "CPU median [min–max]", "max RSS"]];
  for (const [name, arm] of Object.entries(measure.arms)) rows.push([name, range(arm.wall), range(arm.cpu), `${arm.maxRssMiB} MiB`]);
  return table(rows);
}

function printRatios(ratios, targets) {
  const rows = [["ratio (median; range of per-repetition pairs)", "wall", "CPU", "target"]];
  for (const [name, r] of Object.entries(ratios)) {
    const target = targets.find((t) => t.ratio === name);
    const value = r.cpu ?? r.wall ?? r;
    rows.push([name, r.wall ? times(r.wall) : "", r.cpu ? times(r.cpu) : r.wall ? "" : times(r), target ? verdict(value.value, target.max) : ""]);
  }
  return table(rows);
}

function print(result) {
  const out = [];
  const { options, machine: m } = result;
  out.push(
    `sourced benchmarks — ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, TypeScript ${m.typescript}, load ${m.loadAverage1m} at start`,
    `project: ${options.files} modules, ${options.tools} tools (seed ${options.seed}); ${options.reps} repetitions after ${options.warmup} warm-up, arms alternated`,
    "",
  );
  for (const [shape, measures] of Object.entries(result.shapes)) {
    out.push(`== ${SHAPE_TITLES[shape]} ==`, "");
    printMeasures(measures, out);
    for (const [number, measure] of Object.entries(measures)) {
      if (!measure.verified) out.push(`NOT VERIFIED (${number}, ${shape} shape): ${measure.problem}`);
    }
  }
  out.push(`JSON: ${path.relative(process.cwd(), result.jsonFile)}`);
  return out.join("\n");
}

const SHAPE_TITLES = {
  tools: "the tool-heavy shape: every module registers tools",
  realistic: "the realistic shape: 1 module in 10 registers tools, the rest is ordinary code",
};

function printMeasures(measures, out) {
  if (measures[1]) {
    const m1 = measures[1];
    out.push(`1. ${m1.title}`, printArms(m1), printRatios(m1.ratios, m1.targets), "");
  }
  if (measures[2]) {
    const m2 = measures[2];
    const rows = [["tools", "modules", "own time median [min–max]", "check", "strip+stamp", "per tool", "tsc's type check", "first (cold JIT)"]];
    for (const size of m2.sizes) {
      rows.push([
        size.tools,
        size.files,
        range(size.ownMs),
        seconds(size.checkMs.median),
        seconds(size.emitTransformMs.median),
        `${size.ownPerToolUs.median.toFixed(1)} µs`,
        seconds(size.typeCheckMs.median),
        seconds(size.first.ownMs),
      ]);
    }
    const ratioRows = [["ratio of medians", "value", "linear would be", "target"]];
    for (const [name, r] of Object.entries(m2.ratios)) {
      ratioRows.push([name, `${r.value.toFixed(3)}×`, `${r.linear}×`, name === m2.target.ratio ? verdict(r.value, round(m2.target.max, 2)) : ""]);
    }
    out.push(`2. ${m2.title}`, table(rows), table(ratioRows), "");
  }
  if (measures[3]) {
    const m3 = measures[3];
    const own = [["rule's own time", "TIMING (wall) median [min–max]", "CPU median [min–max]", "of it the main thread's", "target"]];
    for (const [name, s] of Object.entries(m3.ruleOwnMs)) {
      const target = m3.targets.find((t) => t.figure?.endsWith(name));
      const main = m3.ruleOwnMainCpuMs?.[name];
      own.push([name, range(s), range(m3.ruleOwnCpuMs[name]), main ? range(main) : "", target ? msVerdict(m3.ruleOwnCpuMs[name].median, target.maxMs) : ""]);
    }
    out.push(`3. ${m3.title}`, printArms(m3), table(own), printRatios(m3.ratios, m3.targets), "");
    const editor = m3.editor;
    const perFile = [[`editor: ${editor.title}`, "own time per file, p95 (median [min–max] over repetitions)", "p50", "CPU p95", "main thread's CPU p95", "target"]];
    for (const [name, s] of Object.entries(editor.perFileOwnMs)) {
      perFile.push([
        name,
        range(s.p95),
        seconds(s.p50.median),
        seconds(s.p95Cpu.median),
        s.p95MainCpu ? seconds(s.p95MainCpu.median) : "",
        editor.target.arm === name ? msVerdict(s.p95.median, editor.target.maxMs) : "",
      ]);
    }
    out.push(table(perFile), `  the rule's first file (program and checker built, untimed above): ${seconds(editor.warmUpRuleMs)}`, "");
  }
  if (measures[4]) {
    const m4 = measures[4];
    out.push(`4. ${m4.title}`, printArms(m4), printRatios(m4.ratios, [m4.target]), "");
  }
  if (measures[5]) {
    const m5 = measures[5];
    const perCall = (ms) => `${(ms * 1000).toFixed(1)} µs`;
    const calls = [["tools/call", "wall per call [min–max]", "CPU per call [min–max]"]];
    for (const name of ["registry (net)", "SDK registerTool"]) calls.push([name, range(m5.calls[name].wallMs, perCall), range(m5.calls[name].cpuMs, perCall)]);
    const register = [[`registering ${m5.register.tools} tools (cold process)`, "median [min–max]", "target"]];
    register.push(["registry.tool() (start-up check off)", range(m5.register["registry.tool()"]), m5.register["registry.tool()"].median < 100 ? "met (< 100 ms)" : "MISSED (target < 100 ms)"]);
    const checked = m5.register["registry.tool(), start-up check on (the default)"];
    register.push(["registry.tool(), start-up check on (the default: deeper stacks kept)", range(checked), checked.median < 100 ? "met (< 100 ms)" : "MISSED (target < 100 ms)"]);
    register.push(["registry.createServer() (the first: computes the tool table)", range(m5.register["registry.createServer()"]), ""]);
    register.push(["SDK registerTool alone, for scale", range(m5.register["SDK registerTool"]), ""]);
    const http = [["over Streamable HTTP, v2 Client on 2026-07-28", "median per request [min–max]"]];
    for (const [name, arm] of Object.entries(m5.http.arms)) http.push([name, range(arm)]);
    const c = m5.http.concurrent;
    const concurrent = [
      [`${c.calls} calls at once over HTTP (50 clients, 127.0.0.1)`, "lost", "p50", "p99", "max", "all answered in"],
      [`maxConcurrentRequests ${c.calls}`, c.lost === 0 ? "0 (met)" : `${c.lost} (MISSED: ${JSON.stringify(c.problems)})`, `${c.p50Ms.toFixed(0)} ms`, `${c.p99Ms.toFixed(0)} ms`, `${c.maxMs.toFixed(0)} ms`, `${c.totalMs.toFixed(0)} ms`],
    ];
    out.push(
      `5. ${m5.title} (${m5.calls.perRepetition} calls per repetition)`,
      table(calls),
      table(http),
      printRatios(m5.ratios, m5.targets),
      table(concurrent),
      table(register),
      "",
    );
  }
  if (measures[6]) {
    const m6 = measures[6];
    const memory = [["peak RSS per process (last repetition)", "MiB"]];
    for (const [arm, byProcess] of Object.entries(m6.peakRssMiBByProcess)) memory.push([arm, Object.entries(byProcess).map(([name, mib]) => `${name} ${mib}`).join(", ")]);
    out.push(`6. ${m6.title}`, printArms(m6), table(memory), printRatios(m6.ratios, m6.targets), "");
  }
  if (measures[7]) {
    const m7 = measures[7];
    out.push(`7. ${m7.title}`, printArms(m7), printRatios(m7.ratios, [m7.target]), "");
  }
  if (measures[8]) {
    const m8 = measures[8];
    const rows = [["rebuild", "wall median [min–max]"], ["cold (first build)", seconds(m8.coldMs)], ["after one edit", range(m8.editMs)]];
    out.push(`8. ${m8.title}`, table(rows), printRatios(m8.ratios, [m8.target]), "");
  }
  if (measures[9]) {
    const m9 = measures[9];
    const rows = [["arm", "first tools/list, median [min–max]", "initialize answered", "server CPU (worker included)"]];
    for (const [name, arm] of Object.entries(m9.arms)) {
      const init = m9.initializeMs[name];
      rows.push([name, range(arm.wall), init ? range(init) : "—", range(arm.cpu)]);
    }
    out.push(`9. ${m9.title}`, table(rows), printRatios(m9.ratios, m9.targets), "");
  }
  if (measures[10]) {
    const m10 = measures[10];
    const rows = [["arm", "first tools/list, median [min–max]", "initialize answered", "server CPU (worker included)"]];
    for (const [name, arm] of Object.entries(m10.arms)) rows.push([name, range(arm.wall), range(m10.initializeMs[name]), range(arm.cpu)]);
    out.push(`10. ${m10.title}`, table(rows), printRatios(m10.ratios, m10.targets), "");
  }
  if (measures[11]) {
    const m11 = measures[11];
    const rows = [["arm", "per tools/list, median [min–max]", "listed tools' JSON"]];
    for (const [name, arm] of Object.entries(m11.arms)) rows.push([name, range(arm.ms), `${arm.kib} KiB`]);
    out.push(`11. ${m11.title}`, table(rows), printRatios(m11.ratios, m11.targets), "");
  }
}

// -------------------------------------------------------------------------------------------

async function main() {
  if (process.argv.slice(2).some((arg) => arg === "--compare" || arg.startsWith("--compare="))) {
    process.exitCode = compare(process.argv.slice(2));
    return;
  }
  const flags = parseFlags(process.argv.slice(2));
  const log = flags.quiet ? undefined : (line) => process.stderr.write(`  ${line}\n`);
  const started = Date.now();
  const result = { date: new Date().toISOString(), machine: machine(), options: { ...flags, json: undefined }, projects: {}, measures: {}, shapes: {} };
  result.jsonFile = flags.json;

  const wants = (n) => flags.only.includes(n);
  const options = { reps: flags.reps, warmup: flags.warmup, log };
  // The first shape's figures (the tool-heavy one's by default) stay in `measures`, as before shapes existed; each shape's are in `shapes`.
  for (const shape of flags.shapes) {
    const measures = {};
    result.shapes[shape] = measures;
    if (shape === flags.shapes[0]) result.measures = measures;
    const project = (tools, files) => {
      log?.(`generating ${files} modules, ${tools} tools (${shape} shape)`);
      const generated = generateProject({ files, tools, seed: flags.seed, shape, hints: flags.hints, zodObjects: flags.zodObjects });
      const { expected: _expected, ...summary } = generated.manifest;
      result.projects[path.basename(generated.dir)] = summary;
      return generated;
    };
    const main = wants(1) || wants(3) || wants(4) || wants(6) || wants(7) || wants(8) ? project(flags.tools, flags.files) : undefined;

    if (wants(1)) {
      log?.(`1. tspc + transformer vs tsc (${shape})`);
      measures[1] = transformerVsTsc(main, options);
    }
    if (wants(2)) {
      log?.(`2. transformer scaling (${shape})`);
      const perModule = flags.tools / flags.files;
      const projects = flags.scaling.map((tools) => project(tools, Math.max(1, Math.round(tools / perModule))));
      measures[2] = transformerScaling(projects, options);
    }
    if (wants(3)) {
      log?.(`3. ESLint, typed (${shape})`);
      measures[3] = eslintTyped(main, options);
    }
    if (wants(4)) {
      log?.(`4. sourced check vs tsc --noEmit (${shape})`);
      measures[4] = checkVsNoEmit(main, options);
    }
    if (wants(6)) {
      log?.(`6. sourced check on TypeScript 7 (native) vs tsc --noEmit of TypeScript 7 and 6 (${shape})`);
      measures[6] = nativeCheck(main, options);
    }
    // The run time does not depend on the project's shape: measured once, with the first shape.
    if (wants(5) && shape === flags.shapes[0]) {
      log?.("5. run time");
      measures[5] = runTime({ calls: flags.calls, reps: flags.reps, registerTools: flags.register, concurrent: flags.concurrent, log });
    }
    if (wants(7)) {
      log?.(`7. esbuild + @sourced/unplugin vs sourced check (${shape})`);
      measures[7] = pluginVsCheck(main, options);
    }
    if (wants(8)) {
      log?.(`8. esbuild + @sourced/unplugin, watch mode (${shape})`);
      measures[8] = pluginWatch(main, options);
    }
    if (wants(9)) {
      log?.(`9. the start-up check: first tools/list from source vs the stamped build (${shape})`);
      const [files, tools] = flags.startup;
      measures[9] = startupFromSource(files === flags.files && tools === flags.tools && main ? main : project(tools, files), options);
    }
    if (wants(10)) {
      log?.(`10. the start-up check on plain tsc output, warm, vs the stamped build (${shape})`);
      const [files, tools] = flags.startup;
      measures[10] = startupFromPlainTsc(project(tools, files), options);
    }
    // As the run time: measured once, with the first shape.
    if (wants(11) && shape === flags.shapes[0]) {
      log?.("11. tools/list at the client");
      measures[11] = toolsListAtClient({ reps: flags.reps, log });
    }
  }
  result.durationS = round((Date.now() - started) / 1000, 1);

  fs.mkdirSync(path.dirname(flags.json), { recursive: true });
  fs.writeFileSync(flags.json, `${JSON.stringify(result, (key, value) => (typeof value === "number" ? round(value, 4) : value), 2)}\n`);
  console.log(print(result));
  console.log(`took ${result.durationS} s`);
  if (Object.values(result.shapes).some((measures) => Object.values(measures).some((measure) => !measure.verified))) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? (process.env.BENCH_DEBUG ? error.stack : error.message) : String(error)}`);
  process.exitCode = 2;
});
