import { posix } from "node:path";
import type * as ts from "typescript";
import type { AnnotationFix, FindingId } from "./api.js";
import { type Context, type Contract, isErrorType, printType, resolveAlias } from "./context.js";
import * as messages from "./messages.js";
import { closeParenEnd } from "./ports.js";

/** What judging one registered value concludes. `id` undefined: verified. */
export interface Verdict {
  readonly id: FindingId | undefined;
  /** The function-like node that was judged, when the registered function is visible. */
  readonly fn: ts.Node | undefined;
  /** The function's own name (the tool's default name) when it is static. */
  readonly functionName: string | undefined;
  /** Builds the message once the tool's name is known (options may override the function's name). */
  readonly message?: (tool: string | undefined) => string;
  /** The node to underline (in the registration's file). */
  readonly node?: ts.Node;
  readonly fix?: AnnotationFix;
}

type SignatureDeclaration =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.MethodSignature
  | ts.FunctionTypeNode
  | ts.CallSignatureDeclaration;

/** What a registered value resolves to, before any return type is looked at. */
type Target =
  /** Function-like declarations to judge one by one (several: every overload). */
  | { readonly kind: "functions"; readonly declarations: readonly SignatureDeclaration[]; readonly name: string | undefined; readonly nameNode: ts.Node | undefined; readonly binding?: Binding }
  /** A binding with an explicit type (`const f: ToolFn = …`, a parameter, `declare const`). */
  | { readonly kind: "binding"; readonly binding: Binding; readonly name: string | undefined }
  | { readonly kind: "unverifiable"; readonly why: string; readonly name: string | undefined };

interface Binding {
  readonly typeNode: ts.TypeNode;
  readonly nameNode: ts.Node;
  /** For a parameter: what to advise instead (mark the enclosing function). */
  readonly instead?: string;
}

const MAX_HOPS = 8;

/**
 * Judges the value registered at a site: `value` is the call's first argument, or the decorated
 * method. `reference` is the expression at the site to underline when the function lives in
 * another file.
 */
export function judgeRegistered(context: Context, contract: Contract, value: ts.Node, site: ts.Node): Verdict {
  const target = resolveTarget(context, value, 0);
  const siteFile = site.getSourceFile();
  if (target.kind === "unverifiable") {
    return {
      id: "unverifiable-registration",
      fn: undefined,
      functionName: target.name,
      node: value,
      message: (tool) => messages.unverifiable(tool, target.why, `${messages.REGISTER_INSTEAD}.`),
    };
  }
  if (target.kind === "binding") {
    return judgeBinding(context, contract, target.binding, target.name, value, siteFile);
  }
  const { declarations } = target;
  for (const [index, declaration] of declarations.entries()) {
    const overload = declarations.length > 1 ? ` (overload ${index + 1} of ${declarations.length})` : "";
    const verdict = judgeDeclaration(context, contract, declaration, target, overload, value, siteFile);
    if (verdict.id !== undefined) return verdict;
  }
  return { id: undefined, fn: declarations[declarations.length - 1], functionName: target.name };
}

