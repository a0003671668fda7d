import { canNeverBeSource } from "@sourced/contract-rules";
import type * as ts from "typescript";
import { type Context, resolveAlias } from "./context.js";
import { isConstDeclaration, MAX_HOPS, skipOuterExpressions } from "./syntax.js";

/*
 * Sources the net refuses on every call, visible in the code: string literals in the `sources` of
 * an object literal the registered function returns, directly or through `const`s. A computed
 * source (a template with values, a call, a parameter) is the net's to check at run time.
 */

/** A source literal that no rule can accept. */
export interface RefusedSource {
  readonly literal: ts.StringLiteralLike;
  readonly value: string;
}

const NONE: readonly RefusedSource[] = [];

/**
 * The refused source literals of what `implementation` returns (in the `structuredContent` of its
 * returned object literals, see forEachReturnedStructuredContent).
 */
export function refusedSourcesOf(context: Context, implementation: ts.SignatureDeclaration | undefined): readonly RefusedSource[] {
  const { ts } = context;
  let refused: RefusedSource[] | undefined;
  const collect = (source: ts.StringLiteralLike): void => {
    if (canNeverBeSource(source.text)) (refused ??= []).push({ literal: source, value: source.text });
  };
  forEachReturnedStructuredContent(context, implementation, (structured, hops) => {
    const structuredNode = valueOf(context, structured, hops);
    const sources = structuredNode !== undefined && ts.isObjectLiteralExpression(structuredNode) ? propertyValue(context, structuredNode, "sources") : undefined;
    if (sources !== undefined) sourcesOf(context, sources, collect, hops + 1);
  });
  return refused ?? NONE;
}

/** Visits the `structuredContent` expression of a returned object literal, and how many `const`s led to it. */
type VisitStructured = (structured: ts.Expression, hops: number) => void;

/**
 * The `structuredContent` of each object literal `implementation` returns: its own `return`s,
 * found among its statements (an expression's functions return for themselves), so the walk never
 * enters an expression but a returned one.
 */
export function forEachReturnedStructuredContent(context: Context, implementation: ts.SignatureDeclaration | undefined, visit: VisitStructured): void {
  forEachReturnedValue(context, implementation, (returned) => resultsOf(context, returned, visit, 0));
}

/** Each value `implementation` returns: its own `return`s' expressions, or its expression body. */
function forEachReturnedValue(context: Context, implementation: ts.SignatureDeclaration | undefined, visit: (returned: ts.Expression) => void): void {
  forEachReturn(context, implementation, (returned) => {
    if (returned !== undefined) visit(returned);
  });
}

/** Each of `implementation`'s own `return`s, by its expression (`undefined`: a `return;` without one), or its expression body. */
export function forEachReturn(context: Context, implementation: ts.SignatureDeclaration | undefined, visit: (returned: ts.Expression | undefined) => void): void {
  const { ts } = context;
  if (implementation === undefined || !("body" in implementation) || implementation.body === undefined) return;
  const { body } = implementation;
  if (!ts.isBlock(body)) {
    visit(body);
    return;
  }
  const statements = statementKinds(ts);
  const pending: ts.Node[] = [body];
  const push = (child: ts.Node): void => {
    if (statements.has(child.kind)) pending.push(child);
  };
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (ts.isReturnStatement(node)) {
      visit(node.expression);
    } else {
      ts.forEachChild(node, push);
    }
  }
}

const STATEMENT_KINDS = new WeakMap<object, ReadonlySet<number>>();

/** The kinds of the nodes a `return` can be nested in, without entering an expression. */
function statementKinds(ts: Context["ts"]): ReadonlySet<number> {
  let kinds = STATEMENT_KINDS.get(ts.SyntaxKind);
  if (kinds === undefined) {
    const { SyntaxKind } = ts;
    kinds = new Set([
      SyntaxKind.Block,
      SyntaxKind.ReturnStatement,
      SyntaxKind.IfStatement,
      SyntaxKind.ForStatement,
      SyntaxKind.ForInStatement,
      SyntaxKind.ForOfStatement,
      SyntaxKind.WhileStatement,
      SyntaxKind.DoStatement,
      SyntaxKind.TryStatement,
      SyntaxKind.CatchClause,
      SyntaxKind.SwitchStatement,
      SyntaxKind.CaseBlock,
      SyntaxKind.CaseClause,
      SyntaxKind.DefaultClause,
      SyntaxKind.LabeledStatement,
      SyntaxKind.WithStatement,
    ]);
    STATEMENT_KINDS.set(ts.SyntaxKind, kinds);
  }
  return kinds;
}

