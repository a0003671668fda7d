import type { SyntaxPort, SyntaxPortMember } from "@sourced/analysis";
import type { NativeAstModule, NativeNode, NativeSyncModule } from "./native-api";

/**
 * The classic names of the predicates TypeScript 7 renamed, and the name each has there. Every
 * other `is*` of the syntax port has the same name in `typescript/unstable/ast`.
 */
const RENAMED: Partial<Record<SyntaxPortMember, string>> = {
  isParameter: "isParameterDeclaration",
  isTypeAssertionExpression: "isTypeAssertion",
  isPropertySignature: "isPropertySignatureDeclaration",
  isMethodSignature: "isMethodSignatureDeclaration",
  isStringLiteralLike: "isStringLiteralLikeNode",
};

type Node = NativeNode & { readonly modifiers?: readonly NativeNode[] };
type JSDocTag = NativeNode & { readonly typeExpression?: NativeNode & { readonly type: NativeNode } };

/**
 * The syntax port over TypeScript 7's AST: its enums (whose numbers differ from TypeScript 6's),
 * its predicates, and the few classic helpers it does not export, written here as the classic
 * compiler defines them.
 */
export function createSyntaxPort(ast: NativeAstModule, sync: NativeSyncModule): SyntaxPort {
  const { SyntaxKind, NodeFlags } = ast;
  const predicate = (name: string): ((node: NativeNode) => boolean) => {
    const found = ast[name];
    if (typeof found !== "function") throw new Error(`TypeScript 7's AST module has no '${name}'`);
    return found as (node: NativeNode) => boolean;
  };
  const isSignatureDeclaration = predicate("isSignatureDeclaration");
  const functionLikeExtra = new Set([SyntaxKind.JSDocSignature, SyntaxKind.JSDocFunctionType].filter((kind) => kind !== undefined));
  const optionalChainKinds = new Set([SyntaxKind.PropertyAccessExpression, SyntaxKind.ElementAccessExpression, SyntaxKind.CallExpression, SyntaxKind.NonNullExpression]);

  const helpers = {
    SyntaxKind,
    NodeFlags,
    TypeFlags: sync.TypeFlags,
    SymbolFlags: sync.SymbolFlags,
    ObjectFlags: sync.ObjectFlags,
    forEachChild: <T>(node: NativeNode, visit: (child: NativeNode) => T): T | undefined => node.forEachChild(visit),
    findAncestor: (node: NativeNode | undefined, test: (node: NativeNode) => boolean | "quit"): NativeNode | undefined => {
      while (node !== undefined) {
        const verdict = test(node);
        if (verdict === "quit") return undefined;
        if (verdict) return node;
        node = node.parent;
      }
      return undefined;
    },
    // The classic helper: a declaration's flags with its declaration list's and statement's.
    getCombinedNodeFlags: (node: NativeNode): number => {
      let current: NativeNode | undefined = node;
      while (current !== undefined && (current.kind === SyntaxKind.BindingElement || current.kind === SyntaxKind.ObjectBindingPattern || current.kind === SyntaxKind.ArrayBindingPattern)) {
        current = current.parent;
      }
      if (current === undefined) return node.flags;
      let flags = current.flags;
      if (current.kind === SyntaxKind.VariableDeclaration) current = current.parent;
      if (current !== undefined && current.kind === SyntaxKind.VariableDeclarationList) {
        flags |= current.flags;
        current = current.parent;
      }
      if (current !== undefined && current.kind === SyntaxKind.VariableStatement) flags |= current.flags;
      return flags;
    },
    isOptionalChain: (node: NativeNode): boolean => optionalChainKinds.has(node.kind) && (node.flags & NodeFlags.OptionalChain!) !== 0,
    canHaveModifiers: (node: Node): boolean => node.modifiers !== undefined || "modifiers" in node,
    getModifiers: (node: Node): readonly NativeNode[] | undefined => node.modifiers?.filter((modifier) => modifier.kind !== SyntaxKind.Decorator),
    isFunctionLike: (node: NativeNode | undefined): boolean => node !== undefined && (isSignatureDeclaration(node) || functionLikeExtra.has(node.kind)),
    /** The classic enum's values: the checker port's `getIndexTypeOfType` reads them. */
    IndexKind: { String: 0, Number: 1 },
    isConstTypeReference: (node: NativeNode): boolean => {
      const reference = node as NativeNode & { typeName?: NativeNode & { text?: string }; typeArguments?: unknown };
      return node.kind === SyntaxKind.TypeReference && reference.typeName?.kind === SyntaxKind.Identifier && reference.typeName?.text === "const" && reference.typeArguments === undefined;
    },
    // TypeScript 7's `getJSDocTags` is the classic `getJSDocCommentsAndTags` (JSDoc nodes and the
    // tags of their hosts); the classic getters are written over it as the classic compiler does.
    getJSDocCommentsAndTags: (node: NativeNode): readonly NativeNode[] => jsDocCommentsAndTags(node),
    getJSDocReturnType: (node: NativeNode): NativeNode | undefined => {
      const tags = jsDocTags(node);
      const returns = tags.find((tag) => tag.kind === SyntaxKind.JSDocReturnTag) as JSDocTag | undefined;
      if (returns?.typeExpression !== undefined) return returns.typeExpression.type;
      const typeTag = tags.find((tag) => tag.kind === SyntaxKind.JSDocTypeTag) as JSDocTag | undefined;
      const type = typeTag?.typeExpression?.type as (NativeNode & { members?: readonly NativeNode[]; type?: NativeNode }) | undefined;
      if (type === undefined) return undefined;
      if (type.kind === SyntaxKind.TypeLiteral) return (type.members?.find((member) => member.kind === SyntaxKind.CallSignature) as { type?: NativeNode } | undefined)?.type;
      if (type.kind === SyntaxKind.FunctionType || type.kind === SyntaxKind.JSDocFunctionType) return type.type;
      return undefined;
    },
    getJSDocType: (node: NativeNode): NativeNode | undefined => {
      const tags = jsDocTags(node);
      let tag = tags.find((candidate) => candidate.kind === SyntaxKind.JSDocTypeTag) as JSDocTag | undefined;
      if (tag === undefined && node.kind === SyntaxKind.Parameter) tag = tags.find((candidate) => candidate.kind === SyntaxKind.JSDocParameterTag && (candidate as JSDocTag).typeExpression !== undefined) as JSDocTag | undefined;
      return tag?.typeExpression?.type;
    },
  };
  function jsDocCommentsAndTags(node: NativeNode): readonly NativeNode[] {
    const getJSDocTags = ast.getJSDocTags as ((node: NativeNode) => readonly NativeNode[]) | undefined;
    if (typeof getJSDocTags !== "function") throw new Error("TypeScript 7's AST module has no 'getJSDocTags'");
    return getJSDocTags(node);
  }
  /** The tags of a node's JSDoc, flattened as the classic `getJSDocTags` gives them. */
  function jsDocTags(node: NativeNode): NativeNode[] {
    return jsDocCommentsAndTags(node).flatMap((item) => (item.kind === SyntaxKind.JSDoc ? [...((item as NativeNode & { tags?: readonly NativeNode[] }).tags ?? [])] : [item]));
  }

  const port: Record<string, unknown> = { ...helpers };
  for (const member of SYNTAX_PORT_MEMBERS) {
    if (member in port) continue;
    port[member] = predicate(RENAMED[member] ?? member);
  }
  return port as unknown as SyntaxPort;
}

/**
 * Every member of the syntax port. `satisfies` keeps this list and the port's type in step: a
 * member added to the port and missing here (or misspelt here) fails to compile.
 */
export const SYNTAX_PORT_MEMBERS = [
  "SyntaxKind", "NodeFlags", "TypeFlags", "SymbolFlags", "ObjectFlags",
  "forEachChild", "findAncestor", "getCombinedNodeFlags", "isOptionalChain", "canHaveModifiers", "getModifiers",
  "isArrayBindingPattern", "isArrayLiteralExpression", "isArrowFunction", "isAsExpression", "isAwaitExpression",
  "isBinaryExpression", "isBindingElement", "isCallExpression", "isCallSignatureDeclaration", "isClassDeclaration",
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
