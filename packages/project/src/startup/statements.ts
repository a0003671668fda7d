import type * as ts from "typescript";
import type { TypeScript as SyntaxPort } from "@sourced/analysis";
import type { EscapeRecord, Span } from "./records";

/*
 * Where in a source a frame of a registration points, as the records keep it (records.ts): a
 * registration's head, and the code run with an escaping value. Pure syntax: the judge
 * (judge.ts) computes them once per analysis, and the server's thread only compares positions.
 */

export function spanOf(sourceFile: ts.SourceFile, node: ts.Node, endPosition = node.getEnd()): Span {
  const start = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  const end = sourceFile.getLineAndCharacterOfPosition(endPosition);
  return { start: [start.line + 1, start.character + 1], end: [end.line + 1, end.character + 1] };
}

/** A registration's head (see `RegistrationRecord.span`): the call up to its first argument, or the decorated declaration up to its body. */
export function headOf(syntax: SyntaxPort, sourceFile: ts.SourceFile, site: ts.CallExpression | ts.Decorator): Span {
  if (syntax.isDecorator(site)) {
    const declaration = site.parent;
    const body = syntax.isMethodDeclaration(declaration) ? declaration.body : undefined;
    return spanOf(sourceFile, declaration, body === undefined ? declaration.getEnd() : body.getStart(sourceFile));
  }
  const first = site.arguments[0];
  return spanOf(sourceFile, site, first === undefined ? site.getEnd() : first.getStart(sourceFile));
}

/** An escape's `span` and `excluded` (see `EscapeRecord`): the statement its value (an escape finding's site) is part of, less what the functions in it run when called. */
export function escapeSpansOf(syntax: SyntaxPort, sourceFile: ts.SourceFile, site: ts.Node): Pick<EscapeRecord, "span" | "excluded"> {
  const statement = statementOf(syntax, site);
  const excluded = calledLaterIn(syntax, sourceFile, statement, site);
  return { span: spanOf(sourceFile, statement), ...(excluded.length === 0 ? {} : { excluded }) };
}

/**
 * The statement an escaping value is part of: what runs it where the analysis lost it. A
 * registration it makes runs from there, but V8 places the frame at the call that applies it
 * (`Reflect.apply(registry.tool(), …)` at `apply`, before the value), so the value's own span
 * would not hold the frame. Never wider than the code run with the value: a parameter's default,
 * an arrow's expression body, a class field or a decorator stops there, not at the function or
 * class around it.
 */
function statementOf(syntax: SyntaxPort, site: ts.Node): ts.Node {
  let node = site;
  for (let parent = node.parent; parent !== undefined && !endsStatement(syntax, node, parent); parent = node.parent) node = parent;
  return node;
}

function endsStatement(syntax: SyntaxPort, node: ts.Node, parent: ts.Node): boolean {
  const { SyntaxKind } = syntax;
  if (syntax.isSourceFile(parent) || syntax.isBlock(parent) || parent.kind === SyntaxKind.ModuleBlock || parent.kind === SyntaxKind.CaseClause || parent.kind === SyntaxKind.DefaultClause) return true;
  return syntax.isFunctionLike(parent) || syntax.isPropertyDeclaration(node) || syntax.isDecorator(node);
}

/**
 * The code in `statement` that does not run with it: what the functions written there
 * (function expressions, arrows, methods, accessors and constructors of object literals and
 * classes) run when called, their bodies and their parameters' defaults, and the initializers of
 * a class's instance fields. They run when called or constructed, later and from wherever, so a
 * frame in one is not the escaping value's: a callback passed beside the value
 * (`install(registry.tool(), () => { … })`, `install(registry.tool(), (tool = untyped.tool()) => …)`)
 * registers through whatever it reaches. A parameter's binding pattern goes with its default: its
 * defaults and computed keys run with the call too. What runs when the function is defined
 * (decorators, a parameter's decorators, computed names) is searched on for more. Never code
 * holding `site`: the statement of a value in a function, its default included, already stops at
 * that function (`statementOf`).
 */
function calledLaterIn(syntax: SyntaxPort, sourceFile: ts.SourceFile, statement: ts.Node, site: ts.Node): Span[] {
  const spans: Span[] = [];
  const holdsSite = (start: number, end: number): boolean => start <= site.pos && site.end <= end;
  const visit = (node: ts.Node): void => {
    if (syntax.isFunctionLike(node)) {
      const { body, parameters } = node as ts.Node as ts.FunctionLikeDeclaration;
      // A signature without a body (an overload, a type) never runs, and can have no default.
      if (body !== undefined) {
        const skipped = new Set<ts.Node>();
        for (const parameter of parameters) {
          if (parameter.initializer === undefined && syntax.isIdentifier(parameter.name)) continue;
          // From its name: decorators before it run when the function is defined.
          if (holdsSite(parameter.name.pos, parameter.end)) continue;
          spans.push(spanOf(sourceFile, parameter.name, parameter.getEnd()));
          skipped.add(parameter);
          for (const modifier of parameter.modifiers ?? []) visit(modifier);
        }
        if (!holdsSite(body.pos, body.end)) {
          spans.push(spanOf(sourceFile, body));
          skipped.add(body);
        }
        syntax.forEachChild(node, (child) => (skipped.has(child) ? undefined : visit(child)));
        return;
      }
    } else if (syntax.isPropertyDeclaration(node) && !isStatic(syntax, node) && node.initializer !== undefined && !holdsSite(node.initializer.pos, node.initializer.end)) {
      spans.push(spanOf(sourceFile, node.initializer));
      const { initializer } = node;
      syntax.forEachChild(node, (child) => (child === initializer ? undefined : visit(child)));
      return;
    }
    syntax.forEachChild(node, visit);
  };
  syntax.forEachChild(statement, visit);
  return spans;
}

/** A class member's `static`: its initializer runs when the class is defined, with the statement. */
function isStatic(syntax: SyntaxPort, node: ts.PropertyDeclaration): boolean {
  return syntax.getModifiers(node)?.some((modifier) => modifier.kind === syntax.SyntaxKind.StaticKeyword) ?? false;
}
