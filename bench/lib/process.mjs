// Timed child processes: wall-clock time around the process, CPU time reported by the process.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const CPU_REPORT = fileURLToPath(new URL("./cpu-report.mjs", import.meta.url));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-bench-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
let counter = 0;

/**
 * Runs `node <script> ...args` and returns `{ status, stdout, stderr, wallMs, cpuMs, maxRssKiB }`.
 * `okStatuses`: the exit codes that mean the tool ran (a check with findings exits 1).
 */
export function runNode(script, args, { cwd, env = {}, okStatuses = [0], nodeOptions = [] } = {}) {
  const cpuFile = path.join(scratch, `cpu-${process.pid}-${counter++}.json`);
  const started = performance.now();
  const result = spawnSync(process.execPath, [...nodeOptions, "--import", pathToFileURL(CPU_REPORT).href, script, ...args], {
    cwd,
    env: { ...process.env, ...env, SOURCED_BENCH_CPU_FILE: cpuFile },
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024,
  });
  const wallMs = performance.now() - started;
  if (result.error) throw result.error;
  const describe = () =>
    `${path.basename(script)} ${args.join(" ")} (in ${cwd}) exited with ${result.status ?? result.signal}:\n${(result.stderr || result.stdout).slice(0, 4000)}`;
  if (!okStatuses.includes(result.status)) throw new Error(describe());
  let cpu;
  try {
    cpu = JSON.parse(fs.readFileSync(cpuFile, "utf8"));
    fs.rmSync(cpuFile);
  } catch {
    throw new Error(`no CPU report from ${describe()}`);
  }
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    wallMs,
    cpuMs: cpu.userMs + cpu.systemMs,
    maxRssKiB: cpu.maxRssKiB,
  };
}
