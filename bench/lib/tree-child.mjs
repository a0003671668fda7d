// `node tree-child.mjs <script> [...args]`: runs `node <script> ...args` and measures its whole
// process tree, for arms that are more than one process (TypeScript 7's `tsc` runs a native
// binary; the native `sourced check` drives one over IPC), where the process's own CPU report
// would miss most of the work. Prints `{ status, stdout, stderr, wallMs, cpuMs, processes }` as
// JSON: CPU is the tree's user + system time, read from /proc every few milliseconds (a process's
// last few milliseconds can be missed); `processes` names each process with its peak RSS.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";

const [script, ...args] = process.argv.slice(2);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const started = performance.now();
const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: "" } });
let stdout = "";
let stderr = "";
child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));

/** pid -> { name, peakRssKiB, cpuTicks } */
const seen = new Map();

function read(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function sample(pid) {
  const stat = read(`/proc/${pid}/stat`);
  const status = read(`/proc/${pid}/status`);
  if (stat === undefined || status === undefined) return;
  const close = stat.lastIndexOf(")");
  const name = stat.slice(stat.indexOf("(") + 1, close);
  const fields = stat.slice(close + 2).split(" ");
  const cpuTicks = Number(fields[11]) + Number(fields[12]); // utime, stime
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const known = seen.get(pid) ?? { name, peakRssKiB: 0, cpuTicks: 0 };
  known.name = name;
  known.peakRssKiB = Math.max(known.peakRssKiB, rss);
  known.cpuTicks = Math.max(known.cpuTicks, cpuTicks);
  seen.set(pid, known);
  for (const task of fs.readdirSync(`/proc/${pid}/task`, { withFileTypes: false }).map(String)) {
    for (const grandchild of (read(`/proc/${pid}/task/${task}/children`) ?? "").split(" ").filter(Boolean)) sample(Number(grandchild));
  }
}

const timer = setInterval(() => {
  try {
    sample(child.pid);
  } catch {
    // the process ended between two reads
  }
}, 5);

child.on("close", (status) => {
  clearInterval(timer);
  const wallMs = performance.now() - started;
  const processes = [...seen.values()].map(({ name, peakRssKiB }) => ({ name, peakRssKiB }));
  const cpuMs = ([...seen.values()].reduce((sum, process) => sum + process.cpuTicks, 0) * 1000) / TICKS_PER_SECOND;
  process.stdout.write(JSON.stringify({ status, stdout, stderr, wallMs, cpuMs, processes }));
});
