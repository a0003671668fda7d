import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import { type Context, isProjectSource, type LiteralCall, markOf, resolveAlias } from "./context.js";
import { mayRegister } from "./reach.js";
import { isConstDeclaration, unionMembers } from "./syntax.js";

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
    if (symbol !== undefined && cachedVerdict(context.unmarkedSymbols, symbol, () => !mayNarrowToMarked(context, typeOfSymbol(context, symbol)))) {
      return undefined;
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
    known = computeDeclaredReturn(context, symbol) ?? null;
    context.declaredReturns.set(symbol, known);
  }
  return known ?? undefined;
}

function computeDeclaredReturn(context: Context, symbol: ts.Symbol): ts.Type | typeof UNMARKED | undefined {
  const { checker } = context;
  if (isPlainFunctionOutOfReach(context, symbol)) return UNMARKED;
  const declared = typeOfSymbol(context, symbol);
  if (mayNarrowToMarked(context, declared)) return undefined;
  const members = unionMembers(context.ts, declared);
  const signatures = members.flatMap((member) => member.getCallSignatures());
  const returns = signatures.map((signature) => checker.getReturnTypeOfSignature(signature));
  if (returns.every((returned) => !isOpen(context, returned) && markOf(context, returned) === undefined)) return UNMARKED;
  const only = signatures.length === 1 && members.length === 1 ? signatures[0]! : undefined;
  if (only === undefined) return undefined;
  if (!isOpen(context, returns[0]!)) return returns[0];
  const branch = markedBranchOf(context, returns[0]!, 0);
  if (branch !== undefined) standIns.add(branch);
  return branch;
}

/**
 * Marked types that stand for the type of a call whose declared return type is conditional, every
 * branch of it marked (`registry.tool(options)` returns `ToolDecoratorFor<ToolArgs<I>, O>`: a
 * `ToolDecorator` whatever the options, whose output keys depend on them). Such a call is marked
 * whatever its type arguments, so it is not resolved to tell; `exactCallType` resolves it where
 * the exact type matters. Only outside generic scopes: there the type arguments inferred are
 * concrete and the conditional resolves to one of its branches, never staying deferred.
 */
const standIns = new WeakSet<ts.Type>();

/** The first branch of a conditional type whose every branch is marked whatever its type arguments; `undefined` if one is not. */
function markedBranchOf(context: Context, type: ts.Type, depth: number): ts.Type | undefined {
  const { ts, checker } = context;
  if (!(type.flags & ts.TypeFlags.Conditional)) return !isOpen(context, type) && markOf(context, type) !== undefined ? type : undefined;
  // A distributive conditional maps `never` to `never`, unmarked: only non-distributive ones are read.
  const root = (type as Partial<ts.ConditionalType>).root;
  if (depth > MAX_BRANCH_DEPTH || root?.node === undefined || root.isDistributive) return undefined;
  const whenTrue = markedBranchOf(context, checker.getTypeFromTypeNode(root.node.trueType), depth + 1);
  if (whenTrue === undefined) return undefined;
  return markedBranchOf(context, checker.getTypeFromTypeNode(root.node.falseType), depth + 1) === undefined ? undefined : whenTrue;
}

const MAX_BRANCH_DEPTH = 8;

/**
 * Whether `node` lies where a type parameter is in scope: in a declaration with type parameters,
 * or in a class (whose `this` is one). Type arguments inferred there may be generic.
 */
