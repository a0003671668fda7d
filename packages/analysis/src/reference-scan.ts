import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import type { Context } from "./context.js";
import { isConstDeclaration } from "./syntax.js";

/*
 * One syntactic scan of a file, made during the walk that finds its sites (analyze.ts), that tells
 * which names a type guard of the file may narrow and which the file declares again in an inner
 * scope: marked.ts and symbols.ts ask the checker for a reference's exact type, or look its symbol
 * up again, only for those.
 */

export const NOT_NARROWABLE = "";

/**
 * The name a guard would use to narrow `node`: `a` for `a`, `a.b`, `a.b.c`; `this` for `this.x`.
 * `NOT_NARROWABLE` when the chain starts at a value the checker never narrows (`f().x`,
 * `new C().x`); `undefined` when it starts anywhere else (`a[0].x`, `(a as T).x`): ask for the
 * exact type.
 */
export function referenceRoot(ts: Context["ts"], node: ts.Identifier | ts.PropertyAccessExpression): string | undefined {
  let current: ts.Expression = node;
  while (ts.isPropertyAccessExpression(current)) current = current.expression;
  if (ts.isIdentifier(current)) return current.text;
  if (current.kind === ts.SyntaxKind.ThisKeyword || current.kind === ts.SyntaxKind.SuperKeyword) return "this";
  if (ts.isCallExpression(current) || ts.isNewExpression(current)) return NOT_NARROWABLE;
  return undefined;
}

/** What one syntactic scan of a file tells about its references (see `referenceFactsOf`). */
export interface ReferenceFacts {
  /** Names a type guard in the file may narrow. */
  readonly guarded: ReadonlySet<string>;
  /** Names declared in a scope inside the module (a function, a block, a parameter, a catch…). */
  readonly shadowed: ReadonlySet<string>;
  /**
   * Names the file writes anywhere but as the callee of a plain call (`name(…)`, not `name?.(…)`)
   * or a declaration's or import's name. A name outside it is never narrowed in the file, by a
   * guard, a comparison, a truthiness test or an assignment: no narrowing can name it.
   */
  readonly mentioned: ReadonlySet<string>;
}

const scanned = new WeakMap<ts.SourceFile, ReferenceFacts>();

/**
 * One syntactic scan of `sourceFile`, per file whatever the program:
 *
 * - `guarded`: the names a type guard may narrow. A guard is a call (`isTool(x)`, an
 *   `asserts x is T` function, a `this is T` method `x.isTool()`) or an `instanceof`, used as a
 *   condition: in an `if`/loop/`? :` condition, a `switch` or `case`, an operand of
 *   `&&`/`||`/`??`, a statement of its own (an assertion), or a `const` that is itself used as a
 *   condition (an aliased condition, `const ok = isTool(x); if (ok) …`). It can narrow its
 *   argument (or receiver) to any type, a marked one included, so references to these names
 *   always get their exact type.
 * - `shadowed`: the names declared anywhere but at the module's top level. A name outside this
 *   set means one symbol wherever the file reads it, so its verdict is looked up once.
 * - `mentioned`: the names written anywhere but as a plain call's callee or a declaration's name.
 *   A name outside it is only ever called, so no narrowing of the file reads it.
 *
 * Over-approximating either set costs a type query, never a wrong verdict. `analyzeSourceFile`
 * collects both while it walks the file; a question about a file not walked yet (a const
 * followed into the module that declares it) gets them from one walk of that file here.
 */
export function referenceFactsOf(ts: TypeScript, sourceFile: ts.SourceFile): ReferenceFacts {
  const known = scanned.get(sourceFile);
  if (known !== undefined) return known;
  const scan = new ReferenceScan(ts);
  const pending: ts.Node[] = [sourceFile];
  const push = (child: ts.Node): void => {
    pending.push(child);
  };
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    scan.visit(node);
    ts.forEachChild(node, push);
  }
  return scan.finish(sourceFile);
}

/** Collects a file's `ReferenceFacts` node by node, in any order; `finish` records them. */
export class ReferenceScan {
  private readonly guarded = new Set<string>();
  private readonly shadowed = new Set<string>();
  private readonly mentioned = new Set<string>();
  /** Identifiers used as conditions, directly or through an aliasing const. */
  private readonly conditions = new Set<string>();
  /** `const ok = isTool(x)`: what `ok` guards, should `ok` be used as a condition. */
  private readonly aliasGuards = new Map<string, string[]>();
  /** `const both = ok && other`: the names a condition on `both` uses as conditions. */
  private readonly aliasConditions = new Map<string, string[]>();

  constructor(private readonly ts: TypeScript) {}

