// `pnpm bench --compare <ref>`: the same measures on a git ref (main, a commit) and on the
// working tree, in one run, and each ratio's change. See docs/performance.md ("Comparing two
// builds").
//
// The ref is checked out once into bench/out/compare/<commit> (a detached git worktree, ignored
// by git), installed from the lockfile and built there; later runs against the same commit reuse
// that build. Each side then runs its own `bench/run.mjs` with the same flags, in the order ref,
// tree, tree, ref, … (`--rounds`, default 2: every side twice), so drift on the machine falls
// on both sides alike; each run writes its own JSON. Per figure, the median over a side's runs,
// and the change: tree / ref − 1 for a ratio or a time (negative is faster).
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./generate.mjs";

const OUT = path.join(ROOT, "bench", "out", "compare");

function git(args, cwd = ROOT) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The ref's build, made once per commit: a detached worktree, installed and built. */
function buildOf(ref, log) {
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const dir = path.join(OUT, commit.slice(0, 12));
  const stamp = path.join(dir, ".bench-built");
  if (fs.existsSync(stamp)) return { commit, dir };
  if (fs.existsSync(dir)) {
    spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: ROOT, stdio: "ignore" });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.mkdirSync(OUT, { recursive: true });
  log(`checking out ${ref} (${commit.slice(0, 12)}) into ${path.relative(ROOT, dir)}`);
  git(["worktree", "add", "--detach", dir, commit]);
  const run = (command, args) => {
    log(`${path.relative(ROOT, dir)}: ${command} ${args.join(" ")}`);
    const result = spawnSync(command, args, { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${dir} (exit ${result.status}); remove the directory to retry`);
  };
  // The packages come from the store the working tree was installed from; the lockfile decides.
  run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"]);
  run("pnpm", ["build"]);
  fs.writeFileSync(stamp, `${commit}\n`);
  return { commit, dir };
}

/** Every figure of one run's JSON worth comparing, by a stable name: ratios (CPU and wall) and the rule's own times. */
export function figuresOf(result) {
  const figures = {};
  for (const [shape, measures] of Object.entries(result.shapes ?? { tools: result.measures })) {
    for (const [number, measure] of Object.entries(measures)) {
      for (const [name, arm] of Object.entries(measure.arms ?? {})) {
        if (typeof arm?.cpu?.median === "number") figures[`${shape} ${number}. ${name}: CPU`] = { value: arm.cpu.median, unit: "ms" };
      }
      for (const [name, ratio] of Object.entries(measure.ratios ?? {})) {
        if (typeof ratio?.value === "number") figures[`${shape} ${number}. ${name}`] = { value: ratio.value, unit: "×" };
        for (const kind of ["cpu", "wall"]) {
          if (typeof ratio?.[kind]?.value === "number") figures[`${shape} ${number}. ${name}, ${kind === "cpu" ? "CPU" : "wall"}`] = { value: ratio[kind].value, unit: "×" };
        }
      }
      for (const [name, stats] of Object.entries(measure.ruleOwnCpuMs ?? {})) figures[`${shape} ${number}. ${name}: own CPU`] = { value: stats.median, unit: "ms" };
      for (const [name, stats] of Object.entries(measure.ruleOwnMainCpuMs ?? {})) figures[`${shape} ${number}. ${name}: own CPU, main thread`] = { value: stats.median, unit: "ms" };
      for (const [name, stats] of Object.entries(measure.editor?.perFileOwnMs ?? {})) {
        figures[`${shape} ${number}. editor, ${name}: own time per file, p95`] = { value: stats.p95.median, unit: "ms" };
        if (stats.p95Cpu) figures[`${shape} ${number}. editor, ${name}: own CPU per file, p95`] = { value: stats.p95Cpu.median, unit: "ms" };
        if (stats.p95MainCpu) figures[`${shape} ${number}. editor, ${name}: own CPU per file on the main thread, p95`] = { value: stats.p95MainCpu.median, unit: "ms" };
      }
      if (measure.verified === false) figures[`${shape} ${number}. NOT VERIFIED`] = { value: NaN, unit: measure.problem };
    }
  }
  return figures;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const format = (value, unit) => (Number.isNaN(value) ? "—" : unit === "×" ? `${value.toFixed(3)}×` : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`);

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows.map((row) => `  ${row.map((cell, column) => String(cell).padEnd(widths[column])).join("   ")}`.trimEnd()).join("\n");
}

/**
 * The table of every figure of either side: its median over the side's runs with their range, and
 * the change (tree / ref − 1). `ref` and `tree`: `{ label, runs }`, each run `figuresOf` one JSON.
 */
export function comparisonRows(ref, tree) {
  const names = [...new Set([...ref.runs, ...tree.runs].flatMap((figures) => Object.keys(figures)))];
  const rows = [["figure (median of the runs; [min–max])", ref.label, tree.label, "change"]];
  for (const name of names) {
    const of = (side) => side.runs.map((figures) => figures[name]).filter((figure) => figure !== undefined);
    const [refs, trees] = [of(ref), of(tree)];
    const unit = (refs[0] ?? trees[0]).unit;
    const cell = (figures) => {
      if (figures.length === 0) return "(not measured)";
      const values = figures.map((figure) => figure.value);
      return `${format(median(values), unit)}${values.length > 1 ? ` [${format(Math.min(...values), unit)}–${format(Math.max(...values), unit)}]` : ""}`;
    };
    const change = refs.length > 0 && trees.length > 0 ? median(trees.map((f) => f.value)) / median(refs.map((f) => f.value)) - 1 : NaN;
    rows.push([name, cell(refs), cell(trees), Number.isNaN(change) ? "" : `${change >= 0 ? "+" : ""}${(change * 100).toFixed(1)}%`]);
  }
  return rows;
}

/**
 * `args`: bench/run.mjs's own flags, with `--compare <ref>` and `--rounds N` among them. Returns
 * the exit code: 1 when a run was not verified (as bench/run.mjs), 2 when a run failed.
 */
export function compare(args) {
  const log = (line) => process.stderr.write(`  ${line}\n`);
  const rest = [];
  let ref;
  let rounds = 2;
  for (let i = 0; i < args.length; i++) {
    const [key, inline] = args[i].split("=", 2);
    if (key === "--compare") ref = inline ?? args[++i];
    else if (key === "--rounds") rounds = Number(inline ?? args[++i]);
    else if (key === "--json") i += inline === undefined ? 1 : 0; // each run writes its own
    else rest.push(args[i]);
  }
  if (ref === undefined || ref === "") throw new Error("--compare needs a git ref, e.g. --compare main");
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, got ${rounds}`);
  const base = buildOf(ref, log);
  const sides = { ref: { root: base.dir, label: `${ref} (${base.commit.slice(0, 12)})`, runs: [] }, tree: { root: ROOT, label: "working tree", runs: [] } };
  const order = [];
  for (let round = 0; round < rounds; round++) order.push(...(round % 2 === 0 ? ["ref", "tree"] : ["tree", "ref"]));
  let status = 0;
  order.forEach((side, index) => {
    const json = path.join(OUT, `run-${index + 1}-${side}.json`);
    log(`run ${index + 1} of ${order.length}: ${sides[side].label}`);
    const result = spawnSync(process.execPath, [path.join(sides[side].root, "bench", "run.mjs"), ...rest, "--json", json, "--quiet"], { cwd: sides[side].root, stdio: ["ignore", "ignore", "inherit"] });
    if (result.status === 2 || result.status === null) throw new Error(`bench/run.mjs failed on the ${side === "ref" ? ref : "working tree"} (exit ${result.status})`);
    if (result.status === 1) status = 1;
    sides[side].runs.push(figuresOf(JSON.parse(fs.readFileSync(json, "utf8"))));
  });
  const rows = comparisonRows(sides.ref, sides.tree);
  console.log(`sourced benchmarks compared: ${sides.ref.label} against the ${sides.tree.label}, ${rounds} run(s) each, alternated (flags: ${rest.join(" ") || "the defaults"})`);
  console.log(table(rows));
  console.log(`JSON of each run: ${path.relative(process.cwd(), OUT)}/run-*.json`);
  return status;
}
