import { ProtocolError, ProtocolErrorCode, type ReadResourceResult, type ServerContext } from "@modelcontextprotocol/server";
import { readResourceResultSchema } from "./contract.js";
import type { Logger } from "./logger.js";
import { answerText, describeThrown, warn } from "./answers.js";
import { deadlineText, withinBounds, type CallBounds } from "./bounds.js";
import { isToolError } from "./net.js";
import { describeProblems, inPlainWords } from "./problems.js";
import { thrownText, toWire } from "./wire.js";

/*
 * A resource's reads through the net, as a tool's calls: what its read function answers is made
 * into its plain-JSON wire copy and checked against `readResourceResultSchema`, and only the checked
 * copy is sent. A read that throws, or answers what breaks the contract, is answered with an MCP
 * error naming the resource (and one warning; a `ToolError` is one line without a stack): never
 * an unchecked result, never a crashed server. A read is bounded as a call is (`withinBounds`):
 * one still running at the registry's `callTimeoutMs`, or at the end of the shutdown grace, is
 * answered then with an MCP error, and the signal it was given (`ctx.mcpReq.signal`) aborted.
 */

/** A read callback of the SDK's, of a URI `(uri, ctx)` or of a template `(uri, variables, ctx)`: the request's context comes last. */
type ReadArgs = [...unknown[], ServerContext];

/** `read`, checked and bounded by `bounds` (the registry's deadline, the serving's shutdown): see above. */
export function checkedRead<Args extends ReadArgs>(name: string, read: (...args: Args) => unknown, logger: Logger, bounds: CallBounds): (...args: Args) => Promise<ReadResourceResult> {
  const label = `Resource "${name}"`;
  const checked = async (args: Args, signal: AbortSignal): Promise<ReadResourceResult> => {
    const refuse = (text: string, log: string = text): never => {
      // Once its signal is aborted (stopped here, or cancelled by the client) the SDK sends no
      // answer for the read: what it failed with afterwards is no failure to log.
      if (!signal.aborted) warn(logger, log);
      throw new ProtocolError(ProtocolErrorCode.InternalError, answerText(text));
    };
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
  const stoppedRead = (text: string): never => {
    throw new ProtocolError(ProtocolErrorCode.InternalError, answerText(text));
  };
  return (...args: Args) => {
    const ctx = args.at(-1) as ServerContext;
    const outcome = withinBounds(
      ctx.mcpReq.signal,
      bounds,
      logger,
      // The read sees the bounded signal in its context, as a tool does in its `extra`.
      (signal) => checked([...args.slice(0, -1), { ...ctx, mcpReq: { ...ctx.mcpReq, signal } }] as unknown as Args, signal),
      (cause) => {
        if (cause === "shutdown") {
          return {
            reason: new DOMException(`the server shut down while resource "${name}" was being read`, "AbortError"),
            answer: () => stoppedRead(`${label} was still being read when the server shut down, so the read was stopped.`),
            warning: `resource "${name}" was still being read at the end of the shutdown grace: the read was answered with an error and its signal aborted.`,
          };
        }
        const ms = deadlineText(bounds.timeoutMs);
        return {
          reason: new DOMException(`resource "${name}" did not answer within ${ms}`, "TimeoutError"),
          answer: () => stoppedRead(`${label} did not answer within ${ms}, so the read was stopped.`),
          warning: `resource "${name}" did not answer within ${ms}: the read was answered with an error and its signal aborted. If it needs longer, raise the limit: createRegistry({ callTimeoutMs }).`,
        };
      },
      // `checked` rejects only with the MCP error it means to send.
      (error) => {
        throw error;
      },
    );
    return Promise.resolve(outcome);
  };
}
