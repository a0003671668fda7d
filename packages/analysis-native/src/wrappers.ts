import type * as ts from "typescript";
import type { NativeChecker, NativeProject, NativeSignature, NativeSymbol, NativeSyncModule, NativeType } from "./native-api";

/*
 * TypeScript 7's types, symbols and signatures with the classic members the analysis reads
 * (`type.types`, `type.getCallSignatures()`, `symbol.declarations` as nodes, …): TypeScript 7
 * hands out objects of another shape (node handles to resolve, `getTypes()`, `getAliasSymbol()`).
 * The checker port (checker.ts) makes one wrapper per native object, so that the analysis'
 * identity caches keep working; what a wrapper fetches it keeps, for the life of the snapshot.
 */

/** The native object behind a wrapper. */
export const NATIVE = Symbol("native");

interface Wrapped<T> {
  readonly [NATIVE]: T;
}

/**
 * What the wrappers ask of the checker port that made them: the one wrapper of each native
 * object, and the native checker behind them. Declared here rather than imported from
 * checker.ts, which imports the wrappers to make them: no import circle.
 */
export interface WrappingChecker {
  readonly native: NativeChecker;
  readonly project: NativeProject;
  readonly sync: NativeSyncModule;
  readonly SignatureKindCall: number;
  type(native: NativeType): PortType;
  type(native: NativeType | undefined): PortType | undefined;
  symbol(native: NativeSymbol): PortSymbol;
  symbol(native: NativeSymbol | undefined): PortSymbol | undefined;
  signature(native: NativeSignature | undefined): PortSignature | undefined;
  getAnyType(): PortType;
  prefetchSymbolKeyedTypes(properties: readonly PortSymbol[]): void;
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
    private readonly checker: WrappingChecker,
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

  /** `TypeReference.target`: the generic class or interface a reference instantiates; `undefined` for any other type. */
  get target(): PortType | undefined {
    if (!(this[NATIVE].objectFlags & this.checker.sync.ObjectFlags.Reference!)) return undefined;
    return this.checker.type(this[NATIVE].getTarget());
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

/** A union the API cannot build: the awaited members of a union of thenables (awaited.ts). */
export function syntheticUnion(checker: WrappingChecker, like: PortType | undefined, members: readonly PortType[]): PortType {
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
    private readonly checker: WrappingChecker,
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
    private readonly checker: WrappingChecker,
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
