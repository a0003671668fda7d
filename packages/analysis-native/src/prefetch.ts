import type * as ts from "typescript";
import type { SyntaxPort } from "@sourced/analysis";

/*
 * What the analysis will ask the checker about a file and the registration sites in it, read from
 * the syntax alone: the checker port (`prefetch`, checker.ts) asks TypeScript 7 for all of it in a
 * few batched requests, where the analysis would ask one round trip at a time. Each list is in
 * source order, repeats kept; the port leaves out what it has asked already.
 */

/** A file's module specifiers: whether each import resolves is asked of every file, often before it is judged. */
export function moduleSpecifiers(syntax: SyntaxPort, sourceFile: ts.SourceFile): ts.Node[] {
  const specifiers: ts.Node[] = [];
  for (const statement of sourceFile.statements) {
    if ((syntax.isImportDeclaration(statement) || syntax.isExportDeclaration(statement)) && statement.moduleSpecifier !== undefined) specifiers.push(statement.moduleSpecifier);
    else if (syntax.isImportEqualsDeclaration(statement) && syntax.isExternalModuleReference(statement.moduleReference)) specifiers.push(statement.moduleReference.expression);
  }
  return specifiers;
}

/*
 * The values of an options literal a call (or a decorator's call) is given: the options check
 * asks each one's type (a raw shape's, each of its properties') when the call makes a registry or
 * a tool decorator (options.ts), one request per value otherwise; a call that makes neither has
 * its values typed for nothing, in the same request. A value made by a call
 * (`input: z.object({ … })`) is judged by its callee's declared return type
 * (declared-options.ts): the call is a site itself, so its callee's symbol is fetched with the
 * sites' (`siteNames`), and the call's own type, which TypeScript 7 would get by resolving the
 * registration's call, is asked only if that cannot tell.
 */
export function optionValues(syntax: SyntaxPort, sites: readonly ts.Node[]): ts.Node[] {
  const values: ts.Node[] = [];
  for (const site of sites) {
    const call = syntax.isCallExpression(site) ? site : syntax.isDecorator(site) && syntax.isCallExpression(site.expression) ? site.expression : undefined;
    let options: ts.Node | undefined = call?.arguments[0];
    while (options !== undefined && syntax.isParenthesizedExpression(options)) options = options.expression;
    if (options === undefined || !syntax.isObjectLiteralExpression(options)) continue;
    for (const property of options.properties) {
      if (!syntax.isPropertyAssignment(property)) continue;
      // A raw shape written in place (`input: { limit: z.number() }`), like any object literal
      // given to an option (`annotations: { readOnlyHint: true }`), is judged by its properties'
      // types (declared-options.ts): its own type, which TypeScript 7 would get by resolving the
      // call, is asked only when those cannot tell.
      const value = property.initializer;
      let inner: ts.Node = value;
      while (syntax.isParenthesizedExpression(inner)) inner = inner.expression;
      if (syntax.isCallExpression(inner)) continue;
      const typed = syntax.isObjectLiteralExpression(value) && value.properties.length > 0 ? value.properties.flatMap((inner) => (syntax.isPropertyAssignment(inner) ? [inner.initializer] : [])) : [value];
      values.push(...typed);
    }
  }
  return values;
}

/*
 * A call's callee and its registered argument, a decorator's expression and its method's
 * name, or a value reference itself: what the analysis asks the symbol of. The receiver of
 * a callee `registry.tool` too: whether the call's type is shared with the file's other
 * calls asks that name's symbol and type (`literalCallOf`), once per file and name, which
 * outside the batch is two round trips per file. Every `a.b(…)` call's receiver is fetched,
 * `rows.map(…)`'s too, which the analysis never asks: keeping only called calls
 * (`registry.tool({…})(fn)`) left 40 more single requests on the mid-size project and no
 * measurable CPU saved, so the batch stays the wider one.
 */
export function siteNames(syntax: SyntaxPort, sites: readonly ts.Node[]): ts.Node[] {
  const names: ts.Node[] = [];
  for (const site of sites) {
    const nodes = syntax.isCallExpression(site)
      ? [site.expression, site.arguments[0], syntax.isPropertyAccessExpression(site.expression) ? site.expression.expression : undefined]
      : syntax.isDecorator(site)
        ? [site.expression, (site.parent as ts.MethodDeclaration).name]
        : [site];
    for (const node of nodes) {
      if (node !== undefined && (syntax.isIdentifier(node) || syntax.isPropertyAccessExpression(node))) names.push(node);
    }
  }
  return names;
}

/** The return annotations of the functions registered at `sites`, judged next (`getTypeFromTypeNode`). */
export function returnAnnotations(syntax: SyntaxPort, sites: readonly ts.Node[]): ts.TypeNode[] {
  const annotations: ts.TypeNode[] = [];
  for (const site of sites) {
    const registered = syntax.isCallExpression(site) ? site.arguments[0] : syntax.isDecorator(site) ? site.parent : undefined;
    if (registered === undefined || !(syntax.isFunctionExpression(registered) || syntax.isArrowFunction(registered) || syntax.isMethodDeclaration(registered))) continue;
    if (registered.type !== undefined) annotations.push(registered.type);
  }
  return annotations;
}

/*
 * Of `names` (`siteNames`, in source order), those to fetch: each name the file never declares again
 * in an inner scope (not in `shadowed`) once where it is read as a value (`isReference`), since
 * every such reference reads the same symbol (the analysis asks it once per name, symbols.ts); the
 * others (`same`) are answered with the first one's. `asked`: already fetched or answered. A
 * module's tools call the same helpers and hand on the same records (`answer`, `rowsOf(m0007Records,
 * 3)`): on the mid-size projects about half the names fetched were repeats, each a symbol
 * TypeScript 7 resolved and sent.
 */
export function namesOnce(
  syntax: SyntaxPort,
  names: readonly ts.Node[],
  shadowed: ReadonlySet<string>,
  asked: (node: ts.Node) => boolean,
): { fetch: ts.Node[]; same: [repeat: ts.Node, first: ts.Node][] } {
  const fetch = new Set<ts.Node>();
  const same: [ts.Node, ts.Node][] = [];
  const firstByName = new Map<string, ts.Node>();
  const repeated = new Set<ts.Node>();
  for (const name of names) {
    if (fetch.has(name) || repeated.has(name) || asked(name)) continue;
    // Each read of a name decodes it anew from the file's bytes: read once.
    const text = syntax.isIdentifier(name) && isReference(syntax, name) ? name.text : undefined;
    if (text !== undefined && !shadowed.has(text)) {
      const first = firstByName.get(text);
      if (first !== undefined) {
        same.push([name, first]);
        repeated.add(name);
        continue;
      }
      firstByName.set(text, name);
    }
    fetch.add(name);
  }
  return { fetch: [...fetch], same };
}

/*
 * Whether `name` is read as a value where it stands, a name its scope resolves: a call's callee or
 * argument, a property access's receiver, a decorator. Not every site name is: a decorated
 * method's name is the method's (`static forecast()` beside a function `forecast`, case 182), a
 * shorthand property (`{ forecast }`) the property's.
 */
function isReference(syntax: SyntaxPort, name: ts.Identifier): boolean {
  const parent = name.parent;
  if (syntax.isCallExpression(parent)) return parent.expression === name || parent.arguments.includes(name);
  if (syntax.isPropertyAccessExpression(parent)) return parent.expression === name;
  return syntax.isDecorator(parent);
}
