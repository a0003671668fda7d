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

/** An escape's `span` and `excluded` (see `EscapeRecord`): the statement its value (an escape finding's site) is part of, less the functions in it. */
export function escapeSpansOf(syntax: SyntaxPort, sourceFile: ts.SourceFile, site: ts.Node): Pick<EscapeRecord, "span" | "excluded"> {
  const statement = statementOf(syntax, site);
  const excluded = nestedBodiesOf(syntax, statement, site).map((body) => spanOf(sourceFile, body));
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
 * The code in `statement` that does not run with it: the bodies of the functions written there
 * (function expressions, arrows, methods and accessors of object literals and classes) and the
 * initializers of a class's instance fields. They run when called or constructed, later and from
 * wherever, so a frame in one is not the escaping value's: a callback passed beside the value
 * (`install(registry.tool(), () => { … })`) registers through whatever it reaches. What is around
 * a body (parameters, decorators, computed names) is searched on for more. Never one holding
 * `site`: the statement of a value in a function already stops at that function (`statementOf`).
 */
function nestedBodiesOf(syntax: SyntaxPort, statement: ts.Node, site: ts.Node): ts.Node[] {
  const bodies: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    let body: ts.Node | undefined;
    if (syntax.isFunctionLike(node)) body = (node as ts.Node as ts.FunctionLikeDeclaration).body;
    else if (syntax.isPropertyDeclaration(node) && !isStatic(syntax, node)) body = node.initializer;
    if (body !== undefined && !(body.pos <= site.pos && site.end <= body.end)) {
      bodies.push(body);
      syntax.forEachChild(node, (child) => (child === body ? undefined : visit(child)));
      return;
    }
    syntax.forEachChild(node, visit);
  };
  syntax.forEachChild(statement, visit);
  return bodies;
}

/** A class member's `static`: its initializer runs when the class is defined, with the statement. */
function isStatic(syntax: SyntaxPort, node: ts.PropertyDeclaration): boolean {
  return syntax.getModifiers(node)?.some((modifier) => modifier.kind === syntax.SyntaxKind.StaticKeyword) ?? false;
}