  /** Call it on every CallExpression, BinaryExpression and Identifier of the file (others are ignored). */
  visit(node: ts.Node): void {
    const { ts } = this;
    switch (node.kind) {
      case ts.SyntaxKind.CallExpression: {
        const call = node as ts.CallExpression;
        const use = conditionUseOf(ts, call);
        if (use === undefined) return;
        const into = use === CONDITION ? undefined : listIn(this.aliasGuards, use);
        for (const argument of call.arguments) this.addRoot(argument, into);
        const callee = call.expression;
        if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) this.addRoot(callee.expression, into);
        return;
      }
      case ts.SyntaxKind.BinaryExpression: {
        const binary = node as ts.BinaryExpression;
        if (binary.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) this.addRoot(binary.left, undefined);
        return;
      }
      case ts.SyntaxKind.Identifier: {
        const identifier = node as ts.Identifier;
        // Read once: on TypeScript 7 every read of a name decodes it anew from the file's bytes.
        const { text } = identifier;
        if (isNestedDeclarationName(ts, identifier)) this.shadowed.add(text);
        if (!isCalledOrDeclared(ts, identifier)) this.mentioned.add(text);
        if (!mayBeCondition(ts, identifier)) return;
        const use = conditionUseOf(ts, identifier);
        if (use === CONDITION) this.conditions.add(text);
        else if (use !== undefined) listIn(this.aliasConditions, use).push(text);
        return;
      }
      default:
        return;
    }
  }

  finish(sourceFile: ts.SourceFile): ReferenceFacts {
    const pending = [...this.conditions];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      for (const guarded of this.aliasGuards.get(name) ?? []) this.guarded.add(guarded);
      for (const aliased of this.aliasConditions.get(name) ?? []) {
        if (!this.conditions.has(aliased)) {
          this.conditions.add(aliased);
          pending.push(aliased);
        }
      }
    }
    const facts: ReferenceFacts = { guarded: this.guarded, shadowed: this.shadowed, mentioned: this.mentioned };
    scanned.set(sourceFile, facts);
    return facts;
  }

  private addRoot(expression: ts.Expression, into: string[] | undefined): void {
    const { ts } = this;
    let current = expression;
    while (
      ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current) || ts.isNonNullExpression(current) ||
      ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) ||
      ts.isTypeAssertionExpression(current)
    ) {
      current = current.expression;
    }
    const name = ts.isIdentifier(current)
      ? current.text
      : current.kind === ts.SyntaxKind.ThisKeyword || current.kind === ts.SyntaxKind.SuperKeyword
        ? "this"
        : undefined;
    if (name === undefined) return;
    if (into === undefined) this.guarded.add(name);
    else into.push(name);
  }
}

/** Whether `identifier` is a plain call's callee (`name(…)`), or the name a declaration or an import or export gives. */
function isCalledOrDeclared(ts: TypeScript, identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  switch (parent.kind) {
    case ts.SyntaxKind.CallExpression:
      return (parent as ts.CallExpression).expression === identifier && (parent as ts.CallExpression).questionDotToken === undefined;
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.ImportEqualsDeclaration:
      return (parent as ts.NamedDeclaration).name === identifier;
    case ts.SyntaxKind.ImportClause:
    case ts.SyntaxKind.ImportSpecifier:
    case ts.SyntaxKind.NamespaceImport:
    case ts.SyntaxKind.ExportSpecifier:
      return true;
    default:
      return false;
  }
}

/** Whether `identifier` names a value declared in a scope below the module's top level. */
function isNestedDeclarationName(ts: TypeScript, identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  switch (parent.kind) {
    case ts.SyntaxKind.Parameter:
    case ts.SyntaxKind.FunctionExpression:
    case ts.SyntaxKind.ClassExpression:
    case ts.SyntaxKind.EnumMember:
      return (parent as ts.NamedDeclaration).name === identifier;
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.BindingElement: {
      if ((parent as ts.NamedDeclaration).name !== identifier) return false;
      // A binding pattern belongs to a variable or to a parameter (always nested).
      let declaration: ts.Node = parent;
      while (ts.isBindingElement(declaration) || ts.isObjectBindingPattern(declaration) || ts.isArrayBindingPattern(declaration)) {
        declaration = declaration.parent;
      }
      if (!ts.isVariableDeclaration(declaration)) return true;
      const statement = declaration.parent.parent;
      return !(ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent));
    }
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.EnumDeclaration:
    case ts.SyntaxKind.ModuleDeclaration:
    case ts.SyntaxKind.ImportEqualsDeclaration:
      return (parent as ts.NamedDeclaration).name === identifier && !ts.isSourceFile(parent.parent);
    case ts.SyntaxKind.ImportClause:
    case ts.SyntaxKind.ImportSpecifier:
    case ts.SyntaxKind.NamespaceImport:
      // Imports inside `declare module "…" { }` are scoped to that block.
      return !ts.isSourceFile(ts.findAncestor(parent, ts.isImportDeclaration)?.parent ?? parent);
    default:
      return false;
  }
}

function listIn(map: Map<string, string[]>, key: string): string[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}

const CONDITION = Symbol("condition");

