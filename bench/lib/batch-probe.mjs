// What TypeScript 7.1's `api.batch()` saves per request, measured on a project: questions of one
// kind asked one request each, against the same kind asked in one batch, over the project's files
// split in two (even and odd), so neither arm finds an answer the other fetched. The profile behind
// measure 6's bound (docs/performance.md, issue 45 round 5); it changes nothing the check does.
//
//   node bench/lib/batch-probe.mjs <typescript 7.1 package dir> <project dir>   -> a table on stdout
//
// Per kind: wall time and this process's CPU for each arm, and per request. The compiler's own
// time per request is in the wall time (the client waits for each answer).
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const [packageDirectory, projectDirectory] = process.argv.slice(2).map((argument) => path.resolve(argument));
if (projectDirectory === undefined) throw new Error("usage: node batch-probe.mjs <typescript 7.1 package dir> <project dir>");
const entry = path.join(packageDirectory, "dist", "api", "sync", "api.js");
const sync = fs.existsSync(entry) ? await import(pathToFileURL(entry).href) : undefined;
if (typeof sync?.API?.prototype?.batch !== "function") throw new Error(`${packageDirectory}: no API with batch() there (TypeScript 7.1 or later)`);

const config = path.join(projectDirectory, "tsconfig.json");
const api = new sync.API({ cwd: projectDirectory });
try {
  const snapshot = api.createSnapshot({ openProjects: [config] });
  const project = snapshot.getConfiguredProject(config);
  if (project === undefined) throw new Error(`no project for ${config}`);
  const { program, checker } = project;
  const names = program.getSourceFileNames();
  const own = names.filter((name) => !/[\\/]node_modules[\\/]/.test(name) && !/\.d\.[^/\\]*ts$/.test(name));
  const halves = (list) => [list.filter((_, index) => index % 2 === 0), list.filter((_, index) => index % 2 === 1)];
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const timed = (run) => {
    const cpuBefore = cpu();
    const started = performance.now();
    const result = run();
    return { wallMs: performance.now() - started, cpuMs: cpu() - cpuBefore, result };
  };
  const rows = [];
  const probe = (kind, items, single, generator) => {
    const [first, second] = halves(items);
    const singles = timed(() => first.map((item) => single(item)));
    const batched = timed(() => api.batch(...second.map((item) => generator(item))));
    if (batched.result.length !== second.length) throw new Error(`${kind}: the batch answered ${batched.result.length} of ${second.length}`);
    rows.push({ kind, singles: { count: first.length, wallMs: singles.wallMs, cpuMs: singles.cpuMs }, batched: { count: second.length, wallMs: batched.wallMs, cpuMs: batched.cpuMs } });
    return [...singles.result, ...batched.result];
  };
  probe("getSourceFileMetadata", names, (name) => program.getSourceFileMetadata(name), (name) => program.getSourceFileMetadata.gen(name));
  const files = probe("getSourceFile (project files)", own, (name) => program.getSourceFile(name), (name) => program.getSourceFile.gen(name));
  const modules = files.map((file) => checker.getSymbolAtLocation(file)).filter((symbol) => symbol !== undefined);
  probe("getExportsOfModule", modules, (symbol) => checker.getExportsOfModule(symbol), (symbol) => checker.getExportsOfModule.gen(symbol));
  const per = (arm) => `${((arm.wallMs * 1000) / arm.count).toFixed(0)} µs wall, ${((arm.cpuMs * 1000) / arm.count).toFixed(0)} µs CPU`;
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDirectory, "package.json"), "utf8"));
  process.stdout.write(`TypeScript ${version}, ${projectDirectory}\n`);
  for (const { kind, singles, batched } of rows) {
    process.stdout.write(`${kind}: ${singles.count} single requests ${per(singles)} each; ${batched.count} in one batch ${per(batched)} each\n`);
  }
} finally {
  api.close();
}
