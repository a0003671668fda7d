import { VERIFIED_STAMP_KEY } from "./stamp.js";

/**
 * The verified stamp: a non-enumerable own property of a registered FUNCTION, keyed by this
 * registered symbol, whose value names the verifier (e.g. `"@sourced/transformer@0.1.0"`).
 *
 * A compile step that has checked a registration (the `@sourced/transformer`) stamps the function
 * inline, so the emitted code imports nothing, since `Symbol.for` returns the same symbol everywhere:
 *
 * ```js
 * registry.tool()(Object.defineProperty(fn, Symbol.for("@sourced/registry:verified"), { value: "@sourced/transformer@0.1.0" }));
 * ```
 *
 * With `requireVerified: true`, the registry refuses every registration that lacks it.
 */
export const VERIFIED_STAMP: unique symbol = Symbol.for(VERIFIED_STAMP_KEY) as never;

/** A function stamped as verified by a compile step. */
export type VerifiedFunction<F> = F & { readonly [VERIFIED_STAMP]: string };

/** The verifier that stamped `fn`, or `undefined` when it carries no stamp. Only an own string value counts. */
export function verifiedBy(fn: unknown): string | undefined {
  if (typeof fn !== "function") return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(fn, VERIFIED_STAMP);
  return typeof descriptor?.value === "string" && descriptor.value !== "" ? descriptor.value : undefined;
}

/** Whether `fn` carries the verified stamp. */
export function isVerified<F>(fn: F): fn is VerifiedFunction<F> {
  return verifiedBy(fn) !== undefined;
}

/**
 * Stamps `fn` as verified by `by` (non-enumerable, read-only) and returns it. For compile steps
 * and platform wrappers that have checked the function's return annotation themselves.
 */
export function markVerified<F extends (...args: never[]) => unknown>(fn: F, by: string): VerifiedFunction<F> {
  if (by === "") throw new TypeError("markVerified(fn, by): `by` must name the verifier, e.g. \"@sourced/transformer@0.1.0\"");
  return Object.defineProperty(fn, VERIFIED_STAMP, { value: by, enumerable: false, writable: false, configurable: false }) as VerifiedFunction<F>;
}
