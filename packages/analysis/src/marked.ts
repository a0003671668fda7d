import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import { givenBackArgument } from "./applied.js";
import { type Context, isExternalFileName, isProjectSource, type LiteralCall, markOf, resolveAlias } from "./context.js";
import { mayRegister } from "./reach.js";
import { referenceFactsOf } from "./reference-scan.js";
import { cachedVerdict, declaredValueTypeOf, isOpen, OPEN, PRIMITIVE, soleCallSignatureOf, typeOfSymbol, unguardedSymbolOf } from "./symbols.js";
import { argumentsTextScope, IN_FILE, NOWHERE } from "./text-scope.js";
import { hasModifier, unionMembers } from "./syntax.js";

/**
 * The type of `node` when it carries the registration mark, `undefined` when it does not: the same
 * verdict as `markOf(checker.getTypeAtLocation(node))`, most often without asking for that type.
 *
 * Why: the checker caches neither the flow-narrowed type of a reference nor the type of a call
 * expression, so `getTypeAtLocation` re-walks the control flow graph back from every callee and
 * every argument the analysis looks at, even after tsc has checked the whole program; in a
 * program nobody has checked (ESLint, `sourced check`) it checks whatever those types depend on.
 * A reference's declared type, a callee's declared signatures and a call's resolved signature
 * settle the question whenever narrowing cannot add the mark (see `mayNarrowToMarked`). Only
 * values that may be marked pay for the exact type.
 */
export function markedTypeAt(context: Context, node: ts.Node): ts.Type | undefined {
  const { ts, checker } = context;
  // The type of a call is its resolved signature's return type (plus `undefined` after `?.`, which
  // the mark ignores but a message prints). A JavaScript `require(…)` is typed otherwise.
  if (ts.isCallExpression(node) && !(node.flags & ts.NodeFlags.JavaScriptFile)) {
    // In a program nobody has checked yet, resolving the call checks its arguments (and so the
    // functions passed to it): first see what the callee's declared signatures say. After tsc's
    // check, the resolved signature is cached and cheaper than that.
    if (!context.typeChecked) {
      const declared = declaredReturnOf(context, node.expression);
      if (declared === UNMARKED) return undefined;
      if (declared !== undefined && !ts.isOptionalChain(node) && !(standIns.has(declared) && isInGenericScope(ts, node))) return declared;
      if (declared === undefined && givesBackUnmarked(context, node)) return undefined;
    }
    const shared = literalCallOf(context, node);
    if (shared?.type !== undefined) return shared.type ?? undefined;
    const signature = checker.getResolvedSignature(node);
    if (signature !== undefined) {
      const returned = checker.getReturnTypeOfSignature(signature);
      const marked = markOf(context, returned) !== undefined;
      if (shared !== undefined) shared.type = marked ? returned : null;
      if (!marked) return undefined;
      if (!ts.isOptionalChain(node)) return returned;
    }
  } else {
    const symbol = unguardedSymbolOf(context, node);
    if (symbol !== undefined) {
      if (cachedVerdict(context.unmarkedSymbols, symbol, () => isMemberlessFunction(context, symbol) || !mayNarrowToMarkedAt(context, symbol))) return undefined;
      // A name its file only ever calls (or declares): nothing narrows it, so the type at the
      // reference is its symbol's, asked once per symbol rather than once per reference (a helper
      // such as `defineTool(…)` called for every tool: on TypeScript 7, a round trip each). Unless
      // that type is a union (a declaration's initializer narrows one) or generic (a callee of a
      // type parameter is typed by its constraint).
      if (ts.isIdentifier(node) && !referenceFactsOf(ts, node.getSourceFile()).mentioned.has(node.text)) {
        const declared = typeOfSymbol(context, symbol);
        if ((declared.flags & (ts.TypeFlags.Union | OPEN(ts))) === 0 && markOf(context, declared) !== undefined) return declared;
      }
    }
  }
  const type = checker.getTypeAtLocation(node);
  return markOf(context, type) === undefined ? undefined : type;
}

const UNMARKED = "unmarked";

/**
 * What a call of `callee` returns, read from the callee's declared signatures when they settle it
 * whatever the call's arguments: `UNMARKED` when no signature returns a marked or generic type;
 * the marked type itself when there is one signature whose return type is marked whatever its type
 * arguments (`registry.tool<I>()` returns `ToolDecorator<ToolArgs<I>>`, marked for every input):
 * the mark is the same, though a message that prints the type asks for the call's own;
 * `undefined` when only resolving the call can tell.
 */
