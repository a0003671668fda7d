/**
 * A problem with how `sourced check` was called or with the project it was pointed at: the check
 * could not run, or could not be trusted. Always exit code 2, with a message that says what is
 * wrong, where, and what to do instead.
 */
export class UsageError extends Error {
  override readonly name: string = "UsageError";
}