function isInGenericScope(ts: TypeScript, node: ts.Node): boolean {
  for (let current = node.parent; current !== undefined; current = current.parent) {
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
 * The record shared by every call of one callee on one receiver with the same literal arguments,
 * when `call` is one whose type those alone decide; `undefined` otherwise. On a program nobody
 * has checked, resolving a call of a generic function (`registry.tool({ description: "…" })`,
 * whose return type is conditional on its options) infers its type arguments and relates a fresh
 * object literal to the parameter's type, call after call; a module registering fifty tools with
 * the same options has them resolved once. The call's type is the same at every such call because
 * every input of its resolution is: the callee is a reference no guard narrows (`f`, or `r.f`
 * whose receiver `r` is a name of the same kind), whose declared type, like the receiver's, is an
 * object type, no union, so no narrowing changes it; the callee's type is one signature without
 * a `this` parameter; the call has no type arguments; every argument is a literal made of
 * literals, so equal text means equal types; and the call is the callee of another call, the one
 * place where no contextual type takes part in inferring its type arguments.
 */
export function literalCallOf(context: Context, call: ts.CallExpression): LiteralCall | undefined {
  const { ts } = context;
  if (call.typeArguments !== undefined || call.flags & (ts.NodeFlags.OptionalChain | ts.NodeFlags.JavaScriptFile)) return undefined;
  if (!ts.isCallExpression(call.parent) || call.parent.expression !== call) return undefined;
  if (!call.arguments.every((argument) => isLiteralValue(ts, argument))) return undefined;
  const callee = call.expression;
  let receiver: ts.Symbol | null = null;
  if (ts.isPropertyAccessExpression(callee)) {
    if (!ts.isIdentifier(callee.expression)) return undefined;
    const symbol = unguardedSymbolOf(context, callee.expression);
    if (symbol === undefined || !isFixedObjectType(context, typeOfSymbol(context, symbol))) return undefined;
    receiver = symbol;
  } else if (!ts.isIdentifier(callee)) {
    return undefined;
  }
  const symbol = unguardedSymbolOf(context, callee);
  if (symbol === undefined) return undefined;
  let byReceiver = context.literalCalls.get(symbol);
  if (byReceiver === undefined) {
    const type = typeOfSymbol(context, symbol);
    const signatures = type.getCallSignatures();
    const fixed = isFixedObjectType(context, type) && signatures.length === 1 && (signatures[0] as { thisParameter?: ts.Symbol }).thisParameter === undefined;
    byReceiver = fixed ? new Map() : null;
    context.literalCalls.set(symbol, byReceiver);
  }
  if (byReceiver === null) return undefined;
  let calls = byReceiver.get(receiver);
  if (calls === undefined) byReceiver.set(receiver, (calls = new Map<string, LiteralCall>()));
  const key = call.arguments.map((argument) => argument.getText()).join("\u0000");
  let shared = calls.get(key);
  if (shared === undefined) calls.set(key, (shared = { options: new Map() }));
  return shared;
}

/** An object type, no union nor intersection: what a reference of it reads whatever the flow. */
function isFixedObjectType(context: Context, type: ts.Type): boolean {
  return (type.flags & context.ts.TypeFlags.Object) !== 0;
}

/** A literal made only of literals: strings, numbers, booleans, `null`, and arrays and objects of them. */
function isLiteralValue(ts: TypeScript, node: ts.Expression): boolean {
  switch (node.kind) {
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
    case ts.SyntaxKind.NumericLiteral:
    case ts.SyntaxKind.BigIntLiteral:
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
    case ts.SyntaxKind.NullKeyword:
      return true;
    case ts.SyntaxKind.PrefixUnaryExpression: {
      const { operator, operand } = node as ts.PrefixUnaryExpression;
      return (operator === ts.SyntaxKind.MinusToken || operator === ts.SyntaxKind.PlusToken) && (operand.kind === ts.SyntaxKind.NumericLiteral || operand.kind === ts.SyntaxKind.BigIntLiteral);
    }
    case ts.SyntaxKind.ArrayLiteralExpression:
      return (node as ts.ArrayLiteralExpression).elements.every((element) => isLiteralValue(ts, element));
    case ts.SyntaxKind.ObjectLiteralExpression:
      return (node as ts.ObjectLiteralExpression).properties.every(
        (property) =>
          ts.isPropertyAssignment(property) &&
          (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) || ts.isNumericLiteral(property.name)) &&
          isLiteralValue(ts, property.initializer),
      );
    default:
      return false;
  }
}

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
function unguardedSymbolOf(context: Context, node: ts.Node): ts.Symbol | undefined {
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
  if (!ts.isIdentifier(node) || facts.shadowed.has(node.text)) return lookUp();
  const sourceFile = node.getSourceFile();
  let byName = context.symbolsByName.get(sourceFile);
  if (byName === undefined) {
    byName = new Map();
    context.symbolsByName.set(sourceFile, byName);
  }
  let symbol = byName.get(node.text);
  if (symbol === undefined) {
    symbol = lookUp() ?? null;
    byName.set(node.text, symbol);
  }
  return symbol ?? undefined;
}

/** Whether `symbol`'s declared type is `any` (what a name becomes when its types do not resolve). */
export function hasAnyType(context: Context, symbol: ts.Symbol): boolean {
  // Without `getTypeOfSymbol` (TypeScript < 5.1), answer yes: the caller then looks further.
  if (typeof (context.checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol !== "function") return true;
  return (typeOfSymbol(context, symbol).flags & context.ts.TypeFlags.Any) !== 0;
}

const OPEN = (ts: TypeScript): number =>
  ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeVariable | ts.TypeFlags.Index | ts.TypeFlags.Conditional | ts.TypeFlags.Substitution;

/** A type that instantiation can turn into a marked one: a type parameter, `any`, a generic mapped type… */
function isOpen(context: Context, type: ts.Type): boolean {
  const { ts } = context;
  if (type.flags & OPEN(ts)) return true;
  if (type.flags & ts.TypeFlags.UnionOrIntersection) return (type as ts.UnionOrIntersectionType).types.some((member) => isOpen(context, member));
  return (type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) !== 0;
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

const NOT_NARROWABLE = "";

/**
 * The name a guard would use to narrow `node`: `a` for `a`, `a.b`, `a.b.c`; `this` for `this.x`.
 * `NOT_NARROWABLE` when the chain starts at a value the checker never narrows (`f().x`,
 * `new C().x`); `undefined` when it starts anywhere else (`a[0].x`, `(a as T).x`): ask for the
 * exact type.
 */
function referenceRoot(ts: Context["ts"], node: ts.Identifier | ts.PropertyAccessExpression): string | undefined {
  let current: ts.Expression = node;
  while (ts.isPropertyAccessExpression(current)) current = current.expression;
  if (ts.isIdentifier(current)) return current.text;
  if (current.kind === ts.SyntaxKind.ThisKeyword || current.kind === ts.SyntaxKind.SuperKeyword) return "this";
  if (ts.isCallExpression(current) || ts.isNewExpression(current)) return NOT_NARROWABLE;
  return undefined;
}

/** What one syntactic scan of a file tells about its references (see `referenceFactsOf`). */
export interface ReferenceFacts {
  /** Names a type guard in the file may narrow. */
  readonly guarded: ReadonlySet<string>;
  /** Names declared in a scope inside the module (a function, a block, a parameter, a catch…). */
  readonly shadowed: ReadonlySet<string>;
}

const scanned = new WeakMap<ts.SourceFile, ReferenceFacts>();

/**
 * One syntactic scan of `sourceFile`, per file whatever the program:
 *
 * - `guarded`: the names a type guard may narrow. A guard is a call (`isTool(x)`, an
 *   `asserts x is T` function, a `this is T` method `x.isTool()`) or an `instanceof`, used as a
 *   condition: in an `if`/loop/`? :` condition, a `switch` or `case`, an operand of
 *   `&&`/`||`/`??`, a statement of its own (an assertion), or a `const` that is itself used as a
 *   condition (an aliased condition, `const ok = isTool(x); if (ok) …`). It can narrow its
 *   argument (or receiver) to any type, a marked one included, so references to these names
 *   always get their exact type.
 * - `shadowed`: the names declared anywhere but at the module's top level. A name outside this
 *   set means one symbol wherever the file reads it, so its verdict is looked up once.
 *
 * Over-approximating either set costs a type query, never a wrong verdict. `analyzeSourceFile`
 * collects both while it walks the file; a question about a file not walked yet (a const
 * followed into the module that declares it) gets them from one walk of that file here.
 */
export function referenceFactsOf(ts: TypeScript, sourceFile: ts.SourceFile): ReferenceFacts {
  const known = scanned.get(sourceFile);
  if (known !== undefined) return known;
  const scan = new ReferenceScan(ts);
  const pending: ts.Node[] = [sourceFile];
  const push = (child: ts.Node): void => {
    pending.push(child);
  };
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    scan.visit(node);
    ts.forEachChild(node, push);
  }
  return scan.finish(sourceFile);
}

/** Collects a file's `ReferenceFacts` node by node, in any order; `finish` records them. */
export class ReferenceScan {
  private readonly guarded = new Set<string>();
  private readonly shadowed = new Set<string>();
  /** Identifiers used as conditions, directly or through an aliasing const. */
  private readonly conditions = new Set<string>();
  /** `const ok = isTool(x)`: what `ok` guards, should `ok` be used as a condition. */
  private readonly aliasGuards = new Map<string, string[]>();
  /** `const both = ok && other`: the names a condition on `both` uses as conditions. */
  private readonly aliasConditions = new Map<string, string[]>();

  constructor(private readonly ts: TypeScript) {}

  /** Call it on every CallExpression, BinaryExpression and Identifier of the file (others are ignored). */
  visit(node: ts.Node): void {
    const { ts } = this;
    switch (node.kind) {
      case ts.SyntaxKind.CallExpression: {
        const call = node as ts.CallExpression;
        const use = conditionUseOf(ts, call);
        if (use === undefined) return;
        const into = use === CONDITION ? undefined : listIn(this.aliasGuards, use);
        for (const argument of call.arguments) this.addRoot(argument, into);
        const callee = call.expression;
        if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) this.addRoot(callee.expression, into);
        return;
      }
      case ts.SyntaxKind.BinaryExpression: {
        const binary = node as ts.BinaryExpression;
        if (binary.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) this.addRoot(binary.left, undefined);
        return;
      }
      case ts.SyntaxKind.Identifier: {
        const identifier = node as ts.Identifier;
        if (isNestedDeclarationName(ts, identifier)) this.shadowed.add(identifier.text);
        if (!mayBeCondition(ts, identifier)) return;
        const use = conditionUseOf(ts, identifier);
        if (use === CONDITION) this.conditions.add(identifier.text);
        else if (use !== undefined) listIn(this.aliasConditions, use).push(identifier.text);
        return;
      }
      default:
        return;
    }
  }

  finish(sourceFile: ts.SourceFile): ReferenceFacts {
    const pending = [...this.conditions];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      for (const guarded of this.aliasGuards.get(name) ?? []) this.guarded.add(guarded);
      for (const aliased of this.aliasConditions.get(name) ?? []) {
        if (!this.conditions.has(aliased)) {
          this.conditions.add(aliased);
          pending.push(aliased);
        }
      }
    }
    const facts: ReferenceFacts = { guarded: this.guarded, shadowed: this.shadowed };
    scanned.set(sourceFile, facts);
    return facts;
  }

  private addRoot(expression: ts.Expression, into: string[] | undefined): void {
    const { ts } = this;
    let current = expression;
    while (
      ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current) || ts.isNonNullExpression(current) ||
      ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) ||
      ts.isTypeAssertionExpression(current)
    ) {
      current = current.expression;
    }
    const name = ts.isIdentifier(current)
      ? current.text
      : current.kind === ts.SyntaxKind.ThisKeyword || current.kind === ts.SyntaxKind.SuperKeyword
        ? "this"
        : undefined;
    if (name === undefined) return;
    if (into === undefined) this.guarded.add(name);
    else into.push(name);
  }
}

