import type * as ts from "typescript";
import type { AnnotationFix } from "./api.js";
import { type Context, type Contract, printType } from "./context.js";
import { isThenable, judgeType, rejectionOfTopType } from "./fit.js";
import { fixFor, suggestedType } from "./fix.js";
import * as messages from "./messages.js";
import { writtenNullableMember } from "./strictness.js";
import { hasModifier, headOf, isJavaScript, locate } from "./syntax.js";
import { declaredTypeOfBody } from "./symbols.js";
import { type Binding, isJSDocOverload, type JSDocOverload, type Judged, resolveTarget, type SignatureDeclaration, type Target } from "./target.js";

/*
 * The judgement of a registered value, in three steps, a file each: the target (target.ts: which
 * declarations say what the value returns), the fit (fit.ts: whether a return type is the
 * registry's DataToolOutput, and why not), the fix (fix.ts: the annotation that mends a missing
 * one). This file runs them in turn and words the verdict.
 */

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
      /** One of the registration family's kinds (findings/registration.ts). */
      readonly id: "missing-annotation" | "not-data-tool-output" | "unverifiable-registration";
      /** The node to underline (in the registration's file). */
      readonly node: ts.Node;
      /** Builds the message once the tool's name is known (options may override the function's name). */
      readonly message: (tool: string | undefined) => string;
      readonly fix?: AnnotationFix;
    });

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
    const inferred = (jsdocOverload === undefined ? declaredTypeOfBody(context, declaration) : undefined) ?? inferredReturnType(context, jsdocOverload, declaration);
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

/** The return type the checker infers for the declaration, or for the JSDoc overload when there is one. */
function inferredReturnType(context: Context, jsdocOverload: JSDocOverload | undefined, declaration: ts.SignatureDeclaration): ts.Type {
  const { checker } = context;
  // A JSDoc signature is a signature declaration to the checker, though not to the public types.
  const signature = checker.getSignatureFromDeclaration((jsdocOverload?.overloadTag.typeExpression as ts.SignatureDeclaration | undefined) ?? declaration);
  return signature === undefined ? checker.getAnyType() : checker.getReturnTypeOfSignature(signature);
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
