import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import { declaredTypeNode, isConstDeclaration, jsDocAssertedType } from "./syntax.js";

/** Where a value ends up once the transparent wrappers around it are climbed. */
export type Slot =
  /** `value(…)`: the value is applied (a registration when the value is marked). */
  | { readonly kind: "callee" }
  /** `@value`: a decorator-form registration. */
  | { readonly kind: "decorator" }
  /** `const name = value`: allowed; the const's uses are checked where they occur. */
  | { readonly kind: "const"; readonly declaration: ts.VariableDeclaration; readonly declaredType: ts.TypeNode | undefined }
  /** `export default value`: allowed; the importers' uses are checked where they occur. */
  | { readonly kind: "export" }
  /**
   * `return value` (or an arrow's expression body): allowed when the function's return type
   * carries the mark, since every call of that function is then a marked value checked where it
   * is used; otherwise an escape.
   */
  | { readonly kind: "return"; readonly fn: ts.SignatureDeclaration }
  /** The value flows somewhere the analysis cannot follow. */
  | { readonly kind: "escape"; readonly how: string }
  /** The value is read without flowing anywhere (`typeof`, `===`, a discarded statement…). */
  | { readonly kind: "inert" };

export interface Placement {
  /** The outermost expression reached through transparent wrappers (parentheses, `!`, `as`, `? :`, `??`…). */
  readonly outer: ts.Expression;
  /** Wrappers whose own type must still carry the mark for the value to keep it (`as`, `? :`, `||`, `await`). */
  readonly typed: readonly ts.Expression[];
  readonly slot: Slot;
}

const FUNCTION_METHODS = new Set(["apply", "call", "bind"]);

/**
 * Where the value of `node` goes. Purely syntactic: no checker call, so every node can be asked
 * (this is the prefilter in front of every type query).
 */
export function placementOf(ts: TypeScript, node: ts.Expression): Placement {
  let outer: ts.Expression = node;
  const typed: ts.Expression[] = [];
  for (;;) {
    const parent: ts.Node = outer.parent;
    if (jsDocAssertedType(ts, parent) !== undefined) {
      // `/** @type {T} */ (value)`: JavaScript's `value as T`.
      typed.push(parent as ts.ParenthesizedExpression);
      outer = parent as ts.ParenthesizedExpression;
    } else if (ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent) || ts.isSatisfiesExpression(parent)) {
      outer = parent;
    } else if (ts.isAsExpression(parent) || ts.isTypeAssertionExpression(parent) || ts.isAwaitExpression(parent)) {
      typed.push(parent);
      outer = parent;
    } else if (ts.isConditionalExpression(parent) && parent.condition !== outer) {
      typed.push(parent);
      outer = parent;
    } else if (ts.isBinaryExpression(parent) && isPassThroughOperator(ts, parent, outer)) {
      if (parent.operatorToken.kind !== ts.SyntaxKind.CommaToken) typed.push(parent);
      outer = parent;
    } else {
      break;
    }
  }
  return { outer, typed, slot: slotOf(ts, outer) };
}

function isPassThroughOperator(ts: TypeScript, binary: ts.BinaryExpression, operand: ts.Expression): boolean {
  switch (binary.operatorToken.kind) {
    case ts.SyntaxKind.BarBarToken:
    case ts.SyntaxKind.AmpersandAmpersandToken:
    case ts.SyntaxKind.QuestionQuestionToken:
      return true;
    case ts.SyntaxKind.CommaToken:
      return binary.right === operand;
    default:
      return false;
  }
}

