import type * as ts from "typescript";
import type { AnnotationFix, FindingId } from "./api.js";
import { type Context, type Contract, destructuredProperty, isErrorType, printType, resolveAlias } from "./context.js";
import * as messages from "./messages.js";
import { closeParenEnd } from "./ports.js";
import { returnedErrorResultsOf } from "./sources.js";
import { writtenNullableMember } from "./strictness.js";
import { declaredTypeNode, headOf, isConstDeclaration, isJavaScript, jsDocAssertedType, locate, MAX_HOPS, skipOuterExpressions, typeOfProperty, unionMembers } from "./syntax.js";

interface Seen {
  /** The function-like node that was judged, when the registered function is visible. */
  readonly fn: ts.Node | undefined;
  /** The function's own name (the tool's default name) when it is static. */
  readonly functionName: string | undefined;
  /** The declaration with the function's body, when it is visible: what the tool returns is read there. */
  readonly implementation?: SignatureDeclaration | undefined;
}

/** What judging one registered value concludes: verified, or a finding with everything it needs. */
export type Verdict =
  | (Seen & { readonly id: undefined })
  | (Seen & {
      readonly id: FindingId;
      /** The node to underline (in the registration's file). */
      readonly node: ts.Node;
      /** Builds the message once the tool's name is known (options may override the function's name). */
      readonly message: (tool: string | undefined) => string;
      readonly fix?: AnnotationFix;
    });

type SignatureDeclaration =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.MethodSignature
  | ts.FunctionTypeNode
  | ts.CallSignatureDeclaration;

/**
 * A JSDoc `@overload` of a JavaScript function or method, as TypeScript 5 and 6 keep it: a tag in
 * the implementation's JSDoc. (TypeScript 7 turns each into a declaration of its own, with the
 * implementation's name and modifiers, spanning the tag's name: this reads the tag the same way.)
 */
interface JSDocOverload {
  readonly overloadTag: ts.JSDocOverloadTag;
  readonly implementation: SignatureDeclaration;
}

/** One callable signature to judge: a declaration, or a JSDoc overload. */
type Judged = SignatureDeclaration | JSDocOverload;

function isJSDocOverload(judged: Judged): judged is JSDocOverload {
  return "overloadTag" in judged;
}

/** What a registered value resolves to, before any return type is looked at. */
type Target =
  /**
   * Function-like declarations to judge one by one (several: every overload); `implementation`,
   * the one with the body, when it is visible (the function's returns are read from it).
   */
  | {
      readonly kind: "functions";
      readonly declarations: readonly Judged[];
      readonly implementation?: SignatureDeclaration | undefined;
      readonly name: string | undefined;
      readonly nameNode: ts.Node | undefined;
      readonly binding?: Binding;
    }
  /** A binding with an explicit type (`const f: ToolFn = …`, a parameter, `declare const`). */
  | { readonly kind: "binding"; readonly binding: Binding; readonly name: string | undefined }
  | { readonly kind: "unverifiable"; readonly why: string; readonly name: string | undefined; readonly instead?: string };

interface Binding {
  readonly typeNode: ts.TypeNode;
  readonly nameNode: ts.Node;
  /** For a parameter: what to advise instead (mark the enclosing function). */
  readonly instead?: string;
}

/**
 * Judges the value registered at a site: `value` is the call's first argument, or the decorated
 * method. `reference` is the expression at the site to underline when the function lives in
 * another file.
 */
export function judgeRegistered(context: Context, contract: Contract, value: ts.Node, site: ts.Node, outputKeys?: () => ts.Type | undefined): Verdict {
  const target = resolveTarget(context, value, 0);
  const siteFile = site.getSourceFile();
  if (target.kind === "unverifiable") {
    return {
      id: "unverifiable-registration",
      fn: undefined,
      functionName: target.name,
      node: value,
      message: (tool) => messages.unverifiable(tool, target.why, target.instead ?? messages.REGISTER_INSTEAD_SENTENCE),
    };
  }
  if (target.kind === "binding") {
    return judgeBinding(context, contract, target.binding, target.name, value, siteFile);
  }
  const { declarations, implementation } = target;
  for (const [index, declaration] of declarations.entries()) {
    const overload = declarations.length > 1 ? `overload ${index + 1} of ${declarations.length}` : undefined;
    const verdict = judgeDeclaration(context, contract, declaration, target, overload, value, siteFile, outputKeys);
    if (verdict.id !== undefined) return { ...verdict, implementation };
  }
  return { id: undefined, fn: nodeOf(declarations[declarations.length - 1]!), functionName: target.name, implementation };
}

