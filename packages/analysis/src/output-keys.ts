import type * as ts from "typescript";
import type { Context, Contract } from "./context.js";
import { forEachReturnedStructuredContent } from "./sources.js";
import { unionMembers } from "./syntax.js";

/*
 * Keys the net refuses on every call, visible in the types: the run time accepts in
 * `structuredContent` the contract's keys and those the tool's `output` declares, which its
 * function declares too (`DataResult<{ entities: Entity[] }>`). TypeScript checks excess keys of a
 * fresh object literal only, so `{ ...graph, sources }` — a spread whose type has keys the return
 * type does not declare — compiles and fails at run time. Here, the type of each returned
 * `structuredContent` is held against the keys the declared return type gives it.
 */

/** A returned `structuredContent` carrying keys its declared return type does not declare. */
export interface UndeclaredKeys {
  readonly node: ts.Expression;
  readonly keys: readonly string[];
  /** The keys the declared return type gives `structuredContent`. */
  readonly declared: readonly string[];
}

const NONE: readonly UndeclaredKeys[] = [];

/** The returned `structuredContent`s of `implementation` with keys its declared return type does not declare. */
export function undeclaredOutputKeysOf(context: Context, implementation: ts.SignatureDeclaration | undefined): readonly UndeclaredKeys[] {
  if (implementation === undefined || implementation.type === undefined) return NONE;
  const written = implementation.type;
  // The declared keys are read only for a tool that returns a `structuredContent` of its own; most
  // return a helper's result. The contract's keys are its `StructuredData`'s (zod's inferred types
  // and Chart.js's configuration): typing them is the largest question a program's first tool asks.
  let declared: ReadonlySet<string> | null | undefined;
  let found: UndeclaredKeys[] | undefined;
  forEachReturnedStructuredContent(context, implementation, (structured) => {
    if (declared === undefined) declared = declaredKeysOf(context, context.checker.getTypeFromTypeNode(written)) ?? null;
    const known = declared;
    if (known === null) return;
    const keys = writtenKeysOf(context, structured) ?? keysOf(context, context.checker.getTypeAtLocation(structured));
    const extra = keys?.filter((key) => !known.has(key));
    if (extra !== undefined && extra.length > 0) (found ??= []).push({ node: structured, keys: extra, declared: [...known] });
  });
  return found ?? NONE;
}

/** Keys a tool's declared return type gives `structuredContent` beside the contract's that its registration's `output` does not declare. */
export interface KeysBeyondOutput {
  /** The declared return type. */
  readonly node: ts.TypeNode;
  readonly keys: readonly string[];
  /** The keys the registration's `output` declares (none without one). */
  readonly output: readonly string[];
}

/**
 * The keys `implementation`'s declared return type gives `structuredContent` beyond the contract's
 * and the registration's `output`: the net refuses them on every call, whatever the function
 * returns. `TypeScript` lets them through — a tool without `output` may return anything, and
 * `DataResult<{ a; b }>` is assignable to the `DataResult<{ a }>` an `output: { a }` asks for.
 * The `output`'s keys are read beside the mark on the decorator's type (`RegistersTool`'s second
 * argument, `NoOutputKeys` for none); when that type cannot tell (a platform's wrapper, an
 * `output` whose type is not known statically, a registry without it), nothing is reported.
 */
export function keysBeyondOutputOf(
  context: Context,
  contract: Contract,
  decorator: () => ts.Type | undefined,
  mark: ts.Symbol,
  implementation: ts.SignatureDeclaration | undefined,
): KeysBeyondOutput | undefined {
  if (implementation === undefined || implementation.type === undefined) return undefined;
  const returnType = context.checker.getTypeFromTypeNode(implementation.type);
  // The contract itself (or a promise of it), as most tools declare, has no key beyond its own:
  // its keys are not typed for it (see `undeclaredOutputKeysOf`).
  if (isContractItself(context, contract, returnType)) return undefined;
  const declared = declaredKeysOf(context, returnType);
  if (declared === undefined) return undefined;
  const contractKeys = declaredKeysOf(context, contract.data);
  const beyondContract = [...declared].filter((key) => contractKeys?.has(key) !== true);
  // Most tools declare the contract's own keys: then the decorator's type (the registration's
  // `output`, which may take resolving its call) is not asked for.
  if (beyondContract.length === 0) return undefined;
  const type = decorator();
  const output = type === undefined ? undefined : outputKeysOf(context, type, mark);
  if (output === undefined) return undefined;
  const keys = beyondContract.filter((key) => !output.includes(key));
  return keys.length === 0 ? undefined : { node: implementation.type, keys, output };
}

/**
 * Whether `returnType`, awaited, is the contract's data type: asked once per type and contract (a
 * program may hold two copies of the registry), as the checker awaits a type anew at each request.
 */
function isContractItself(context: Context, contract: Contract, returnType: ts.Type): boolean {
  let byType = contractItself.get(contract);
  if (byType === undefined) contractItself.set(contract, (byType = new WeakMap()));
  let known = byType.get(returnType);
  if (known === undefined) {
    known = unionMembers(context.ts, context.checker.getAwaitedType(returnType) ?? returnType).every((member) => member === contract.data);
    byType.set(returnType, known);
  }
  return known;
}

