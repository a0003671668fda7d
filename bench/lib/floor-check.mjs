// The floors of measures 4 and 6, each in a process of its own (floor.cjs says what a floor is).
//
//   node floor-check.mjs classic <projectDir>   TypeScript 6: the program built as `tsc --noEmit`
//                                               builds it, its checker, and the floor's questions
//   node floor-check.mjs native <ts7ProjectDir> TypeScript 7: the project opened through its API,
//                                               as the native backend opens it, and every source
//                                               file's syntax read and walked; no question asked
//
// One JSON line on stdout: what was judged (classic) or read (native), for the measure to verify.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "package.json"));
const { createFloorJudge, readSites, REGISTRY_DECLARATIONS } = createRequire(import.meta.url)("./floor.cjs");

const [backend, directory] = process.argv.slice(2);
const config = path.resolve(directory, "tsconfig.json");

if (backend === "classic") {
  const ts = require("typescript");
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const sites = readSites(path.join(directory, "build", "floor-sites.json"));
  const judge = createFloorJudge(ts, program.getTypeChecker(), program.getSourceFiles().find((file) => REGISTRY_DECLARATIONS.test(file.fileName)));
  for (const sourceFile of program.getSourceFiles()) {
    const list = sites.get(fs.realpathSync(sourceFile.fileName));
    if (list !== undefined) judge.judge(sourceFile, list);
  }
  process.stdout.write(`${JSON.stringify(judge.counts)}\n`);
} else if (backend === "native") {
  const { loadNativeTypeScript } = require(path.join(ROOT, "packages", "analysis-native"));
  const compiler = loadNativeTypeScript(path.join(ROOT, "fixtures", "ts7", "node_modules", "typescript"));
  const session = compiler.openSession([config], path.resolve(directory));
  try {
    const project = session.project(config);
    if (project === undefined) throw new Error(`TypeScript 7 opened no project for ${config}`);
    let files = 0;
    let nodes = 0;
    const walk = (node) => {
      nodes++;
      project.syntax.forEachChild(node, walk);
    };
    for (const sourceFile of project.candidateSources()) {
      files++;
      walk(sourceFile);
    }
    process.stdout.write(`${JSON.stringify({ files, nodes })}\n`);
  } finally {
    session.close();
  }
} else {
  throw new Error(`floor-check.mjs: no backend ${backend} (classic or native)`);
}