/** The node that stands for a judged signature: the declaration, or a JSDoc overload's tag name. */
function nodeOf(judged: Judged): ts.Node {
  return isJSDocOverload(judged) ? judged.overloadTag.tagName : judged;
}

function judgeDeclaration(
  context: Context,
  contract: Contract,
  judged: Judged,
  target: Extract<Target, { kind: "functions" }>,
  overload: string | undefined,
  reference: ts.Node,
  siteFile: ts.SourceFile,
  outputKeys: (() => ts.Type | undefined) | undefined,
): Verdict {
  const { ts, checker } = context;
  const jsdocOverload = isJSDocOverload(judged) ? judged : undefined;
  // A JSDoc overload has the implementation's modifiers (TypeScript 7 copies them onto it).
  const declaration = isJSDocOverload(judged) ? judged.implementation : judged;
  const fn = nodeOf(judged);
  const isAsync = hasModifier(ts, declaration, ts.SyntaxKind.AsyncKeyword);
  const jsdoc = isJavaScript(ts, declaration);
  const annotation = messages.annotationText(isAsync ? `Promise<${messages.DATA_TOOL_OUTPUT}>` : messages.DATA_TOOL_OUTPUT, jsdoc);
  const returnType = jsdocOverload !== undefined ? overloadReturnType(jsdocOverload.overloadTag) : declaredReturnTypeNode(ts, declaration);
  const here = declaration.getSourceFile() === siteFile;
  const where = aside(overload, here ? undefined : `declared at ${locate(fn, siteFile)}`);
  const name = target.name;
  const headNode = here ? (target.nameNode ?? headOf(ts, declaration)) : reference;
  if ("asteriskToken" in declaration && declaration.asteriskToken !== undefined) {
    return {
      id: "not-data-tool-output",
      fn,
      functionName: name,
      node: here ? (returnType ?? headNode) : reference,
      message: (tool) => messages.notDataToolOutput(tool, where, { kind: "generator", annotation }, ""),
    };
  }
  if (returnType === undefined) {
    if (target.binding !== undefined) {
      return judgeBinding(context, contract, target.binding, name, reference, siteFile);
    }
    // A JSDoc signature is a signature declaration to the checker, though not to the public types.
    const signature = checker.getSignatureFromDeclaration((jsdocOverload?.overloadTag.typeExpression as ts.SignatureDeclaration | undefined) ?? declaration);
    const inferred = signature === undefined ? checker.getAnyType() : checker.getReturnTypeOfSignature(signature);
    const fits = judgeType(context, contract, inferred, isAsync) === undefined;
    const wantsPromise = isAsync || isThenable(context, inferred);
    const { typeText, names } = suggestedType(context, contract, inferred, wantsPromise, outputKeys);
    const printed = printType(context, inferred);
    // The annotation of an overload goes into that overload's own JSDoc block: no edit planned.
    const overloadOfJavaScript = isOverloadOfJavaScript(ts, judged);
    const place = !jsdoc ? "parameters" : overloadOfJavaScript ? "overload-jsdoc" : "jsdoc";
    const fix = here && !overloadOfJavaScript ? fixFor(context, contract, declaration, typeText, names, fits) : undefined;
    return {
      id: "missing-annotation",
      fn,
      functionName: name,
      node: headNode,
      message: (tool) => messages.missingAnnotation(tool, where, printed, fits, typeText, place, fix?.typeInScope ?? true, fix?.importNames ?? names),
      ...(fix !== undefined ? { fix } : {}),
    };
  }
  const annotated = checker.getTypeFromTypeNode(returnType);
  const rejection = judgeType(context, contract, annotated, isAsync, returnType) ?? writtenNullableMember(context, contract, returnType);
  if (rejection === undefined) return { id: undefined, fn, functionName: name };
  return {
    id: "not-data-tool-output",
    fn,
    functionName: name,
    node: here ? returnType : reference,
    message: (tool) => messages.notDataToolOutput(tool, where, rejection, messages.insteadForFunction(annotation, jsdoc)),
  };
}

/**
 * What follows the tool's name in a message: which overload or signature, and where it is declared
 * when that is another file, in one parenthesis (" (overload 1 of 2, declared at ./a.ts:3:1)").
 */
function aside(...notes: readonly (string | undefined)[]): string {
  const present = notes.filter((note) => note !== undefined);
  return present.length === 0 ? "" : ` (${present.join(", ")})`;
}

