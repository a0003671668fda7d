import type * as ts from "typescript";
import type { CheckerPort, SyntaxPort } from "@sourced/analysis";
import { AwaitedTypes } from "./awaited";
import type { NativeChecker, NativeNode, NativeProject, NativeSignature, NativeSymbol, NativeSyncModule, NativeType } from "./native-api";
import { moduleSpecifiers, namesOnce, optionValues, returnAnnotations, siteNames } from "./prefetch";
import { NATIVE, PortSignature, PortSymbol, PortType, type WrappingChecker } from "./wrappers";

/*
 * The checker port over TypeScript 7's native checker. The analysis reads types, symbols and
 * signatures through their classic members; TypeScript 7 hands out objects of another shape, so
 * each is wrapped once (wrappers.ts): one wrapper per native object, so that the analysis'
 * identity caches keep working. Every question is a round trip to TypeScript 7's process, so the
 * port asks each one once and keeps the answer, asks ahead in batches what a file's sites will
 * need (prefetch.ts), and answers without asking where the answer is known. The caches live as
 * long as the project's snapshot, the lifetime of the native objects themselves.
 *
 * The wrappers and `getAwaitedType`'s emulation (awaited.ts) know this class only as the
 * `WrappingChecker` declared beside the wrappers, so the files import one another one way only.
 */

/** The key of `getTypeOfSymbolAtLocation`'s answers that hold at any location (see `locationMatters`). */
const ANY_LOCATION = Symbol("any location");

/**
 * Typed with the wrappers, not the classic types it stands in for: `asCheckerPort` is the one
 * place that says this class is the analysis' checker port.
 */
export class NativeCheckerPort implements WrappingChecker {
  private readonly types = new Map<NativeType, PortType>();
  private readonly symbols = new Map<NativeSymbol, PortSymbol>();
  private readonly signatures = new Map<NativeSignature, PortSignature>();
  /** Answers of `getSymbolAtLocation`, filled in batches by `prefetch`. */
  private readonly symbolsAt = new Map<NativeNode, PortSymbol | null>();
  /** A reference `prefetch` left out -> the earlier reference of the same name in its file whose answer is its own. */
  private readonly sameSymbolAs = new Map<NativeNode, NativeNode>();
  /** Answers of `getTypeOfSymbol`, filled in batches by `prefetch`. */
  private readonly typesOfSymbols = new Map<PortSymbol, PortType>();
  private readonly awaited = new AwaitedTypes(this);
  /** Answers of `getTypeFromTypeNode` for registered functions' return annotations, filled by `prefetch`. */
  private readonly typesOfTypeNodes = new Map<NativeNode, PortType>();
  /*
   * Every other question whose answer cannot change within the snapshot, answered once: each is a
   * round trip to TypeScript 7's process, and the analysis asks the same ones again and again (the
   * contract's parts for every registration, a call's signature for the site walk and again for
   * the judgement). On the mid-size tool-heavy project about 22,000 of 35,000 requests were
   * repeats (docs/performance.md, measure 6).
   */
  private readonly nonNullableTypes = new Map<PortType, PortType>();
  private readonly indexInfos = new Map<PortType, readonly { readonly keyType: NativeType; readonly valueType: NativeType }[]>();
  private readonly assignable = new Map<PortType, Map<PortType, boolean>>();
  private readonly typesOfSymbolsAt = new Map<PortSymbol, Map<NativeNode | typeof ANY_LOCATION, PortType>>();
  private readonly resolvedSignatures = new Map<NativeNode, PortSignature | null>();
  private readonly typesAt = new Map<NativeNode, PortType>();
  private readonly contextualTypes = new Map<NativeNode, PortType | null>();
  private readonly aliasedSymbols = new Map<PortSymbol, PortSymbol>();
  /** A module's exports by name, for `importedExport`. */
  private readonly exportsByName = new Map<PortSymbol, Map<string, PortSymbol>>();
  private readonly signaturesOfDeclarations = new Map<NativeNode, PortSignature | null>();
  readonly SignatureKindCall: number;

  constructor(
    readonly native: NativeChecker,
    readonly project: NativeProject,
    readonly sync: NativeSyncModule,
    private readonly syntax: SyntaxPort,
  ) {
    this.SignatureKindCall = sync.SignatureKind.Call;
  }

  // --- wrapping -------------------------------------------------------------------------------