/** Whether `identifier` names a value declared in a scope below the module's top level. */
function isNestedDeclarationName(ts: TypeScript, identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  switch (parent.kind) {
    case ts.SyntaxKind.Parameter:
    case ts.SyntaxKind.FunctionExpression:
    case ts.SyntaxKind.ClassExpression:
    case ts.SyntaxKind.EnumMember:
      return (parent as ts.NamedDeclaration).name === identifier;
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.BindingElement: {
      if ((parent as ts.NamedDeclaration).name !== identifier) return false;
      // A binding pattern belongs to a variable or to a parameter (always nested).
      let declaration: ts.Node = parent;
      while (ts.isBindingElement(declaration) || ts.isObjectBindingPattern(declaration) || ts.isArrayBindingPattern(declaration)) {
        declaration = declaration.parent;
      }
      if (!ts.isVariableDeclaration(declaration)) return true;
      const statement = declaration.parent.parent;
      return !(ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent));
    }
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.EnumDeclaration:
    case ts.SyntaxKind.ModuleDeclaration:
    case ts.SyntaxKind.ImportEqualsDeclaration:
      return (parent as ts.NamedDeclaration).name === identifier && !ts.isSourceFile(parent.parent);
    case ts.SyntaxKind.ImportClause:
    case ts.SyntaxKind.ImportSpecifier:
    case ts.SyntaxKind.NamespaceImport:
      // Imports inside `declare module "…" { }` are scoped to that block.
      return !ts.isSourceFile(ts.findAncestor(parent, ts.isImportDeclaration)?.parent ?? parent);
    default:
      return false;
  }
}

