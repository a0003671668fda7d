/**
 * An expected failure of a tool — no such city, a quota reached, an upstream that is down: thrown
 * by a tool, the call is answered with an error result whose text is the message, for the LLM to
 * read, and the server log gets one line (the tool, its registration site, the message) without a
 * stack, since nothing in the server went wrong. Any other thrown value is a bug and is logged with
 * its stack.
 *
 * ```ts
 * if (!found) throw new ToolError(`No city named ${city}.`);
 * ```
 */
export class ToolError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ToolError";
  }
}
