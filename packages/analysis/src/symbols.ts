import type * as ts from "typescript";
import type { Context } from "./context.js";
import { NOT_NARROWABLE, type ReferenceFacts, referenceFactsOf, referenceRoot } from "./reference-scan.js";

/*
 * The symbol helpers of marked.ts's questions: the symbol a reference reads (looked up once per
 * file and name where the file's reference scan allows it), its declared type, and a verdict
 * cached per symbol.
 */

/** A verdict about `symbol`, computed once per cache. */
export function cachedVerdict(cache: WeakMap<ts.Symbol, boolean>, symbol: ts.Symbol, compute: () => boolean): boolean {
  let verdict = cache.get(symbol);
  if (verdict === undefined) {
    verdict = compute();
    cache.set(symbol, verdict);
  }
  return verdict;
}

/** `checker.getTypeOfSymbol`, public since TypeScript 5.1 (`unguardedSymbolOf` checks it is there). */
export function typeOfSymbol(context: Context, symbol: ts.Symbol): ts.Type {
  return (context.checker as ts.TypeChecker & { getTypeOfSymbol(symbol: ts.Symbol): ts.Type }).getTypeOfSymbol(symbol);
}

/**
 * The symbol `node` reads when `node` is a reference (`a`, `a.b`) that no type guard of its file
 * may narrow; `undefined` otherwise, or when this TypeScript cannot give a symbol's type.
 * A name the file never declares again in an inner scope means one symbol wherever the file reads
 * it, so it is looked up once per file.
 */
export function unguardedSymbolOf(context: Context, node: ts.Node): ts.Symbol | undefined {
  const { ts, checker } = context;
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node)) return undefined;
  if (typeof (checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol !== "function") return undefined;
  const root = referenceRoot(ts, node);
  if (root === undefined) return undefined;
  if (root === NOT_NARROWABLE) return checker.getSymbolAtLocation(node);
  const sourceFile = node.getSourceFile();
  const facts = referenceFactsOf(context.ts, sourceFile);
  if (facts.guarded.has(root)) return undefined;
  return referencedSymbol(context, node, facts);
}

/**
 * The symbol a reference (`a`, `a.b`) reads. A name its file never declares again in an inner
 * scope means one symbol wherever the file reads it, so it is looked up once per file.
 */
export function referencedSymbol(
  context: Context,
  node: ts.Identifier | ts.PropertyAccessExpression,
  facts: ReferenceFacts = referenceFactsOf(context.ts, node.getSourceFile()),
): ts.Symbol | undefined {
  const { ts, checker } = context;
  const lookUp = (): ts.Symbol | undefined =>
    ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
      ? checker.getShorthandAssignmentValueSymbol(node.parent)
      : checker.getSymbolAtLocation(node);
  if (!ts.isIdentifier(node)) return lookUp();
  // Read once: on TypeScript 7 every read of a name decodes it anew from the file's bytes.
  const { text } = node;
  if (facts.shadowed.has(text)) return lookUp();
  const sourceFile = node.getSourceFile();
  let byName = context.symbolsByName.get(sourceFile);
  if (byName === undefined) {
    byName = new Map();
    context.symbolsByName.set(sourceFile, byName);
  }
  let symbol = byName.get(text);
  if (symbol === undefined) {
    symbol = lookUp() ?? null;
    byName.set(text, symbol);
  }
  return symbol ?? undefined;
}

/** Whether `symbol`'s declared type is `any` (what a name becomes when its types do not resolve). */
export function hasAnyType(context: Context, symbol: ts.Symbol): boolean {
  // Without `getTypeOfSymbol` (TypeScript < 5.1), answer yes: the caller then looks further.
  if (typeof (context.checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol !== "function") return true;
  return (typeOfSymbol(context, symbol).flags & context.ts.TypeFlags.Any) !== 0;
}