/** Cheap test before `conditionUseOf` for identifiers: a parent that can lead to a condition. */
function mayBeCondition(ts: TypeScript, identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  switch (parent.kind) {
    case ts.SyntaxKind.ParenthesizedExpression:
    case ts.SyntaxKind.PrefixUnaryExpression:
    case ts.SyntaxKind.BinaryExpression:
    case ts.SyntaxKind.IfStatement:
    case ts.SyntaxKind.WhileStatement:
    case ts.SyntaxKind.DoStatement:
    case ts.SyntaxKind.ForStatement:
    case ts.SyntaxKind.ConditionalExpression:
    case ts.SyntaxKind.SwitchStatement:
    case ts.SyntaxKind.CaseClause:
    case ts.SyntaxKind.VariableDeclaration:
      return true;
    case ts.SyntaxKind.CallExpression:
      return isArgumentOfAssertionCandidate(ts, parent as ts.CallExpression, identifier);
    default:
      return false;
  }
}

/**
 * Whether `argument` is an argument of a call the checker may treat as an assertion: the binder
 * takes only a call that is a statement of its own, whose callee is a dotted name (`assert(…)`,
 * `t.ok(…)`), as one, and a signature `asserts condition` then narrows by the argument as by an
 * `if`. Any narrowing inside that argument (a type predicate, `instanceof`, an aliased condition)
 * holds after the call.
 */
function isArgumentOfAssertionCandidate(ts: TypeScript, call: ts.CallExpression, argument: ts.Node): boolean {
  return call.expression !== argument && ts.isExpressionStatement(call.parent) && isDottedName(ts, call.expression);
}

function isDottedName(ts: TypeScript, node: ts.Expression): boolean {
  while (ts.isPropertyAccessExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
  return ts.isIdentifier(node) || node.kind === ts.SyntaxKind.ThisKeyword || node.kind === ts.SyntaxKind.SuperKeyword;
}

/**
 * How the value of `node` is used as a condition: `CONDITION`; the name of the `const` it
 * initializes (an aliased condition, if that const is used as one); or `undefined`: not at all.
 */
function conditionUseOf(ts: TypeScript, node: ts.Expression): typeof CONDITION | string | undefined {
  let current: ts.Node = node;
  let operand = false;
  for (;;) {
    const parent: ts.Node = current.parent;
    switch (parent.kind) {
      case ts.SyntaxKind.ParenthesizedExpression:
        current = parent;
        continue;
      case ts.SyntaxKind.PrefixUnaryExpression:
        if ((parent as ts.PrefixUnaryExpression).operator !== ts.SyntaxKind.ExclamationToken) return undefined;
        current = parent;
        continue;
      case ts.SyntaxKind.BinaryExpression:
        switch ((parent as ts.BinaryExpression).operatorToken.kind) {
          case ts.SyntaxKind.AmpersandAmpersandToken:
          case ts.SyntaxKind.BarBarToken:
          case ts.SyntaxKind.QuestionQuestionToken:
          case ts.SyntaxKind.AmpersandAmpersandEqualsToken:
          case ts.SyntaxKind.BarBarEqualsToken:
          case ts.SyntaxKind.QuestionQuestionEqualsToken:
            // One operand of a logical expression is the condition of the other.
            operand = true;
            current = parent;
            continue;
          case ts.SyntaxKind.EqualsEqualsEqualsToken:
          case ts.SyntaxKind.ExclamationEqualsEqualsToken:
          case ts.SyntaxKind.EqualsEqualsToken:
          case ts.SyntaxKind.ExclamationEqualsToken:
          case ts.SyntaxKind.CommaToken:
            current = parent;
            continue;
          default:
            return operand ? CONDITION : undefined;
        }
      case ts.SyntaxKind.IfStatement:
      case ts.SyntaxKind.WhileStatement:
      case ts.SyntaxKind.DoStatement:
      case ts.SyntaxKind.SwitchStatement:
        return (parent as ts.IfStatement | ts.WhileStatement | ts.DoStatement | ts.SwitchStatement).expression === current || operand ? CONDITION : undefined;
      case ts.SyntaxKind.ForStatement:
        return (parent as ts.ForStatement).condition === current || operand ? CONDITION : undefined;
      case ts.SyntaxKind.ConditionalExpression:
        return (parent as ts.ConditionalExpression).condition === current || operand ? CONDITION : undefined;
      case ts.SyntaxKind.CaseClause:
      case ts.SyntaxKind.ExpressionStatement:
        return CONDITION;
      case ts.SyntaxKind.CallExpression:
        // `assert(isTool(x))`: an argument of a call that may be an assertion (`asserts condition`).
        return isArgumentOfAssertionCandidate(ts, parent as ts.CallExpression, current) || operand ? CONDITION : undefined;
      case ts.SyntaxKind.VariableDeclaration: {
        if (operand) return CONDITION;
        const declaration = parent as ts.VariableDeclaration;
        return declaration.initializer === current && isConstDeclaration(ts, declaration) && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
      }
      default:
        return operand ? CONDITION : undefined;
    }
  }
}
