import type * as ts from "typescript";
import { type Context, type Contract, isErrorType, printType } from "./context.js";
import * as messages from "./messages.js";
import { typeOfProperty, unionMembers } from "./syntax.js";

/*
 * The fit (judge.ts's second step): whether a declared or inferred return type is the registry's
 * DataToolOutput (or its ErrorResult), and when it is not, why, in the contract's terms: the member
 * of a union, the part that is missing, optional, readonly or of another type, a part that is `any`.
 */

export function rejectionOfTopType(context: Context, type: ts.Type, typeNode?: ts.TypeNode): messages.Rejection | undefined {
  const { ts } = context;
  if (isErrorType(context, type)) {
    return { kind: "unresolved", type: typeNode !== undefined ? typeNode.getText() : "error" };
  }
  if (type.flags & ts.TypeFlags.Any) return { kind: "any", type: printType(context, type) };
  if (type.flags & ts.TypeFlags.Unknown) return { kind: "unknown", type: printType(context, type) };
  if (type.flags & ts.TypeFlags.Never) return { kind: "never", type: printType(context, type) };
  return undefined;
}

/**
 * Why `type` (a declared or inferred return type) is not DataToolOutput, or `undefined` when it
 * is: the type itself, or what it resolves to when it is a Promise/PromiseLike (always so for an
 * async function), must be assignable to the registry's DataToolOutput; a union, member by member.
 */
export function judgeType(
  context: Context,
  contract: Contract,
  type: ts.Type,
  isAsync: boolean,
  typeNode?: ts.TypeNode,
): messages.Rejection | undefined {
  const bit = isAsync ? 2 : 1;
  const fits = contract.fits.get(type) ?? 0;
  if (fits & bit) return undefined;
  const rejection = rejectionOf(context, contract, type, isAsync, typeNode);
  if (rejection === undefined) contract.fits.set(type, fits | bit);
  return rejection;
}

function rejectionOf(
  context: Context,
  contract: Contract,
  type: ts.Type,
  isAsync: boolean,
  typeNode: ts.TypeNode | undefined,
): messages.Rejection | undefined {
  const { ts, checker } = context;
  const top = rejectionOfTopType(context, type, typeNode);
  if (top !== undefined) return top;
  let resolved = type;
  const awaited = checker.getAwaitedType(type);
  if (awaited !== undefined && (isAsync || awaited !== type)) resolved = awaited;
  if (resolved !== type) {
    const inner = rejectionOfTopType(context, resolved, undefined);
    if (inner !== undefined) {
      return inner.kind === "unresolved"
        ? { kind: "unresolved", type: typeNode?.getText() ?? "error" }
        : { kind: inner.kind as "any" | "unknown" | "never", type: printType(context, type) };
    }
  }
  // Quote the annotation as the user wrote it: the checker expands aliases of inferred types
  // (the SDK's CallToolResult) into pages of structure.
  const printed = (): string => (typeNode !== undefined ? typeNode.getText() : printType(context, type));
  if (resolved.flags & ts.TypeFlags.Union) {
    for (const member of unionMembers(ts, resolved)) {
      if (!fitsContract(context, contract, member)) {
        return { kind: "member", type: printed(), member: printType(context, member) };
      }
      const anyPart = anyPartOf(context, contract, member);
      if (anyPart !== undefined) return { kind: "any-part", type: printed(), ...anyPart };
    }
    return undefined;
  }
  if (fitsContract(context, contract, resolved)) {
    const anyPart = anyPartOf(context, contract, resolved);
    return anyPart === undefined ? undefined : { kind: "any-part", type: printed(), ...anyPart };
  }
  const named = (resolved.aliasSymbol ?? resolved.getSymbol())?.name === "DataToolOutput";
  const detail = named
    ? messages.sameNameOtherType(missingProperties(context, contract, resolved))
    : missingProperties(context, contract, resolved);
  return detail === undefined ? { kind: "not-assignable", type: printed() } : { kind: "not-assignable", type: printed(), detail };
}

/**
 * Whether one type (not a union) is a result the net accepts: the registry's `DataToolOutput` (a
 * result with data, or what extends it), or its `ErrorResult`.
 */
