import { posix } from "node:path";
import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import type { CheckerPort } from "./ports.js";

/*
 * Small type and syntax helpers that several parts of the judgement share, so each reads the
 * same way everywhere.
 */

/** How many consts, aliases or re-exports the analysis follows before it stops (a cycle, a generated chain). */
export const MAX_HOPS = 8;

/** A union's members, or the type itself: `A | B` -> [A, B], `A` -> [A]. */
export function unionMembers(ts: TypeScript, type: ts.Type): readonly ts.Type[] {
  return type.flags & ts.TypeFlags.Union ? (type as ts.UnionType).types : [type];
}

/** Whether `declaration` is a `const`, not a `let` or `var`. */
export function isConstDeclaration(ts: TypeScript, declaration: ts.VariableDeclaration): boolean {
  return (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.BlockScoped) === ts.NodeFlags.Const;
}

/** The type of an object type's property. `checker.getTypeOfSymbol` is public only since TypeScript 5.1; this works on 5.0 too. */
export function typeOfProperty(context: { readonly checker: CheckerPort }, property: ts.Symbol): ts.Type {
  const declaration = property.valueDeclaration ?? property.declarations?.[0];
  return declaration === undefined ? context.checker.getAnyType() : context.checker.getTypeOfSymbolAtLocation(property, declaration);
}

/**
 * The type a JavaScript cast asserts: `/** @type {T} *\/ (value)` is TypeScript's `value as T` in
 * checked JavaScript (`@type {const}`, its `as const`). TypeScript 7 turns such a cast into an
 * `as` expression inside the parentheses; TypeScript 5 and 6 keep the parentheses and read the
 * JSDoc: this answers for those, so both read the cast alike.
 */
export function jsDocAssertedType(ts: TypeScript, node: ts.Node): ts.TypeNode | undefined {
  if (!ts.isParenthesizedExpression(node) || !isJavaScript(ts, node)) return undefined;
  const inner = node.expression;
  if (ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner) || ts.isTypeAssertionExpression(inner)) return undefined;
  return ts.getJSDocType(node);
}

/** Strips what does not change the registered value: parentheses, `!`, `as`, `satisfies`. */
export function skipOuterExpressions(ts: TypeScript, node: ts.Node): ts.Node {
  while (
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  ) {
    node = node.expression;
  }
  return node;
}

/**
 * The type a binding declares: its annotation, or in checked JavaScript its JSDoc `@type` (or
 * `@param`). (TypeScript 7 moves the JSDoc type into the annotation itself; 5 and 6 keep it in the
 * JSDoc: asking here reads both alike.)
 */
export function declaredTypeNode(
  ts: TypeScript,
  declaration: ts.VariableDeclaration | ts.PropertyDeclaration | ts.PropertySignature | ts.ParameterDeclaration,
): ts.TypeNode | undefined {
  if (declaration.type !== undefined || !isJavaScript(ts, declaration)) return declaration.type;
  return ts.getJSDocType(declaration);
}

/** Whether `node` is in a JavaScript file, where JSDoc is the declared type. */
export function isJavaScript(ts: TypeScript, node: ts.Node): boolean {
  return (node.flags & ts.NodeFlags.JavaScriptFile) !== 0;
}

/** A function's name, or its head when it has none (an arrow's `=>`, else the function itself). */
export function headOf(ts: TypeScript, declaration: ts.SignatureDeclaration): ts.Node {
  if (declaration.name !== undefined) return declaration.name;
  if (ts.isArrowFunction(declaration)) return declaration.equalsGreaterThanToken;
  return declaration;
}

/**
 * `./lib/tools.ts:10:1`: where a node is, relative to the registration's own file, so a message
 * reads the same whatever directory a front-end runs in.
 */
export function locate(node: ts.Node, siteFile: ts.SourceFile): string {
  const sourceFile = node.getSourceFile();
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  const relative = posix.relative(posix.dirname(siteFile.fileName), sourceFile.fileName);
  return `${relative.startsWith("../") ? relative : `./${relative}`}:${line + 1}:${character + 1}`;
}

/** Whether `node` has a modifier of `kind` (`async`, `static`…). */
export function hasModifier(ts: TypeScript, node: ts.Node, kind: ts.SyntaxKind): boolean {
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return modifiers?.some((modifier) => modifier.kind === kind) ?? false;
}

/**
 * Whether a type written as `node` may mention a type parameter in scope (`names`), `this`, or a
 * value's type (`typeof x`, which a generic scope may give a type parameter): by its words, so
 * any other use of such a name counts too.
 */
export function mentionsTypeParameter(ts: TypeScript, node: ts.Node, names: ReadonlySet<string>): boolean {
  if (node.kind === ts.SyntaxKind.ThisType || node.kind === ts.SyntaxKind.TypeQuery) return true;
  if (ts.isIdentifier(node) && names.has(node.text)) return true;
  return ts.forEachChild(node, (child) => (mentionsTypeParameter(ts, child, names) ? true : undefined)) === true;
}

/** `node` without the parentheses around it (which change neither its value nor its type, as `as` would). */
export function skipParentheses(ts: TypeScript, node: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(node) ? skipParentheses(ts, node.expression) : node;
}