/** The `@returns` type of a JSDoc overload. */
function overloadReturnType(tag: ts.JSDocOverloadTag): ts.TypeNode | undefined {
  return tag.typeExpression.type?.typeExpression?.type;
}

/** A JSDoc overload, as a tag (TypeScript 5, 6) or as the declaration TypeScript 7 makes of it. */
function isOverloadOfJavaScript(ts: Context["ts"], judged: Judged): boolean {
  if (isJSDocOverload(judged)) return true;
  const reparsed = (ts.NodeFlags as { readonly Reparsed?: number }).Reparsed;
  return reparsed !== undefined && (judged.flags & reparsed) !== 0;
}

/**
 * The JSDoc `@overload` tags of a JavaScript function or method that TypeScript 5 and 6 read as
 * its callable signatures: none when the symbol already has body-less declarations (TypeScript 7's
 * own reading of the same tags, or TypeScript overloads).
 */
function jsDocOverloadsOf(ts: Context["ts"], implementation: SignatureDeclaration): JSDocOverload[] {
  if (!isJavaScript(ts, implementation)) return [];
  const overloads: JSDocOverload[] = [];
  for (const item of ts.getJSDocCommentsAndTags(implementation)) {
    const tags = item.kind === ts.SyntaxKind.JSDoc ? ((item as ts.JSDoc).tags ?? []) : [item];
    for (const tag of tags) {
      if (tag.kind === ts.SyntaxKind.JSDocOverloadTag) overloads.push({ overloadTag: tag as ts.JSDocOverloadTag, implementation });
    }
  }
  return overloads;
}

function judgeBinding(
  context: Context,
  contract: Contract,
  binding: Binding,
  name: string | undefined,
  reference: ts.Node,
  siteFile: ts.SourceFile,
): Verdict {
  const { ts, checker } = context;
  const here = binding.typeNode.getSourceFile() === siteFile;
  const declaredAt = here ? undefined : `declared at ${locate(binding.typeNode, siteFile)}`;
  const where = aside(declaredAt);
  const node = here ? binding.typeNode : reference;
  const type = checker.getTypeFromTypeNode(binding.typeNode);
  const signatures = type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never) ? [] : type.getCallSignatures();
  if (signatures.length === 0) {
    const rejection = rejectionOfTopType(context, type, binding.typeNode);
    if (rejection !== undefined) {
      return {
        id: "not-data-tool-output",
        fn: undefined,
        functionName: name,
        node,
        message: (tool) => messages.notDataToolOutput(tool, where, rejection, binding.instead ?? messages.INSTEAD_FOR_BINDING),
      };
    }
    const printed = printType(context, type);
    return {
      id: "unverifiable-registration",
      fn: undefined,
      functionName: name,
      node,
      message: (tool) =>
        messages.unverifiable(tool, messages.notAFunctionType(printed, where), messages.REGISTER_INSTEAD_SENTENCE),
    };
  }
  for (const [index, signature] of signatures.entries()) {
    const which = aside(signatures.length > 1 ? `signature ${index + 1} of ${signatures.length}` : undefined, declaredAt);
    const returned = checker.getReturnTypeOfSignature(signature);
    const rejection = judgeType(context, contract, returned, false);
    if (rejection !== undefined) {
      return {
        id: "not-data-tool-output",
        fn: undefined,
        functionName: name,
        node,
        message: (tool) => messages.notDataToolOutput(tool, which, rejection, binding.instead ?? messages.INSTEAD_FOR_BINDING),
      };
    }
  }
  return { id: undefined, fn: binding.typeNode, functionName: name };
}

/**
 * The return type the function declares: its annotation, or in checked JavaScript its JSDoc
 * (`@returns {T}`, or a function type in `@type`), which TypeScript itself reads as the annotation.
 */
function declaredReturnTypeNode(ts: Context["ts"], declaration: SignatureDeclaration): ts.TypeNode | undefined {
  if (declaration.type !== undefined || !isJavaScript(ts, declaration)) return declaration.type;
  return ts.getJSDocReturnType(declaration);
}


