// One start of a server, timed as its first client sees it: spawns `node <args>` in <dir>, connects
// the SDK's Client over stdio, lists the tools, and stops it. Prints one JSON document: when the
// `initialize` answer and the first `tools/list` answer arrived (ms after the spawn), how many tools
// were listed, how many warnings the server wrote, and the server process's own CPU time (its
// worker threads included), as cpu-report.mjs records it when the server exits on its stdin's end.
//
//   node startup-child.mjs <dir> <node args>...
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const fromRegistry = createRequire(path.join(ROOT, "packages", "registry", "package.json"));
const { Client } = fromRegistry("@modelcontextprotocol/client");
const { StdioClientTransport } = fromRegistry("@modelcontextprotocol/client/stdio");
const CPU_REPORT = pathToFileURL(fileURLToPath(new URL("./cpu-report.mjs", import.meta.url))).href;

const [dir, ...args] = process.argv.slice(2);
const cpuFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-bench-startup-")), "cpu.json");
// The server's environment is a user's shell: no loader hooks of ours, no NODE_PATH.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== "NODE_OPTIONS" && key !== "NODE_PATH" && key !== "SOURCED_BENCH_CPU_FILE"));
env.SOURCED_BENCH_CPU_FILE = cpuFile;

let stderr = "";
const started = performance.now();
const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", CPU_REPORT, ...args], cwd: dir, env, stderr: "pipe" });
transport.stderr?.on("data", (chunk) => (stderr += chunk.toString()));
const ended = new Promise((resolve) => transport.stderr?.on("end", resolve));
const client = new Client({ name: "bench-startup", version: "1.0.0" });
await client.connect(transport);
const initMs = performance.now() - started;
const { tools } = await client.listTools();
const listMs = performance.now() - started;
await client.close();
await ended;
let serverCpuMs;
for (let attempt = 0; attempt < 50 && serverCpuMs === undefined; attempt++) {
  try {
    const cpu = JSON.parse(fs.readFileSync(cpuFile, "utf8"));
    serverCpuMs = cpu.userMs + cpu.systemMs;
  } catch {
    await sleep(20);
  }
}
fs.rmSync(path.dirname(cpuFile), { recursive: true, force: true });
const warnings = stderr.split("\n").filter((line) => line.startsWith("[sourced] warning: "));
process.stdout.write(`${JSON.stringify({ initMs, listMs, tools: tools.length, warnings: warnings.length, serverCpuMs: serverCpuMs ?? null, stderr: warnings.length === 0 ? stderr.slice(0, 2000) : undefined })}\n`);