function declaredReturnOf(context: Context, callee: ts.Expression): ts.Type | typeof UNMARKED | undefined {
  const symbol = unguardedSymbolOf(context, callee);
  if (symbol === undefined) return undefined;
  let known = context.declaredReturns.get(symbol);
  if (known === undefined) {
    // A function that returns what it calls may call itself (or a caller of it, through
    // `returnsUnmarkedValues`): meanwhile it answers "resolve the call", which asks the checker.
    context.declaredReturns.set(symbol, null);
    known = computeDeclaredReturn(context, symbol) ?? null;
    context.declaredReturns.set(symbol, known);
  }
  return known ?? undefined;
}

function computeDeclaredReturn(context: Context, symbol: ts.Symbol): ts.Type | typeof UNMARKED | undefined {
  const { checker } = context;
  if (isPlainFunctionOutOfReach(context, symbol) || returnsUnmarkedValues(context, symbol)) return UNMARKED;
  const declared = typeOfSymbol(context, symbol);
  if (!isMemberlessFunction(context, symbol) && mayNarrowToMarked(context, declared)) return undefined;
  const members = unionMembers(context.ts, declared);
  const signatures = members.flatMap((member) => member.getCallSignatures());
  const returns = signatures.map((signature) => checker.getReturnTypeOfSignature(signature));
  if (returns.every((returned) => !isOpen(context, returned) && markOf(context, returned) === undefined)) return UNMARKED;
  const only = signatures.length === 1 && members.length === 1 ? signatures[0]! : undefined;
  if (only === undefined) return undefined;
  if (!isOpen(context, returns[0]!)) return returns[0];
  const leaves: ts.Type[] = [];
  const branch = markedBranchOf(context, returns[0]!, 0, leaves);
  if (branch !== undefined) standIns.set(branch, [...new Set([...(standIns.get(branch) ?? []), ...leaves])]);
  return branch;
}

/**
 * Whether `call` applies a marked value that gives back its first argument (applied.ts), whatever type the
 * value may have, to one not marked (`registry.tool(options)(fn)`); a function written in place never is.
 */
function givesBackUnmarked(context: Context, call: ts.CallExpression): boolean {
  const { ts } = context;
  const callee = call.expression;
  const applied = ts.isCallExpression(callee) || ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee) ? markedTypeAt(context, callee) : undefined;
  const argument = applied === undefined ? undefined : givenBackArgument(context, call, standIns.get(applied) ?? [applied]);
  return argument !== undefined && (ts.isFunctionExpression(argument) || ts.isArrowFunction(argument) || markedTypeAt(context, argument) === undefined);
}

/**
 * Marked types that stand for the type of a call whose declared return type is conditional, every
 * branch of it marked (`registry.tool(options)` returns `ToolDecoratorFor<ToolArgs<I>, O>`, a
 * `ToolDecorator` whatever the options), each kept with every branch it stands for. Such a call is
 * marked whatever its type arguments, so it is not resolved to tell; `exactCallType` resolves it
 * where the exact type matters. Only outside generic scopes: there the inferred type arguments are
 * concrete and the conditional resolves to a branch, never staying deferred.
 */
const standIns = new WeakMap<ts.Type, readonly ts.Type[]>();

/**
 * The first branch of a conditional type whose every branch is marked whatever its type arguments;
 * `undefined` if one is not. `leaves` gathers the branches read.
 */
function markedBranchOf(context: Context, type: ts.Type, depth: number, leaves: ts.Type[]): ts.Type | undefined {
  const { ts, checker } = context;
  if (!(type.flags & ts.TypeFlags.Conditional)) {
    if (isOpen(context, type) || markOf(context, type) === undefined) return undefined;
    leaves.push(type);
    return type;
  }
  if (depth > MAX_BRANCH_DEPTH) return undefined;
  // A distributive conditional maps `never` to `never`, unmarked: only non-distributive ones are read.
  const root = (type as Partial<ts.ConditionalType>).root;
  let branches: ConditionalBranches | undefined;
  if (root?.node !== undefined) {
    const { node } = root;
    branches = root.isDistributive ? undefined : { whenTrue: () => checker.getTypeFromTypeNode(node.trueType), whenFalse: () => checker.getTypeFromTypeNode(node.falseType) };
  } else {
    branches = (type as { nonDistributiveBranches?: () => ConditionalBranches | undefined }).nonDistributiveBranches?.();
  }
  if (branches === undefined) return undefined;
  const whenTrue = markedBranchOf(context, branches.whenTrue(), depth + 1, leaves);
  if (whenTrue === undefined) return undefined;
  return markedBranchOf(context, branches.whenFalse(), depth + 1, leaves) === undefined ? undefined : whenTrue;
}

