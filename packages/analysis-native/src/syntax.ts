import { SYNTAX_PORT_MEMBERS, type SyntaxPort, type SyntaxPortMember } from "@sourced/analysis";
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
  // The classic `getJSDocCommentsAndTags`, over the `jsDoc` arrays TypeScript 7's nodes carry:
  // TypeScript 7's own `getJSDocTags` returns only tags (none for a JSDoc without any), and walks
  // to the host's JSDoc by other rules.
  const variableLike = new Set([SyntaxKind.BindingElement, SyntaxKind.EnumMember, SyntaxKind.Parameter, SyntaxKind.PropertyAssignment, SyntaxKind.PropertyDeclaration, SyntaxKind.PropertySignature, SyntaxKind.ShorthandPropertyAssignment, SyntaxKind.VariableDeclaration]);
  const firstAssignment = SyntaxKind.FirstAssignment ?? SyntaxKind.EqualsToken!;
  const lastAssignment = SyntaxKind.LastAssignment ?? SyntaxKind.EqualsToken!;
  type Doc = NativeNode & { readonly jsDoc?: readonly Doc[]; readonly tags?: readonly Doc[]; readonly initializer?: Doc; readonly name?: Doc & { readonly text?: string }; readonly expression?: Doc; readonly operatorToken?: NativeNode; readonly right?: Doc; readonly declarationList?: { readonly declarations: readonly Doc[] }; readonly parameters?: readonly Doc[] };
  const isAssignment = (node: Doc): boolean => node.kind === SyntaxKind.BinaryExpression && node.operatorToken!.kind >= firstAssignment && node.operatorToken!.kind <= lastAssignment;
  const firstVariable = (node: Doc | undefined): Doc | undefined => (node !== undefined && node.kind === SyntaxKind.VariableStatement ? node.declarationList?.declarations[0] : undefined);
  const singleInitializer = (node: Doc): Doc | undefined =>
    node.kind === SyntaxKind.VariableStatement ? firstVariable(node)?.initializer : node.kind === SyntaxKind.PropertyDeclaration || node.kind === SyntaxKind.PropertyAssignment ? node.initializer : undefined;
  const defaultedAssignment = (node: Doc): boolean => {
    const expression = node.kind === SyntaxKind.ExpressionStatement ? node.expression : undefined;
    const right = expression !== undefined && isAssignment(expression) ? expression.right : undefined;
    return right !== undefined && right.kind === SyntaxKind.BinaryExpression && (right.operatorToken!.kind === SyntaxKind.BarBarToken || right.operatorToken!.kind === SyntaxKind.QuestionQuestionToken);
  };
  const nextLocation = (node: Doc): Doc | undefined => {
    const parent = node.parent as Doc;
    if (
      parent.kind === SyntaxKind.PropertyAssignment || parent.kind === SyntaxKind.ExportAssignment || parent.kind === SyntaxKind.PropertyDeclaration ||
      (parent.kind === SyntaxKind.ExpressionStatement && node.kind === SyntaxKind.PropertyAccessExpression) || parent.kind === SyntaxKind.ReturnStatement || isAssignment(node)
    ) return parent;
    const grandparent = parent.parent as Doc | undefined;
    if (grandparent !== undefined && (firstVariable(grandparent) === node || isAssignment(parent))) return grandparent;
    const great = grandparent?.parent as Doc | undefined;
    if (great !== undefined && (firstVariable(great) !== undefined || singleInitializer(great) === node || defaultedAssignment(great))) return great;
    return undefined;
  };
  const ownsTag = (host: NativeNode, tag: Doc): boolean =>
    !(tag.kind === SyntaxKind.JSDocTypeTag || tag.kind === SyntaxKind.JSDocSatisfiesTag) || tag.parent?.kind !== SyntaxKind.JSDoc || tag.parent.parent?.kind !== SyntaxKind.ParenthesizedExpression || tag.parent.parent === host;
  const owned = (host: NativeNode, comments: readonly Doc[]): Doc[] =>
    comments.flatMap((doc, index) => {
      if (index !== comments.length - 1) return (doc.tags ?? []).filter((tag) => tag.kind === SyntaxKind.JSDocOverloadTag);
      const tags = doc.tags ?? [];
      const ownedTags = tags.filter((tag) => ownsTag(host, tag));
      return ownedTags.length === tags.length ? [doc] : ownedTags;
    });
  const parameterTags = (parameter: Doc): Doc[] => {
    const fn = parameter.parent as Doc;
    const tags = jsDocTags(fn).filter((tag) => tag.kind === SyntaxKind.JSDocParameterTag) as Doc[];
    const name = parameter.name;
    if (name !== undefined && name.kind === SyntaxKind.Identifier) return tags.filter((tag) => tag.name !== undefined && tag.name.kind === SyntaxKind.Identifier && tag.name.text === name.text);
    const index = fn.parameters?.indexOf(parameter) ?? -1;
    const topLevel = tags.filter((tag) => tag.name?.kind === SyntaxKind.Identifier);
    return index >= 0 && topLevel[index] !== undefined ? [topLevel[index]!] : [];
  };
  function jsDocCommentsAndTags(host: NativeNode): readonly NativeNode[] {
    const result: Doc[] = [];
    const hostDoc = host as Doc;
    if (variableLike.has(host.kind) && hostDoc.initializer?.jsDoc !== undefined && hostDoc.initializer.jsDoc.length > 0) result.push(...owned(host, hostDoc.initializer.jsDoc));
    for (let node: Doc | undefined = hostDoc; node !== undefined && node.parent !== undefined; node = nextLocation(node)) {
      if (node.jsDoc !== undefined && node.jsDoc.length > 0) result.push(...owned(host, node.jsDoc));
      if (node.kind === SyntaxKind.Parameter) {
        result.push(...parameterTags(node));
        break;
      }
      if (node.kind === SyntaxKind.TypeParameter) break;
    }
    return result;
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