function listIn(map: Map<string, string[]>, key: string): string[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}

const CONDITION = Symbol("condition");

/** Cheap test before `conditionUseOf` for identifiers: a parent that can lead to a condition. */
function mayBeCondition(ts: TypeScript, identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  switch (parent.kind) {
    case ts.SyntaxKind.ParenthesizedExpression:
    case ts.SyntaxKind.PrefixUnaryExpression:
    case ts.SyntaxKind.BinaryExpression:
    case ts.SyntaxKind.IfStatement:
    case ts.SyntaxKind.WhileStatement:
    case ts.SyntaxKind.DoStatement:
    case ts.SyntaxKind.ForStatement:
    case ts.SyntaxKind.ConditionalExpression:
    case ts.SyntaxKind.SwitchStatement:
    case ts.SyntaxKind.CaseClause:
    case ts.SyntaxKind.VariableDeclaration:
      return true;
    case ts.SyntaxKind.CallExpression:
      return isArgumentOfAssertionCandidate(ts, parent as ts.CallExpression, identifier);
    default:
      return false;
  }
}

/**
 * Whether `argument` is an argument of a call the checker may treat as an assertion: the binder
 * takes only a call that is a statement of its own, whose callee is a dotted name (`assert(…)`,
 * `t.ok(…)`), as one, and a signature `asserts condition` then narrows by the argument as by an
 * `if`. Any narrowing inside that argument (a type predicate, `instanceof`, an aliased condition)
 * holds after the call.
 */