function fitsContract(context: Context, contract: Contract, type: ts.Type): boolean {
  return isAssignable(context, type, contract.type) || (contract.error !== undefined && isAssignable(context, type, contract.error));
}

export function isAssignable(context: Context, source: ts.Type, target: ts.Type): boolean {
  const checker = context.checker as ts.TypeChecker & { isTypeAssignableTo?: (s: ts.Type, t: ts.Type) => boolean };
  if (typeof checker.isTypeAssignableTo !== "function") {
    throw new Error("this TypeScript has no checker.isTypeAssignableTo; use TypeScript >= 5.0");
  }
  return checker.isTypeAssignableTo(source, target);
}

/**
 * Why an object type is not DataToolOutput, in the contract's terms: "it has no 'structuredContent'",
 * one level down "its 'structuredContent' has no 'sources'", or the first real mismatch below
 * ("its 'content' holds a block whose 'type' is 'string', …"). Only properties with names are
 * named: an array's symbol-keyed members (its iterator) are never a part of the contract.
 */
function missingProperties(context: Context, contract: Contract, type: ts.Type): string | undefined {
  return mismatchOf(context, type, contract.data, undefined, 0);
}

/** How deep a mismatch is described: the contract's parts and their parts (`structuredContent.sources`). */
const MAX_DEPTH = 2;