  type(native: NativeType): PortType;
  type(native: NativeType | undefined): PortType | undefined;
  type(native: NativeType | undefined): PortType | undefined {
    return once(this.types, native, () => new PortType(this, native!));
  }

  symbol(native: NativeSymbol): PortSymbol;
  symbol(native: NativeSymbol | undefined): PortSymbol | undefined;
  symbol(native: NativeSymbol | undefined): PortSymbol | undefined {
    return once(this.symbols, native, () => new PortSymbol(this, native!));
  }

  signature(native: NativeSignature | undefined): PortSignature | undefined {
    return once(this.signatures, native, () => new PortSignature(this, native!));
  }

  // --- the port -------------------------------------------------------------------------------

  /** What the analysis will ask about a file and its registration sites (prefetch.ts), asked in a few batched requests. */
  prefetch(sourceFile: ts.SourceFile, sites: readonly ts.Node[], shadowed: ReadonlySet<string>): void {
    const { syntax } = this;
    this.fetchSymbols(this.moduleSpecifiersToFetch(sourceFile), false);
    const values = optionValues(syntax, sites).map(asNative).filter((node) => !this.typesAt.has(node));
    this.fetchSymbols(this.namesToFetch(siteNames(syntax, sites), shadowed), true);
    // The type at a type node is the type it denotes, and only `getTypeAtLocation` takes arrays:
    // the annotations come in one request with the values.
    const annotations = returnAnnotations(syntax, sites).map(asNative).filter((node) => !this.typesOfTypeNodes.has(node));
    const unique = [...new Set(values)];
    if (annotations.length + unique.length === 0) return;
    const types = this.native.getTypeAtLocation([...annotations, ...unique]);
    annotations.forEach((node, index) => {
      const type = this.type(types[index]);
      if (type !== undefined) this.typesOfTypeNodes.set(node, type);
    });
    unique.forEach((node, index) => this.typesAt.set(node, this.type(types[annotations.length + index]) ?? this.any()));
  }

  /** Symbols of nodes of any files in one batched request (the program's module names, for the module graph). */
  prefetchSymbols(nodes: readonly ts.Node[]): void {
    this.fetchSymbols([...new Set(nodes.map(asNative))].filter((node) => !this.symbolsAt.has(node)), false);
  }

  /** The paths of the files declaring `symbol`, read from its declarations' handles (nothing is fetched). */
  declarationPathsOf(symbol: PortSymbol): readonly string[] | undefined {
    return symbol[NATIVE].declarations?.map((handle) => handle.path);
  }

  /** The symbols at positions of a file, in one request, the file not materialised (a library's module names, read from its text). */
  getSymbolsAtPositions(fileName: string, positions: readonly number[]): (PortSymbol | undefined)[] {
    return this.native.getSymbolAtPosition(fileName, positions).map((symbol) => this.symbol(symbol));
  }

  /* The site names not asked yet, each name read as a value once per file (`namesOnce`, prefetch.ts); the others answered with the first's. */
  private namesToFetch(names: readonly ts.Node[], shadowed: ReadonlySet<string>): NativeNode[] {
    const asked = (node: ts.Node): boolean => this.symbolsAt.has(asNative(node)) || this.sameSymbolAs.has(asNative(node));
    const { fetch, same } = namesOnce(this.syntax, names, shadowed, asked);
    for (const [repeat, first] of same) this.sameSymbolAs.set(asNative(repeat), asNative(first));
    return fetch.map(asNative);
  }

  /** A file's module specifiers not asked yet (prefetch.ts). */
  private moduleSpecifiersToFetch(sourceFile: ts.SourceFile): NativeNode[] {
    return moduleSpecifiers(this.syntax, sourceFile).map(asNative).filter((node) => !this.symbolsAt.has(node));
  }

  /** Symbols of `nodes` in one batched request, and (`withTypes`) those symbols' types in another. */
  private fetchSymbols(nodes: readonly NativeNode[], withTypes: boolean): void {
    if (nodes.length === 0) return;
    const found = this.native.getSymbolAtLocation(nodes);
    const needTypes: PortSymbol[] = [];
    nodes.forEach((node, index) => {
      const symbol = this.symbol(found[index]);
      this.symbolsAt.set(node, symbol ?? null);
      if (withTypes && symbol !== undefined && !this.typesOfSymbols.has(symbol) && !needTypes.includes(symbol)) needTypes.push(symbol);
    });
    if (needTypes.length === 0) return;
    const types = this.native.getTypeOfSymbol(needTypes.map((symbol) => symbol[NATIVE]));
    needTypes.forEach((symbol, index) => {
      const type = this.type(types[index]);
      if (type !== undefined) this.typesOfSymbols.set(symbol, type);
    });
  }

