/*
 * The parts of TypeScript 7's IPC API (`typescript/unstable/sync` in 7.0) this package uses,
 * declared here rather than imported: the API is loaded at run time from the project's own
 * TypeScript 7 install (its protocol is unversioned, so client and server must come from the same
 * package), and the repository itself builds with TypeScript 6. Everything else of the API is
 * left alone on purpose; a member added here is a dependency on an unstable API.
 */

/** An AST node as TypeScript 7 decodes it: the classic shape (kind, flags, parent, pos/end, fields). */
export interface NativeNode {
  readonly kind: number;
  readonly flags: number;
  readonly parent: NativeNode;
  readonly pos: number;
  readonly end: number;
  forEachChild<T>(visitor: (node: NativeNode) => T): T | undefined;
  getSourceFile(): NativeSourceFile;
}

export interface NativeSourceFile extends NativeNode {
  readonly fileName: string;
  readonly text: string;
  readonly isDeclarationFile: boolean;
  getLineAndCharacterOfPosition(position: number): { readonly line: number; readonly character: number };
}

export interface NativeNodeHandle {
  readonly kind: number;
  readonly path: string;
  resolve(project?: NativeProject): NativeNode | undefined;
}

export interface NativeSymbol {
  readonly id: number;
  readonly name: string;
  readonly escapedName: string;
  readonly flags: number;
  readonly declarations: readonly NativeNodeHandle[];
  readonly valueDeclaration: NativeNodeHandle | undefined;
}

export interface NativeType {
  readonly id: number;
  readonly flags: number;
  readonly objectFlags: number;
  readonly value: string | number | boolean | bigint;
  readonly intrinsicName: string;
  getSymbol(): NativeSymbol | undefined;
  getAliasSymbol(): NativeSymbol | undefined;
  getTypes(): readonly NativeType[] | undefined;
  /** A type reference's generic type (a request the first time a generic type is met). */
  getTarget(): NativeType | undefined;
}

export interface NativeSignature {
  readonly id: number;
  getTypeParameters(): readonly NativeType[];
}

export interface NativeChecker {
  getSymbolAtLocation(node: NativeNode): NativeSymbol | undefined;
  getSymbolAtLocation(nodes: readonly NativeNode[]): (NativeSymbol | undefined)[];
  /** The symbols at positions of a file, in one request, without materialising the file. */
  getSymbolAtPosition(fileName: string, positions: readonly number[]): (NativeSymbol | undefined)[];
  getTypeOfSymbol(symbol: NativeSymbol): NativeType | undefined;
  getTypeOfSymbol(symbols: readonly NativeSymbol[]): (NativeType | undefined)[];
  getDeclaredTypeOfSymbol(symbol: NativeSymbol): NativeType;
  getTypeAtLocation(node: NativeNode): NativeType | undefined;
  getTypeAtLocation(nodes: readonly NativeNode[]): (NativeType | undefined)[];
  getSignaturesOfType(type: NativeType, kind: number): readonly NativeSignature[];
  getResolvedSignature(node: NativeNode): NativeSignature | undefined;
  resolveName(name: string, meaning: number, location?: NativeNode, excludeGlobals?: boolean): NativeSymbol | undefined;
  getContextualType(node: NativeNode): NativeType | undefined;
  getNonNullableType(type: NativeType): NativeType | undefined;
  getTypeFromTypeNode(node: NativeNode): NativeType | undefined;
  getParameterType(signature: NativeSignature, index: number): NativeType | undefined;
  isTypeAssignableTo(source: NativeType, target: NativeType): boolean;
  getShorthandAssignmentValueSymbol(node: NativeNode): NativeSymbol | undefined;
  getTypeOfSymbolAtLocation(symbol: NativeSymbol, location: NativeNode): NativeType;
  getAnyType(): NativeType;
  getUndefinedType(): NativeType;
  typeToString(type: NativeType, enclosingDeclaration?: NativeNode, flags?: number): string;
  getReturnTypeOfSignature(signature: NativeSignature): NativeType | undefined;
  getPropertiesOfType(type: NativeType): readonly NativeSymbol[];
  getPropertyOfType(type: NativeType, name: string): NativeSymbol | undefined;
  getIndexInfosOfType(type: NativeType): readonly { readonly keyType: NativeType; readonly valueType: NativeType }[];
  getSignatureFromDeclaration(node: NativeNode): NativeSignature | undefined;
  getAliasedSymbol(symbol: NativeSymbol): NativeSymbol;
  getExportsOfModule(symbol: NativeSymbol): readonly NativeSymbol[];
  /** TypeScript 7.1 and later only. */
  getAwaitedType?(type: NativeType): NativeType | undefined;
}

export interface NativeDiagnostic {
  readonly fileName?: string | undefined;
  readonly pos: number;
  readonly end: number;
  readonly code: number;
  readonly category: number;
  readonly text: string;
}

/** The compiler options read here: `rootDirs` by the analysis, the rest by the start-up check's record of what resolution looked at. */
export interface NativeCompilerOptions {
  readonly rootDirs?: readonly string[];
  readonly paths?: Readonly<Record<string, readonly string[]>>;
  readonly baseUrl?: string;
  /** Where `paths` are resolved from: the folder of the tsconfig that set them (as TypeScript sets it). */
  readonly pathsBasePath?: string;
  readonly configFilePath?: string;
  readonly types?: readonly string[];
}

export interface NativeProgram {
  getSourceFile(fileName: string): NativeSourceFile | undefined;
  getSourceFileNames(): readonly string[];
  isSourceFileFromExternalLibrary(file: NativeSourceFile): boolean;
  /** Asked by file name, without materialising the file (cached per program by the API). */
  getSourceFileMetadata(fileName: string): { readonly isDefaultLibrary: boolean } | undefined;
  getSyntacticDiagnostics(file?: string): readonly NativeDiagnostic[];
  getCompilerOptions(): NativeCompilerOptions;
  getConfigFileParsingDiagnostics(): readonly NativeDiagnostic[];
}

export interface NativeProject {
  readonly configFileName: string;
  readonly rootFiles: readonly string[];
  readonly program: NativeProgram;
  readonly checker: NativeChecker;
}

export interface NativeSnapshot {
  getProjects(): readonly NativeProject[];
  getProject(configFileName: string): NativeProject | undefined;
  dispose(): void;
}

export interface NativeApi {
  updateSnapshot(params: { openProjects: string[] }): NativeSnapshot;
  close(): void;
}

/** What `typescript/unstable/sync` (7.0) exports that this package uses. */
export interface NativeSyncModule {
  readonly API: new (options: { cwd?: string; tsserverPath?: string }) => NativeApi;
  readonly TypeFlags: Record<string, number>;
  readonly SymbolFlags: Record<string, number>;
  readonly ObjectFlags: Record<string, number>;
  readonly SignatureKind: { readonly Call: number };
}

/** What `typescript/unstable/ast` exports: the enums and node predicates (`is*`). */
export type NativeAstModule = Record<string, unknown> & {
  readonly SyntaxKind: Record<string, number>;
  readonly NodeFlags: Record<string, number>;
};
