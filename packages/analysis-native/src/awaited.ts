import type { NativeType } from "./native-api";
import { NATIVE, syntheticUnion, type PortType, type WrappingChecker } from "./wrappers";

/**
 * What `await` of a value of a type gives, as the classic `getAwaitedType` answers for the types
 * the analysis asks about. TypeScript 7.1 has the method; on 7.0 it is emulated the way the
 * classic checker defines it: a type with a callable `then` is awaited as the first parameter of
 * `then`'s first parameter (`onfulfilled`), recursively; a union member by member; any other type
 * is itself. The checker port keeps one, so its answers live as long as the port's snapshot.
 */
export class AwaitedTypes {
  /** `null`: none, or (while it is computed) a thenable awaiting itself, which stops there. */
  private readonly answers = new Map<PortType, PortType | null>();

  constructor(private readonly checker: WrappingChecker) {}

  of(type: PortType): PortType | undefined {
    if (this.answers.has(type)) return this.answers.get(type) ?? undefined;
    this.answers.set(type, null); // a thenable awaiting itself stops here
    const awaited = this.compute(type, 0);
    this.answers.set(type, awaited ?? null);
    return awaited;
  }

  private compute(type: PortType, depth: number): PortType | undefined {
    const { native } = this.checker;
    if (typeof native.getAwaitedType === "function") return this.checker.type(native.getAwaitedType(type[NATIVE]));
    const { TypeFlags } = this.checker.sync;
    if (depth > 16) return undefined;
    if (type.flags & (TypeFlags.Any! | TypeFlags.Unknown!)) return type;
    if (type.flags & TypeFlags.Union!) {
      const members = type.types.map((member) => this.awaitedOf(member as PortType, depth + 1));
      if (members.some((member) => member === undefined)) return undefined;
      if (members.every((member, index) => member === type.types[index])) return type;
      return syntheticUnion(this.checker, type, members as PortType[]);
    }
    const promised = this.promisedType(type);
    if (promised === "not-thenable") return type;
    if (promised === undefined) return undefined;
    return this.awaitedOf(promised, depth + 1);
  }

  private awaitedOf(type: PortType, depth: number): PortType | undefined {
    const known = this.answers.get(type);
    if (known !== undefined) return known ?? undefined;
    return this.compute(type, depth);
  }

  /** The classic `getPromisedTypeOfPromise`: `T` of a `then(onfulfilled: (value: T) => …)`. */
  private promisedType(type: PortType): PortType | undefined | "not-thenable" {
    const { native, SignatureKindCall } = this.checker;
    const { TypeFlags } = this.checker.sync;
    if (type.flags & (TypeFlags.Primitive ?? 0) && !(type.flags & TypeFlags.Object!)) return "not-thenable";
    const then = native.getPropertyOfType(type[NATIVE], "then");
    if (then === undefined) return "not-thenable";
    const thenType = native.getTypeOfSymbol(then);
    const thenSignatures = thenType === undefined ? [] : native.getSignaturesOfType(thenType, SignatureKindCall);
    if (thenSignatures.length === 0) return "not-thenable";
    const fulfilled: NativeType[] = [];
    for (const signature of thenSignatures) {
      const onfulfilled = native.getParameterType(signature, 0);
      if (onfulfilled === undefined) continue;
      const callable = native.getNonNullableType(onfulfilled) ?? onfulfilled;
      if (callable.flags & TypeFlags.Any!) return undefined;
      for (const callback of native.getSignaturesOfType(callable, SignatureKindCall)) {
        const value = native.getParameterType(callback, 0);
        if (value !== undefined && !fulfilled.includes(value)) fulfilled.push(value);
      }
    }
    if (fulfilled.length === 0) return undefined;
    const members = fulfilled.map((member) => this.checker.type(member));
    return members.length === 1 ? members[0] : syntheticUnion(this.checker, undefined, members);
  }
}
