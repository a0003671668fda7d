import type { SyntaxPort, SyntaxPortMember } from "./ports.js";

/**
 * Every member of the syntax port, for the ports that build one and for {@link fastSyntaxPort}.
 * `satisfies` keeps this list and the port's type in step: a member added to the port and missing
 * here (or misspelt here) fails to compile.
 */
export const SYNTAX_PORT_MEMBERS = [
  "SyntaxKind", "NodeFlags", "TypeFlags", "SymbolFlags", "ObjectFlags", "IndexKind",
  "forEachChild", "findAncestor", "getCombinedNodeFlags", "isOptionalChain", "canHaveModifiers", "getModifiers",
  "getJSDocCommentsAndTags", "getJSDocReturnType", "getJSDocType", "isConstTypeReference",
  "isExpressionStatement", "isForInStatement", "isForOfStatement", "isVariableDeclarationList", "isVoidExpression",
  "isArrayBindingPattern", "isArrayLiteralExpression", "isArrowFunction", "isAsExpression", "isAwaitExpression",
  "isBinaryExpression", "isBindingElement", "isBlock", "isCallExpression", "isCallSignatureDeclaration", "isClassDeclaration",
  "isComputedPropertyName", "isConditionalExpression", "isDecorator", "isElementAccessExpression", "isEnumDeclaration",
  "isExportAssignment", "isExportDeclaration", "isExpression", "isExternalModuleReference", "isFunctionDeclaration",
  "isFunctionExpression", "isFunctionLike", "isFunctionTypeNode", "isIdentifier", "isImportDeclaration",
  "isImportEqualsDeclaration", "isInterfaceDeclaration", "isJsxExpression", "isJsxSpreadAttribute", "isMethodDeclaration",
  "isMethodSignature", "isModuleDeclaration", "isNamespaceImport", "isNewExpression", "isNonNullExpression",
  "isNumericLiteral", "isObjectBindingPattern", "isObjectLiteralExpression", "isOmittedExpression", "isParameter",
  "isParenthesizedExpression", "isPrivateIdentifier", "isPropertyAccessExpression", "isPropertyAssignment",
  "isPropertyDeclaration", "isPropertySignature", "isReturnStatement", "isSatisfiesExpression",
  "isShorthandPropertyAssignment", "isSourceFile", "isSpreadAssignment", "isSpreadElement", "isStringLiteral",
  "isStringLiteralLike", "isTaggedTemplateExpression", "isTemplateSpan", "isThrowStatement", "isTypeAliasDeclaration",
  "isTypeAssertionExpression", "isTypeNode", "isVariableDeclaration", "isVariableStatement", "isYieldExpression",
] as const satisfies readonly SyntaxPortMember[];

// The other direction: every member of the port is in the list.
type Missing = Exclude<SyntaxPortMember, (typeof SYNTAX_PORT_MEMBERS)[number]>;
const _complete: [Missing] extends [never] ? true : Missing = true;
void _complete;

/** The port made of each compiler's syntax, and the ports made here (given again, returned as they are). */
const fastPorts = new WeakMap<SyntaxPort, SyntaxPort>();
const made = new WeakSet<SyntaxPort>();

/**
 * The syntax port with each of its members an own data property, made once per compiler.
 *
 * Why: the analysis reads a member of the port for nearly every node it walks (`ts.isIdentifier`,
 * and a `switch` over `case ts.SyntaxKind.X:` reads one for every case it passes). TypeScript's
 * module object has over two thousand exports, each a getter, so V8 keeps it as a dictionary: every
 * such read is a hash lookup and a getter call, several times the work of the test it serves. A
 * port built member by member (TypeScript 7's) ends as a dictionary too. An object of the port's
 * hundred members, defined at once, keeps fast properties. Anything else is still read from the
 * compiler itself, its prototype.
 */
export function fastSyntaxPort(ts: SyntaxPort): SyntaxPort {
  if (made.has(ts)) return ts;
  let port = fastPorts.get(ts);
  if (port === undefined) {
    const descriptors: PropertyDescriptorMap = {};
    for (const member of SYNTAX_PORT_MEMBERS) descriptors[member] = { value: ts[member], enumerable: true };
    port = Object.create(ts, descriptors) as SyntaxPort;
    fastPorts.set(ts, port);
    made.add(port);
  }
  return port;
}
