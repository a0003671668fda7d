import type * as ts from "typescript";
import { type Context, destructuredProperty, resolveAlias, symbolAt } from "./context.js";
import { isConstDeclaration, MAX_HOPS, skipOuterExpressions, unionMembers } from "./syntax.js";

/**
 * What `registry.tool(options)` will serve as the tool's name, as far as the options tell: the
 * registry serves `options.name` when it is given, else the function's own name.
 *
 * - `function`: the options give no name (none, `name` absent or `undefined`).
 * - `static`: this name, whatever the function.
 * - `dynamic`: a name known only at run time (computed, a `let`, a mutable object's property…).
 * - `either`: one of several alternatives (the branches of a conditional, a union of literals).
 */
export type ServedName =
  | { readonly kind: "function" }
  | { readonly kind: "static"; readonly name: string }
  | { readonly kind: "dynamic" }
  | { readonly kind: "either"; readonly alternatives: readonly ServedName[] };

const FUNCTION: ServedName = { kind: "function" };
// Stryker disable next-line ObjectLiteral,StringLiteral: a served name of no known kind names nothing either (`toolNameOf` has no case for it, `takesFunctionName` is false).
const DYNAMIC: ServedName = { kind: "dynamic" };

/**
 * The name a finding carries: the served name when it is static, `undefined` otherwise (a
 * conditional whose branches serve different names, a computed name). Never a guess.
 */
export function toolNameOf(served: ServedName, functionName: string | undefined): string | undefined {
  switch (served.kind) {
    case "function":
      return functionName;
    case "static":
      return served.name;
    // Stryker disable next-line StringLiteral: without its case a dynamic name still falls through to `undefined`.
    case "dynamic":
      return undefined;
    case "either": {
      const [first, ...rest] = served.alternatives.map((alternative) => toolNameOf(alternative, functionName));
      return rest.every((name) => name === first) ? first : undefined;
    }
  }
}

/** Whether the registry may take the tool's name from the function: the options (or one alternative of them) give none. */
export function takesFunctionName(served: ServedName): boolean {
  return served.kind === "function" || (served.kind === "either" && served.alternatives.some(takesFunctionName));
}

/**
 * What the decorator `producer` serves: `registry.tool(options)` itself, or a const (any number of
 * them, `export default` included) holding it, or a conditional choosing between such decorators.
 * A decorator whose options cannot be seen where it is applied serves a name only known at run
 * time: one returned by another function (`named("forecast")`, whose body passes its own
 * options), or passed in as a parameter. One made out of sight (`declare const decorate:
 * ToolDecorator`, a platform's wrapper, a chain of consts longer than the analysis follows) is
 * taken to serve the function's name: so findings name the tool as its author does, and an emit
 * step pins the function's name, which is harmless if the options name the tool after all.
 */
export function servedNameOf(context: Context, producer: ts.Expression, hops = 0): ServedName {
  const { ts } = context;
  const node = skipOuterExpressions(ts, producer);
  if (hops > MAX_HOPS) return FUNCTION;
  if (ts.isConditionalExpression(node)) {
    return either([servedNameOf(context, node.whenTrue, hops + 1), servedNameOf(context, node.whenFalse, hops + 1)]);
  }
  if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
    const symbol = symbolAt(context, node);
    let declaration = symbol === undefined ? undefined : resolveAlias(context, symbol).valueDeclaration;
    // `const { asTool } = module`: what `module.asTool` holds. Destructured from anything else (a
    // parameter, a `let`): made elsewhere, with options of its own.
    if (declaration !== undefined && ts.isBindingElement(declaration)) {
      declaration = destructuredProperty(context, declaration)?.valueDeclaration;
      if (declaration === undefined) return DYNAMIC;
    }
    if (declaration !== undefined && ts.isVariableDeclaration(declaration)) {
      // A `let` or `var` holds whichever decorator was assigned last: its options are not static.
      if (!isConstDeclaration(ts, declaration)) return DYNAMIC;
      return declaration.initializer === undefined ? FUNCTION : servedNameOf(context, declaration.initializer, hops + 1);
    }
    // `export default registry.tool({ name })`, imported under any name.
    if (declaration !== undefined && ts.isExportAssignment(declaration)) return servedNameOf(context, declaration.expression, hops + 1);
    // A decorator passed in: each caller made it, with options of its own.
    if (declaration !== undefined && ts.isParameter(declaration)) return DYNAMIC;
    return FUNCTION;
  }
  if (!ts.isCallExpression(node)) return FUNCTION;
  if (isToolCall(context, node)) {
    const options = node.arguments[0];
    return options === undefined ? FUNCTION : nameOfOptions(context, options);
  }
  // `registry.tool.bind(registry, …bound)` called: its bound arguments come before the call's.
  const bound = boundToolArguments(context, node.expression);
  if (bound === undefined) return DYNAMIC;
  const options = bound.length > 0 ? bound[0] : node.arguments[0];
  if (options === undefined) return FUNCTION;
  return ts.isSpreadElement(options) ? DYNAMIC : nameOfOptions(context, options);
}

