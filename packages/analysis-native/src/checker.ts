import type * as ts from "typescript";
import type { CheckerPort, SyntaxPort } from "@sourced/analysis";
import type { NativeChecker, NativeNode, NativeProject, NativeSignature, NativeSymbol, NativeSyncModule, NativeType } from "./native-api";

/*
 * The checker port over TypeScript 7's native checker. The analysis reads types, symbols and
 * signatures through their classic members (`type.types`, `type.getCallSignatures()`,
 * `symbol.declarations` as nodes, …); TypeScript 7 hands out objects of another shape (node
 * handles to resolve, `getTypes()`, `getAliasSymbol()`), so each is wrapped once: one wrapper per
 * native object, so that the analysis' identity caches keep working. The caches live as long as
 * the project's snapshot, the lifetime of the native objects themselves.
 *
 * Over 400 lines on purpose: the port class and the three wrapper classes share private caches
 * (the wrappers by native object, the answers that need no round trip) and call each other's
 * members; split apart, each file would import the others and close an import circle.
 */

/** The key of `getTypeOfSymbolAtLocation`'s answers that hold at any location (see `locationMatters`). */
const ANY_LOCATION = Symbol("any location");

/** The native object behind a wrapper. */
const NATIVE = Symbol("native");

interface Wrapped<T> {
  readonly [NATIVE]: T;
}

/**
 * Typed with the wrappers, not the classic types it stands in for: `asCheckerPort` is the one
 * place that says this class is the analysis' checker port.
 */
export class NativeCheckerPort {
  private readonly types = new Map<NativeType, PortType>();
  private readonly symbols = new Map<NativeSymbol, PortSymbol>();
  private readonly signatures = new Map<NativeSignature, PortSignature>();
  /** Answers of `getSymbolAtLocation`, filled in batches by `prefetch`. */
  private readonly symbolsAt = new Map<NativeNode, PortSymbol | null>();
  /** Answers of `getTypeOfSymbol`, filled in batches by `prefetch`. */
  private readonly typesOfSymbols = new Map<PortSymbol, PortType>();
  private readonly awaitedTypes = new Map<PortType, PortType | null>();
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