function slotOf(ts: TypeScript, outer: ts.Expression): Slot {
  const parent = outer.parent;
  if (ts.isCallExpression(parent)) {
    return parent.expression === outer ? { kind: "callee" } : { kind: "escape", how: "is passed as an argument" };
  }
  if (ts.isDecorator(parent)) return { kind: "decorator" };
  if (ts.isNewExpression(parent)) {
    return parent.expression === outer
      ? { kind: "escape", how: "is called with `new`" }
      : { kind: "escape", how: "is passed as an argument" };
  }
  if (ts.isVariableDeclaration(parent)) {
    if (parent.initializer !== outer) return { kind: "inert" };
    if (isConstDeclaration(ts, parent) && ts.isIdentifier(parent.name)) return { kind: "const", declaration: parent, declaredType: declaredTypeNode(ts, parent) };
    return ts.isIdentifier(parent.name)
      ? { kind: "escape", how: "is stored in a variable that can be reassigned" }
      : { kind: "escape", how: "is destructured" };
  }
  if (ts.isPropertyAccessExpression(parent)) {
    return parent.expression === outer && FUNCTION_METHODS.has(parent.name.text)
      ? { kind: "escape", how: `is called through \`.${parent.name.text}\`` }
      : { kind: "inert" };
  }
  if (ts.isElementAccessExpression(parent)) {
    const key = parent.argumentExpression;
    if (parent.expression !== outer) return { kind: "inert" };
    if (ts.isStringLiteralLike(key) || ts.isNumericLiteral(key)) {
      return FUNCTION_METHODS.has(key.text) ? { kind: "escape", how: `is called through \`.${key.text}\`` } : { kind: "inert" };
    }
    // `asTool[key]`: the key may be "call", "apply" or "bind" (its type is not consulted here).
    return { kind: "escape", how: "is read through a computed key" };
  }
  if (ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent)) {
    return isAssignedTo(ts, parent.parent) ? { kind: "inert" } : { kind: "escape", how: "is spread" };
  }
  if (ts.isReturnStatement(parent)) {
    const fn = ts.findAncestor(parent, ts.isFunctionLike);
    return fn === undefined ? { kind: "inert" } : { kind: "return", fn };
  }
  if (ts.isArrowFunction(parent)) return parent.body === outer ? { kind: "return", fn: parent } : { kind: "inert" };
  if (ts.isYieldExpression(parent)) return { kind: "escape", how: "is yielded" };
  if (ts.isThrowStatement(parent)) return { kind: "escape", how: "is thrown" };
  if (ts.isBinaryExpression(parent)) {
    return parent.right === outer && isAssignmentOperator(ts, parent.operatorToken.kind)
      ? { kind: "escape", how: "is assigned to a place that can be reassigned" }
      : { kind: "inert" };
  }
  if (ts.isPropertyAssignment(parent)) {
    return parent.initializer === outer ? { kind: "escape", how: "is stored in an object" } : { kind: "inert" };
  }
  if (ts.isShorthandPropertyAssignment(parent)) {
    // In `({ decorate } = source)` (and `[decorate] = source`, below) the name is written, not read:
    // what flows there is judged where it is read, in `source`.
    if (parent.name === outer) return isAssignedTo(ts, parent.parent) ? { kind: "inert" } : { kind: "escape", how: "is stored in an object" };
    // `({ decorate = value } = source)`: a destructuring assignment's default, stored in `decorate`.
    return parent.objectAssignmentInitializer === outer ? { kind: "escape", how: "is used as a default value" } : { kind: "inert" };
  }
  if (ts.isArrayLiteralExpression(parent)) return isAssignedTo(ts, parent) ? { kind: "inert" } : { kind: "escape", how: "is stored in an array" };
  if (ts.isPropertyDeclaration(parent)) {
    return parent.initializer === outer ? { kind: "escape", how: "is stored in a class field" } : { kind: "inert" };
  }
  if (ts.isParameter(parent) || ts.isBindingElement(parent)) {
    return parent.initializer === outer ? { kind: "escape", how: "is used as a default value" } : { kind: "inert" };
  }
  if (ts.isJsxExpression(parent) || ts.isJsxSpreadAttribute(parent)) return { kind: "escape", how: "is passed as a JSX prop" };
  if (ts.isTemplateSpan(parent)) {
    return ts.isTaggedTemplateExpression(parent.parent.parent)
      ? { kind: "escape", how: "is passed to a template tag" }
      : { kind: "inert" };
  }
  if (ts.isTaggedTemplateExpression(parent)) {
    return parent.tag === outer ? { kind: "escape", how: "is applied to a template literal" } : { kind: "inert" };
  }
  if (ts.isExportAssignment(parent)) return { kind: "export" };
  return { kind: "inert" };
}

/** Whether an object or array literal is (part of) the target of a destructuring assignment or a `for … of`/`in` head. */
function isAssignedTo(ts: TypeScript, literal: ts.Expression): boolean {
  let node: ts.Node = literal;
  for (;;) {
    const parent: ts.Node = node.parent;
    if (ts.isPropertyAssignment(parent) || ts.isSpreadAssignment(parent) || ts.isSpreadElement(parent) || ts.isParenthesizedExpression(parent)) {
      node = parent;
    } else if (ts.isObjectLiteralExpression(parent) || ts.isArrayLiteralExpression(parent)) {
      node = parent;
    } else if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.left === node) {
      return true;
    } else {
      return (ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === node;
    }
  }
}

function isAssignmentOperator(ts: TypeScript, kind: ts.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.EqualsToken ||
    kind === ts.SyntaxKind.BarBarEqualsToken ||
    kind === ts.SyntaxKind.AmpersandAmpersandEqualsToken ||
    kind === ts.SyntaxKind.QuestionQuestionEqualsToken
  );
}

/**
 * Whether a value read at `node` needs a type query: it reaches a slot that is not plainly allowed,
 * or it is cast on the way (`(registry as any).tool()`: a registry can lose its type in any slot).
 */
export function needsTypeQuery(placement: Placement): boolean {
  const { slot } = placement;
  if (slot.kind === "escape" || slot.kind === "return" || placement.typed.length > 0) return true;
  return slot.kind === "const" && slot.declaredType !== undefined;
}

/** Whether `node` is a value expression (not a name in a declaration, a property name, a type…). */
function isValueReference(ts: TypeScript, node: ts.Node): node is ts.Expression {
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isCallExpression(node)) return true;
  if (!ts.isIdentifier(node)) return false;
  const parent = node.parent;
  // Names that are not reads of a value. Slots that do read (`f(x)`, `{ x }`, `return x`) are
  // recognised by `slotOf`; these are the identifiers it would otherwise misread.
  if (ts.isPropertyAccessExpression(parent)) return parent.expression === node;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  if (ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) return parent.initializer === node;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.initializer === node;
  return ts.isExpression(node);
}

/**
 * For a value reference (`Identifier`, `PropertyAccessExpression`, `ElementAccessExpression`):
 * its placement when it needs a type query, so a caller that walks the tree computes it once.
 */
export function escapePlacementOf(ts: TypeScript, node: ts.Node): Placement | undefined {
  if (!isValueReference(ts, node)) return undefined;
  const placement = placementOf(ts, node);
  return needsTypeQuery(placement) ? placement : undefined;
}
