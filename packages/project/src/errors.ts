/**
 * A problem with the project as given (a missing or invalid tsconfig, a TypeScript that cannot be
 * used) or, for `sourced check`, with how it was called: the judgement could not run, or could not
 * be trusted. The message says what is wrong, where, and what to do instead. `sourced check` exits
 * with 2 on it; the bundler plugin and the start-up check report it as one diagnostic.
 */
export class UsageError extends Error {
  override readonly name: string = "UsageError";
}
