import type * as ts from "typescript";
import { type Context, destructuredProperty, printType, resolveAlias } from "./context.js";
import * as messages from "./messages.js";
import { declaredTypeNode, hasModifier, isConstDeclaration, isJavaScript, jsDocAssertedType, MAX_HOPS, skipOuterExpressions } from "./syntax.js";

/*
 * The target (judge.ts's first step): what a registered value resolves to, before any return type
 * is looked at: the function-like declarations that say what it returns (every overload, the JSDoc
 * overloads of a JavaScript function), a binding with an explicit type, or why it cannot be seen
 * (computed at run time, reassignable, a parameter whose callers decide).
 */

export type SignatureDeclaration =
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
export interface JSDocOverload {
  readonly overloadTag: ts.JSDocOverloadTag;
  readonly implementation: SignatureDeclaration;
}

/** One callable signature to judge: a declaration, or a JSDoc overload. */
export type Judged = SignatureDeclaration | JSDocOverload;

export function isJSDocOverload(judged: Judged): judged is JSDocOverload {
  return "overloadTag" in judged;
}

/** What a registered value resolves to, before any return type is looked at. */
export type Target =
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

export interface Binding {
  readonly typeNode: ts.TypeNode;
  readonly nameNode: ts.Node;
  /** For a parameter: what to advise instead (mark the enclosing function). */
  readonly instead?: string;
}

/**
 * The JSDoc `@overload` tags of a JavaScript function or method that TypeScript 5 and 6 read as
 * its callable signatures: none when the symbol already has body-less declarations (TypeScript 7's
 * own reading of the same tags, or TypeScript overloads).
 */
export function jsDocOverloadsOf(ts: Context["ts"], implementation: SignatureDeclaration): JSDocOverload[] {
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
export function resolveTarget(context: Context, value: ts.Node, hops: number): Target {
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