  getSymbolAtLocation(node: ts.Node): PortSymbol | undefined {
    const native = asNative(node);
    const same = this.sameSymbolAs.get(native);
    let known = this.symbolsAt.get(same ?? native);
    if (known === undefined && node.kind === this.syntax.SyntaxKind.StringLiteral && this.syntax.isSourceFile(node.parent.parent)) {
      // A module specifier of a file not judged yet: fetch all of that file's at once.
      this.fetchSymbols(this.moduleSpecifiersToFetch(node.parent.parent), false);
      known = this.symbolsAt.get(native);
    }
    if (known !== undefined) return known ?? undefined;
    const symbol = this.symbol(this.native.getSymbolAtLocation(native));
    this.symbolsAt.set(native, symbol ?? null);
    return symbol;
  }

  getTypeOfSymbol(symbol: PortSymbol): PortType {
    const port = symbol;
    let type = this.typesOfSymbols.get(port);
    if (type === undefined) {
      type = this.type(this.native.getTypeOfSymbol(port[NATIVE])) ?? this.any();
      this.typesOfSymbols.set(port, type);
    }
    return type;
  }

  /*
   * The types of a type's symbol-keyed properties (`[Symbol.iterator]`, the registration mark), in
   * one batched request: the mark is looked for among them on every distinct type the analysis
   * meets (an array type of each module's records, each registration's decorator type), one
   * `getTypeOfSymbolAtLocation` each at their declarations (614 requests on the mid-size tool-heavy
   * project, docs/performance.md). At a declaration (not an identifier) that answer is the
   * property's type without the missing type of an optional property under
   * `exactOptionalPropertyTypes` (see `locationMatters`): the same as `getTypeOfSymbol` for a
   * property that is not optional, the only ones prefetched.
   */
  prefetchSymbolKeyedTypes(properties: readonly PortSymbol[]): void {
    const { SymbolFlags } = this.sync;
    const wanted = properties.filter((property) => property.escapedName.startsWith("__@") && !(property.flags & SymbolFlags.Optional!) && !this.typesOfSymbolsAt.get(property)?.has(ANY_LOCATION));
    if (wanted.length === 0) return;
    const types = this.native.getTypeOfSymbol(wanted.map((property) => property[NATIVE]));
    wanted.forEach((property, index) => {
      const type = this.type(types[index]);
      if (type === undefined) return;
      let byLocation = this.typesOfSymbolsAt.get(property);
      if (byLocation === undefined) this.typesOfSymbolsAt.set(property, (byLocation = new Map()));
      byLocation.set(ANY_LOCATION, type);
    });
  }

  getTypeOfSymbolAtLocation(symbol: PortSymbol, location: ts.Node): PortType {
    let byLocation = this.typesOfSymbolsAt.get(symbol);
    if (byLocation === undefined) this.typesOfSymbolsAt.set(symbol, (byLocation = new Map()));
    const key = this.locationMatters(location) ? asNative(location) : ANY_LOCATION;
    return remember(byLocation, key, () => this.type(this.native.getTypeOfSymbolAtLocation(symbol[NATIVE], asNative(location))));
  }

  /*
   * Whether the checker's answer to `getTypeOfSymbolAtLocation(symbol, location)` can depend on
   * `location`. It reads the location only when it is an identifier (a reference, whose type flow
   * analysis may narrow; the name of a set accessor; the name of a property being written) or the
   * argument of an element access (`a["key"] = …`, the write type). Anywhere else it answers the
   * symbol's own type, so one answer serves every such location: the options check asks the type
   * of an option's property at each registration's value (an expression, rarely an identifier),
   * and the properties of an options type instantiated alike are the same symbols from call to
   * call (1,233 requests of this kind on the mid-size tool-heavy project, docs/performance.md).
   */
  private locationMatters(location: ts.Node): boolean {
    const { syntax } = this;
    if (syntax.isIdentifier(location) || syntax.isPrivateIdentifier(location)) return true;
    const parent = location.parent as ts.Node | undefined;
    return parent !== undefined && syntax.isElementAccessExpression(parent) && parent.argumentExpression === location;
  }

  getDeclaredTypeOfSymbol(symbol: PortSymbol): PortType {
    return this.type(this.native.getDeclaredTypeOfSymbol(symbol[NATIVE]));
  }