/**
 * The branches of a conditional type that does not distribute. The classic checker's type has its
 * declaration (`root.node`); a checker that has none (TypeScript 7's API hands out types, not their
 * roots) may give its types a `nonDistributiveBranches()` instead: `undefined` when the conditional
 * may distribute, else its true and false types.
 */
export interface ConditionalBranches {
  readonly whenTrue: () => ts.Type;
  readonly whenFalse: () => ts.Type;
}

const MAX_BRANCH_DEPTH = 8;

/**
 * Whether `node` lies where a type parameter is in scope: in a declaration with type parameters,
 * or in a class (whose `this` is one). Type arguments inferred there may be generic.
 *
 * One place in a class is not: the decorator of a static method of a class without type
 * parameters (`@registry.tool({…}) static forecast()`). What a call there infers from comes from
 * its arguments, evaluated outside the class's instances (no `this` of the class), and from the
 * decorator's context (`typeof` the class and the member's own type), neither of which holds a
 * type parameter of the class; the scopes around the class are still looked at.
 */
function isInGenericScope(ts: TypeScript, node: ts.Node): boolean {
  let current = node.parent;
  while (current !== undefined && current.kind === ts.SyntaxKind.ParenthesizedExpression) current = current.parent;
  if (current !== undefined && ts.isDecorator(current)) {
    const member = current.parent;
    const owner = member.parent;
    if (
      ts.isMethodDeclaration(member) &&
      owner !== undefined &&
      (ts.isClassDeclaration(owner) || owner.kind === ts.SyntaxKind.ClassExpression) &&
      (owner as ts.ClassLikeDeclaration).typeParameters === undefined &&
      member.typeParameters === undefined &&
      hasModifier(ts, member, ts.SyntaxKind.StaticKeyword)
    ) {
      current = owner.parent;
    } else {
      current = node.parent;
    }
  } else {
    current = node.parent;
  }
  for (; current !== undefined; current = current.parent) {
    if (current.kind === ts.SyntaxKind.ClassDeclaration || current.kind === ts.SyntaxKind.ClassExpression) return true;
    if ((current as { typeParameters?: unknown }).typeParameters !== undefined) return true;
  }
  return false;
}

/**
 * The type of `node` as `markedTypeAt` answered it, exact: a call answered with a stand-in (see
 * `standIns`) is resolved now; `undefined` if its exact type turns out unmarked.
 */
export function exactMarkedType(context: Context, node: ts.Node, type: ts.Type): ts.Type | undefined {
  const { ts, checker } = context;
  if (!standIns.has(type) || !ts.isCallExpression(node)) return type;
  const signature = checker.getResolvedSignature(node);
  const returned = signature === undefined ? checker.getTypeAtLocation(node) : checker.getReturnTypeOfSignature(signature);
  return markOf(context, returned) === undefined ? undefined : returned;
}

/**
 * Whether `symbol` is a function of the project declared at the top level of files that no type
 * of the registry can reach (reach.ts), without type parameters: its return type then names only
 * types those files see, none marked, and no instantiation can bring the mark in. Such a callee is
 * settled without inferring its return type, which on a program nobody has checked means checking
 * its body (a tool calling an ordinary module's `rowsOf(…)` would otherwise have the service code
 * behind it checked). Methods are left out: a method returning `this` returns its receiver's type.
 */
function isPlainFunctionOutOfReach(context: Context, symbol: ts.Symbol): boolean {
  const { ts, program } = context;
  const declarations = resolveAlias(context, symbol).declarations;
  if (declarations === undefined || declarations.length === 0) return false;
  return declarations.every((declaration) => {
    if (!ts.isFunctionDeclaration(declaration) || declaration.typeParameters !== undefined) return false;
    const sourceFile = declaration.parent;
    // JSDoc can declare type parameters (`@template`) in JavaScript: those files are left out.
    if (!ts.isSourceFile(sourceFile) || declaration.flags & ts.NodeFlags.JavaScriptFile || !isProjectSource(program, sourceFile)) return false;
    return !mayRegister(ts, program, sourceFile);
  });
}

