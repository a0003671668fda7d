import { createRequire } from "node:module";
import * as path from "node:path";
import MagicString from "magic-string";
import type * as ts from "typescript";
import { analyzeProgram, planEdits, writeTextEdits, type EditPlanOptions } from "@sourced/analysis";
import { expect, test } from "vitest";
import { CASES_DIR, corpusRegistrationsByFile, relativeToCases } from "../../../fixtures/harness.js";

/*
 * The edit plan has two renderings: nodes (the transformer, inside tsc's emit) and text (this
 * plugin, with magic-string). On every file of the corpus both must give the same code.
 */

const requireHere = createRequire(import.meta.url);
const typescript = requireHere("typescript") as typeof ts;
const { createEmitTransformer } = requireHere("../../transformer/dist/emit.js") as typeof import("../../transformer/src/emit.js");

const PLAN: EditPlanOptions = { strip: true, stamp: { key: "@sourced/registry:verified", value: "@sourced/test@0" } };

/** Printed without comments and with every parenthesis the printer does not need removed, so both renderings print alike. */
function normalize(fileName: string, code: string): string {
  const sourceFile = typescript.createSourceFile(fileName, code, typescript.ScriptTarget.ES2022, true, typescript.ScriptKind.TS);
  const unparenthesize: ts.TransformerFactory<ts.SourceFile> = (context) => (file) => {
    // A decorator's own parentheses are syntax (`@(expression)`), not grouping: they stay.
    const visit = (node: ts.Node): ts.Node =>
      typescript.isParenthesizedExpression(node) && !typescript.isDecorator(node.parent) ? visit(node.expression) : typescript.visitEachChild(node, visit, context);
    return typescript.visitEachChild(file, visit, context);
  };
  const [result] = typescript.transform(sourceFile, [unparenthesize]).transformed;
  return typescript.createPrinter({ removeComments: true }).printFile(result!);
}

test.each([false, true])("the transformer's nodes and the plugin's text are the same code for every file of the corpus (strip: %s)", (strip) => {
  const options = { ...PLAN, strip };
  const { parsed, byFile } = corpusRegistrationsByFile(typescript, analyzeProgram);
  expect(byFile.size).toBeGreaterThan(50);
  const differences: string[] = [];
  for (const [sourceFile, fileRegistrations] of byFile) {
    if (planEdits(typescript, fileRegistrations, options).length === 0) continue;
    // Nodes: the transformer's `before` step on the TypeScript tree, printed.
    const transformer = createEmitTransformer({
      ts: typescript,
      options: { severity: "error", strip, stamp: true },
      verifier: PLAN.stamp!.value,
      registrationsOf: (file) => (file === sourceFile ? fileRegistrations : []),
      report: (diagnostic) => differences.push(`${relativeToCases(sourceFile.fileName)}: ${typescript.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`),
    });
    const [transformed] = typescript.transform(sourceFile, [transformer], parsed.options).transformed;
    const fromNodes = typescript.createPrinter().printFile(transformed!);
    // Text: the plugin's edits, with magic-string, on the file's text.
    const edited = new MagicString(sourceFile.text);
    writeTextEdits(planEdits(typescript, fileRegistrations, options), sourceFile, edited);
    const fromText = edited.toString();
    const a = normalize(sourceFile.fileName, fromNodes);
    const b = normalize(sourceFile.fileName, fromText);
    if (a !== b) differences.push(`${path.relative(CASES_DIR, sourceFile.fileName)}:\n${firstDifference(a, b)}`);
  }
  expect(differences).toEqual([]);
});

/** The first line where two texts differ, from each. */
function firstDifference(a: string, b: string): string {
  const left = a.split("\n");
  const right = b.split("\n");
  const index = left.findIndex((line, i) => line !== right[i]);
  return `  transformer: ${left[index] ?? "(end)"}\n  plugin:      ${right[index] ?? "(end)"}`;
}