function rejectionOfTopType(context: Context, type: ts.Type, typeNode?: ts.TypeNode): messages.Rejection | undefined {
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

function isAssignable(context: Context, source: ts.Type, target: ts.Type): boolean {
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

function isThenable(context: Context, type: ts.Type): boolean {
  const awaited = context.checker.getAwaitedType(type);
  return awaited !== undefined && awaited !== type;
}

function hasModifier(ts: Context["ts"], node: ts.Node, kind: ts.SyntaxKind): boolean {
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return modifiers?.some((modifier) => modifier.kind === kind) ?? false;
}


/**
 * The annotation that fixes a missing one: `DataToolOutput`, or for a tool whose `output` declares
 * keys (the decorator's `outputKeys`) `DataResult<{ … }>` with those keys, which the decorator's
 * type asks for (`DataToolOutput` alone would fail there); `| ErrorResult` beside it when the
 * inferred type has a member that only an error result fits; in a Promise when it is one.
 */
function suggestedType(
  context: Context,
  contract: Contract,
  inferred: ts.Type,
  wantsPromise: boolean,
  outputKeys: (() => ts.Type | undefined) | undefined,
): { readonly typeText: string; readonly names: readonly string[] } {
  const { ts, checker } = context;
  const keys = outputKeys?.();
  const keysText = keys !== undefined && contract.named.has("DataResult") && checker.getPropertiesOfType(keys).length > 0 ? printType(context, keys) : undefined;
  const data = keysText === undefined ? messages.DATA_TOOL_OUTPUT : `DataResult<${keysText}>`;
  const awaited = wantsPromise ? (checker.getAwaitedType(inferred) ?? inferred) : inferred;
  const { error } = contract;
  const errorToo =
    error !== undefined && contract.named.has("ErrorResult") && unionMembers(ts, awaited).some((member) => !isAssignable(context, member, contract.type) && isAssignable(context, member, error));
  const inner = errorToo ? `${data} | ErrorResult` : data;
  return {
    typeText: wantsPromise ? `Promise<${inner}>` : inner,
    names: [keysText === undefined ? messages.DATA_TOOL_OUTPUT : "DataResult", ...(errorToo ? ["ErrorResult"] : [])],
  };
}

/**
 * Where `: DataToolOutput` goes (after the parameter list's `)`), whether the names it uses are in
 * scope there, and whether an import of those that are not can be added.
 */
function fixFor(context: Context, contract: Contract, declaration: SignatureDeclaration, typeText: string, names: readonly string[], fits: boolean): AnnotationFix {
  const { ts } = context;
  const sourceFile = declaration.getSourceFile();
  const jsdoc = isJavaScript(ts, declaration);
  const edits = jsdoc ? jsdocEdits(ts, declaration, typeText) : annotationEdits(ts, declaration, typeText);
  const missing = names.filter((name) => {
    const atFunction = typeNamed(context, name, declaration);
    return atFunction === undefined || resolveAlias(context, atFunction) !== contract.named.get(name);
  });
  const importNames = missing.length === 0 ? names : missing;
  // An import is seen at the function only if no declaration around it shadows the file's top level.
  // In JavaScript a JSDoc `@typedef` or `@import` of the name is no statement: any such name blocks it.
  const importable = importNames.every((name) => {
    const atFunction = typeNamed(context, name, declaration);
    return jsdoc ? atFunction === undefined : !declaresAtTopLevel(ts, sourceFile, name) && atFunction === typeNamed(context, name, sourceFile);
  });
  return {
    inferredFits: fits,
    typeText,
    edits,
    jsdoc,
    typeInScope: missing.length === 0,
    importName: importNames[0]!,
    importNames,
    module: messages.REGISTRY_MODULE,
    importStatement: messages.importStatement(jsdoc, importNames),
    importable,
  };
}

/** `: T` after the parameter list's `)`; an arrow's lone parameter `x => …` becomes `(x): T => …`. */
function annotationEdits(ts: Context["ts"], declaration: SignatureDeclaration, typeText: string): AnnotationFix["edits"] {
  const sourceFile = declaration.getSourceFile();
  const text = messages.annotationText(typeText, false);
  const closeParen = closeParenEnd(sourceFile, declaration.parameters);
  if (closeParen !== undefined) return [{ position: closeParen, text }];
  const parameter = declaration.parameters[0]!;
  return [
    { position: parameter.getStart(sourceFile), text: "(" },
    { position: parameter.getEnd(), text: `)${text}` },
  ];
}

/**
 * `@returns {T}` in the function's JSDoc: a line added to the JSDoc it already has (the one
 * nearest to it), or a new JSDoc comment before it (before its statement, for a function held by
 * a `const`), on a line of its own when the function starts its line.
 */
function jsdocEdits(ts: Context["ts"], declaration: SignatureDeclaration, typeText: string): AnnotationFix["edits"] {
  const sourceFile = declaration.getSourceFile();
  const { text } = sourceFile;
  const tag = messages.annotationText(typeText, true);
  const docs = ts.getJSDocCommentsAndTags(declaration).filter((node): node is ts.JSDoc => node.kind === ts.SyntaxKind.JSDoc);
  const doc = docs[docs.length - 1];
  if (doc !== undefined) {
    const close = doc.end - 2; // the `*/`
    const lineStart = text.lastIndexOf("\n", close - 1) + 1;
    const beforeClose = text.slice(lineStart, close);
    if (/^\s*$/.test(beforeClose) && text.slice(doc.pos, doc.end).includes("\n")) return [{ position: close, text: `* ${tag}\n${beforeClose}` }];
    // A one-line JSDoc (`/** Lists lakes. */`) becomes a block: the tag on a line of its own.
    const indent = /^\s*/.exec(text.slice(text.lastIndexOf("\n", doc.pos - 1) + 1, doc.pos))![0];
    let end = close;
    while (text[end - 1] === " ") end--;
    return [{ position: end, text: `\n${indent} * ${tag}\n${indent}${end === close ? " " : ""}` }];
  }
  let host: ts.Node = declaration;
  const parent = declaration.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === declaration) {
    const list = parent.parent;
    if (ts.isVariableDeclarationList(list) && list.declarations.length === 1 && ts.isVariableStatement(list.parent)) host = list.parent;
  }
  const start = host.getStart(sourceFile);
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const indent = text.slice(lineStart, start);
  return [{ position: start, text: /^\s*$/.test(indent) ? `/** ${tag} */\n${indent}` : `/** ${tag} */ ` }];
}
/**
 * Whether the file's top level declares or imports `name`, in any meaning: an import of that name
 * would clash with it (or, for the registry's own import, repeat it).
 */
function declaresAtTopLevel(ts: Context["ts"], sourceFile: ts.SourceFile, name: string): boolean {
  const binds = (binding: ts.BindingName): boolean =>
    ts.isIdentifier(binding) ? binding.text === name : binding.elements.some((element) => !ts.isOmittedExpression(element) && binds(element.name));
  return sourceFile.statements.some((statement) => {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      return (
        clause?.name?.text === name ||
        (bindings !== undefined && (ts.isNamespaceImport(bindings) ? bindings.name.text === name : bindings.elements.some((element) => element.name.text === name)))
      );
    }
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.some((declaration) => binds(declaration.name));
    if (
      ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement) ||
      ts.isImportEqualsDeclaration(statement)
    ) {
      // `declare module "x" { }` names a module, not a binding.
      return statement.name !== undefined && ts.isIdentifier(statement.name) && statement.name.text === name;
    }
    return false;
  });
}