/**
 * The arguments bound to the registry's own `tool` method (`registry.tool.bind(registry, …)`,
 * directly or through `const`s), `undefined` when `callee` is no such binding. A bound `tool` is
 * the method itself, called with those arguments first: its options are as static as a direct call's.
 */
function boundToolArguments(context: Context, callee: ts.Expression): readonly ts.Expression[] | undefined {
  const { ts } = context;
  let node = skipOuterExpressions(ts, callee);
  for (let hop = 0; ts.isIdentifier(node); hop++) {
    if (hop > MAX_HOPS) return undefined;
    const symbol = symbolAt(context, node);
    const declaration = symbol === undefined ? undefined : resolveAlias(context, symbol).valueDeclaration;
    if (declaration === undefined || !ts.isVariableDeclaration(declaration) || !isConstDeclaration(ts, declaration) || declaration.initializer === undefined) return undefined;
    node = skipOuterExpressions(ts, declaration.initializer);
  }
  if (!ts.isCallExpression(node)) return undefined;
  const bind = skipOuterExpressions(ts, node.expression);
  if (!ts.isPropertyAccessExpression(bind) || bind.name.text !== "bind") return undefined;
  const method = skipOuterExpressions(ts, bind.expression);
  const isTool = ts.isPropertyAccessExpression(method)
    ? method.name.text === "tool"
    : ts.isElementAccessExpression(method) && ts.isStringLiteralLike(method.argumentExpression) && method.argumentExpression.text === "tool";
  return isTool ? node.arguments.slice(1) : undefined;
}

/**
 * `x.tool(…)` (or `x["tool"](…)`), or `tool(…)` destructured from `x` (`const { tool } = registry`): the registry's own
 * method, whose first argument is the options it serves. Any other function returning a decorator
 * (a factory) passes options of its own.
 */
export function isToolCall(context: Context, call: ts.CallExpression): boolean {
  const { ts, checker } = context;
  const callee = skipOuterExpressions(ts, call.expression);
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text === "tool";
  if (ts.isElementAccessExpression(callee)) return ts.isStringLiteralLike(callee.argumentExpression) && callee.argumentExpression.text === "tool";
  // Stryker disable next-line ConditionalExpression: any other callee (a call, `this`) has no symbol a binding element declares either; this spares the checker the question.
  if (!ts.isIdentifier(callee)) return false;
  const declaration = checker.getSymbolAtLocation(callee)?.valueDeclaration;
  if (declaration === undefined || !ts.isBindingElement(declaration) || !ts.isObjectBindingPattern(declaration.parent)) return false;
  // `{ tool }`, `{ tool: make }`, `{ "tool": make }`: the key is the property name when one is written, else the element's own name.
  return propertyKey(ts, declaration.propertyName ?? (declaration.name as ts.Identifier)) === "tool";
}

/**
 * The `name` member of an options expression. An object literal is read as the run time reads
 * it: the last definition of `name` wins, and a spread defines it only if its own type has it.
 * Anything else is read from its type: a `const` string, an enum member or an `as const` object
 * keeps its literal type, a mutable object's property is widened to `string` (it can change).
 */
