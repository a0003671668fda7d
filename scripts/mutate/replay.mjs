// @ts-check
// Replays the mutants a `pnpm mutate` run left alive against tests added since, without a new run:
// each survivor (or mutant without coverage) of the group's last report is written into the source
// in turn, the tests named after `--` run under the mutation configuration, and the source is put
// back. Adding tests can only kill more mutants, so the run's score plus what this kills is what a
// full run would now give at least. Slow per mutant (a vitest start each): narrow it with `--lines`.
//
//   node scripts/mutate/replay.mjs analysis:judge --lines 100-480 -- packages/analysis/test/analysis.test.ts -t "words"
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mutationGroup } from "./groups.mjs";

const separator = process.argv.indexOf("--");
const own = process.argv.slice(2, separator === -1 ? undefined : separator);
const testArguments = separator === -1 ? [] : process.argv.slice(separator + 1);
const linesAt = own.indexOf("--lines");
const [from, to] = linesAt === -1 ? [1, Infinity] : (own[linesAt + 1] ?? "").split("-").map(Number);
if (!(from >= 1 && to >= from)) {
  console.error(`--lines takes a range of lines, such as --lines 100-480; got ${JSON.stringify(own[linesAt + 1] ?? "")}`);
  process.exit(2);
}
const group = mutationGroup(own[0]);
const report = JSON.parse(readFileSync(`${group.reportDir}/mutation.json`, "utf8"));

/** The exit status of the tests named after `--`, run under the mutation configuration. */
const runTests = () =>
  new Promise((resolve) =>
    spawn("npx", ["vitest", "run", "--config", "scripts/mutate/vitest.config.mts", ...testArguments], {
      stdio: "ignore",
      env: { ...process.env, SOURCED_MUTATE: group.name },
    }).on("close", resolve),
  );

// A failing run counts as a kill, so tests that fail (or cannot start) without any mutant would
// "kill" every one: they must pass on the source as it is first.
if ((await runTests()) !== 0) {
  console.error("the tests fail on the unmutated source: fix them (or the arguments after --) before replaying");
  process.exit(2);
}

let killed = 0;
let survived = 0;
for (const [file, entry] of Object.entries(report.files)) {
  const original = readFileSync(file, "utf8");
  if (entry.source !== original) {
    console.error(`${file} changed since the run: its mutants' places no longer hold; run the group again`);
    process.exit(2);
  }
  const lineStarts = [0];
  for (let index = original.indexOf("\n"); index !== -1; index = original.indexOf("\n", index + 1)) lineStarts.push(index + 1);
  const offset = (/** @type {{ line: number; column: number }} */ at) => lineStarts[at.line - 1] + at.column - 1;
  const alive = entry.mutants.filter(
    (/** @type {any} */ mutant) => (mutant.status === "Survived" || mutant.status === "NoCoverage") && mutant.location.start.line >= from && mutant.location.start.line <= to,
  );
  // Put the source back however the replay ends (an interrupt included). The tests run in a child
  // awaited, not spawned synchronously: a synchronous loop never lets a signal's handler run.
  const restore = () => writeFileSync(file, original);
  process.once("SIGINT", () => (restore(), process.exit(130)));
  process.once("SIGTERM", () => (restore(), process.exit(143)));
  try {
    for (const mutant of alive) {
      const { start, end } = mutant.location;
      writeFileSync(file, original.slice(0, offset(start)) + mutant.replacement + original.slice(offset(end)));
      const caught = (await runTests()) !== 0;
      if (caught) killed++;
      else survived++;
      console.log(`${file}:${start.line}:${start.column} ${caught ? "killed  " : "survived"} ${mutant.mutatorName} -> ${JSON.stringify(mutant.replacement.slice(0, 80))}`);
    }
  } finally {
    restore();
  }
}
console.log(`killed ${killed}, still alive ${survived}`);
