import { createRequire } from "node:module";
import type * as ts from "typescript";
import { analyzeProgram, planEdits, type Registration } from "@sourced/analysis";
import { expect, test } from "vitest";
import { corpusRegistrationsByFile } from "../../../fixtures/harness.js";
import type { TransformerOptions } from "../src/options.js";

/*
 * What strip and stamp build, on every file of the corpus, through the built emit transformer:
 * a file without a planned edit comes back as the very same object; in a file with edits, a
 * statement off every path to a site is not rebuilt; and the parts the edits write alike are
 * one node per file, not one per registration (what a build retains of the transformer until
 * the file is printed).
 */

const requireHere = createRequire(__filename);
const typescript = requireHere("typescript") as typeof ts;
const { createEmitTransformer } = requireHere("../dist/emit.js") as typeof import("../src/emit.js");

const { parsed, program, byFile } = corpusRegistrationsByFile(typescript, analyzeProgram);

function transform(sourceFile: ts.SourceFile, options: TransformerOptions): ts.SourceFile {
  const transformer = createEmitTransformer({
    ts: typescript,
    options,
    verifier: "@sourced/test@0",
    registrationsOf: (file) => byFile.get(file) ?? [],
    report: (diagnostic) => {
      throw new Error(typescript.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  return typescript.transform(sourceFile, [transformer], parsed.options).transformed[0]!;
}

const containsSite = (node: ts.Node, sites: readonly Registration[]) => sites.some(({ site }) => site.pos >= node.pos && site.end <= node.end);

test("a file whose registrations plan no edit is returned as the same object, as one without registrations", () => {
  const options: TransformerOptions = { severity: "error", strip: false, stamp: false };
  const unplanned = [...byFile].filter(([, fileRegistrations]) => planEdits(typescript, fileRegistrations, { strip: false, stamp: undefined }).length === 0);
  // The corpus names some tools in their options: kept unstamped, nothing is written there.
  expect(unplanned.length).toBeGreaterThan(0);
  for (const [sourceFile] of unplanned) expect(transform(sourceFile, options), sourceFile.fileName).toBe(sourceFile);
  const withoutRegistrations = program.getSourceFiles().find((file) => !file.isDeclarationFile && !byFile.has(file))!;
  expect(transform(withoutRegistrations, { severity: "error", strip: true, stamp: true })).toBe(withoutRegistrations);
});

test.each([false, true])("a statement that holds no planned site is the original node in the output (strip: %s)", (strip) => {
  let kept = 0;
  for (const [sourceFile, fileRegistrations] of byFile) {
    const transformed = transform(sourceFile, { severity: "error", strip, stamp: true });
    // Only decorators are ever removed, never a statement: the statements correspond one to one.
    expect(transformed.statements.length).toBe(sourceFile.statements.length);
    sourceFile.statements.forEach((statement, index) => {
      if (containsSite(statement, fileRegistrations)) return;
      expect(transformed.statements[index], `${sourceFile.fileName}: statement ${index}`).toBe(statement);
      kept++;
    });
  }
  expect(kept).toBeGreaterThan(100);
});

test("the stamp's member, the Object.defineProperties callee and a decorator's wrapper are built once per file", () => {
  let filesWithSeveral = 0;
  for (const sourceFile of byFile.keys()) {
    const transformed = transform(sourceFile, { severity: "error", strip: true, stamp: true });
    const stampMembers: ts.Node[] = [];
    const callees: ts.Node[] = [];
    const wrappers: ts.Node[] = [];
    const walk = (node: ts.Node): void => {
      // `[Symbol.for(key)]: { value }`, written by the transformer (no position), never the corpus's own.
      if (node.pos < 0 && typescript.isPropertyAssignment(node) && typescript.isComputedPropertyName(node.name) && typescript.isCallExpression(node.name.expression)) {
        stampMembers.push(node);
      }
      if (typescript.isCallExpression(node) && typescript.isPropertyAccessExpression(node.expression) && node.pos < 0) {
        const { expression, name } = node.expression;
        if (typescript.isIdentifier(expression) && expression.text === "Object" && name.text === "defineProperties") callees.push(node.expression);
      }
      if (typescript.isDecorator(node) && node.pos >= 0 && typescript.isParenthesizedExpression(node.expression)) {
        const call = node.expression.expression;
        if (typescript.isCallExpression(call) && typescript.isParenthesizedExpression(call.expression) && typescript.isArrowFunction(call.expression.expression)) {
          wrappers.push(call.expression);
        }
      }
      typescript.forEachChild(node, walk);
    };
    walk(transformed);
    if (stampMembers.length >= 2) filesWithSeveral++;
    // Each list holds one node, written at every edit (empty where the file wrote none).
    for (const [what, nodes] of [
      ["stamp member", stampMembers],
      ["callee", callees],
      ["decorator wrapper", wrappers],
    ] as const) {
      expect(new Set(nodes).size, `${sourceFile.fileName}: ${what} (${nodes.length} written)`).toBe(Math.min(nodes.length, 1));
    }
  }
  expect(filesWithSeveral).toBeGreaterThan(5);
});