/**
 * Whether `symbol` is a function of the kind `isMemberlessFunction` tells, declared once, at the top
 * level, with a body, no type parameters and no return annotation, whose every `return` gives a
 * value `markedTypeAt` finds unmarked. Its return type is inferred from its body: the union of what
 * its `return`s give (void without one), which a body of unmarked values leaves unmarked, as a
 * `Promise` or a generator of them is. Asking for that type checks the body, every call in it
 * resolved; a module's helper (`function m0007Rows(limit: number) { return rowsOf(m0007Records,
 * limit); }`), called by the tools of the modules that import it, had its body checked to tell
 * that a call of it returns rows (on TypeScript 7, two requests per helper). Told here from what
 * the calls in it return, already known for the analysis' own questions.
 */
function returnsUnmarkedValues(context: Context, symbol: ts.Symbol): boolean {
  const { ts } = context;
  if (!isMemberlessFunction(context, symbol)) return false;
  const declarations = resolveAlias(context, symbol).declarations;
  if (declarations?.length !== 1) return false;
  const declaration = declarations[0] as ts.FunctionDeclaration;
  if (declaration.body === undefined || declaration.type !== undefined || declaration.typeParameters !== undefined || !ts.isSourceFile(declaration.parent)) return false;
  const returned: ts.Expression[] = [];
  let readable = true;
  const visit = (node: ts.Node): void => {
    // A nested function's `return`s are its own (a class's are all in its methods).
    if (!readable || ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node)) {
      if (node.expression === undefined) return;
      // Only values whose type `markedTypeAt` reads without typing what surrounds them.
      if (!ts.isCallExpression(node.expression) && !ts.isIdentifier(node.expression) && !ts.isPropertyAccessExpression(node.expression)) readable = false;
      else returned.push(node.expression);
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(declaration.body, visit);
  return readable && returned.every((value) => markedTypeAt(context, value) === undefined);
}

/**
 * Whether `symbol` (or the export an import of it names) is a function of the project's own
 * TypeScript sources, declared by `function` declarations alone, merged with no other value (a
 * namespace, a class), whose files never write its name but to call or declare it. Its type is
 * then a function type without a property of its own: TypeScript gives a function properties only
 * for an assignment to it in its own file (`f.x = …`, `f[key] = …`, which writes its name
 * otherwise) or a merged namespace. So it carries no mark, and no narrowing of it adds one: the same
 * verdict as listing its type's properties (`markOf`), told from the syntax. A module calls its
 * neighbours' helpers (`m0007Rows(1)`), each call a candidate registration: on TypeScript 7 the
 * listing was two requests per function called.
 */
function isMemberlessFunction(context: Context, symbol: ts.Symbol): boolean {
  const { ts, checker, program } = context;
  const target = resolveAlias(context, symbol);
  if ((target.flags & (ts.SymbolFlags.Value | ts.SymbolFlags.Namespace)) !== ts.SymbolFlags.Function) return false;
  // A library's function is left before its declarations' syntax is read, where the program can tell their files without it.
  if (checker.declarationPathsOf?.(target)?.some((path) => isExternalFileName(path)) === true) return false;
  const declarations = target.declarations;
  if (declarations === undefined || declarations.length === 0) return false;
  return declarations.every((declaration) => {
    if (!ts.isFunctionDeclaration(declaration) || declaration.name === undefined || declaration.flags & ts.NodeFlags.JavaScriptFile) return false;
    const sourceFile = declaration.getSourceFile();
    return isProjectSource(program, sourceFile) && !referenceFactsOf(ts, sourceFile).mentioned.has(declaration.name.text);
  });
}

/**
 * The record shared by every call of one callee on one receiver with the same literal arguments,
 * when `call` is one whose type those alone decide; `undefined` otherwise. On a program nobody
 * has checked, resolving a call of a generic function (`registry.tool({ description: "…" })`,
 * whose return type is conditional on its options) infers its type arguments and relates a fresh
 * object literal to the parameter's type, call after call; a module registering fifty tools with
 * the same options has them resolved once. The call's type is the same at every such call because
 * every input of its resolution is: the callee's type and its receiver's are the same at each
 * (`fixedCalleeOf`); the call has no type arguments; equal text of its arguments means equal types
 * (`argumentsTextScope`: anywhere for literals made of literals, within one file for arguments that read
 * names, such as `input: { limit: z.number().int() }`); and the call is the callee of another
 * call, the one place where no contextual type takes part in inferring its type arguments.
 */
export function literalCallOf(context: Context, call: ts.CallExpression): LiteralCall | undefined {
  let known = context.literalCallsAt.get(call);
  if (known === undefined) {
    known = findLiteralCall(context, call) ?? null;
    context.literalCallsAt.set(call, known);
  }
  return known ?? undefined;
}

function findLiteralCall(context: Context, call: ts.CallExpression): LiteralCall | undefined {
  const { ts } = context;
  if (call.typeArguments !== undefined || call.flags & (ts.NodeFlags.OptionalChain | ts.NodeFlags.JavaScriptFile)) return undefined;
  if (!ts.isCallExpression(call.parent) || call.parent.expression !== call) return undefined;
  const scope = argumentsTextScope(context, call);
  if (scope === NOWHERE) return undefined;
  const fixed = fixedCalleeOf(context, call);
  if (fixed === undefined) return undefined;
  const { callee: symbol, receiver } = fixed;
  let byReceiver = context.literalCalls.get(symbol);
  if (byReceiver === undefined) context.literalCalls.set(symbol, (byReceiver = new Map<ts.Type | null, Map<string, LiteralCall>>()));
  let calls = byReceiver.get(receiver);
  if (calls === undefined) byReceiver.set(receiver, (calls = new Map<string, LiteralCall>()));
  const text = call.arguments.map((argument) => argument.getText()).join("\u0000");
  const key = scope === IN_FILE ? `${call.getSourceFile().fileName}\u0001${text}` : text;
  let shared = calls.get(key);
  if (shared === undefined) calls.set(key, (shared = { options: new Map() }));
  return shared;
}

/**
 * The callee of `call` and its receiver's type (`null`: none) when the callee's type is the same at
 * every call of it on a receiver of that type: a reference no guard narrows (`f`, or `r.f` whose
 * receiver `r` is a name of the same kind), whose declared type, like the receiver's, is an object
 * type, no union, with one call signature and no `this` parameter. Keyed by the receiver's type,
 * not its name, so that every file's import of one registry shares it. Told once per callee.
 */
export function fixedCalleeOf(context: Context, call: ts.CallExpression): { readonly callee: ts.Symbol; readonly receiver: ts.Type | null } | undefined {
  const { ts } = context;
  const callee = call.expression;
  let receiver: ts.Type | null = null;
  if (ts.isPropertyAccessExpression(callee)) {
    if (!ts.isIdentifier(callee.expression)) return undefined;
    const symbol = unguardedSymbolOf(context, callee.expression);
    const type = symbol === undefined ? undefined : typeOfSymbol(context, symbol);
    if (type === undefined || !isFixedObjectType(context, type)) return undefined;
    receiver = type;
  } else if (!ts.isIdentifier(callee)) {
    return undefined;
  }
  const symbol = unguardedSymbolOf(context, callee);
  if (symbol === undefined) return undefined;
  let fixed = context.fixedCallees.get(symbol);
  if (fixed === undefined) {
    fixed = soleCallSignatureOf(context, symbol) !== undefined;
    context.fixedCallees.set(symbol, fixed);
  }
  return fixed ? { callee: symbol, receiver } : undefined;
}

/** An object type, no union nor intersection: what a reference of it reads whatever the flow. */
function isFixedObjectType(context: Context, type: ts.Type): boolean {
  return (type.flags & context.ts.TypeFlags.Object) !== 0;
}

/** Whether narrowing a reference of `symbol` can end in a marked type, by its declared type (`declaredValueTypeOf`). */
function mayNarrowToMarkedAt(context: Context, symbol: ts.Symbol): boolean {
  const declared = declaredValueTypeOf(context, symbol);
  return declared !== PRIMITIVE && mayNarrowToMarked(context, declared);
}

/**
 * Whether narrowing a reference of `declared` type can end in a marked type. With no guard on
 * the reference (see `referenceFactsOf`), narrowing only filters a union's members or, for an
 * evolving `let`, `any` and `unknown`, takes the assigned type: so a union with a marked (or
 * open) member, an open type, a marked type itself, or `object` (kept out of caution: it is the
 * one object type with no properties of its own to rule the mark out) needs the exact type.
 */
function mayNarrowToMarked(context: Context, declared: ts.Type): boolean {
  const { ts } = context;
  const members = declared.flags & ts.TypeFlags.UnionOrIntersection ? (declared as ts.UnionOrIntersectionType).types : [declared];
  return (
    members.some((member) => (member.flags & (OPEN(ts) | ts.TypeFlags.NonPrimitive)) !== 0 || markOf(context, member) !== undefined) ||
    markOf(context, declared) !== undefined
  );
}