function isFunctionLike(ts: Context["ts"], node: ts.Node): node is SignatureDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isMethodSignature(node) ||
    ts.isFunctionTypeNode(node) ||
    ts.isCallSignatureDeclaration(node)
  );
}

function nameText(ts: Context["ts"], name: ts.Node | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  // `static ["city_list"]()`: a literal computed key is as static as an identifier; the decorator
  // context's name, and so the served tool's, is that text.
  if (ts.isComputedPropertyName(name) && (ts.isStringLiteralLike(name.expression) || ts.isNumericLiteral(name.expression))) {
    return name.expression.text;
  }
  return undefined;
}

/** Resolves the registered value to the declarations that say what it returns. */
function resolveTarget(context: Context, value: ts.Node, hops: number): Target {
  const { ts, checker } = context;
  const node = skipOuterExpressions(ts, value);
  if (ts.isMethodDeclaration(node)) {
    // A decorated method may be overloaded: judge it through its symbol, overloads included.
    const symbol = checker.getSymbolAtLocation(node.name);
    if (symbol !== undefined && (symbol.declarations?.length ?? 0) > 1) return resolveSymbol(context, symbol, node.name, hops);
    const overloads = jsDocOverloadsOf(ts, node);
    if (overloads.length > 0) return { kind: "functions", declarations: overloads, implementation: node, name: nameText(ts, node.name), nameNode: node.name };
  }
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
    const nameNode = ts.isArrowFunction(node) ? undefined : node.name;
    return { kind: "functions", declarations: [node], implementation: node, name: nameText(ts, nameNode), nameNode };
  }
  if (hops > MAX_HOPS) return { kind: "unverifiable", why: messages.WHY_TOO_MANY_ALIASES, name: undefined };
  if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const symbol = checker.getSymbolAtLocation(ts.isElementAccessExpression(node) ? node.argumentExpression : node);
    if (symbol === undefined) {
      const printed = printType(context, checker.getTypeAtLocation(node));
      return {
        kind: "unverifiable",
        why: messages.notADeclaration(node.getText(), printed),
        name: undefined,
      };
    }
    return resolveSymbol(context, resolveAlias(context, symbol), node, hops);
  }
  return { kind: "unverifiable", why: notSeenStatically(context, node), name: undefined };
}

