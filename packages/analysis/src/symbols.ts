import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import { type Context, symbolAt } from "./context.js";
import { NOT_NARROWABLE, type ReferenceFacts, referenceFactsOf, referenceRoot } from "./reference-scan.js";
import { forEachReturn } from "./sources.js";
import { hasModifier, isConstDeclaration, isJavaScript } from "./syntax.js";

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

/** What `declaredValueTypeOf` answers for a name written with a primitive type: no type of it can carry the mark or a `tool`. */
export const PRIMITIVE = "primitive";

/**
 * The declared type of a value's `symbol`, read from its declaration where that tells it without
 * typing anything else: `PRIMITIVE` for a parameter, a variable or a parameter's destructured
 * property written with a primitive type (`{ limit }: { limit: number }`), and a `const`
 * initialized by a call whose callee's declared signature decides its type (`const rows =
 * rowsOf(records, limit)`: `declaredCallType`); otherwise `typeOfSymbol`. A tool's body passes
 * such locals on (`tableOf(header, rows)`), and each argument is asked whether it may be a
 * decorator or a registry: their declared types typed the call that initializes them, its
 * arguments and their parameters, once per tool.
 */
export function declaredValueTypeOf(context: Context, symbol: ts.Symbol): ts.Type | typeof PRIMITIVE {
  const { ts } = context;
  const declaration = symbol.declarations?.length === 1 ? symbol.declarations[0]! : undefined;
  // JavaScript declares types in JSDoc (`declaredTypeNode`), left to the checker here.
  if (declaration !== undefined && !isJavaScript(ts, declaration)) {
    const written = writtenTypeNodeOf(ts, declaration);
    if (written !== undefined && isPrimitiveTypeNode(ts, written)) return PRIMITIVE;
    if (
      written === undefined &&
      ts.isVariableDeclaration(declaration) &&
      declaration.exclamationToken === undefined &&
      declaration.initializer !== undefined &&
      ts.isCallExpression(declaration.initializer) &&
      isConstDeclaration(ts, declaration) &&
      ts.isVariableStatement(declaration.parent.parent)
    ) {
      // A `const` holds its initializer's type, and a call's type is its signature's return type.
      const told = declaredTypeOfCall(context, declaration.initializer);
      if (told !== undefined) return told;
    }
  }
  return typeOfSymbol(context, symbol);
}

/**
 * The type node written for a parameter, a variable, or a name destructured from a parameter
 * whose type is a literal type with that property (`{ limit }: { limit: number }`); `undefined`
 * when none is written.
 */
function writtenTypeNodeOf(ts: TypeScript, declaration: ts.Declaration): ts.TypeNode | undefined {
  if ((ts.isParameter(declaration) || ts.isVariableDeclaration(declaration)) && ts.isIdentifier(declaration.name)) return declaration.type;
  if (!ts.isBindingElement(declaration) || declaration.dotDotDotToken !== undefined || declaration.initializer !== undefined || !ts.isIdentifier(declaration.name)) return undefined;
  const pattern = declaration.parent;
  const parameter = pattern.parent;
  if (!ts.isObjectBindingPattern(pattern) || !ts.isParameter(parameter) || parameter.type?.kind !== ts.SyntaxKind.TypeLiteral) return undefined;
  const key = declaration.propertyName ?? declaration.name;
  if (!ts.isIdentifier(key)) return undefined;
  const members = (parameter.type as ts.TypeLiteralNode).members.filter((member) => member.name !== undefined && ts.isIdentifier(member.name) && member.name.text === key.text);
  const member = members.length === 1 ? members[0]! : undefined;
  return member !== undefined && ts.isPropertySignature(member) ? member.type : undefined;
}

