// Measure 2, in one process per project size: the transformer's own time on a program that is
// already type-checked, as it is when tsc runs (the checker has done the work before the
// transformer's findings are asked for).
//
//   node scaling-child.mjs <projectDir> <reps>   -> one JSON line on stdout
//
// Every repetition gets a fresh checker: the program is rebuilt from the previous one (the
// parsed and bound files are reused, the checker and all its caches are new) and fully
// type-checked (untimed: that is tsc's own work). Then, timed: the transformer is installed
// through its public entry point and every file's semantic diagnostics are asked for (their tsc
// part is cached, so what remains is the transformer's check), and its emit transformer (strip +
// stamp) runs over every file with ts.transform, without printing. own time = check + emit
// transform. A first, untimed-for-the-median repetition warms the JIT; it is reported as `first`.
import { createRequire } from "node:module";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const transformerDir = path.join(ROOT, "packages", "transformer");
/** ts-patch's TypeScript: the compiler tspc runs. */
const ts = require(require.resolve("typescript", { paths: [transformerDir] }));
const transformer = require(transformerDir);

const [dir, repsText] = process.argv.slice(2);
const reps = Number(repsText);
const now = () => performance.now();

const configPath = path.join(dir, "tsconfig.json");
const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
  },
});

const host = ts.createCompilerHost(parsed.options);
let previous;
const freshProgram = () => {
  previous = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, oldProgram: previous });
  return previous;
};

let started = now();
freshProgram();
const programMs = now() - started;

const typeCheckMs = [];
const checkMs = [];
const emitTransformMs = [];
let findings;
let sourceFiles;
for (let rep = 0; rep <= reps; rep++) {
  const program = rep === 0 ? previous : freshProgram();
  started = now();
  const tscDiagnostics = program.getSemanticDiagnostics();
  typeCheckMs.push(now() - started);
  if (tscDiagnostics.length > 0) {
    throw new Error(
      `the generated project does not type-check:\n${ts.formatDiagnostics(tscDiagnostics.slice(0, 5), {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => dir,
        getNewLine: () => "\n",
      })}`,
    );
  }
  started = now();
  program.getSemanticDiagnostics();
  const cachedMs = now() - started;

  const view = Object.create(program);
  started = now();
  transformer.transformProgram(view, undefined, {}, { ts });
  const diagnostics = view.getSemanticDiagnostics();
  checkMs.push(now() - started - cachedMs);
  findings = diagnostics.length;

  // A second check whose analysis is done (its first pass): what is timed is strip + stamp.
  sourceFiles = program.getSourceFiles().filter((file) => !file.isDeclarationFile);
  const factory = transformer.transformSource(Object.create(program), {}, { ts, addDiagnostic: () => 0 });
  ts.transform(sourceFiles, [factory], parsed.options).dispose();
  started = now();
  ts.transform(sourceFiles, [factory], parsed.options).dispose();
  emitTransformMs.push(now() - started);
}

process.stdout.write(
  `${JSON.stringify({
    sourceFiles: sourceFiles.length,
    programMs,
    typeCheckMs,
    checkMs,
    emitTransformMs,
    findings,
    heapMiB: Math.round(process.memoryUsage().heapUsed / 1048576),
  })}\n`,
);
