import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import { type Context, markOf } from "./context.js";
import { isOpen } from "./symbols.js";
import { mentionsTypeParameter, skipParentheses, unionMembers } from "./syntax.js";

/*
 * What applying a decorator gives back, read from its declared signatures. Every signature of the
 * registry's decorators is `<F extends …>(fn: F, …): F`: applied, a decorator gives back the
 * function it is given, with that function's own type. Asked whether a wrapper's
 * `registry.tool(options)(fn)` is a decorator (one returned escapes), the checker resolves the
 * application, and with it `registry.tool(options)` for options typed `ToolOptions`: the
 * decorator's conditional type inferred from them, on a program nobody has checked the largest
 * single question of a project whose platform wraps the registry (docs/performance.md, issue 45
 * round 17).
 */

/**
 * When a call of `signature` has, by its declaration, the type of its first argument: the
 * declaration names one of its own type parameters `T`, without a default, as its return type
 * and as its first parameter's type (not a rest parameter), and no other parameter or type
 * parameter of it may mention `T` (`mentionsTypeParameter`), so that the first argument alone is
 * what `T` is inferred from. A call with that argument (no spread, no type arguments) then has the
 * argument's type, or, when that type does not satisfy `T`'s constraint, the constraint.
 *
 * Returns `T`'s constraint as declared, `null` when `T` has none, and `undefined` when the
 * signature is not of that form or its declaration cannot be read (TypeScript 7's port gives none:
 * the checker is asked then, as before). The constraint is the declaration's own type, before any
 * instantiation: whether every instantiation of it is marked is the caller's question
 * (`ToolHandler<Args>`, a function type whatever `Args` is, never is).
 */
export function firstArgumentConstraint(context: Context, signature: ts.Signature): ts.Type | null | undefined {
  const { ts, checker } = context;
  const declaration = (signature as Partial<Pick<ts.Signature, "getDeclaration">>).getDeclaration?.();
  const typeParameters = declaration?.typeParameters;
  if (declaration === undefined || typeParameters === undefined) return undefined;
  const name = referencedName(ts, declaration.type);
  const [first, ...others] = declaration.parameters;
  if (name === undefined || first === undefined || first.dotDotDotToken !== undefined || referencedName(ts, first.type) !== name) return undefined;
  if (ts.isIdentifier(first.name) && first.name.text === "this") return undefined;
  const own = typeParameters.find((parameter) => parameter.name.text === name);
  if (own === undefined || own.default !== undefined) return undefined;
  const names = new Set([name]);
  if (others.some((parameter) => parameter.type === undefined || mentionsTypeParameter(ts, parameter.type, names))) return undefined;
  if (typeParameters.some((parameter) => parameter !== own && mentionsTypeParameter(ts, parameter, names))) return undefined;
  return own.constraint === undefined ? null : checker.getTypeFromTypeNode(own.constraint);
}

/**
 * The argument whose type `call` has when it calls a value that gives back its first argument:
 * every call signature of each of `types` (the types the callee may have; each member of a union
 * among them) is of the form `firstArgumentConstraint` reads, with no constraint or one that no
 * instantiation marks, and the call passes that argument (no spread, no type arguments, no `?.`).
 * Only a name, a member or a function written in place is returned: what a caller then asks of its
 * type costs no call's resolution. `undefined` otherwise.
 */
export function givenBackArgument(context: Context, call: ts.CallExpression, types: readonly ts.Type[]): ts.Expression | undefined {
  const { ts } = context;
  if (call.typeArguments !== undefined || ts.isOptionalChain(call) || call.arguments.some((argument) => ts.isSpreadElement(argument))) return undefined;
  const argument = call.arguments[0] === undefined ? undefined : skipParentheses(ts, call.arguments[0]);
  if (argument === undefined || !(ts.isIdentifier(argument) || ts.isPropertyAccessExpression(argument) || ts.isFunctionExpression(argument) || ts.isArrowFunction(argument))) return undefined;
  // A union's signatures are joined into one that keeps a single member's declaration: each member is read.
  for (const type of types.flatMap((candidate) => unionMembers(ts, candidate))) {
    const signatures = type.getCallSignatures();
    if (signatures.length === 0) return undefined;
    for (const signature of signatures) {
      const constraint = firstArgumentConstraint(context, signature);
      if (constraint === undefined || (constraint !== null && (isOpen(context, constraint) || markOf(context, constraint) !== undefined))) return undefined;
    }
  }
  return argument;
}

/** The name a type node refers to when it is a bare reference (`F`, no type arguments, no qualifier). */
function referencedName(ts: TypeScript, node: ts.TypeNode | undefined): string | undefined {
  if (node === undefined || node.kind !== ts.SyntaxKind.TypeReference) return undefined;
  const { typeArguments, typeName } = node as ts.TypeReferenceNode;
  return typeArguments === undefined && ts.isIdentifier(typeName) ? typeName.text : undefined;
}