function nameOfOptions(context: Context, options: ts.Expression): ServedName {
  const { ts } = context;
  const node = skipOuterExpressions(ts, options);
  if (ts.isConditionalExpression(node)) return either([nameOfOptions(context, node.whenTrue), nameOfOptions(context, node.whenFalse)]);
  if (!ts.isObjectLiteralExpression(node)) return nameInType(context, options);
  for (let index = node.properties.length - 1; index >= 0; index--) {
    const property = node.properties[index]!;
    if (ts.isSpreadAssignment(property)) {
      // No `name` in the spread's type: the earlier properties stand. An optional one may or may not override them.
      if (!mayDefineName(context, property.expression)) continue;
      const spread = nameOfOptions(context, property.expression);
      return spread.kind === "static" ? spread : DYNAMIC;
    }
    const key = propertyKey(ts, property.name);
    if (key === undefined) return DYNAMIC; // a computed key may be "name"
    if (key !== "name") continue;
    if (ts.isPropertyAssignment(property)) return valueOf(context, property.initializer);
    // Stryker disable next-line ConditionalExpression: the checker has no shorthand value for a getter or method, so they are dynamic either way.
    if (ts.isShorthandPropertyAssignment(property)) {
      // `{ name }`: the type of the value it reads (the property's own type is widened).
      const value = context.checker.getShorthandAssignmentValueSymbol(property);
      return value === undefined ? DYNAMIC : fromType(context, context.checker.getTypeOfSymbolAtLocation(value, property.name));
    }
    return DYNAMIC; // a getter or a method named `name`
  }
  return FUNCTION;
}

/** Whether a spread's type has a `name` member at all (absent: earlier properties stand). */
function mayDefineName(context: Context, spread: ts.Expression): boolean {
  return context.checker.getTypeAtLocation(spread).getProperty("name") !== undefined;
}

/** The static key of a property name (`name`, `"name"`, `["name"]`), or `undefined` when computed. */
export function propertyKey(ts: Context["ts"], name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) return name.expression.text;
  return undefined;
}

/** The value given as `name`: a literal, a conditional of them, else what its (unwidened) type says. */
function valueOf(context: Context, value: ts.Expression): ServedName {
  const { ts, checker } = context;
  const node = skipOuterExpressions(ts, value);
  // Read from the syntax, the literal and `undefined` spare the checker a question (over IPC on
  // the native backend); its answer would be the same, the type of the literal itself.
  // Stryker disable next-line ConditionalExpression
  if (ts.isStringLiteralLike(node)) return { kind: "static", name: node.text };
  if (ts.isConditionalExpression(node)) return either([valueOf(context, node.whenTrue), valueOf(context, node.whenFalse)]);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral
  if (ts.isVoidExpression(node) || (ts.isIdentifier(node) && node.text === "undefined")) return FUNCTION;
  return fromType(context, checker.getTypeAtLocation(node));
}

function nameInType(context: Context, options: ts.Expression): ServedName {
  const { checker } = context;
  const property = checker.getTypeAtLocation(options).getProperty("name");
  if (property === undefined) return FUNCTION;
  return fromType(context, checker.getTypeOfSymbolAtLocation(property, options));
}

function fromType(context: Context, type: ts.Type): ServedName {
  const { ts } = context;
  if (type.flags & ts.TypeFlags.Union) {
    return either(unionMembers(ts, type).map((member) => fromType(context, member)));
  }
  if (type.flags & ts.TypeFlags.StringLiteral) return { kind: "static", name: (type as ts.StringLiteralType).value };
  if (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return FUNCTION;
  return DYNAMIC;
}

/** One of `alternatives`, as listed: `toolNameOf` and `takesFunctionName` ask each, nested ones included. */
function either(alternatives: readonly ServedName[]): ServedName {
  return { kind: "either", alternatives };
}

/** The static name of an applied function, for a registration that cannot be judged. */
export function appliedName(context: Context, applied: ts.Node | undefined): string | undefined {
  const { ts } = context;
  if (applied === undefined) return undefined;
  const node = skipOuterExpressions(ts, applied);
  if (ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node)) {
    return node.name !== undefined && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  }
  if (ts.isIdentifier(node)) return node.text;
  return undefined;
}