/** `number`, `string`, `boolean`, `bigint`, `symbol`, `undefined`, `void`, `never`: types without members that could carry the mark. */
function isPrimitiveTypeNode(ts: TypeScript, node: ts.TypeNode): boolean {
  switch (node.kind) {
    case ts.SyntaxKind.NumberKeyword:
    case ts.SyntaxKind.StringKeyword:
    case ts.SyntaxKind.BooleanKeyword:
    case ts.SyntaxKind.BigIntKeyword:
    case ts.SyntaxKind.SymbolKeyword:
    case ts.SyntaxKind.UndefinedKeyword:
    case ts.SyntaxKind.VoidKeyword:
    case ts.SyntaxKind.NeverKeyword:
      return true;
    default:
      return false;
  }
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
  if (root === NOT_NARROWABLE) return memberOfCall(context, node) ?? symbolAt(context, node);
  const sourceFile = node.getSourceFile();
  const facts = referenceFactsOf(context.ts, sourceFile);
  if (facts.guarded.has(root)) return undefined;
  return referencedSymbol(context, node, facts);
}

/**
 * The symbol a reference (`a`, `a.b`) reads. A name its file never declares again in an inner
 * scope means one symbol wherever the file reads it, so it is looked up once per file; so does
 * `a.b` when, besides, no narrowing can change the type of `a` (`hasSettledType`).
 */
export function referencedSymbol(
  context: Context,
  node: ts.Identifier | ts.PropertyAccessExpression,
  facts: ReferenceFacts = referenceFactsOf(context.ts, node.getSourceFile()),
): ts.Symbol | undefined {
  const { ts, checker } = context;
  const lookUp = (): ts.Symbol | undefined =>
    ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node ? checker.getShorthandAssignmentValueSymbol(node.parent) : symbolAt(context, node);
  if (!ts.isIdentifier(node)) {
    // The checker resolves each `registry.tool` anew (the receiver's name, its flow type, the
    // member), and a module registering fifty tools reads it fifty times.
    const receiver = node.expression;
    if (!ts.isIdentifier(receiver) || ts.isPrivateIdentifier(node.name) || !hasSettledType(context, receiver, facts)) return lookUp();
    return symbolOnce(context, node, `${receiver.text}.${node.name.text}`, lookUp);
  }
  // Read once: on TypeScript 7 every read of a name decodes it anew from the file's bytes.
  const { text } = node;
  return facts.shadowed.has(text) ? lookUp() : symbolOnce(context, node, text, lookUp);
}

/** The symbol `key` names in `node`'s file, looked up at its first reference (a member's key holds a dot, a name's none). */
function symbolOnce(context: Context, node: ts.Node, key: string, lookUp: () => ts.Symbol | undefined): ts.Symbol | undefined {
  const sourceFile = node.getSourceFile();
  let byName = context.symbolsByName.get(sourceFile);
  if (byName === undefined) {
    byName = new Map();
    context.symbolsByName.set(sourceFile, byName);
  }
  let symbol = byName.get(key);
  if (symbol === undefined) {
    symbol = lookUp() ?? null;
    byName.set(key, symbol);
  }
  return symbol ?? undefined;
}

/**
 * Whether `name` has its declared type wherever its file reads it, so that its members are the
 * same symbols everywhere: one symbol (not declared again in an inner scope), no type guard on it,
 * and a declared type that the narrowing left (truthiness, comparisons, assignments) cannot change:
 * not a union, nor `any`, `unknown`, `object` or generic (see `mayNarrowToMarked`).
 */
export function hasSettledType(context: Context, name: ts.Identifier, facts: ReferenceFacts): boolean {
  return settledSymbolOf(context, name, facts) !== undefined;
}

