import type * as ts from "typescript";

/*
 * The narrow surface the analysis is written against. Every compiler call the judgement makes is
 * named here, so a call outside it fails to compile, and a second compiler (TypeScript 7's native
 * checker, through `@sourced/analysis-native`) only has to provide these members to give the same
 * verdicts. The classic adapter is the identity: `typeof ts`, a `ts.Program` and its
 * `ts.TypeChecker` already are these ports, so the transformer, the ESLint rule and the CLI on
 * TypeScript 5.x/6.x pay nothing for them.
 *
 * Nodes, types, symbols and signatures keep the classic shapes; a port provides objects with the
 * members the analysis reads (`type.flags`, `type.types`, `type.getCallSignatures()`,
 * `symbol.declarations`, …), each object the same for the same entity (the analysis caches by
 * identity).
 */

/** The syntax port: kinds, flags, predicates, traversal, and the few node helpers the analysis uses. */
export type SyntaxPort = Pick<
  typeof ts,
  // enums
  | "SyntaxKind"
  | "NodeFlags"
  | "TypeFlags"
  | "SymbolFlags"
  | "ObjectFlags"
  | "IndexKind"
  // traversal and helpers
  | "forEachChild"
  | "findAncestor"
  | "getCombinedNodeFlags"
  | "isOptionalChain"
  | "canHaveModifiers"
  | "getModifiers"
  | "getJSDocCommentsAndTags"
  | "getJSDocReturnType"
  | "getJSDocType"
  | "isConstTypeReference"
  // predicates
  | "isArrayBindingPattern"
  | "isArrayLiteralExpression"
  | "isArrowFunction"
  | "isAsExpression"
  | "isAwaitExpression"
  | "isBinaryExpression"
  | "isBindingElement"
  | "isBlock"
  | "isCallExpression"
  | "isCallSignatureDeclaration"
  | "isClassDeclaration"
  | "isComputedPropertyName"
  | "isConditionalExpression"
  | "isDecorator"
  | "isElementAccessExpression"
  | "isEnumDeclaration"
  | "isExportAssignment"
  | "isExportDeclaration"
  | "isExpression"
  | "isExpressionStatement"
  | "isExternalModuleReference"
  | "isForInStatement"
  | "isForOfStatement"
  | "isFunctionDeclaration"
  | "isFunctionExpression"
  | "isFunctionLike"
  | "isFunctionTypeNode"
  | "isIdentifier"
  | "isImportDeclaration"
  | "isImportEqualsDeclaration"
  | "isInterfaceDeclaration"
  | "isJsxExpression"
  | "isJsxSpreadAttribute"
  | "isMethodDeclaration"
  | "isMethodSignature"
  | "isModuleDeclaration"
  | "isNamespaceImport"
  | "isNewExpression"
  | "isNonNullExpression"
  | "isNumericLiteral"
  | "isObjectBindingPattern"
  | "isObjectLiteralExpression"
  | "isOmittedExpression"
  | "isParameter"
  | "isParenthesizedExpression"
  | "isPrivateIdentifier"
  | "isPropertyAccessExpression"
  | "isPropertyAssignment"
  | "isPropertyDeclaration"
  | "isPropertySignature"
  | "isReturnStatement"
  | "isSatisfiesExpression"
  | "isShorthandPropertyAssignment"
  | "isSourceFile"
  | "isSpreadAssignment"
  | "isSpreadElement"
  | "isStringLiteral"
  | "isStringLiteralLike"
  | "isTaggedTemplateExpression"
  | "isTemplateSpan"
  | "isThrowStatement"
  | "isTypeAliasDeclaration"
  | "isTypeAssertionExpression"
  | "isTypeNode"
  | "isVariableDeclaration"
  | "isVariableDeclarationList"
  | "isVariableStatement"
  | "isVoidExpression"
  | "isYieldExpression"
>;

/** Every member name of {@link SyntaxPort}, for adapters that check at run time that they provide it. */
export type SyntaxPortMember = keyof SyntaxPort;

/**
 * The checker port: the checker methods the analysis calls. `resolveName` takes the classic
 * argument order `(name, location, meaning, excludeGlobals)`; `getSymbolsInScope` is only the
 * fallback for a classic checker without `resolveName`.
 */
export type CheckerPort = Pick<
  ts.TypeChecker,
  | "getAliasedSymbol"
  | "getAnyType"
  | "getAwaitedType"
  | "getContextualType"
  | "getDeclaredTypeOfSymbol"
  | "getExportsOfModule"
  | "getIndexTypeOfType"
  | "getNonNullableType"
  | "getPropertiesOfType"
  | "getResolvedSignature"
  | "getReturnTypeOfSignature"
  | "getShorthandAssignmentValueSymbol"
  | "getSignatureFromDeclaration"
  | "getSymbolAtLocation"
  | "getSymbolsInScope"
  | "getTypeAtLocation"
  | "getTypeFromTypeNode"
  | "getTypeOfSymbol"
  | "getTypeOfSymbolAtLocation"
  | "getUndefinedType"
  | "isTypeAssignableTo"
  | "resolveName"
  | "typeToString"
