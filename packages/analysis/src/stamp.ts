/**
 * The key of the verified stamp a compile step writes on every registration it verified: the
 * stamp's property is `Symbol.for(VERIFIED_STAMP_KEY)`, which the registry reads at run time.
 *
 * Here, and not only in `@sourced/registry`, because a compile step (the transformer, a bundler
 * plugin) must not install the registry — the MCP SDK and zod — to spell one string. The registry
 * depends on no package of ours but `@sourced/contract-rules`, so it keeps the same literal in its own `stamp.ts`; the
 * transformer's tests pin the two equal, on the built packages.
 */
export const VERIFIED_STAMP_KEY = "@sourced/registry:verified";