  prefetch(sourceFile: ts.SourceFile, sites: readonly ts.Node[]): void {
    const { syntax } = this;
    this.fetchSymbols(this.moduleSpecifiersToFetch(sourceFile), false);
    // The values of an options literal a call (or a decorator's call) is given: the options check
    // asks each one's type (a raw shape's, each of its properties') when the call makes a registry or a tool decorator (options.ts), one
    // request per value otherwise; a call that makes neither has its values typed for nothing, in
    // the same request. A value made by a call (`input: z.object({ … })`) is judged by its
    // callee's declared return type (declared-options.ts): the call is a site itself, so its
    // callee's symbol is fetched with the sites' below, and the call's own type, which TypeScript 7
    // would get by resolving the registration's call, is asked only if that cannot tell.
    const values: NativeNode[] = [];
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
        for (const node of typed) if (!this.typesAt.has(asNative(node))) values.push(asNative(node));
      }
    }
    const wanted: NativeNode[] = [];
    for (const site of sites) {
      // A call's callee and its registered argument, a decorator's expression and its method's
      // name, or a value reference itself: what the analysis asks the symbol of. The receiver of
      // a callee `registry.tool` too: whether the call's type is shared with the file's other
      // calls asks that name's symbol and type (`literalCallOf`), once per file and name, which
      // outside the batch is two round trips per file. Every `a.b(…)` call's receiver is fetched,
      // `rows.map(…)`'s too, which the analysis never asks: keeping only called calls
      // (`registry.tool({…})(fn)`) left 40 more single requests on the mid-size project and no
      // measurable CPU saved, so the batch stays the wider one.
      const nodes = syntax.isCallExpression(site)
        ? [site.expression, site.arguments[0], syntax.isPropertyAccessExpression(site.expression) ? site.expression.expression : undefined]
        : syntax.isDecorator(site)
          ? [site.expression, (site.parent as ts.MethodDeclaration).name]
          : [site];
      for (const node of nodes) {
        if (node !== undefined && (syntax.isIdentifier(node) || syntax.isPropertyAccessExpression(node)) && !this.symbolsAt.has(asNative(node))) wanted.push(asNative(node));
      }
    }
    this.fetchSymbols(wanted, true);
    // The return annotations of the functions registered here, judged next (`getTypeFromTypeNode`;
    // the type at a type node is the type it denotes, and only `getTypeAtLocation` takes arrays).
    const annotations: NativeNode[] = [];
    for (const site of sites) {
      const registered = syntax.isCallExpression(site) ? site.arguments[0] : syntax.isDecorator(site) ? site.parent : undefined;
      if (registered === undefined || !(syntax.isFunctionExpression(registered) || syntax.isArrowFunction(registered) || syntax.isMethodDeclaration(registered))) continue;
      if (registered.type !== undefined && !this.typesOfTypeNodes.has(asNative(registered.type))) annotations.push(asNative(registered.type));
    }
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

  /** A file's module specifiers not asked yet: whether each import resolves is asked of every file, often before it is judged. */
  private moduleSpecifiersToFetch(sourceFile: ts.SourceFile): NativeNode[] {
    const { syntax } = this;
    const wanted: NativeNode[] = [];
    const want = (node: ts.Node): void => {
      if (!this.symbolsAt.has(asNative(node))) wanted.push(asNative(node));
    };
    for (const statement of sourceFile.statements) {
      if ((syntax.isImportDeclaration(statement) || syntax.isExportDeclaration(statement)) && statement.moduleSpecifier !== undefined) want(statement.moduleSpecifier);
      else if (syntax.isImportEqualsDeclaration(statement) && syntax.isExternalModuleReference(statement.moduleReference)) want(statement.moduleReference.expression);
    }
    return wanted;
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
    let known = this.symbolsAt.get(native);
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

  /**
   * What `await` of a value of `type` gives, as the classic `getAwaitedType` answers for the
   * types the analysis asks about. TypeScript 7.1 has the method; on 7.0 it is emulated the way
   * the classic checker defines it: a type with a callable `then` is awaited as the first
   * parameter of `then`'s first parameter (`onfulfilled`), recursively; a union member by member;
   * any other type is itself.
   */
  getAwaitedType(type: PortType): PortType | undefined {
    const port = type;
    if (this.awaitedTypes.has(port)) return this.awaitedTypes.get(port) ?? undefined;
    this.awaitedTypes.set(port, null); // a thenable awaiting itself stops here
    const awaited = this.computeAwaited(port, 0);
    this.awaitedTypes.set(port, awaited ?? null);
    return awaited;
  }

  private computeAwaited(type: PortType, depth: number): PortType | undefined {
    if (typeof this.native.getAwaitedType === "function") return this.type(this.native.getAwaitedType(type[NATIVE]));
    const { TypeFlags } = this.sync;
    if (depth > 16) return undefined;
    if (type.flags & (TypeFlags.Any! | TypeFlags.Unknown!)) return type;
    if (type.flags & TypeFlags.Union!) {
      const members = type.types.map((member) => this.awaitedOf(member as PortType, depth + 1));
      if (members.some((member) => member === undefined)) return undefined;
      if (members.every((member, index) => member === type.types[index])) return type;
      return syntheticUnion(this, type, members as PortType[]);
    }
    const promised = this.promisedType(type);
    if (promised === "not-thenable") return type;
    if (promised === undefined) return undefined;
    return this.awaitedOf(promised, depth + 1);
  }

  private awaitedOf(type: PortType, depth: number): PortType | undefined {
    const known = this.awaitedTypes.get(type);
    if (known !== undefined) return known ?? undefined;
    return this.computeAwaited(type, depth);
  }

  /** The classic `getPromisedTypeOfPromise`: `T` of a `then(onfulfilled: (value: T) => …)`. */
  private promisedType(type: PortType): PortType | undefined | "not-thenable" {
    const { TypeFlags } = this.sync;
    if (type.flags & (TypeFlags.Primitive ?? 0) && !(type.flags & TypeFlags.Object!)) return "not-thenable";
    const then = this.native.getPropertyOfType(type[NATIVE], "then");
    if (then === undefined) return "not-thenable";
    const thenType = this.native.getTypeOfSymbol(then);
    const thenSignatures = thenType === undefined ? [] : this.native.getSignaturesOfType(thenType, this.SignatureKindCall);
    if (thenSignatures.length === 0) return "not-thenable";
    const fulfilled: NativeType[] = [];
    for (const signature of thenSignatures) {
      const onfulfilled = this.native.getParameterType(signature, 0);
      if (onfulfilled === undefined) continue;
      const callable = this.native.getNonNullableType(onfulfilled) ?? onfulfilled;
      if (callable.flags & TypeFlags.Any!) return undefined;
      for (const callback of this.native.getSignaturesOfType(callable, this.SignatureKindCall)) {
        const value = this.native.getParameterType(callback, 0);
        if (value !== undefined && !fulfilled.includes(value)) fulfilled.push(value);
      }
    }
    if (fulfilled.length === 0) return undefined;
    const members = fulfilled.map((member) => this.type(member));
    return members.length === 1 ? members[0] : syntheticUnion(this, undefined, members);
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

/** A native type with the classic members the analysis reads. */
export class PortType implements Wrapped<NativeType> {
  readonly [NATIVE]: NativeType;
  readonly flags: number;
  private membersCache: readonly PortType[] | undefined;
  private propertiesCache: PortSymbol[] | undefined;
  private callSignaturesCache: PortSignature[] | undefined;
  private readonly propertyByName = new Map<string, PortSymbol | null>();

  constructor(
    private readonly checker: NativeCheckerPort,
    native: NativeType,
    /** For a union the API cannot build (the awaited members of a union of thenables). */
    synthetic?: readonly PortType[],
  ) {
    this[NATIVE] = native;
    this.flags = synthetic !== undefined ? checker.sync.TypeFlags.Union! : native.flags;
    if (synthetic !== undefined) this.membersCache = synthetic;
  }

  get objectFlags(): number {
    return this[NATIVE].objectFlags;
  }

  get value(): string | number | boolean | bigint {
    return this[NATIVE].value;
  }

  get intrinsicName(): string {
    return this[NATIVE].intrinsicName;
  }

  /** `UnionOrIntersectionType.types`. */
  get types(): readonly PortType[] {
    this.membersCache ??= (this[NATIVE].getTypes() ?? []).map((member) => this.checker.type(member));
    return this.membersCache;
  }

  get aliasSymbol(): PortSymbol | undefined {
    return this.checker.symbol(this[NATIVE].getAliasSymbol());
  }

  getSymbol(): PortSymbol | undefined {
    return this.checker.symbol(this[NATIVE].getSymbol());
  }

  getCallSignatures(): readonly PortSignature[] {
    this.callSignaturesCache ??= this.checker.native
      .getSignaturesOfType(this[NATIVE], this.checker.SignatureKindCall)
      .map((signature) => this.checker.signature(signature)!);
    return this.callSignaturesCache;
  }

  getProperty(name: string): PortSymbol | undefined {
    let property = this.propertyByName.get(name);
    if (property === undefined) {
      property = this.listedProperty(name) ?? this.checker.symbol(this.checker.native.getPropertyOfType(this[NATIVE], name)) ?? null;
      this.propertyByName.set(name, property);
    }
    return property ?? undefined;
  }

  /*
   * A property of an object type whose properties were already fetched, found in that list:
   * `getPropertyOfType` of an object type answers a property of its own by name before anything
   * else (the global `Object` and `Function` members come after, so a name not listed is still
   * asked). The options check lists an options type's properties, then asks for each given key
   * (554 requests on the mid-size tool-heavy project, docs/performance.md). Unions and
   * intersections, whose properties the checker makes, are always asked.
   */
  private listedProperty(name: string): PortSymbol | undefined {
    const { TypeFlags } = this.checker.sync;
    if (this.propertiesCache === undefined || !(this.flags & TypeFlags.Object!) || this.flags & (TypeFlags.Union! | TypeFlags.Intersection!)) return undefined;
    return this.propertiesCache.find((property) => property.escapedName === name && property.name === name);
  }

  /**
   * `ConditionalBranches` (marked.ts) of a conditional type: TypeScript 7's API gives its true and
   * false types but not its declaration, so whether it may distribute is told from its check type
   * (below). So `registry.tool()`'s declared return type is read as on TypeScript 6, without
   * resolving each call.
   */
  nonDistributiveBranches(): { readonly whenTrue: () => PortType; readonly whenFalse: () => PortType } | undefined {
    const { TypeFlags } = this.checker.sync;
    const native = this[NATIVE] as NativeType & { getCheckType?(): NativeType; getTrueType?(): NativeType; getFalseType?(): NativeType };
    if (!(this.flags & TypeFlags.Conditional!) || native.getCheckType === undefined || native.getTrueType === undefined || native.getFalseType === undefined) return undefined;
    // Distributing needs a check type that some instantiation can still make a union or `never`:
    // one that is, or has at its top, a type variable. An object type (`[O]`) or a type without
    // any (`0` in `0 extends 1 & O`) never becomes either.
    const mayBecomeUnion =
      TypeFlags.TypeParameter! | TypeFlags.IndexedAccess! | TypeFlags.Conditional! | TypeFlags.Substitution! | TypeFlags.Index! | TypeFlags.Union! | TypeFlags.Intersection! | TypeFlags.TemplateLiteral! | TypeFlags.StringMapping! | TypeFlags.Never!;
    if (native.getCheckType().flags & mayBecomeUnion) return undefined;
    return { whenTrue: () => this.checker.type(native.getTrueType!()), whenFalse: () => this.checker.type(native.getFalseType!()) };
  }

  properties(): PortSymbol[] {
    if (this.propertiesCache === undefined) {
      this.propertiesCache = this.checker.native.getPropertiesOfType(this[NATIVE]).map((property) => this.checker.symbol(property));
      this.checker.prefetchSymbolKeyedTypes(this.propertiesCache);
    }
    return this.propertiesCache;
  }
}

function syntheticUnion(checker: NativeCheckerPort, like: PortType | undefined, members: readonly PortType[]): PortType {
  if (members.length === 1) return members[0]!;
  // Never handed to the native checker: the analysis only reads a union's flags and members.
  return new PortType(checker, (like ?? members[0]!)[NATIVE], members);
}

/** A native symbol whose declarations are nodes (TypeScript 7 hands out handles), resolved on first use. */
export class PortSymbol implements Wrapped<NativeSymbol> {
  readonly [NATIVE]: NativeSymbol;
  readonly name: string;
  readonly escapedName: string;
  readonly flags: number;
  private declarationsCache: ts.Declaration[] | undefined;
  private valueDeclarationCache: ts.Declaration | null | undefined;

  constructor(
    private readonly checker: NativeCheckerPort,
    native: NativeSymbol,
  ) {
    this[NATIVE] = native;
    this.name = native.name;
    this.escapedName = native.escapedName;
    this.flags = native.flags;
  }

  get declarations(): ts.Declaration[] | undefined {
    if (this.declarationsCache === undefined) {
      const handles = this[NATIVE].declarations ?? [];
      this.declarationsCache = handles.flatMap((handle) => {
        const node = handle.resolve(this.checker.project);
        return node === undefined ? [] : [node as unknown as ts.Declaration];
      });
    }
    return this.declarationsCache;
  }

  get valueDeclaration(): ts.Declaration | undefined {
    if (this.valueDeclarationCache === undefined) {
      const handle = this[NATIVE].valueDeclaration;
      this.valueDeclarationCache = (handle?.resolve(this.checker.project) as unknown as ts.Declaration | undefined) ?? null;
    }
    return this.valueDeclarationCache ?? undefined;
  }
}

export class PortSignature implements Wrapped<NativeSignature> {
  readonly [NATIVE]: NativeSignature;
  private returned: PortType | undefined;

  constructor(
    private readonly checker: NativeCheckerPort,
    native: NativeSignature,
  ) {
    this[NATIVE] = native;
  }

  getTypeParameters(): readonly PortType[] | undefined {
    const parameters = this[NATIVE].getTypeParameters();
    return parameters.length === 0 ? undefined : parameters.map((parameter) => this.checker.type(parameter));
  }

  returnType(): PortType {
    this.returned ??= this.checker.type(this.checker.native.getReturnTypeOfSignature(this[NATIVE])) ?? this.checker.getAnyType();
    return this.returned;
  }
}
