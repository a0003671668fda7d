// `node --import ./bench/lib/native-requests.mjs packages/cli/bin/sourced.js check …` in a
// TypeScript 7 project: counts what the native backend asks TypeScript 7's process, per request
// kind (how many, round-trip time, payload bytes each way), and prints it as JSON on standard
// error at exit, with this process's own CPU time and the TypeScript 7 process's (read from /proc
// just before the session closes it). The profile behind measure 6 (docs/performance.md); it
// changes nothing the check does, it only wraps the API client's request functions.
// SOURCED_TS7_DIR names the TypeScript 7 package (default: the one fixtures/ts7 installs).
import { Buffer } from "node:buffer";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const packageDirectory = fs.realpathSync(process.env.SOURCED_TS7_DIR ?? path.join(ROOT, "fixtures", "ts7", "node_modules", "typescript"));
const api = (file) => pathToFileURL(path.join(packageDirectory, "dist", "api", file)).href;
const { Client } = await import(api("sync/client.js"));
const { SyncRpcChannel } = await import(api("syncChannel.js"));

/** method -> { count, ms (round trip, the channel alone), clientMs (with JSON encoding and parsing), sent, received } */
const byMethod = new Map();
const entry = (method) => {
  let found = byMethod.get(method);
  if (found === undefined) byMethod.set(method, (found = { count: 0, ms: 0, clientMs: 0, sent: 0, received: 0, payloads: new Set() }));
  return found;
};
let compilerCpuMs;
const callers = process.env.SOURCED_REQUEST_CALLERS === "1" ? new Map() : undefined;
if (callers !== undefined) Error.stackTraceLimit = 40;
const TICKS_PER_SECOND = 100;

const requestBytesSync = SyncRpcChannel.prototype.requestBytesSync;
SyncRpcChannel.prototype.requestBytesSync = function (method, payload) {
  const started = performance.now();
  const result = requestBytesSync.call(this, method, payload);
  const counted = entry(method);
  counted.count++;
  counted.ms += performance.now() - started;
  counted.sent += typeof payload === "string" ? Buffer.byteLength(payload) : payload.length;
  counted.received += result.length;
  // The same question asked again (same method, same payload): what a cache would save.
  counted.payloads.add(typeof payload === "string" ? payload : Buffer.from(payload).toString("latin1"));
  if (callers !== undefined) {
    // Who asked: the first frames of the analysis (or the CLI) on the stack, with SOURCED_REQUEST_CALLERS=1.
    const frames = (new Error().stack ?? "").split("\n").filter((line) => /packages[\\/](analysis|cli|project)[\\/]dist/.test(line) && !/analysis-native/.test(line)).slice(0, 2);
    const key = `${method} <- ${frames.map((line) => line.trim().replace(/^at /, "").replace(/\(?\/.*packages[\\/]/, "").replace(/\)$/, "")).join(" <- ")}`;
    callers.set(key, (callers.get(key) ?? 0) + 1);
  }
  return result;
};
for (const name of ["apiRequest", "apiRequestBinary"]) {
  const original = Client.prototype[name];
  Client.prototype[name] = function (method, params) {
    const started = performance.now();
    try {
      return original.call(this, method, params);
    } finally {
      entry(method).clientMs += performance.now() - started;
    }
  };
}
const close = Client.prototype.close;
Client.prototype.close = function () {
  const stat = (() => {
    try {
      return fs.readFileSync(`/proc/${this.channel.child.pid}/stat`, "utf8");
    } catch {
      return undefined;
    }
  })();
  if (stat !== undefined) {
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    compilerCpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  }
  return close.call(this);
};

process.on("exit", () => {
  const methods = [...byMethod.entries()].sort(([, a], [, b]) => b.ms - a.ms).map(([method, { payloads, ...counted }]) => ({ method, ...counted, distinct: payloads.size, ms: Math.round(counted.ms), clientMs: Math.round(counted.clientMs) }));
  const total = methods.reduce((sum, counted) => ({ count: sum.count + counted.count, ms: sum.ms + counted.ms, clientMs: sum.clientMs + counted.clientMs, sent: sum.sent + counted.sent, received: sum.received + counted.received }), { count: 0, ms: 0, clientMs: 0, sent: 0, received: 0 });
  const { user, system } = process.cpuUsage();
  const topCallers = callers === undefined ? undefined : [...callers.entries()].sort(([, a], [, b]) => b - a).slice(0, 40);
  process.stderr.write(`${JSON.stringify({ nodeCpuMs: Math.round((user + system) / 1000), compilerCpuMs, total, methods, callers: topCallers })}\n`);
});