/**
 * Why a value the analysis does not follow cannot be judged: a function it cannot see the
 * declaration of is computed at run time (`makeTool()`, `flag ? a : b`, `const [first] = list`);
 * anything else is not a function at all.
 */
function notSeenStatically(context: Context, node: ts.Node): string {
  const type = context.checker.getTypeAtLocation(node);
  const text = abbreviate(node.getText());
  return type.getCallSignatures().length > 0 ? messages.computedAtRunTime(text, printType(context, type)) : messages.notStaticallyAFunction(text, printType(context, type));
}

function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

/**
 * Why a parameter's function cannot be known where it is registered, and what to do instead. A
 * callback's parameter (`list.map((f) => registry.tool()(f))`) is whichever function the call
 * passes it; a declared function's parameter is whatever each of its callers passes.
 */
function parameterAdvice(
  context: Context,
  parameter: ts.ParameterDeclaration,
): { readonly why: string; readonly because: string; readonly instead: string } {
  const { ts } = context;
  const name = parameter.name.getText();
  const fn = parameter.parent;
  let outer: ts.Node = fn;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const call = outer.parent;
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isCallExpression(call) && call.expression !== outer) {
    const callee = abbreviate(call.expression.getText());
    return { why: messages.callbackParameter(name, callee), because: messages.callbackParameterBecause(name, callee), instead: messages.REGISTER_EACH_INSTEAD };
  }
  let enclosing: string | undefined;
  if ("name" in fn && fn.name !== undefined && ts.isIdentifier(fn.name)) enclosing = fn.name.text;
  else if (ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) enclosing = fn.parent.name.text;
  return {
    why: messages.callersDecide(name, enclosing),
    because: messages.callersDecideBecause(name, enclosing),
    instead: messages.markOrTypeParameter(name, enclosing),
  };
}

