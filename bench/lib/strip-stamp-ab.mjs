// Strip and stamp, A/B: two builds of the transformer (a baseline and this checkout) and an
// identity transformer, on the same checked programs in one process, passes alternated.
//
//   node --expose-gc bench/lib/strip-stamp-ab.mjs <baseline transformer dir> packages/transformer \
//        <passes> whole|per-file <project dir>...
//
// The baseline is a copy of packages/transformer (package.json, dist, node_modules resolving its
// @sourced/analysis) built from another commit. Per project and arm: the CPU time of a pass,
// median [min–max] of the passes, both the process's (every thread) and the main thread's alone
// (without the collector's and compiler's helper threads, which also work off the garbage of
// earlier passes); bytes allocated per file (V8's total_allocated_bytes around the pass); bytes
// retained per file until the results are disposed (the heap after a full GC with the results
// alive, minus after dispose); and a hash of the printed output, which must be the same for both
// builds. With two projects it prints each build's ratio of pass times.
import { createRequire } from "node:module";
import * as path from "node:path";
import { createHash } from "node:crypto";
import v8 from "node:v8";
const require = createRequire(import.meta.url);
const [baseArgument, newArgument, passesText, mode, ...dirs] = process.argv.slice(2);
const [baseDir, newDir] = [baseArgument, newArgument].map((dir) => path.resolve(dir));
const ts = require(require.resolve("typescript", { paths: [newDir] }));
const arms = { base: require(baseDir), new: require(newDir) };
const passes = Number(passesText);
const identity = () => (sf) => sf;
const printer = ts.createPrinter();
const projects = dirs.map((dir) => {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  program.getSemanticDiagnostics();
  const sourceFiles = program.getSourceFiles().filter((f) => !f.isDeclarationFile);
  const p = { dir: path.basename(dir), files: sourceFiles.length, sourceFiles, options: parsed.options, factories: { identity }, hashes: {}, runs: {}, retained: {} };
  for (const [name, t] of Object.entries(arms)) p.factories[name] = t.transformSource(Object.create(program), {}, { ts, addDiagnostic: () => 0 });
  for (const [name, f] of Object.entries(p.factories)) {
    const result = ts.transform(sourceFiles, [f], parsed.options);
    const hash = createHash("sha256");
    for (const file of result.transformed) hash.update(printer.printFile(file));
    result.dispose();
    p.hashes[name] = hash.digest("hex").slice(0, 16);
    // Retained until dispose: heap after a full GC with the results alive, minus after dispose.
    const kept = ts.transform(sourceFiles, [f], parsed.options);
    globalThis.gc(); const withResults = process.memoryUsage().heapUsed;
    kept.dispose(); kept.transformed.length = 0;
    globalThis.gc(); p.retained[name] = withResults - process.memoryUsage().heapUsed;
    p.runs[name] = [];
  }
  return p;
});
const timeOne = (p, name) => {
  const a0 = v8.getHeapStatistics().total_allocated_bytes;
  const c0 = process.cpuUsage();
  const t0 = process.threadCpuUsage();
  // "whole": one ts.transform over every file, as measure 2 does (every result kept until
  // dispose); "per-file": one file at a time, transformed then disposed, as tsc's emit does.
  if (mode === "whole") ts.transform(p.sourceFiles, [p.factories[name]], p.options).dispose();
  else for (const file of p.sourceFiles) ts.transform(file, [p.factories[name]], p.options).dispose();
  const c = process.cpuUsage(c0);
  const t = process.threadCpuUsage(t0);
  p.runs[name].push({ ms: (c.user + c.system) / 1000, mainMs: (t.user + t.system) / 1000, alloc: v8.getHeapStatistics().total_allocated_bytes - a0 });
};
const names = ["base", "new", "identity"];
for (let i = 0; i < passes; i++) {
  const order = i % 2 === 0 ? projects : [...projects].reverse();
  for (const p of order) for (const name of i % 2 === 0 ? names : [...names].reverse()) timeOne(p, name);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const ms = (p, name) => median(p.runs[name].map((r) => r.ms));
for (const p of projects) {
  console.log(`${p.dir}: ${p.files} files`);
  for (const name of names) {
    const alloc = median(p.runs[name].map((r) => r.alloc));
    const main = p.runs[name].map((r) => r.mainMs);
    console.log(`  ${name.padEnd(8)} CPU ${ms(p, name).toFixed(1).padStart(7)} ms [${Math.min(...p.runs[name].map((r) => r.ms)).toFixed(1)}–${Math.max(...p.runs[name].map((r) => r.ms)).toFixed(1)}]  main thread ${median(main).toFixed(1).padStart(7)} ms [${Math.min(...main).toFixed(1)}–${Math.max(...main).toFixed(1)}]  allocated ${(alloc / p.files / 1024).toFixed(2).padStart(6)} KiB/file  retained ${(p.retained[name] / p.files / 1024).toFixed(2).padStart(6)} KiB/file  output ${p.hashes[name]}`);
  }
}
if (projects.length === 2) {
  const [a, b] = projects;
  const mainMs = (p, name) => median(p.runs[name].map((r) => r.mainMs));
  for (const name of ["base", "new"]) {
    console.log(`${name}: CPU ${(ms(b, name) / ms(a, name)).toFixed(2)}x, main thread ${(mainMs(b, name) / mainMs(a, name)).toFixed(2)}x for ${(b.files / a.files).toFixed(2)}x the files`);
  }
}
