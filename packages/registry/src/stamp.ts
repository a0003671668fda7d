/**
 * The key of the verified stamp: the stamp's property is `Symbol.for(VERIFIED_STAMP_KEY)`.
 *
 * A module of its own, with no imports, published as `@sourced/registry/stamp`: a compile step
 * that writes the stamp (the `@sourced/transformer`) reads the key from here without loading the
 * registry, and with it the MCP SDK and zod.
 */
export const VERIFIED_STAMP_KEY = "@sourced/registry:verified";
