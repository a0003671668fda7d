// The floor of measures 3, 4 and 6: what any judgement of the contract must ask the checker, and
// nothing more. For each registration the analysis found (`floor-sites.mjs`, in a process of its
// own so that nothing is warmed): the symbol of its callee (is this the registry's `tool`?), and
// the registered function's declared return type, awaited and related to `DataToolOutput` once
// per distinct type; a function without an annotation is a finding from its syntax alone. That is
// the seed's verdict (`missing-annotation`, `not-data-tool-output`) and none of what the
// judgement added since (options, names, sources, output keys, escapes, fixes).
//
// The floor is measured beside the real front-end, in the same run: the rule beside this rule in
// ESLint, `sourced check` beside `floor-check.mjs`. What the front-end costs above its floor is
// what the judgement's later questions cost; what the floor costs above the compiler is what no
// judgement through the checker can avoid. CommonJS, so that `rule-cpu.mjs` wraps the rule's
// listeners where ESLint's config loads it (`require`), as it wraps the plugin's.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

/** Per file (its real path), the registrations: the callee's name and the registered function, as [pos, end, kind name]. */
function readSites(file) {
  const sites = JSON.parse(fs.readFileSync(file, "utf8"));
  const directory = path.dirname(path.dirname(file)); // <project>/build/floor-sites.json
  return new Map(Object.entries(sites.files).map(([name, list]) => [fs.realpathSync(path.join(directory, name)), list]));
}

/** The node of `sourceFile` at [pos, end] of that kind (kinds by name: TypeScript 6 and 7 number them differently). */
function nodeAt(ts, sourceFile, [pos, end, kind]) {
  let found;
  const visit = (node) => {
    if (node.pos === pos && node.end === end && ts.SyntaxKind[node.kind] === kind) {
      found = node;
      return true;
    }
    return node.pos <= pos && node.end >= end ? ts.forEachChild(node, visit) : undefined;
  };
  ts.forEachChild(sourceFile, visit);
  if (found === undefined) throw new Error(`${sourceFile.fileName}: no ${kind} at ${pos}-${end}`);
  return found;
}

/** `DataToolOutput`, read from the registry's declarations the program holds. */
function contractOf(ts, checker, registrySource) {
  if (registrySource === undefined) throw new Error("the floor found no @sourced/registry declarations (registry/dist/index.d.ts) in the program: build the workspace first");
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(registrySource)).find((symbol) => symbol.name === "DataToolOutput");
  if (exported === undefined) throw new Error(`${registrySource.fileName} exports no DataToolOutput`);
  return checker.getDeclaredTypeOfSymbol(exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported);
}

const REGISTRY_DECLARATIONS = /[\\/]registry[\\/]dist[\\/]index\.d\.ts$/;

/**
 * A floor judge over one checker: `judge(sourceFile, sites)` asks the floor's questions about one
 * file's registrations and counts its verdicts. `ts` is the syntax (TypeScript's namespace, or the
 * native backend's syntax port); `checker` the classic checker or the native backend's port;
 * `batch(callees, annotations)`, if given, is told a file's nodes before they are asked about.
 */
function createFloorJudge(ts, checker, registrySource, batch) {
  const contract = contractOf(ts, checker, registrySource);
  const fits = new Map(); // a declared return type -> whether it fits
  const counts = { sites: 0, callees: 0, unannotated: 0, notDataToolOutput: 0 };
  return {
    counts,
    judge(sourceFile, sites) {
      const verdicts = [];
      const nodes = sites.map((site) => ({ callee: nodeAt(ts, sourceFile, site.callee), annotation: site.fn === null ? null : nodeAt(ts, sourceFile, site.fn).type }));
      // Over TypeScript 7's API a file's questions go in one request per kind, as the native
      // backend asks them (`prefetch`): a request each would measure the channel, not the floor.
      batch?.(nodes.map((node) => node.callee), nodes.flatMap((node) => (node.annotation ? [node.annotation] : [])));
      for (const [index, site] of sites.entries()) {
        counts.sites++;
        const { callee, annotation } = nodes[index];
        if (checker.getSymbolAtLocation(callee) !== undefined) counts.callees++;
        if (site.fn === null) continue;
        if (annotation === undefined) {
          counts.unannotated++;
          verdicts.push("missing-annotation");
          continue;
        }
        const declared = checker.getTypeFromTypeNode(annotation);
        let fit = fits.get(declared);
        if (fit === undefined) {
          fit = checker.isTypeAssignableTo(checker.getAwaitedType(declared) ?? declared, contract);
          fits.set(declared, fit);
        }
        if (!fit) {
          counts.notDataToolOutput++;
          verdicts.push("not-data-tool-output");
        }
      }
      return verdicts;
    },
  };
}

// The rule's state, per process: the sites, and a judge per checker (a new program, a new checker).
let sitesByFile;
let typescript;
const judges = new WeakMap();

/** The ESLint rule: the floor's questions about the linted file, its verdicts reported at the file's start. */
const floorRule = {
  meta: {
    type: "problem",
    docs: { description: "The bench's floor: a registration's callee symbol and declared return type, nothing more." },
    schema: [],
    messages: { "missing-annotation": "missing-annotation", "not-data-tool-output": "not-data-tool-output" },
  },
  create(context) {
    return {
      Program(program) {
        const services = context.sourceCode.parserServices;
        sitesByFile ??= readSites(process.env.SOURCED_BENCH_FLOOR_SITES);
        const sites = sitesByFile.get(fs.realpathSync(context.filename));
        if (sites === undefined) return;
        const tsProgram = services.program;
        // The TypeScript the parser runs on: the workspace's, which this file resolves too.
        typescript ??= require("typescript");
        const checker = tsProgram.getTypeChecker();
        let judge = judges.get(checker);
        if (judge === undefined) {
          judge = createFloorJudge(typescript, checker, tsProgram.getSourceFiles().find((file) => REGISTRY_DECLARATIONS.test(file.fileName)));
          judges.set(checker, judge);
        }
        const sourceFile = services.esTreeNodeToTSNodeMap.get(program);
        for (const messageId of judge.judge(sourceFile, sites)) context.report({ loc: { line: 1, column: 0 }, messageId });
      },
    };
  },
};

module.exports = { readSites, createFloorJudge, REGISTRY_DECLARATIONS, rules: { floor: floorRule } };
