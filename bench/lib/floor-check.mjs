// The floors of measures 4 and 6, each in a process of its own (floor.cjs says what a floor is).
//
//   node floor-check.mjs classic <projectDir>   TypeScript 6: the program built as `tsc --noEmit`
//                                               builds it, its checker, and the floor's questions
//   node floor-check.mjs native <ts7ProjectDir> TypeScript 7: the project opened through its API,
//                                               as the native backend opens it, and every source
//                                               file's syntax read and walked; no question asked
//   node floor-check.mjs native-seed <ts7ProjectDir> <floor-sites.json>
//                                               the same, and the floor's questions through the API
//                                               (a file's in one request per kind) about the sites
//                                               floor-sites.mjs listed in the TypeScript 6 project
//
// One JSON line on stdout: what was read (native) and judged (classic, native-seed), for the
// measure to verify.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(ROOT, "package.json"));
const { createFloorJudge, readSites, REGISTRY_DECLARATIONS } = createRequire(import.meta.url)("./floor.cjs");

const [backend, directory, sitesFile] = process.argv.slice(2);
const config = path.resolve(directory, "tsconfig.json");

if (backend === "classic") {
  const ts = require("typescript");
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  // Parsed as tsc parses (JSDoc only where it can change a type), as `sourced check` builds it.
  const host = ts.createCompilerHost(parsed.options, true);
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences, host });
  const sites = readSites(path.join(directory, "build", "floor-sites.json"));
  const judge = createFloorJudge(ts, program.getTypeChecker(), program.getSourceFiles().find((file) => REGISTRY_DECLARATIONS.test(file.fileName)));
  for (const sourceFile of program.getSourceFiles()) {
    const list = sites.get(fs.realpathSync(sourceFile.fileName));
    if (list !== undefined) judge.judge(sourceFile, list);
  }
  process.stdout.write(`${JSON.stringify(judge.counts)}\n`);
} else if (backend === "native" || backend === "native-seed") {
  const { loadNativeTypeScript } = require(path.join(ROOT, "packages", "analysis-native"));
  const compiler = loadNativeTypeScript(path.join(ROOT, "fixtures", "ts7", "node_modules", "typescript"));
  const session = compiler.openSession([config], path.resolve(directory));
  try {
    const project = session.project(config);
    if (project === undefined) throw new Error(`TypeScript 7 opened no project for ${config}`);
    const judge = backend === "native-seed" ? nativeJudge(project) : undefined;
    const sites = judge === undefined ? undefined : readSites(sitesFile);
    let files = 0;
    let nodes = 0;
    const walk = (node) => {
      nodes++;
      project.syntax.forEachChild(node, walk);
    };
    for (const sourceFile of project.candidateSources()) {
      files++;
      walk(sourceFile);
      const list = sites?.get(fs.realpathSync(sourceFile.fileName));
      if (list !== undefined) judge.judge(sourceFile, list);
    }
    process.stdout.write(`${JSON.stringify({ files, nodes, ...judge?.counts })}\n`);
  } finally {
    session.close();
  }
} else {
  throw new Error(`floor-check.mjs: no backend ${backend} (classic, native or native-seed)`);
}

/**
 * The floor judge over the native backend's checker port, a file's callee symbols and declared
 * return types fetched in one request each (TypeScript 7.0's API batches those two kinds); the
 * contract, the awaited types and the relation to it are asked through the port, once per
 * distinct type, as the backend asks them.
 */
function nativeJudge(project) {
  const port = project.program.getTypeChecker();
  const symbolsAt = new Map();
  const typesAt = new Map();
  const checker = {
    getSymbolAtLocation: (node) => (symbolsAt.has(node) ? symbolsAt.get(node) : port.getSymbolAtLocation(node)),
    getTypeFromTypeNode: (node) => typesAt.get(node) ?? port.getTypeFromTypeNode(node),
    getAwaitedType: (type) => port.getAwaitedType(type),
    isTypeAssignableTo: (source, target) => port.isTypeAssignableTo(source, target),
    getExportsOfModule: (symbol) => port.getExportsOfModule(symbol),
    getAliasedSymbol: (symbol) => port.getAliasedSymbol(symbol),
    getDeclaredTypeOfSymbol: (symbol) => port.getDeclaredTypeOfSymbol(symbol),
  };
  const batch = (callees, annotations) => {
    const symbols = port.native.getSymbolAtLocation(callees);
    callees.forEach((node, index) => symbolsAt.set(node, symbols[index]));
    if (annotations.length === 0) return;
    // The type at a type node is the type it denotes; only `getTypeAtLocation` takes arrays.
    const types = port.native.getTypeAtLocation(annotations);
    annotations.forEach((node, index) => typesAt.set(node, port.type(types[index])));
  };
  const registry = project.program.getSourceFileNames().find((fileName) => REGISTRY_DECLARATIONS.test(fileName));
  return createFloorJudge(project.syntax, checker, registry === undefined ? undefined : project.program.getSourceFile(registry), batch);
}