  getAliasedSymbol(symbol: PortSymbol): PortSymbol {
    return remember(this.aliasedSymbols, symbol, () => this.importedExport(symbol) ?? this.symbol(this.native.getAliasedSymbol(symbol[NATIVE])));
  }

  /*
   * What a named import (`import { f } from "./m"`) stands for, read from the exports of the
   * module it names: one request per module instead of one per importing name. Each file imports
   * its own names, so every alias is a new question, while the modules are few and their module
   * symbols already fetched with the file's specifiers (1,641 `getAliasedSymbol` requests on the
   * mid-size tool-heavy project, docs/performance.md). Only where the export found is the end of
   * the chain: an export that is itself an alias (`export { f } from "./n"`) or a property (the
   * members of an `export =` value), a type-only import, or anything but a named import is asked
   * of the checker as before; `undefined` says "ask".
   */
  private importedExport(alias: PortSymbol): PortSymbol | undefined {
    const { syntax, sync } = this;
    const handles = alias[NATIVE].declarations;
    if (handles === undefined || handles.length !== 1 || handles[0]!.kind !== syntax.SyntaxKind.ImportSpecifier) return undefined;
    const specifier = alias.declarations?.[0] as (ts.ImportSpecifier & { readonly isTypeOnly?: boolean }) | undefined;
    const clause = specifier?.parent?.parent as (ts.ImportClause & { readonly isTypeOnly?: boolean }) | undefined;
    const declaration = clause?.parent;
    if (specifier === undefined || specifier.isTypeOnly === true || clause?.isTypeOnly === true || declaration === undefined || !syntax.isImportDeclaration(declaration)) return undefined;
    const imported = specifier.propertyName ?? specifier.name;
    if (!syntax.isIdentifier(imported) && imported.kind !== syntax.SyntaxKind.StringLiteral) return undefined;
    const moduleSymbol = this.getSymbolAtLocation(declaration.moduleSpecifier);
    if (moduleSymbol === undefined) return undefined;
    const exported = remember(this.exportsByName, moduleSymbol, () => {
      const byName = new Map<string, PortSymbol>();
      for (const symbol of this.getExportsOfModule(moduleSymbol)) byName.set(symbol.name, symbol);
      return byName;
    }).get((imported as ts.Identifier | ts.StringLiteral).text);
    if (exported === undefined || exported.flags & (sync.SymbolFlags.Alias! | sync.SymbolFlags.Property!)) return undefined;
    return exported;
  }

  getExportsOfModule(symbol: PortSymbol): PortSymbol[] {
    return this.native.getExportsOfModule(symbol[NATIVE]).map((exported) => this.symbol(exported));
  }

  getPropertiesOfType(type: PortType): PortSymbol[] {
    return type.properties();
  }

  getTypeAtLocation(node: ts.Node): PortType {
    return remember(this.typesAt, asNative(node), () => this.type(this.native.getTypeAtLocation(asNative(node))) ?? this.any());
  }

  getTypeFromTypeNode(node: ts.TypeNode): PortType {
    const known = this.typesOfTypeNodes.get(asNative(node));
    if (known !== undefined) return known;
    return this.type(this.native.getTypeFromTypeNode(asNative(node))) ?? this.any();
  }

  getContextualType(node: ts.Expression): PortType | undefined {
    return remember(this.contextualTypes, asNative(node), () => this.type(this.native.getContextualType(asNative(node))) ?? null) ?? undefined;
  }

  getNonNullableType(type: PortType): PortType {
    return remember(this.nonNullableTypes, type, () => this.type(this.native.getNonNullableType(type[NATIVE])) ?? type);
  }

  getResolvedSignature(node: ts.CallLikeExpression): PortSignature | undefined {
    return remember(this.resolvedSignatures, asNative(node), () => this.signature(this.native.getResolvedSignature(asNative(node))) ?? null) ?? undefined;
  }

  getSignatureFromDeclaration(declaration: ts.SignatureDeclaration): PortSignature | undefined {
    return remember(this.signaturesOfDeclarations, asNative(declaration), () => this.signature(this.native.getSignatureFromDeclaration(asNative(declaration))) ?? null) ?? undefined;
  }

  getReturnTypeOfSignature(signature: PortSignature): PortType {
    return signature.returnType();
  }

  getShorthandAssignmentValueSymbol(node: ts.Node | undefined): PortSymbol | undefined {
    return node === undefined ? undefined : this.symbol(this.native.getShorthandAssignmentValueSymbol(asNative(node)));
  }

