import type * as ts from "typescript";
import { type Context, type Contract, resolveAlias } from "./context.js";
import type * as messages from "./messages.js";
import { MAX_HOPS } from "./syntax.js";

/*
 * A program without `strictNullChecks`: every type admits `undefined` and `null`, DataToolOutput
 * included, and a union drops them (`DataToolOutput | undefined` is `DataToolOutput`). What the
 * annotation guarantees is less; what the author wrote still says the tool may return nothing.
 */

const admits = new WeakMap<ts.Type, boolean>();

/** Whether `undefined` is assignable to the registry's DataToolOutput in this program: `strictNullChecks` is off. */
export function admitsUndefined(context: Context, contract: Contract): boolean {
  let known = admits.get(contract.type);
  if (known === undefined) {
    const { checker } = context;
    known = typeof checker.getUndefinedType === "function" && checker.isTypeAssignableTo(checker.getUndefinedType(), contract.type);
    admits.set(contract.type, known);
  }
  return known;
}

/**
 * Without `strictNullChecks`, the member `undefined`, `null` or `void` that the written return type
 * holds (directly, in a Promise, or through type aliases), which strict checking would have
 * rejected: the same rejection, from the syntax. With `strictNullChecks`, the types say it.
 */
export function writtenNullableMember(context: Context, contract: Contract, typeNode: ts.TypeNode): messages.Rejection | undefined {
  if (!admitsUndefined(context, contract)) return undefined;
  const member = nullableMemberIn(context, contract, typeNode, 0);
  return member === undefined ? undefined : { kind: "member", type: typeNode.getText(), member };
}

function nullableMemberIn(context: Context, contract: Contract, node: ts.TypeNode, hops: number): string | undefined {
  const { ts, checker } = context;
  const { SyntaxKind } = ts;
  switch (node.kind) {
    case SyntaxKind.UndefinedKeyword:
      return "undefined";
    case SyntaxKind.VoidKeyword:
      return "void";
    case SyntaxKind.NullKeyword:
      return "null";
    case SyntaxKind.LiteralType:
      return (node as ts.LiteralTypeNode).literal.kind === SyntaxKind.NullKeyword ? "null" : undefined;
    case SyntaxKind.JSDocNullableType:
      return "null"; // `?DataToolOutput`
    case SyntaxKind.ParenthesizedType:
      return nullableMemberIn(context, contract, (node as ts.ParenthesizedTypeNode).type, hops);
    case SyntaxKind.UnionType:
      for (const member of (node as ts.UnionTypeNode).types) {
        const found = nullableMemberIn(context, contract, member, hops);
        if (found !== undefined) return found;
      }
      return undefined;
    case SyntaxKind.TypeReference: {
      if (hops >= MAX_HOPS) return undefined;
      const reference = node as ts.TypeReferenceNode;
      const name = reference.typeName;
      const argument = reference.typeArguments?.length === 1 ? reference.typeArguments[0] : undefined;
      if (argument !== undefined && ts.isIdentifier(name) && (name.text === "Promise" || name.text === "PromiseLike")) {
        return nullableMemberIn(context, contract, argument, hops + 1);
      }
      const symbol = checker.getSymbolAtLocation(name);
      const target = symbol === undefined ? undefined : resolveAlias(context, symbol);
      if (target === undefined || target === contract.symbol) return undefined;
      const aliased = aliasedTypeNode(context, target);
      return aliased === undefined ? undefined : nullableMemberIn(context, contract, aliased, hops + 1);
    }
    default:
      return undefined;
  }
}

/**
 * The type a type alias names: `type Maybe = …`, or in JavaScript `/** @typedef {…} Maybe *\/`
 * (TypeScript 7 turns a typedef into a type alias; 5 and 6 keep the tag).
 */
function aliasedTypeNode(context: Context, symbol: ts.Symbol): ts.TypeNode | undefined {
  const { ts } = context;
  for (const declaration of symbol.declarations ?? []) {
    if (ts.isTypeAliasDeclaration(declaration)) return declaration.type;
    if (declaration.kind === ts.SyntaxKind.JSDocTypedefTag) {
      const expression = (declaration as ts.JSDocTypedefTag).typeExpression;
      if (expression !== undefined && expression.kind === ts.SyntaxKind.JSDocTypeExpression) return expression.type;
    }
  }
  return undefined;
}