function judgeDeclaration(
  context: Context,
  contract: Contract,
  declaration: SignatureDeclaration,
  target: Extract<Target, { kind: "functions" }>,
  overload: string,
  reference: ts.Node,
  siteFile: ts.SourceFile,
): Verdict {
  const { ts, checker } = context;
  const isAsync = hasModifier(ts, declaration, ts.SyntaxKind.AsyncKeyword);
  const annotation = isAsync ? ": Promise<DataToolOutput>" : ": DataToolOutput";
  const here = declaration.getSourceFile() === siteFile;
  const where = here ? "" : ` (declared at ${locate(declaration, siteFile)})`;
  const name = target.name;
  const headNode = here ? (target.nameNode ?? headOf(ts, declaration)) : reference;
  if ("asteriskToken" in declaration && declaration.asteriskToken !== undefined) {
    return {
      id: "not-data-tool-output",
      fn: declaration,
      functionName: name,
      node: here ? (declaration.type ?? headNode) : reference,
      message: (tool) => messages.notDataToolOutput(tool, overload + where, { kind: "generator", annotation }, ""),
    };
  }
  if (declaration.type === undefined) {
    if (target.binding !== undefined) {
      return judgeBinding(context, contract, target.binding, name, reference, siteFile);
    }
    const signature = checker.getSignatureFromDeclaration(declaration);
    const inferred = signature === undefined ? checker.getAnyType() : checker.getReturnTypeOfSignature(signature);
    const fits = judgeType(context, contract, inferred, isAsync) === undefined;
    const wantsPromise = isAsync || isThenable(context, inferred);
    const typeText = wantsPromise ? `Promise<${messages.DATA_TOOL_OUTPUT}>` : messages.DATA_TOOL_OUTPUT;
    const text = `: ${typeText}`;
    const printed = printType(context, inferred);
    const fix = here ? fixFor(context, contract, declaration, typeText, fits) : undefined;
    return {
      id: "missing-annotation",
      fn: declaration,
      functionName: name,
      node: headNode,
      message: (tool) => messages.missingAnnotation(tool, overload + where, printed, fits, text, fix?.typeInScope ?? true),
      ...(fix !== undefined ? { fix } : {}),
    };
  }
  const annotated = checker.getTypeFromTypeNode(declaration.type);
  const rejection = judgeType(context, contract, annotated, isAsync, declaration.type);
  if (rejection === undefined) return { id: undefined, fn: declaration, functionName: name };
  return {
    id: "not-data-tool-output",
    fn: declaration,
    functionName: name,
    node: here ? declaration.type : reference,
    message: (tool) => messages.notDataToolOutput(tool, overload + where, rejection, messages.insteadForFunction(annotation)),
  };
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
  const where = here ? "" : ` (declared at ${locate(binding.typeNode, siteFile)})`;
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
        messages.unverifiable(tool, `its type '${printed}'${where} is not a function type`, `${messages.REGISTER_INSTEAD}.`),
    };
  }
  for (const [index, signature] of signatures.entries()) {
    const overload = signatures.length > 1 ? ` (signature ${index + 1} of ${signatures.length})` : "";
    const returned = checker.getReturnTypeOfSignature(signature);
    const rejection = judgeType(context, contract, returned, false);
    if (rejection !== undefined) {
      return {
        id: "not-data-tool-output",
        fn: undefined,
        functionName: name,
        node,
        message: (tool) => messages.notDataToolOutput(tool, overload + where, rejection, binding.instead ?? messages.INSTEAD_FOR_BINDING),
      };
    }
  }
  return { id: undefined, fn: binding.typeNode, functionName: name };
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
    for (const member of (resolved as ts.UnionType).types) {
      if (!isAssignable(context, member, contract.type)) {
        return { kind: "member", type: printed(), member: printType(context, member) };
      }
    }
    return undefined;
  }
  if (isAssignable(context, resolved, contract.type)) return undefined;
  const named = (resolved.aliasSymbol ?? resolved.getSymbol())?.name === "DataToolOutput";
  const detail = named
    ? `it is a type of the same name, not the one from @sourced/registry${((d) => (d === undefined ? "" : `, and ${d}`))(missingProperties(context, contract, resolved))}`
    : missingProperties(context, contract, resolved);
  return detail === undefined ? { kind: "not-assignable", type: printed() } : { kind: "not-assignable", type: printed(), detail };
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
 * or one level down, "its 'structuredContent' has no 'sources'".
 */
