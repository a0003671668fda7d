import type * as ts from "typescript";
import type { AnnotationFix } from "./api.js";
import { type Context, type Contract, printType, resolveAlias } from "./context.js";
import { isAssignable } from "./fit.js";
import * as messages from "./messages.js";
import { closeParenEnd } from "./ports.js";
import { isJavaScript, unionMembers } from "./syntax.js";
import type { SignatureDeclaration } from "./target.js";

/*
 * The fix of a missing annotation (judge.ts's third step): the type to write, where it goes (after
 * the parameters, or in the JSDoc of a JavaScript function), and whether the names it uses are in
 * scope there or can be imported.
 */

/**
 * The annotation that fixes a missing one: `DataToolOutput`, or for a tool whose `output` declares
 * keys (the decorator's `outputKeys`) `DataResult<{ … }>` with those keys, which the decorator's
 * type asks for (`DataToolOutput` alone would fail there); `| ErrorResult` beside it when the
 * inferred type has a member that only an error result fits; in a Promise when it is one.
 */
export function suggestedType(
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
export function fixFor(context: Context, contract: Contract, declaration: SignatureDeclaration, typeText: string, names: readonly string[], fits: boolean): AnnotationFix {
  const { ts } = context;
  const sourceFile = declaration.getSourceFile();
  const jsdoc = isJavaScript(ts, declaration);
  const edits = jsdoc ? jsdocEdits(ts, declaration, typeText) : annotationEdits(ts, declaration, typeText);
  // What each name means at the function, asked once for both questions below.
  const atFunctionOf = new Map<string, ts.Symbol | undefined>();
  const namedAtFunction = (name: string): ts.Symbol | undefined => {
    if (!atFunctionOf.has(name)) atFunctionOf.set(name, typeNamed(context, name, declaration));
    return atFunctionOf.get(name);
  };
  const missing = names.filter((name) => {
    const atFunction = namedAtFunction(name);
    return atFunction === undefined || resolveAlias(context, atFunction) !== contract.named.get(name);
  });
  const importNames = missing.length === 0 ? names : missing;
  // An import is seen at the function only if no declaration around it shadows the file's top level.
  // In JavaScript a JSDoc `@typedef` or `@import` of the name is no statement: any such name blocks it.
  const importable = importNames.every((name) => {
    const atFunction = namedAtFunction(name);
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