const contractItself = new WeakMap<Contract, WeakMap<ts.Type, boolean>>();

/** The keys of the registration's `output`, as the decorator's type declares them beside `mark`; `undefined` when it does not say. */
function outputKeysOf(context: Context, decorator: ts.Type, mark: ts.Symbol): string[] | undefined {
  const keys = outputKeysTypeOf(context, decorator, mark);
  return keys === undefined ? undefined : keysOf(context, keys);
}

/**
 * The type of the keys the registration's `output` declares (`{ entities: Entity[] }`), as the
 * decorator's type carries it beside `mark`; `undefined` when it does not say, or when the output
 * describes no object (the option itself is the finding then, options.ts).
 */
export function outputKeysTypeOf(context: Context, decorator: ts.Type, mark: ts.Symbol): ts.Type | undefined {
  const { checker } = context;
  const brand = (mark.valueDeclaration ?? mark.declarations?.[0])?.getSourceFile();
  if (brand === undefined) return undefined;
  for (const property of checker.getPropertiesOfType(checker.getNonNullableType(decorator))) {
    // Keyed by a unique symbol declared beside the mark's (escaped names of those start with "__@").
    if (property.escapedName === mark.escapedName || !(property.escapedName as string).startsWith("__@")) continue;
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    if (declaration === undefined || declaration.getSourceFile() !== brand) continue;
    const keys = checker.getTypeOfSymbolAtLocation(property, declaration);
    // `unknown` first: its non-nullable type is `{}`, which would read as "no keys".
    if (keys.flags & (context.ts.TypeFlags.Any | context.ts.TypeFlags.Unknown)) return undefined;
    // An `output` of no object (`z.array(…)`) declares no keys: its members (`length`) are none,
    // and the option itself is the finding (options.ts).
    const declared = checker.getNonNullableType(keys);
    if (unionMembers(context.ts, declared).some((member) => checker.getIndexTypeOfType(member, context.ts.IndexKind.Number) !== undefined)) return undefined;
    return declared;
  }
  return undefined;
}

/**
 * The keys a declared return type gives `structuredContent`, over every member of the union
 * (awaited for a promise); `undefined` when it cannot say (no such property, `any`, an index
 * signature: any key may be meant).
 */
function declaredKeysOf(context: Context, returnType: ts.Type): ReadonlySet<string> | undefined {
  // Tools share a few return types (the contract, an alias of it): each is read once.
  let known = declaredKeys.get(returnType);
  if (known === undefined) {
    known = computeDeclaredKeys(context, returnType) ?? null;
    declaredKeys.set(returnType, known);
  }
  return known ?? undefined;
}

const declaredKeys = new WeakMap<ts.Type, ReadonlySet<string> | null>();

function computeDeclaredKeys(context: Context, returnType: ts.Type): Set<string> | undefined {
  const { ts, checker } = context;
  const awaited = checker.getAwaitedType(returnType) ?? returnType;
  const declared = new Set<string>();
  for (const member of unionMembers(ts, awaited)) {
    const property = member.getProperty("structuredContent");
    if (property === undefined) continue;
    const keys = keysOf(context, checker.getNonNullableType(checker.getTypeOfSymbol(property)));
    if (keys === undefined) return undefined;
    for (const key of keys) declared.add(key);
  }
  return declared.size === 0 ? undefined : declared;
}

/**
 * The keys of an object literal written in place, read from its syntax: the type of a fresh
 * literal has exactly the properties it writes, in that order, and no index signature. Typing it
 * instead checks it, and every value in it, in the context of the function's return type (over
 * IPC on the native backend, a round trip per tool). `undefined` where only the type can tell: a
 * spread, a computed or numeric name (`1.0` is the key `"1"`), `__proto__` (which sets the
 * prototype rather than a property).
 */
function writtenKeysOf(context: Context, node: ts.Expression): string[] | undefined {
  const { ts } = context;
  if (!ts.isObjectLiteralExpression(node)) return undefined;
  const keys: string[] = [];
  for (const property of node.properties) {
    const name = property.name;
    if (name === undefined || !(ts.isIdentifier(name) || ts.isStringLiteral(name)) || name.text === "__proto__") return undefined;
    if (!keys.includes(name.text)) keys.push(name.text);
  }
  return keys;
}

/** The property names of an object type (of each union member); `undefined` for `any`, `unknown` or an index signature. */
function keysOf(context: Context, type: ts.Type): string[] | undefined {
  const { ts, checker } = context;
  const keys: string[] = [];
  for (const member of unionMembers(ts, type)) {
    if (member.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || checker.getIndexTypeOfType(member, ts.IndexKind.String) !== undefined) return undefined;
    for (const property of checker.getPropertiesOfType(member)) if (!keys.includes(property.name)) keys.push(property.name);
  }
  return keys;
}