function isArgumentOfAssertionCandidate(ts: TypeScript, call: ts.CallExpression, argument: ts.Node): boolean {
  return call.expression !== argument && ts.isExpressionStatement(call.parent) && isDottedName(ts, call.expression);
}

function isDottedName(ts: TypeScript, node: ts.Expression): boolean {
  while (ts.isPropertyAccessExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
  return ts.isIdentifier(node) || node.kind === ts.SyntaxKind.ThisKeyword || node.kind === ts.SyntaxKind.SuperKeyword;
}

/**
 * How the value of `node` is used as a condition: `CONDITION`; the name of the `const` it
 * initializes (an aliased condition, if that const is used as one); or `undefined`: not at all.
 */
function conditionUseOf(ts: TypeScript, node: ts.Expression): typeof CONDITION | string | undefined {
  let current: ts.Node = node;
  let operand = false;
  for (;;) {
    const parent: ts.Node = current.parent;
    switch (parent.kind) {
      case ts.SyntaxKind.ParenthesizedExpression:
        current = parent;
        continue;
      case ts.SyntaxKind.PrefixUnaryExpression:
        if ((parent as ts.PrefixUnaryExpression).operator !== ts.SyntaxKind.ExclamationToken) return undefined;
        current = parent;
        continue;
      case ts.SyntaxKind.BinaryExpression:
        switch ((parent as ts.BinaryExpression).operatorToken.kind) {
          case ts.SyntaxKind.AmpersandAmpersandToken:
          case ts.SyntaxKind.BarBarToken:
          case ts.SyntaxKind.QuestionQuestionToken:
          case ts.SyntaxKind.AmpersandAmpersandEqualsToken:
          case ts.SyntaxKind.BarBarEqualsToken:
          case ts.SyntaxKind.QuestionQuestionEqualsToken:
            // One operand of a logical expression is the condition of the other.
            operand = true;
            current = parent;
            continue;
          case ts.SyntaxKind.EqualsEqualsEqualsToken:
          case ts.SyntaxKind.ExclamationEqualsEqualsToken:
          case ts.SyntaxKind.EqualsEqualsToken:
          case ts.SyntaxKind.ExclamationEqualsToken:
          case ts.SyntaxKind.CommaToken:
            current = parent;
            continue;
          default:
            return operand ? CONDITION : undefined;
        }
      case ts.SyntaxKind.IfStatement:
      case ts.SyntaxKind.WhileStatement:
      case ts.SyntaxKind.DoStatement:
      case ts.SyntaxKind.SwitchStatement:
        return (parent as ts.IfStatement | ts.WhileStatement | ts.DoStatement | ts.SwitchStatement).expression === current || operand ? CONDITION : undefined;
      case ts.SyntaxKind.ForStatement:
        return (parent as ts.ForStatement).condition === current || operand ? CONDITION : undefined;
      case ts.SyntaxKind.ConditionalExpression:
        return (parent as ts.ConditionalExpression).condition === current || operand ? CONDITION : undefined;
      case ts.SyntaxKind.CaseClause:
      case ts.SyntaxKind.ExpressionStatement:
        return CONDITION;
      case ts.SyntaxKind.CallExpression:
        // `assert(isTool(x))`: an argument of a call that may be an assertion (`asserts condition`).
        return isArgumentOfAssertionCandidate(ts, parent as ts.CallExpression, current) || operand ? CONDITION : undefined;
      case ts.SyntaxKind.VariableDeclaration: {
        if (operand) return CONDITION;
        const declaration = parent as ts.VariableDeclaration;
        return declaration.initializer === current && isConstDeclaration(ts, declaration) && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
      }
      default:
        return operand ? CONDITION : undefined;
    }
  }
}