function mismatchOf(context: Context, actual: ts.Type, wanted: ts.Type, path: string | undefined, depth: number): string | undefined {
  const { ts, checker } = context;
  const mismatch = (): string => messages.partIsNot(path!, printType(context, actual), printType(context, wanted));
  if (path !== undefined && !isObjectType(ts, wanted)) return mismatch();
  if (!isObjectType(ts, actual)) return path === undefined ? undefined : mismatch();
  const wantedElement = checker.getIndexTypeOfType(wanted, ts.IndexKind.Number);
  if (wantedElement !== undefined && path !== undefined) {
    const actualElement = checker.getIndexTypeOfType(actual, ts.IndexKind.Number);
    if (actualElement === undefined) return messages.partNotAnArray(path, printType(context, actual));
    // Elements that fit in an array that does not: a readonly array (or tuple) where the contract's is mutable.
    if (isAssignable(context, actualElement, wantedElement)) return messages.partIsReadonly(path, printType(context, actual), printType(context, wanted));
    return elementMismatch(context, actualElement, wantedElement, path);
  }
  const required = requiredParts(context, wanted);
  const missing = required.filter((part) => actual.getProperty(part.name) === undefined).map((part) => part.name);
  if (missing.length > 0) return messages.partHasNo(path, missing);
  // Every named part the type has, the contract's optional ones included (`table`, `isError`): the first that differs.
  for (const part of namedParts(context, wanted)) {
    const own = actual.getProperty(part.name);
    if (own === undefined) continue;
    const partPath = path === undefined ? part.name : `${path}.${part.name}`;
    const optional = (part.flags & ts.SymbolFlags.Optional) !== 0;
    if (!optional && own.flags & ts.SymbolFlags.Optional) return messages.partIsOptional(partPath);
    const ownType = optional ? checker.getNonNullableType(typeOfProperty(context, own)) : typeOfProperty(context, own);
    const wantedType = checker.getNonNullableType(typeOfProperty(context, part));
    if (isAssignable(context, ownType, wantedType)) continue;
    if (depth >= MAX_DEPTH) return undefined;
    const inner = mismatchOf(context, ownType, wantedType, partPath, depth + 1);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Why the elements of an array part do not fit. For a union of object types told apart by a
 * literal property (content blocks by `type`), the usual cause is that property widened to
 * `string`: say so, with the literals it must be.
 */
function elementMismatch(context: Context, actual: ts.Type, wanted: ts.Type, path: string): string {
  const { ts } = context;
  const printedActual = printType(context, actual);
  const alternatives = unionMembers(ts, wanted);
  const discriminant = alternatives.length > 1 ? discriminantOf(context, alternatives) : undefined;
  if (discriminant !== undefined && isObjectType(ts, actual)) {
    const own = actual.getProperty(discriminant.name);
    if (own === undefined) return messages.elementHasNo(path, printedActual, discriminant.name);
    const ownType = typeOfProperty(context, own);
    // Widened when some of what it may be is none of the literals: `"text" | "image"` is not
    // widened (each is a block's), though no single literal takes it.
    const isLiteralOfOne = (member: ts.Type): boolean => discriminant.values.some((value) => isAssignable(context, member, value));
    if (!unionMembers(ts, ownType).every(isLiteralOfOne)) {
      const literals = discriminant.values.map((value) => printType(context, value)).join(", ");
      return messages.elementDiscriminantWidened(path, discriminant.name, printType(context, ownType), literals, printType(context, discriminant.values[0]!));
    }
  }
  return messages.elementIsNot(path, printedActual, printType(context, wanted));
}

/** The property every alternative has with a literal type (`type` of a content block), and those literals. */
function discriminantOf(context: Context, alternatives: readonly ts.Type[]): { readonly name: string; readonly values: readonly ts.Type[] } | undefined {
  const { ts } = context;
  const first = alternatives[0]!;
  for (const candidate of context.checker.getPropertiesOfType(first)) {
    const values: ts.Type[] = [];
    for (const alternative of alternatives) {
      const property = alternative.getProperty(candidate.name);
      const type = property === undefined ? undefined : typeOfProperty(context, property);
      if (type === undefined || !(type.flags & ts.TypeFlags.StringLiteral)) break;
      values.push(type);
    }
    if (values.length === alternatives.length) return { name: candidate.name, values };
  }
  return undefined;
}

/** The named properties of a part of the contract (symbol-keyed members are no part of it). */
function namedParts(context: Context, type: ts.Type): ts.Symbol[] {
  return context.checker.getPropertiesOfType(type).filter((property) => !(property.escapedName as string).startsWith("__@"));
}

/** The required, named properties of a part of the contract. */
function requiredParts(context: Context, type: ts.Type): ts.Symbol[] {
  const { ts } = context;
  return namedParts(context, type).filter((property) => !(property.flags & ts.SymbolFlags.Optional));
}

function isObjectType(ts: Context["ts"], type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0;
}

/**
 * The required part of the contract that `type` (assignable to it) has as `any`: `any` is
 * assignable to everything, so a `structuredContent: any` fits DataToolOutput while saying nothing
 * about sources. A part is `any` when its type is, or when it is an array of `any`.
 */
function anyPartOf(context: Context, contract: Contract, type: ts.Type): { readonly part: string; readonly partType: string } | undefined {
  const { ts, checker } = context;
  const isAny = (candidate: ts.Type): boolean =>
    (candidate.flags & ts.TypeFlags.Any) !== 0 ||
    (isObjectType(ts, candidate) && ((element) => element !== undefined && (element.flags & ts.TypeFlags.Any) !== 0)(checker.getIndexTypeOfType(candidate, ts.IndexKind.Number)));
  // The registry's own type (or an alias of it) is the contract: its parts need no look. Resolving
  // them costs more than the rest of a small program's judgement (they are inferred from schemas).
  if (type === contract.type || type === contract.error || unionMembers(ts, contract.type).includes(type) || !isObjectType(ts, type)) return undefined;
  for (const part of requiredParts(context, contract.data)) {
    const own = type.getProperty(part.name);
    if (own === undefined) continue;
    const ownType = typeOfProperty(context, own);
    if (isAny(ownType)) return { part: part.name, partType: printType(context, ownType) };
    const wanted = checker.getNonNullableType(typeOfProperty(context, part));
    if (!isObjectType(ts, ownType) || checker.getIndexTypeOfType(wanted, ts.IndexKind.Number) !== undefined) continue;
    for (const inner of requiredParts(context, wanted)) {
      const innerOwn = ownType.getProperty(inner.name);
      const innerType = innerOwn === undefined ? undefined : typeOfProperty(context, innerOwn);
      if (innerType !== undefined && isAny(innerType)) return { part: `${part.name}.${inner.name}`, partType: printType(context, innerType) };
    }
  }
  return undefined;
}

export function isThenable(context: Context, type: ts.Type): boolean {
  const awaited = context.checker.getAwaitedType(type);
  return awaited !== undefined && awaited !== type;
}
