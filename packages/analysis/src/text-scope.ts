import type * as ts from "typescript";
import type { Context } from "./context.js";
import { type ReferenceFacts, referenceFactsOf } from "./reference-scan.js";
import { hasSettledType } from "./symbols.js";

/*
 * When equal text means equal types: what lets calls written alike share one resolution and one
 * options check (`literalCallOf`, marked.ts), program-wide or within one file.
 */

/** Where equal text of a value means an equal type (see `textScopeOf`); a wider scope is a larger number. */
const ANYWHERE = 0;
export const IN_FILE = 1;
export const NOWHERE = 2;

/**
 * Where equal text of `node` means an equal type, in one context: `ANYWHERE` for a literal made
 * only of literals (strings, numbers, booleans, `null`, arrays and objects of them); `IN_FILE` when
 * it also reads names whose members are the same symbols wherever its file reads them
 * (`hasSettledType`), and members and calls of them without type arguments
 * (`z.number().int().min(1)`); `NOWHERE` for anything else (a function, `this`, a spread…).
 */
function textScopeOf(context: Context, facts: ReferenceFacts, node: ts.Expression): number {
  const { ts } = context;
  switch (node.kind) {
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
    case ts.SyntaxKind.NumericLiteral:
    case ts.SyntaxKind.BigIntLiteral:
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
    case ts.SyntaxKind.NullKeyword:
      return ANYWHERE;
    case ts.SyntaxKind.PrefixUnaryExpression: {
      const { operator, operand } = node as ts.PrefixUnaryExpression;
      const signed = (operator === ts.SyntaxKind.MinusToken || operator === ts.SyntaxKind.PlusToken) && (operand.kind === ts.SyntaxKind.NumericLiteral || operand.kind === ts.SyntaxKind.BigIntLiteral);
      return signed ? ANYWHERE : NOWHERE;
    }
    case ts.SyntaxKind.ArrayLiteralExpression:
      return widest((node as ts.ArrayLiteralExpression).elements, (element) => textScopeOf(context, facts, element));
    case ts.SyntaxKind.ObjectLiteralExpression:
      return widest((node as ts.ObjectLiteralExpression).properties, (property) =>
        ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) || ts.isNumericLiteral(property.name))
          ? textScopeOf(context, facts, property.initializer)
          : NOWHERE,
      );
    case ts.SyntaxKind.Identifier:
      return hasSettledType(context, node as ts.Identifier, facts) ? IN_FILE : NOWHERE;
    case ts.SyntaxKind.PropertyAccessExpression: {
      const access = node as ts.PropertyAccessExpression;
      if (access.questionDotToken !== undefined || ts.isPrivateIdentifier(access.name)) return NOWHERE;
      return Math.max(IN_FILE, textScopeOf(context, facts, access.expression));
    }
    case ts.SyntaxKind.CallExpression: {
      const inner = node as ts.CallExpression;
      if (inner.typeArguments !== undefined || inner.questionDotToken !== undefined) return NOWHERE;
      if (!ts.isIdentifier(inner.expression) && !ts.isPropertyAccessExpression(inner.expression)) return NOWHERE;
      return Math.max(IN_FILE, textScopeOf(context, facts, inner.expression), widest(inner.arguments, (argument) => textScopeOf(context, facts, argument)));
    }
    default:
      return NOWHERE;
  }
}

/** The widest scope among `nodes`' (`ANYWHERE` for none), stopping at the first `NOWHERE`. */
function widest<T>(nodes: readonly T[], scopeOf: (node: T) => number): number {
  let scope = ANYWHERE;
  for (const node of nodes) {
    scope = Math.max(scope, scopeOf(node));
    if (scope === NOWHERE) break;
  }
  return scope;
}

/** Where equal text of `call`'s arguments means equal types: the widest of theirs. */
export function argumentsTextScope(context: Context, call: ts.CallExpression): number {
  const facts = referenceFactsOf(context.ts, call.getSourceFile());
  return widest(call.arguments, (argument) => textScopeOf(context, facts, argument));
}