function resolveSymbol(context: Context, symbol: ts.Symbol, reference: ts.Node, hops: number): Target {
  const { ts } = context;
  const declarations = symbol.declarations ?? [];
  const functions = declarations.filter<SignatureDeclaration>((declaration) => isFunctionLike(ts, declaration));
  if (functions.length > 0) {
    // With overloads, the implementation's signature is not callable from outside: judge the overloads.
    const withoutBody = functions.filter((declaration) => !("body" in declaration) || declaration.body === undefined);
    const implementation = functions.find((declaration) => "body" in declaration && declaration.body !== undefined);
    const overloads = withoutBody.length === 0 && implementation !== undefined ? jsDocOverloadsOf(ts, implementation) : [];
    const judged: readonly Judged[] = withoutBody.length > 0 ? withoutBody : overloads.length > 0 ? overloads : functions;
    const first = withoutBody[0] ?? implementation ?? functions[0]!;
    const nameNode = "name" in first ? first.name : undefined;
    return { kind: "functions", declarations: judged, implementation, name: nameText(ts, nameNode) ?? symbol.name, nameNode };
  }
  const declaration = declarations[0];
  if (declaration === undefined) {
    return { kind: "unverifiable", why: messages.noDeclaration(reference.getText()), name: undefined };
  }
  if (ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration) || ts.isPropertySignature(declaration) || ts.isParameter(declaration)) {
    // A parameter's function is whatever each caller passes, a loop variable whatever the list
    // holds: their names are not static.
    const name = ts.isIdentifier(declaration.name) && !ts.isParameter(declaration) && !isLoopVariable(ts, declaration) ? declaration.name.text : undefined;
    const advice = ts.isParameter(declaration) ? parameterAdvice(context, declaration) : undefined;
    const typeNode = declaredTypeNode(ts, declaration);
    const binding =
      typeNode !== undefined
        ? { typeNode, nameNode: declaration.name, ...(advice !== undefined ? { instead: `${advice.because}. ${advice.instead}` } : {}) }
        : undefined;
    const isFixed =
      (ts.isVariableDeclaration(declaration) && isConstDeclaration(ts, declaration)) ||
      ((ts.isPropertyDeclaration(declaration) || ts.isPropertySignature(declaration)) &&
        hasModifier(ts, declaration, ts.SyntaxKind.ReadonlyKeyword));
    const initializer =
      isFixed && "initializer" in declaration && declaration.initializer !== undefined
        ? skipOuterExpressions(ts, declaration.initializer)
        : undefined;
    if (initializer !== undefined && (ts.isFunctionExpression(initializer) || ts.isArrowFunction(initializer))) {
      // The function's own annotation wins; the binding's explicit function type stands in for a missing one.
      const ownName = ts.isFunctionExpression(initializer) ? nameText(ts, initializer.name) : undefined;
      return {
        kind: "functions",
        declarations: [initializer],
        implementation: initializer,
        name: ownName ?? name,
        nameNode: declaration.name,
        ...(binding !== undefined ? { binding } : {}),
      };
    }
    if (initializer !== undefined) {
      // `const h: ToolFunction = annotated`: the function's own annotation wins over the binding's
      // looser type; the binding's type stands in only where the function declares none.
      const target = resolveTarget(context, initializer, hops + 1);
      if (binding === undefined) return target;
      if (target.kind === "functions") return { ...target, binding: target.binding ?? binding };
    }
    if (binding !== undefined) return { kind: "binding", binding, name };
    if (advice !== undefined) return { kind: "unverifiable", why: advice.why, name, instead: advice.instead };
    return {
      kind: "unverifiable",
      why: isFixed ? messages.noVisibleValue(reference.getText()) : messages.reassignableWithoutType(reference.getText()),
      name,
    };
  }
  if (ts.isExportAssignment(declaration)) return resolveTarget(context, declaration.expression, hops + 1);
  if (ts.isBindingElement(declaration)) {
    const destructured = resolveDestructured(context, declaration, reference, hops);
    if (destructured !== undefined) return destructured;
  }
  if (ts.isPropertyAssignment(declaration) || ts.isShorthandPropertyAssignment(declaration)) {
    const property = resolveObjectProperty(context, declaration, reference, hops);
    if (property !== undefined) return property;
  }
  return { kind: "unverifiable", why: notSeenStatically(context, reference), name: undefined };
}

/**
 * A name destructured from an object by a `const` — `const { alerts } = await import("./alerts.js")`,
 * `const { alerts } = module`, `const { alerts } = require("./alerts.js")` — binds the value that
 * `object.alerts` reads at that moment: it is judged as that property is (a module's export, a
 * property of an `as const` object, or a mutable object's property that can be replaced). A
 * default value may stand in for it, a `let` can be reassigned: those are unverifiable.
 * `undefined` for a pattern this does not read (an array, a nested pattern, a parameter's).
 */
function resolveDestructured(context: Context, element: ts.BindingElement, reference: ts.Node, hops: number): Target | undefined {
  const { ts } = context;
  const pattern = element.parent;
  const variable = pattern.parent;
  if (!ts.isObjectBindingPattern(pattern) || !ts.isVariableDeclaration(variable) || element.dotDotDotToken !== undefined) return undefined;
  const bound = ts.isIdentifier(element.name) ? element.name.text : undefined;
  if (!isConstDeclaration(ts, variable)) return { kind: "unverifiable", why: messages.reassignableWithoutType(reference.getText()), name: bound };
  if (element.initializer !== undefined) return { kind: "unverifiable", why: messages.destructuredWithDefault(reference.getText()), name: undefined };
  const property = destructuredProperty(context, element);
  return property === undefined ? undefined : resolveSymbol(context, property, reference, hops + 1);
}

/**
 * A property of an object literal. In an `as const` literal it is as fixed as a `static readonly`
 * field: its value is judged (the property's key is an arrow's name). In a mutable literal a
 * function there, written or referred to, can be replaced before it is registered: unverifiable,
 * under the name a written one has.
 */