/** The symbol of `name` when it has a settled type (`hasSettledType`), `undefined` otherwise. */
function settledSymbolOf(context: Context, name: ts.Identifier, facts: ReferenceFacts): ts.Symbol | undefined {
  const { ts } = context;
  const { text } = name;
  if (facts.shadowed.has(text) || facts.guarded.has(text)) return undefined;
  if (typeof (context.checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol !== "function") return undefined;
  const symbol = symbolOnce(context, name, text, () => symbolAt(context, name));
  if (symbol === undefined) return undefined;
  return (typeOfSymbol(context, symbol).flags & (ts.TypeFlags.Union | ts.TypeFlags.NonPrimitive | OPEN(ts))) === 0 ? symbol : undefined;
}

/**
 * The one call signature of `symbol`'s declared type when that type is an object type (no union)
 * and the signature has no `this` parameter: what a call of it is resolved against wherever it is
 * called (`fixedCalleeOf`, `declaredCallType`).
 */
export function soleCallSignatureOf(context: Context, symbol: ts.Symbol): ts.Signature | undefined {
  const type = typeOfSymbol(context, symbol);
  if (!(type.flags & context.ts.TypeFlags.Object)) return undefined;
  const signatures = type.getCallSignatures();
  const signature = signatures.length === 1 ? signatures[0] : undefined;
  return signature !== undefined && (signature as { thisParameter?: ts.Symbol }).thisParameter === undefined ? signature : undefined;
}

/** How many calls of a chain (`a().b().c()`) are read from declared signatures before the checker is asked. */
const MAX_CHAIN = 32;

/**
 * The member `call(…).name` reads, when the call's type is told by its callee's declared signature
 * (`declaredCallType`): the checker otherwise resolves every call of a chain such as
 * `z.number().int().min(1)` anew at each registration that writes it.
 */
function memberOfCall(context: Context, node: ts.Identifier | ts.PropertyAccessExpression): ts.Symbol | undefined {
  const { ts } = context;
  if (!ts.isPropertyAccessExpression(node) || !ts.isCallExpression(node.expression) || ts.isPrivateIdentifier(node.name)) return undefined;
  const type = declaredCallType(context, node.expression, 0);
  return type === undefined ? undefined : type.getProperty(node.name.text);
}

/** The type of `call` when its callee's declared signature decides it (`declaredCallType`); `undefined` when only resolving the call can tell. */
export function declaredTypeOfCall(context: Context, call: ts.CallExpression): ts.Type | undefined {
  return declaredCallType(context, call, 0);
}

/**
 * The return type a function without a return annotation is inferred to have, when its callees'
 * declarations decide it: it is neither async nor a generator, every value it returns is a call
 * whose type `declaredTypeOfCall` tells, the same type for each, and it cannot end without
 * returning (an arrow's expression body, or a block whose last statement is a `return`). The
 * inference is then the union of that one type, which widening leaves as it is: a declared object
 * type holds no fresh literal. `undefined` when only the checker can tell.
 *
 * Why: inferring a return type checks the body, every argument of the returned call resolved. A
 * module's tools without an annotation (`function () { return answer(…, tableOf(…), …); }`), each
 * a finding whose message prints that type, had their bodies checked for it.
 */
export function declaredTypeOfBody(context: Context, fn: ts.SignatureDeclaration): ts.Type | undefined {
  const { ts } = context;
  const body = (fn as { body?: ts.Node }).body;
  if (body === undefined || (fn as { asteriskToken?: unknown }).asteriskToken !== undefined || fn.typeParameters !== undefined) return undefined;
  if (hasModifier(ts, fn, ts.SyntaxKind.AsyncKeyword)) return undefined;
  // A block that does not end in a `return` may end without a value: `undefined` joins the type.
  if (ts.isBlock(body) && !(body.statements.length > 0 && ts.isReturnStatement(body.statements[body.statements.length - 1]!))) return undefined;
  let told: ts.Type | undefined;
  let readable = true;
  forEachReturn(context, fn, (returned) => {
    // A `return;` gives `undefined`, which joins the type too.
    const type = returned !== undefined && ts.isCallExpression(returned) ? declaredTypeOfCall(context, returned) : undefined;
    if (type === undefined || (told !== undefined && type !== told)) readable = false;
    else told = type;
  });
  return readable ? told : undefined;
}

/**
 * The type of `call` when its callee's declared signature decides it, whatever the arguments and
 * the context: the callee is a settled name, a settled name's member or a member of such a call,
 * with one call signature (`soleCallSignatureOf`) without type parameters, whose written
 * return type is an object type that is no union, or `this`: the receiver's own type (zod's
 * `z.number().int()` is a `ZodNumber`). `undefined` when only resolving the call can tell.
 */
function declaredCallType(context: Context, call: ts.CallExpression, depth: number): ts.Type | undefined {
  // Kept per call: each member of a chain (`z.number().int().min(1)`) reads the calls before it,
  // so a chain would be read again from its start for each of its members. A call cut off by
  // `MAX_CHAIN` keeps `undefined`, which only sends its readers to the checker.
  let known = context.declaredCallTypes.get(call);
  if (known === undefined) {
    known = computeDeclaredCallType(context, call, depth) ?? null;
    context.declaredCallTypes.set(call, known);
  }
  return known ?? undefined;
}

function computeDeclaredCallType(context: Context, call: ts.CallExpression, depth: number): ts.Type | undefined {
  const { ts, checker } = context;
  if (depth > MAX_CHAIN || call.typeArguments !== undefined || call.flags & (ts.NodeFlags.OptionalChain | ts.NodeFlags.JavaScriptFile)) return undefined;
  const callee = call.expression;
  let receiver: ts.Type | undefined;
  let symbol: ts.Symbol | undefined;
  if (ts.isPropertyAccessExpression(callee) && ts.isCallExpression(callee.expression)) {
    receiver = declaredCallType(context, callee.expression, depth + 1);
    symbol = receiver === undefined || ts.isPrivateIdentifier(callee.name) ? undefined : receiver.getProperty(callee.name.text);
  } else if (ts.isIdentifier(callee) || (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression))) {
    const facts = referenceFactsOf(ts, call.getSourceFile());
    const name = ts.isIdentifier(callee) ? callee : (callee.expression as ts.Identifier);
    const named = settledSymbolOf(context, name, facts);
    if (named === undefined) return undefined;
    if (name === callee) {
      symbol = named;
    } else {
      receiver = typeOfSymbol(context, named);
      symbol = referencedSymbol(context, callee, facts);
    }
  }
  const signature = symbol === undefined ? undefined : soleCallSignatureOf(context, symbol);
  if (signature === undefined || signature.getTypeParameters() !== undefined) return undefined;
  // Only a written return type: inferring one types the function's body. `this` is read from it,
  // as a method's type holds the declaring class's `this`, not the receiver's.
  const written = (signature as Partial<Pick<ts.Signature, "getDeclaration">>).getDeclaration?.()?.type;
  if (written === undefined) return undefined;
  if (written.kind === ts.SyntaxKind.ThisType) return receiver;
  const returned = checker.getReturnTypeOfSignature(signature);
  return returned.flags & ts.TypeFlags.Object ? returned : undefined;
}

/** A type that instantiation or an assignment can turn into another: `any`, `unknown`, a type parameter, an index or conditional type. */
export const OPEN = (ts: TypeScript): number =>
  ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeVariable | ts.TypeFlags.Index | ts.TypeFlags.Conditional | ts.TypeFlags.Substitution;

/** A type that instantiation can turn into a marked one: a type parameter, `any`, a generic mapped type… */
export function isOpen(context: Context, type: ts.Type): boolean {
  const { ts } = context;
  if (type.flags & OPEN(ts)) return true;
  if (type.flags & ts.TypeFlags.UnionOrIntersection) return (type as ts.UnionOrIntersectionType).types.some((member) => isOpen(context, member));
  return (type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) !== 0;
}

/** Whether `symbol`'s declared type is `any` (what a name becomes when its types do not resolve). */
export function hasAnyType(context: Context, symbol: ts.Symbol): boolean {
  // Without `getTypeOfSymbol` (TypeScript < 5.1), answer yes: the caller then looks further.
  if (typeof (context.checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol !== "function") return true;
  return (typeOfSymbol(context, symbol).flags & context.ts.TypeFlags.Any) !== 0;
}