> & {
  /**
   * Optional: told, before `sourceFile` is judged, its site candidates (see `SITE_NODE_KINDS`),
   * whose symbols (and those symbols' types) the analysis is about to ask for, as it asks for its
   * module specifiers' symbols: a checker whose every request is a round trip fetches them in one
   * batch. The answers must be those the single calls would give. `shadowed` holds the names the
   * file declares again in an inner scope: a reference of any other name reads one symbol wherever
   * it is in the file (symbols.ts asks it once per name), so one answer serves them all.
   */
  prefetch?(sourceFile: ts.SourceFile, sites: readonly ts.Node[], shadowed: ReadonlySet<string>): void;
  /**
   * Optional: told the nodes (of any files) whose symbols the analysis is about to ask for one by
   * one — every module name of the program, when it reads the module graph (reach.ts) — so a
   * checker whose every request is a round trip fetches them in one batch. The answers must be
   * those the single calls would give.
   */
  prefetchSymbols?(nodes: readonly ts.Node[]): void;
  /**
   * Optional, for a program that materialises files on demand: the canonical path (`path`) of each
   * file declaring `symbol`, without materialising those files; `undefined` when it has no
   * declarations. The module graph (reach.ts) reads the project's own files this way first.
   */
  declarationPathsOf?(symbol: ts.Symbol): readonly string[] | undefined;
  /**
   * Optional, for a program that materialises files on demand: the symbol at each position of the
   * file of this name (a module name's literal, at its opening quote, gives the module's symbol), in
   * one request, without materialising the file; `undefined` where there is none. Read with
   * `declarationPathsOf`: which packages a library's imports lead into (sealed-libraries.ts).
   */
  getSymbolsAtPositions?(fileName: string, positions: readonly number[]): readonly (ts.Symbol | undefined)[];
};

/** The program port: what the analysis reads of a program. */
export interface ProgramPort {
  getSourceFiles(): readonly ts.SourceFile[];
  getSourceFile(fileName: string): ts.SourceFile | undefined;
  isSourceFileFromExternalLibrary(sourceFile: ts.SourceFile): boolean;
  getTypeChecker(): CheckerPort;
  /**
   * Optional: the program's file names, for a program that materialises a file's syntax only on
   * demand (the native one). Without it the names come from `getSourceFiles()`.
   */
  getSourceFileNames?(): readonly string[];
  /**
   * Optional, for a program that materialises files on demand (it has `getSourceFileNames`): the
   * names of the files the module graph may be read from (reach.ts), every file of the program but
   * the compiler's own library files, told without a request (by where they are). Without it, such
   * a program is judged whole; a program without `getSourceFileNames` is read whole.
   */
  getModuleGraphFileNames?(): readonly string[];
  /**
   * Optional, for a program that materialises files on demand: the text of the file of this name
   * as it is on disk, the text the compiler read it from, without materialising the file;
   * `undefined` when it cannot be read. Libraries are judged from it (sealed-libraries.ts).
   */
  readFileText?(fileName: string): string | undefined;
  /** Optional (TypeScript's own `Program` has it): the program's compiler options, of which `rootDirs` is read. */
  getCompilerOptions?(): { readonly rootDirs?: readonly string[] | undefined };
  /**
   * Optional: whether file names differ by case on the program's file system. Declarations name
   * their files by canonical path, lower-cased where the case does not count.
   */
  useCaseSensitiveFileNames?(): boolean;
  /** Optional (TypeScript's own `Program` has it): whether `sourceFile` is one of the compiler's default library files. */
  isSourceFileDefaultLibrary?(sourceFile: ts.SourceFile): boolean;
  /**
   * Optional, for a program that materialises files on demand: the same told by a file's name or
   * canonical path (`CheckerPort.declarationPathsOf`), without materialising the file.
   */
  isDefaultLibraryFileName?(fileName: string): boolean;
}

/** The program's file names, without materialising every file when the program can say them. */
export function sourceFileNamesOf(program: ProgramPort): readonly string[] {
  return program.getSourceFileNames !== undefined ? program.getSourceFileNames() : program.getSourceFiles().map((sourceFile) => sourceFile.fileName);
}

/**
 * The end of the `)` that closes a signature's parameter list, found in the text after the last
 * parameter (past commas, whitespace and comments); `undefined` when the list has no parentheses
 * (an arrow's lone parameter, `x => …`). What `getChildren()` would find, without needing tokens.
 */
export function closeParenEnd(sourceFile: ts.SourceFile, parameters: ts.NodeArray<ts.Node>): number | undefined {
  const { text } = sourceFile;
  let position = parameters.end;
  while (position < text.length) {
    const char = text.charCodeAt(position);
    if (char === 0x29 /* ) */) return position + 1;
    if (char === 0x2c /* , */ || char === 0x20 || char === 0x09 || char === 0x0a || char === 0x0d || char === 0x0b || char === 0x0c || char === 0xa0 || char === 0xfeff || char === 0x2028 || char === 0x2029) {
      position++;
    } else if (char === 0x2f /* / */ && text.charCodeAt(position + 1) === 0x2f) {
      const newline = text.slice(position).search(/[\n\r\u2028\u2029]/);
      position = newline < 0 ? text.length : position + newline;
    } else if (char === 0x2f && text.charCodeAt(position + 1) === 0x2a /* * */) {
      const close = text.indexOf("*/", position + 2);
      position = close < 0 ? text.length : close + 2;
    } else {
      return undefined;
    }
  }
  return undefined;
}