function resolveObjectProperty(
  context: Context,
  declaration: ts.PropertyAssignment | ts.ShorthandPropertyAssignment,
  reference: ts.Node,
  hops: number,
): Target | undefined {
  const { ts, checker } = context;
  const key = nameText(ts, declaration.name);
  const value = ts.isPropertyAssignment(declaration) ? skipOuterExpressions(ts, declaration.initializer) : declaration.name;
  const isFunction = ts.isFunctionExpression(value) || ts.isArrowFunction(value);
  const ownName = ts.isFunctionExpression(value) ? nameText(ts, value.name) : undefined;
  if (isConstObject(ts, declaration.parent)) {
    if (isFunction) return { kind: "functions", declarations: [value], implementation: value, name: ownName ?? key, nameNode: declaration.name };
    if (ts.isShorthandPropertyAssignment(declaration)) {
      const symbol = checker.getShorthandAssignmentValueSymbol(declaration);
      return symbol === undefined ? undefined : resolveSymbol(context, resolveAlias(context, symbol), reference, hops + 1);
    }
    return resolveTarget(context, value, hops + 1);
  }
  if (!isFunction && checker.getTypeAtLocation(value).getCallSignatures().length === 0) return undefined;
  // A function written there is served under its own name or the key; one referenced there
  // (`{ list: cities }`) can be replaced as well, and by a function of any name.
  const why = messages.reassignableProperty(reference.getText(), isJavaScript(ts, declaration));
  return { kind: "unverifiable", why, name: isFunction ? (ownName ?? key) : undefined };
}

/**
 * Whether an object literal is fixed by `as const` (in JavaScript, `/** @type {const} *\/ (…)`):
 * its own, or that of a literal it is nested in.
 */
function isConstObject(ts: Context["ts"], literal: ts.ObjectLiteralExpression): boolean {
  let node: ts.Node = literal;
  for (;;) {
    const parent = node.parent;
    const asserted = jsDocAssertedType(ts, parent);
    if (asserted !== undefined) return ts.isConstTypeReference(asserted);
    if (ts.isParenthesizedExpression(parent) || ts.isSatisfiesExpression(parent) || ts.isArrayLiteralExpression(parent)) node = parent;
    else if (ts.isPropertyAssignment(parent) && parent.initializer === node) node = parent.parent;
    else return (ts.isAsExpression(parent) || ts.isTypeAssertionExpression(parent)) && ts.isConstTypeReference(parent.type);
  }
}

/** `for (const fn of list)`, `for (const key in object)`: a variable that takes each value in turn. */
function isLoopVariable(ts: Context["ts"], declaration: ts.Node): boolean {
  if (!ts.isVariableDeclaration(declaration) || !ts.isVariableDeclarationList(declaration.parent)) return false;
  const loop = declaration.parent.parent;
  return ts.isForOfStatement(loop) || ts.isForInStatement(loop);
}

/**
 * The type `name` resolves to at `location`. The checker's `resolveName` looks up that one name as
 * the compiler itself would (shadowing included); `getSymbolsInScope`, which lists every symbol in
 * scope, is only the fallback for a checker that does not expose it.
 */
function typeNamed(context: Context, name: string, location: ts.Node): ts.Symbol | undefined {
  const { ts, checker } = context;
  const resolveName = (checker as { resolveName?: ts.TypeChecker["resolveName"] }).resolveName;
  if (typeof resolveName === "function") return resolveName.call(checker, name, location, ts.SymbolFlags.Type, false);
  return checker.getSymbolsInScope(location, ts.SymbolFlags.Type | ts.SymbolFlags.Alias).find((symbol) => symbol.name === name);
}

/**
 * The error results (`{ content, isError: true }`) `implementation` returns that its declared
 * return type does not admit: `DataToolOutput` is a result with data, so code written when it also
 * held the error result fails there (TS2322); the finding says what to declare instead,
 * `DataToolOutput | ErrorResult`. Nothing when the declared type admits the registry's
 * `ErrorResult`, or the returned literal fits it anyway.
 */
export function undeclaredErrorResultsOf(context: Context, contract: Contract, implementation: ts.SignatureDeclaration | undefined): { readonly nodes: readonly ts.ObjectLiteralExpression[]; readonly declared: ts.TypeNode } | undefined {
  const { checker } = context;
  const declared = implementation?.type;
  if (implementation === undefined || declared === undefined || contract.error === undefined || !contract.named.has("ErrorResult")) return undefined;
  const returned = returnedErrorResultsOf(context, implementation);
  if (returned.length === 0) return undefined;
  const type = checker.getTypeFromTypeNode(declared);
  const awaited = checker.getAwaitedType(type) ?? type;
  if (isAssignable(context, contract.error, awaited)) return undefined;
  const nodes = returned.filter((object) => !isAssignable(context, checker.getTypeAtLocation(object), awaited));
  return nodes.length === 0 ? undefined : { nodes, declared };
}
