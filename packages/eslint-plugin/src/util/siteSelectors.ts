/**
 * The ESTree node types typescript-estree produces from each TypeScript node kind the analysis may
 * report on. One ESTree type may come from several TS kinds (both member accesses become
 * `MemberExpression`) and the converse; `analyzeNode` filters every visited node
 * with the analysis' own prefilter, so a wide entry costs a check, never a wrong report.
 */
const ESTREE_TYPES_OF_KIND: Readonly<Record<string, readonly string[]>> = {
  CallExpression: ["CallExpression", "ImportExpression"],
  Decorator: ["Decorator"],
  Identifier: ["Identifier", "JSXIdentifier"],
  PropertyAccessExpression: ["MemberExpression", "JSXMemberExpression"],
  ElementAccessExpression: ["MemberExpression"],
};

/** Every node: for a kind this table does not know, completeness beats speed. */
const EVERY_NODE = "*";

/** The ESLint selectors that reach every node of the kinds (`ts.SyntaxKind` names) in `siteKinds`. */
export function siteSelectors(siteKinds: Iterable<string>): string[] {
  const selectors = new Set<string>();
  for (const kind of siteKinds) {
    const types = ESTREE_TYPES_OF_KIND[kind];
    if (!types) return [EVERY_NODE];
    for (const type of types) selectors.add(type);
  }
  return [...selectors];
}
