import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { moduleNamesOf } from "../src/sealed-libraries";

/*
 * The sealed libraries (src/sealed-libraries.ts) are told by the module names a pattern finds in
 * their declaration files' text. A name it missed would let a package that reaches the registry
 * go unread, so it is held against the classic parser on every declaration file installed here
 * (the SDK, zod, chart.js, Node's types, TypeScript's own libraries and the rest): every module name
 * the compiler resolves in a declaration file must be found, at its literal's position.
 */

const ROOT = path.resolve(__dirname, "../../..");

function declarationFiles(directory: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) declarationFiles(full, found);
    else if (entry.isFile() && /\.d\.[cm]?ts$/.test(entry.name)) found.push(full);
  }
  return found;
}

/** The module names the classic parser sees in a declaration file: what the compiler may resolve. */
function parsedModuleNames(sourceFile: ts.SourceFile): ts.StringLiteralLike[] {
  const names: ts.StringLiteralLike[] = [];
  const visit = (node: ts.Node): void => {
    const name =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined
        ? node.moduleSpecifier
        : ts.isExternalModuleReference(node)
          ? node.expression
          : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
            ? node.argument.literal
            : ts.isModuleDeclaration(node)
              ? node.name
              : ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))
                ? node.arguments[0]
                : undefined;
    if (name !== undefined && ts.isStringLiteralLike(name)) names.push(name);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return names;
}

describe("the module names of a declaration file, read from its text", () => {
  it("finds every name the classic parser sees, in every declaration file installed", () => {
    const files = declarationFiles(path.join(ROOT, "node_modules/.pnpm"));
    let names = 0;
    const missed: string[] = [];
    const seen = new Set<string>(); // the same file in several installed versions is read once
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      if (seen.has(text)) continue;
      seen.add(text);
      if (text.includes("\\u")) continue; // such a file keeps its package read, whatever the pattern finds
      const found = new Map(moduleNamesOf(text).map(({ name, position }) => [position, name]));
      const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      for (const literal of parsedModuleNames(sourceFile)) {
        names += 1;
        if (found.get(literal.getStart(sourceFile)) !== literal.text) missed.push(`${path.relative(ROOT, file)}:${literal.getStart(sourceFile)} ${JSON.stringify(literal.text)}`);
      }
    }
    expect(missed).toEqual([]);
    expect(files.length).toBeGreaterThan(1000);
    expect(names).toBeGreaterThan(10_000);
  });

  it("reads the ways a name is written: keywords, comments and quotes between", () => {
    const text = [
      `import type { A } from "./a.js";`,
      `export * as b from './b.js';`,
      `import c = require( /* why */ "c");`,
      `export type D = typeof import(\n  \`d\`\n);`,
      `declare module "e" {}`,
      `import "f"; // a side effect`,
      `export { g } from// a comment\n"g";`,
      `type H = { from: "not-a-name" };`,
    ].join("\n");
    expect(moduleNamesOf(text).map(({ name, quote }) => `${quote}${name}`)).toEqual([`"./a.js`, `'./b.js`, `"c`, "`d", `"e`, `"f`, `"g`]);
    for (const { name, position } of moduleNamesOf(text)) expect(text.slice(position + 1, position + 1 + name.length)).toBe(name);
  });
});
