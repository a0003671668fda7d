import type * as ts from "typescript";
import type { TypeScript } from "./api.js";

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
export function typeOfProperty(context: { readonly checker: ts.TypeChecker }, property: ts.Symbol): ts.Type {
  const declaration = property.valueDeclaration ?? property.declarations?.[0];
  return declaration === undefined ? context.checker.getAnyType() : context.checker.getTypeOfSymbolAtLocation(property, declaration);
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

/** Whether `node` is in a JavaScript file, where JSDoc is the declared type. */
export function isJavaScript(ts: TypeScript, node: ts.Node): boolean {
  return (node.flags & ts.NodeFlags.JavaScriptFile) !== 0;
}