function missingProperties(context: Context, contract: Contract, type: ts.Type): string | undefined {
  const { ts, checker } = context;
  const isObject = (candidate: ts.Type): boolean => (candidate.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0;
  const required = (of: ts.Type): ts.Symbol[] =>
    checker.getPropertiesOfType(of).filter((property) => !(property.flags & ts.SymbolFlags.Optional));
  if (!isObject(type)) return undefined;
  const missing = required(contract.type).map((property) => property.name).filter((name) => type.getProperty(name) === undefined);
  if (missing.length > 0) return `it has no ${missing.map((name) => `'${name}'`).join(" and no ")}`;
  for (const property of required(contract.type)) {
    const own = type.getProperty(property.name);
    const wanted = checker.getNonNullableType(typeOfProperty(context, property));
    if (own !== undefined && own.flags & ts.SymbolFlags.Optional) return `its '${property.name}' is optional, and DataToolOutput requires it`;
    const actual = own === undefined ? undefined : typeOfProperty(context, own);
    if (actual === undefined || !isObject(actual) || !isObject(wanted) || isAssignable(context, actual, wanted)) continue;
    const nested = required(wanted).map((inner) => inner.name).filter((name) => actual.getProperty(name) === undefined);
    if (nested.length > 0) return `its '${property.name}' has no ${nested.map((name) => `'${name}'`).join(" and no ")}`;
  }
  return undefined;
}

/** `checker.getTypeOfSymbol` is public only since TypeScript 5.1; this works on 5.0 too. */
function typeOfProperty(context: Context, property: ts.Symbol): ts.Type {
  const declaration = property.valueDeclaration ?? property.declarations?.[0];
  return declaration === undefined ? context.checker.getAnyType() : context.checker.getTypeOfSymbolAtLocation(property, declaration);
}

function isThenable(context: Context, type: ts.Type): boolean {
  const awaited = context.checker.getAwaitedType(type);
  return awaited !== undefined && awaited !== type;
}

function hasModifier(ts: Context["ts"], node: ts.Node, kind: ts.SyntaxKind): boolean {
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return modifiers?.some((modifier) => modifier.kind === kind) ?? false;
}

/** The function's name, or its head when it has none (an arrow's `=>`, else the function itself). */
function headOf(ts: Context["ts"], declaration: SignatureDeclaration): ts.Node {
  if ("name" in declaration && declaration.name !== undefined) return declaration.name;
  if (ts.isArrowFunction(declaration)) return declaration.equalsGreaterThanToken;
  return declaration;
}

/**
 * `./lib/tools.ts:10:1`: where a declaration is, relative to the registration's own file, so the
 * message reads the same whatever directory a front-end runs in.
 */
function locate(node: ts.Node, siteFile: ts.SourceFile): string {
  const sourceFile = node.getSourceFile();
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  const relative = posix.relative(posix.dirname(siteFile.fileName), sourceFile.fileName);
  return `${relative.startsWith("../") ? relative : `./${relative}`}:${line + 1}:${character + 1}`;
}

/**
 * Where `: DataToolOutput` goes (after the parameter list's `)`), whether the name is in scope
 * there, and whether an import of it can be added.
 */
function fixFor(context: Context, contract: Contract, declaration: SignatureDeclaration, typeText: string, fits: boolean): AnnotationFix {
  const { ts } = context;
  const text = `: ${typeText}`;
  const sourceFile = declaration.getSourceFile();
  const closeParen = closeParenEnd(sourceFile, declaration.parameters);
  let position: number;
  let edits: { position: number; text: string }[];
  if (closeParen !== undefined) {
    position = closeParen;
    edits = [{ position, text }];
  } else {
    // An arrow's lone parameter without parentheses: `x => …` becomes `(x): DataToolOutput => …`.
    const parameter = declaration.parameters[0]!;
    position = parameter.getEnd();
    edits = [
      { position: parameter.getStart(sourceFile), text: "(" },
      { position, text: `)${text}` },
    ];
  }
  const name = messages.DATA_TOOL_OUTPUT;
  const atFunction = typeNamed(context, name, declaration);
  const typeInScope = atFunction !== undefined && resolveAlias(context, atFunction) === contract.symbol;
  // An import is seen at the function only if no declaration around it shadows the file's top level.
  const importable = !declaresAtTopLevel(ts, sourceFile, name) && atFunction === typeNamed(context, name, sourceFile);
  return { inferredFits: fits, text, typeText, position, edits, typeInScope, importName: name, module: messages.REGISTRY_MODULE, importable };
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

/** Strips what does not change the registered value: parentheses, `!`, `as`, `satisfies`. */
export function skipOuterExpressions(ts: Context["ts"], node: ts.Node): ts.Node {
  while (
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  ) {
    node = node.expression;
  }
  return node;
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
  if (ts.isMethodDeclaration(node) && node.name !== undefined) {
    // A decorated method may be overloaded: judge it through its symbol, overloads included.
    const symbol = checker.getSymbolAtLocation(node.name);
    if (symbol !== undefined && (symbol.declarations?.length ?? 0) > 1) return resolveSymbol(context, symbol, node.name, hops);
  }
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
    const nameNode = ts.isArrowFunction(node) ? undefined : node.name;
    return { kind: "functions", declarations: [node], name: nameText(ts, nameNode), nameNode };
  }
  if (hops > MAX_HOPS) return { kind: "unverifiable", why: "it is reached through too many aliases", name: undefined };
  if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    const symbol = checker.getSymbolAtLocation(ts.isElementAccessExpression(node) ? node.argumentExpression : node);
    if (symbol === undefined) {
      const printed = printType(context, checker.getTypeAtLocation(node));
      return {
        kind: "unverifiable",
        why: `'${node.getText()}' (of type '${printed}') is not a declaration the analysis can see`,
        name: undefined,
      };
    }
    return resolveSymbol(context, resolveAlias(context, symbol), node, hops);
  }
  const printed = printType(context, checker.getTypeAtLocation(node));
  const isFunction = checker.getTypeAtLocation(node).getCallSignatures().length > 0;
  return {
    kind: "unverifiable",
    why: isFunction
      ? `the function registered here is computed at run time ('${abbreviate(node.getText())}', of type '${printed}'), so its declared return type cannot be seen`
      : `the registered value '${abbreviate(node.getText())}' (of type '${printed}') is not statically a function`,
    name: undefined,
  };
}