type Collect = (source: ts.StringLiteralLike) => void;

/** A returned value: an object literal (or a const holding one, or either branch of a conditional). */
function resultsOf(context: Context, expression: ts.Expression, visit: VisitStructured, hops: number): void {
  objectsOf(context, expression, (object, at) => {
    const structured = propertyValue(context, object, "structuredContent");
    if (structured !== undefined) visit(structured, at + 1);
  }, hops);
}

/** The object literals a returned value is (through `const`s and either branch of a conditional). */
function objectsOf(context: Context, expression: ts.Expression, visit: (object: ts.ObjectLiteralExpression, hops: number) => void, hops: number): void {
  const { ts } = context;
  const node = valueOf(context, expression, hops);
  if (node === undefined) return;
  if (ts.isConditionalExpression(node)) {
    objectsOf(context, node.whenTrue, visit, hops + 1);
    objectsOf(context, node.whenFalse, visit, hops + 1);
    return;
  }
  if (ts.isObjectLiteralExpression(node)) visit(node, hops);
}

/**
 * The object literals `implementation` returns (its own `return`s; an expression body) whose
 * `isError` is written `true`: error results, when nothing else in them says otherwise.
 */
export function returnedErrorResultsOf(context: Context, implementation: ts.SignatureDeclaration): ts.ObjectLiteralExpression[] {
  const { ts } = context;
  const found: ts.ObjectLiteralExpression[] = [];
  const visit = (object: ts.ObjectLiteralExpression): void => {
    const isError = propertyValue(context, object, "isError");
    if (isError !== undefined && skipOuterExpressions(ts, isError).kind === ts.SyntaxKind.TrueKeyword) found.push(object);
  };
  forEachReturnedValue(context, implementation, (returned) => objectsOf(context, returned, visit, 0));
  return found;
}

/** The elements of a `sources` array literal (or a const holding one, spreads of such included). */
function sourcesOf(context: Context, expression: ts.Expression, collect: Collect, hops: number): void {
  const { ts } = context;
  const node = valueOf(context, expression, hops);
  if (node === undefined || !ts.isArrayLiteralExpression(node)) return;
  for (const element of node.elements) {
    if (ts.isSpreadElement(element)) {
      sourcesOf(context, element.expression, collect, hops + 1);
      continue;
    }
    const source = valueOf(context, element, hops + 1);
    if (source !== undefined && ts.isStringLiteralLike(source)) collect(source);
  }
}

/**
 * What an expression is, seen through parentheses, casts and `const`s (`undefined` past too many
 * of them): the node a value was written as.
 */
function valueOf(context: Context, expression: ts.Expression, hops: number): ts.Expression | undefined {
  const { ts, checker } = context;
  let node = skipOuterExpressions(ts, expression) as ts.Expression;
  for (let hop = hops; ts.isIdentifier(node); hop++) {
    if (hop > MAX_HOPS) return undefined;
    const symbol = ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node ? checker.getShorthandAssignmentValueSymbol(node.parent) : checker.getSymbolAtLocation(node);
    const declaration = symbol === undefined ? undefined : resolveAlias(context, symbol).valueDeclaration;
    if (declaration === undefined || !ts.isVariableDeclaration(declaration) || !isConstDeclaration(ts, declaration) || declaration.initializer === undefined) return undefined;
    node = skipOuterExpressions(ts, declaration.initializer) as ts.Expression;
  }
  return node;
}

/**
 * The value an object literal gives `key`, read as the run time reads it: the last definition
 * wins; a spread after it may replace it (unknown), a method or accessor is no literal value.
 */
function propertyValue(context: Context, object: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined {
  const { ts } = context;
  for (let index = object.properties.length - 1; index >= 0; index--) {
    const property = object.properties[index]!;
    if (ts.isSpreadAssignment(property)) return undefined;
    const name = property.name;
    if (name === undefined || !((ts.isIdentifier(name) || ts.isStringLiteral(name)) && name.text === key)) continue;
    if (ts.isPropertyAssignment(property)) return property.initializer;
    if (ts.isShorthandPropertyAssignment(property)) return property.name;
    return undefined;
  }
  return undefined;
}
