/**
 * The key of the verified stamp: the stamp's property is `Symbol.for(VERIFIED_STAMP_KEY)`.
 *
 * A module of its own, with no imports, published as `@sourced/registry/stamp`. The registry
 * depends on no other package of ours but the dependency-free `@sourced/contract-rules`, so
 * compile steps read the same key from
 * `@sourced/analysis` (which installs neither the MCP SDK nor zod); the transformer's tests pin the
 * two spellings equal.
 */
export const VERIFIED_STAMP_KEY = "@sourced/registry:verified";