function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

function parameterAdvice(context: Context, parameter: ts.ParameterDeclaration): string {
  const { ts } = context;
  const enclosing = parameter.parent;
  let name: string | undefined;
  if ("name" in enclosing && enclosing.name !== undefined && ts.isIdentifier(enclosing.name)) name = enclosing.name.text;
  else if (ts.isVariableDeclaration(enclosing.parent) && ts.isIdentifier(enclosing.parent.name)) name = enclosing.parent.name.text;
  return messages.insteadForParameter(parameter.name.getText(), name ?? "the enclosing function");
}

function resolveSymbol(context: Context, symbol: ts.Symbol, reference: ts.Node, hops: number): Target {
  const { ts } = context;
  const declarations = symbol.declarations ?? [];
  const functions = declarations.filter((declaration) => isFunctionLike(ts, declaration)) as SignatureDeclaration[];
  if (functions.length > 0) {
    // With overloads, the implementation's signature is not callable from outside: judge the overloads.
    const withoutBody = functions.filter((declaration) => !("body" in declaration) || declaration.body === undefined);
    const judged = withoutBody.length > 0 ? withoutBody : functions;
    const first = judged[0]!;
    const nameNode = "name" in first ? first.name : undefined;
    return { kind: "functions", declarations: judged, name: nameText(ts, nameNode) ?? symbol.name, nameNode };
  }
  const declaration = declarations[0];
  if (declaration === undefined) {
    return { kind: "unverifiable", why: `'${reference.getText()}' has no declaration the analysis can see`, name: undefined };
  }
  if (ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration) || ts.isPropertySignature(declaration) || ts.isParameter(declaration)) {
    // A parameter's function is whatever each caller passes: its name is not static.
    const name = ts.isIdentifier(declaration.name) && !ts.isParameter(declaration) ? declaration.name.text : undefined;
    const instead = ts.isParameter(declaration) ? parameterAdvice(context, declaration) : undefined;
    const binding =
      declaration.type !== undefined
        ? { typeNode: declaration.type, nameNode: declaration.name, ...(instead !== undefined ? { instead } : {}) }
        : undefined;
    const isFixed =
      (ts.isVariableDeclaration(declaration) &&
        (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.BlockScoped) === ts.NodeFlags.Const) ||
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
        name: ownName ?? name,
        nameNode: declaration.name,
        ...(binding !== undefined ? { binding } : {}),
      };
    }
    if (binding !== undefined) return { kind: "binding", binding, name };
    if (initializer !== undefined) return resolveTarget(context, initializer, hops + 1);
    return {
      kind: "unverifiable",
      why: isFixed
        ? `'${reference.getText()}' has no value the analysis can see`
        : ts.isParameter(declaration)
          ? `'${reference.getText()}' is a parameter without a type; ${instead ?? "each caller decides what is registered"}`
          : `'${reference.getText()}' can be reassigned and has no explicit function type`,
      name,
    };
  }
  if (ts.isExportAssignment(declaration)) return resolveTarget(context, declaration.expression, hops + 1);
  const printed = printType(context, context.checker.getTypeAtLocation(reference));
  return {
    kind: "unverifiable",
    why: `the registered value '${reference.getText()}' (of type '${printed}') is not statically a function`,
    name: undefined,
  };
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
