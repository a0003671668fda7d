import type * as ts from "typescript";
import { type Context, resolveAlias } from "./context.js";
import { isToolCall } from "./served.js";
import { isConstDeclaration, MAX_HOPS, skipOuterExpressions } from "./syntax.js";

/*
 * What the registry refuses at start-up about a tool's name, seen at the registration: a function
 * it cannot name, a name the MCP rule forbids (@sourced/contract-rules), a name taken twice on one registry.
 */

/** A registry a registration is made on: its declaration, as the checker sees it, and the name it is read by. */
export interface RegistryIdentity {
  readonly declaration: ts.Node;
  readonly name: string;
}

/**
 * The registry `producer` registers on: the declaration of the value `x` in `x.tool(options)`
 * (followed through consts holding the decorator). One registry is one declaration: the same
 * `registry`, imported anywhere, or the same parameter within its function. `undefined` when the
 * checker cannot tell (a registry made by a call, a decorator from a factory or a parameter).
 */
export function registryOf(context: Context, producer: ts.Expression, hops = 0): RegistryIdentity | undefined {
  const { ts, checker } = context;
  const node = skipOuterExpressions(ts, producer);
  if (hops > MAX_HOPS) return undefined;
  if (ts.isCallExpression(node)) {
    const callee = skipOuterExpressions(ts, node.expression);
    if (!isToolCall(context, node) || !ts.isPropertyAccessExpression(callee)) return undefined;
    const receiver = skipOuterExpressions(ts, callee.expression);
    if (!ts.isIdentifier(receiver) && !ts.isPropertyAccessExpression(receiver)) return undefined;
    const symbol = checker.getSymbolAtLocation(receiver);
    if (symbol === undefined) return undefined;
    const target = resolveAlias(context, symbol);
    const declaration = target.valueDeclaration ?? target.declarations?.[0];
    return declaration === undefined ? undefined : { declaration, name: target.name };
  }
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node)) return undefined;
  const symbol = checker.getSymbolAtLocation(node);
  const declaration = symbol === undefined ? undefined : resolveAlias(context, symbol).valueDeclaration;
  if (declaration === undefined || !ts.isVariableDeclaration(declaration) || !isConstDeclaration(ts, declaration) || declaration.initializer === undefined) return undefined;
  return registryOf(context, declaration.initializer, hops + 1);
}

/**
 * The anonymous function or arrow registered as it is written (`registry.tool()(() => …)`):
 * JavaScript names a function after the binding or property it is assigned to, never after an
 * argument, so the registry has no name to serve for it.
 */
export function anonymousFunctionOf(ts: Context["ts"], value: ts.Node): ts.ArrowFunction | ts.FunctionExpression | undefined {
  const node = skipOuterExpressions(ts, value);
  if (ts.isArrowFunction(node)) return node;
  return ts.isFunctionExpression(node) && node.name === undefined ? node : undefined;
}

/**
 * The node that says the served name: the `name` written in the options at the registration
 * (`registry.tool({ name: "top city" })`), else the registered value, or the decorated method's name.
 */
export function nameNodeOf(context: Context, site: ts.CallExpression | ts.Decorator, producer: ts.Expression): ts.Node {
  const { ts } = context;
  const call = skipOuterExpressions(ts, producer);
  const options = ts.isCallExpression(call) && isToolCall(context, call) ? call.arguments[0] : undefined;
  const literal = options === undefined ? undefined : skipOuterExpressions(ts, options);
  if (literal !== undefined && ts.isObjectLiteralExpression(literal)) {
    for (let index = literal.properties.length - 1; index >= 0; index--) {
      const property = literal.properties[index]!;
      if (ts.isSpreadAssignment(property)) break;
      if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === "name") return property.initializer;
    }
  }
  if (ts.isDecorator(site)) return ts.isMethodDeclaration(site.parent) ? site.parent.name : site;
  return site.arguments[0] ?? site;
}
