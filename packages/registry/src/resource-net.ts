import { ProtocolError, ProtocolErrorCode, type ReadResourceResult } from "@modelcontextprotocol/server";
import { readResourceResultSchema } from "./contract.js";
import type { Logger } from "./logger.js";
import { answerText, describeProblems, describeThrown, inPlainWords, isToolError, warn } from "./net.js";
import { thrownText, toWire } from "./wire.js";

/*
 * A resource's reads through the net, as a tool's calls: what its read function answers is made
 * into its plain-JSON wire copy and checked against `readResourceResultSchema`, and only the checked
 * copy is sent. A read that throws, or answers what breaks the contract, is answered with an MCP
 * error naming the resource (and one warning; a `ToolError` is one line without a stack): never
 * an unchecked result, never a crashed server.
 */

/** `read` (the SDK's read callback, of a URI or of a template), checked: see above. */
export function checkedRead<Args extends unknown[]>(name: string, read: (...args: Args) => unknown, logger: Logger): (...args: Args) => Promise<ReadResourceResult> {
  const label = `Resource "${name}"`;
  const refuse = (text: string, log: string = text): never => {
    warn(logger, log);
    throw new ProtocolError(ProtocolErrorCode.InternalError, answerText(text));
  };
  return async (...args: Args) => {
    let value: unknown;
    try {
      value = await read(...args);
    } catch (error) {
      if (isToolError(error)) return refuse(thrownText(error), `${label} answered with an error: ${thrownText(error)}`);
      const { message, detail } = describeThrown(error);
      return refuse(`${label} failed: ${message}`, `${label} threw: ${detail}`);
    }
    const wire = toWire(value);
    if (!wire.ok) return refuse(`${label} answered with a result that cannot be sent as JSON, so it was not sent: ${wire.refusal.problem}`);
    const parsed = readResourceResultSchema.safeParse(wire.value, { error: inPlainWords });
    if (!parsed.success) {
      const problems = describeProblems(parsed.error.issues).map((line) => `- ${line}`);
      return refuse(`${label} answered with a result that breaks the ReadResourceResult contract, so it was not sent:\n${problems.join("\n")}`);
    }
    return wire.value as ReadResourceResult;
  };
}