  isTypeAssignableTo(source: PortType, target: PortType): boolean {
    let byTarget = this.assignable.get(source);
    if (byTarget === undefined) this.assignable.set(source, (byTarget = new Map()));
    return remember(byTarget, target, () => this.primitiveLiteralAssignable(source, target) || this.native.isTypeAssignableTo(source[NATIVE], target[NATIVE]));
  }

  /*
   * What needs no round trip: a string, number or bigint literal type is assignable to its
   * primitive, and so to a union holding the primitive or the literal itself. The options check
   * asks exactly that for nearly every option of every registration (`description: "…"` against
   * `string | undefined`), each value a literal type of its own, so the cache above never hits:
   * 956 of 1,255 such requests on the mid-size tool-heavy project (docs/performance.md). `false`
   * means "ask the checker", never "not assignable".
   */
  private primitiveLiteralAssignable(source: PortType, target: PortType): boolean {
    const { TypeFlags } = this.sync;
    const primitive = source.flags & TypeFlags.StringLiteral! ? TypeFlags.String! : source.flags & TypeFlags.NumberLiteral! ? TypeFlags.Number! : source.flags & TypeFlags.BigIntLiteral! ? TypeFlags.BigInt! : 0;
    if (primitive === 0 || source.flags & TypeFlags.Union!) return false;
    const holds = (member: PortType): boolean => member === source || (member.flags & primitive) !== 0;
    if (target.flags & TypeFlags.Union!) return target.types.some(holds);
    return holds(target);
  }

  /** Classic argument order; TypeScript 7 takes `(name, meaning, location, excludeGlobals)`. */
  resolveName(name: string, location: ts.Node | undefined, meaning: ts.SymbolFlags, excludeGlobals: boolean): PortSymbol | undefined {
    return this.symbol(this.native.resolveName(name, meaning, location === undefined ? undefined : asNative(location), excludeGlobals));
  }

  getSymbolsInScope(): PortSymbol[] {
    throw new Error("TypeScript 7's API has no getSymbolsInScope; the analysis uses resolveName");
  }

  typeToString(type: PortType): string {
    return this.native.typeToString(type[NATIVE]);
  }

  getAnyType(): PortType {
    return this.any();
  }

  getUndefinedType(): PortType {
    return this.type(this.native.getUndefinedType());
  }

  /**
   * The classic `getIndexTypeOfType(type, IndexKind)` (`0` string, `1` number): the value type of
   * the index signature keyed by exactly that type. TypeScript 7 lists a type's index signatures.
   */
  getIndexTypeOfType(type: PortType, kind: number): PortType | undefined {
    const { TypeFlags } = this.sync;
    const keyFlag = kind === 1 ? TypeFlags.Number! : TypeFlags.String!;
    const infos = remember(this.indexInfos, type, () => this.native.getIndexInfosOfType(type[NATIVE]));
    const info = infos.find((candidate) => candidate.keyType.flags === keyFlag);
    return this.type(info?.valueType);
  }

  /** What `await` of a value of `type` gives (awaited.ts). */
  getAwaitedType(type: PortType): PortType | undefined {
    return this.awaited.of(type);
  }

  private anyType: PortType | undefined;
  private any(): PortType {
    this.anyType ??= this.type(this.native.getAnyType());
    return this.anyType;
  }
}

/** The one wrapper of `native` (identity: the analysis caches by object). */
function once<N, W>(wrappers: Map<N, W>, native: N | undefined, wrap: () => W): W | undefined {
  if (native === undefined) return undefined;
  let wrapped = wrappers.get(native);
  if (wrapped === undefined) {
    wrapped = wrap();
    wrappers.set(native, wrapped);
  }
  return wrapped;
}

/** The answer kept for `key`, computed on first use (`null` stands for "none", kept too). */
function remember<K, V>(answers: Map<K, V>, key: K, compute: () => V): V {
  if (answers.has(key)) return answers.get(key)!;
  const answer = compute();
  answers.set(key, answer);
  return answer;
}

/** Nodes are TypeScript 7's own: the classic shape, passed through unchanged. */
function asNative(node: ts.Node): NativeNode {
  return node as unknown as NativeNode;
}

/** The checker as the analysis sees it: wrappers stand in for classic types, symbols and signatures. */
export function asCheckerPort(checker: NativeCheckerPort): CheckerPort {
  return checker as unknown as CheckerPort;
}
