import type { CallToolResult, InputRequiredResult } from "@modelcontextprotocol/server";
import { copiedInputRequest, copiedUrlElicitation, returnedInputRequestHint, thrownInputRequest, thrownUrlElicitation } from "./client-requests.js";
import { z } from "zod";
import { describeThrown, errorResult, netFailure, STOPPED, toolLabel, warn, type NamedTool } from "./answers.js";
import { DEFAULT_CONTRACT, hasVisibleText, type ResultContract } from "./contract.js";
import type { Logger } from "./logger.js";
import { describePath, describeProblems, describeReturned, inPlainWords } from "./problems.js";
import { ToolError } from "./tool-error.js";
import type { ToolFunction } from "./types.js";
import { toWire } from "./wire.js";

/** What the net calls: a registered tool, as `fn.call(thisArg, args, extra)`. */
export interface NetTool extends NamedTool {
  readonly fn: ToolFunction;
  readonly thisArg: unknown;
}

/**
 * The run-time net: calls a tool and lets its result leave only when the whole result matches
 * `DataToolOutput`. The result is first made into its plain-JSON wire form, once (wire.ts); that
 * copy is checked against `dataToolOutputSchema` and is exactly what is sent. A result that
 * cannot be made plain, fails the check, or a tool that throws becomes an MCP error result
 * (`isError`, naming the tool) plus one warning; nothing unchecked is sent. Should building that
 * answer fail in turn, a fixed error result and one warning stand in: every call is answered.
 *
 * `contract`: what the tool's results are checked against — the plain contract, or one whose
 * sources may be the URIs of the registry's resources and whose `structuredContent` carries the
 * keys of the tool's `output` (contract.ts, `contractFor`).
 *
 * A thenable result is awaited, as `await` would (its `then` read once), through a promise of the
 * net's own; any other result is checked at once, without the promise and the microtask an
 * `async` function would cost.
 */
export function callThroughNet(
  tool: NetTool,
  args: unknown,
  extra: unknown,
  logger: Logger,
  unanswered?: AbortSignal,
  contract: ResultContract = DEFAULT_CONTRACT,
): CallToolResult | Promise<CallToolResult> {
  let value: unknown;
  let then: unknown;
  try {
    value = tool.fn.call(tool.thisArg, args, extra);
    if ((typeof value === "object" && value !== null) || typeof value === "function") then = (value as { then?: unknown }).then;
  } catch (error) {
    return thrownAnswer(tool, error, logger);
  }
  if (typeof then !== "function") {
    try {
      return checkedResult(tool, value, logger, contract);
    } catch (error) {
      return netFailure(tool, logger, error);
    }
  }
  // Once `unanswered` is aborted — the call answered for it (its deadline, a shutdown), or
  // cancelled by its client — what the tool settles with is never sent, so it is not checked or
  // logged either: a rejection caused by its aborted signal is no failure.
  const settled = (resolved: unknown) => (unanswered?.aborted ? STOPPED : answer(tool, logger, () => checkedResult(tool, resolved, logger, contract)));
  const failed = (error: unknown) => thrownUnlessUnanswered(tool, error, logger, unanswered);
  // Adopted into a promise of the net's own, even for a native promise: what `then` returns is
  // built by the promise's species constructor, which the tool controls, so it is never sent.
  return new Promise<unknown>((resolve, reject) => {
    (then as (this: unknown, onFulfilled: (value: unknown) => void, onRejected: (reason: unknown) => void) => unknown).call(value, resolve, reject);
  }).then(settled, failed);
}

/** Builds an answer; if building it throws, a fixed error result and one warning stand in. */
function answer(tool: NamedTool, logger: Logger, build: () => CallToolResult): CallToolResult {
  try {
    return build();
  } catch (error) {
    return netFailure(tool, logger, error);
  }
}

/** `instanceof` asks the thrown value's prototype: a Proxy whose trap throws is no ToolError, and is described as any other throw. */
export function isToolError(error: unknown): error is ToolError {
  try {
    return error instanceof ToolError;
  } catch {
    return false;
  }
}

/** The answer to a tool whose own code threw outside its function (its input schema, say): as a throw inside it. */
export function thrownAnswer(tool: NamedTool, error: unknown, logger: Logger): CallToolResult {
  return answer(tool, logger, () => thrownResult(tool, error, logger));
}

/**
 * What the author's code threw or rejected with, answered as `thrownAnswer` does — unless
 * `unanswered` is aborted by then: the answer will not be sent (the client cancelled, a deadline or
 * a shutdown answered for the call), and a rejection its aborted signal caused is no failure to log.
 */
export function thrownUnlessUnanswered(tool: NamedTool, error: unknown, logger: Logger, unanswered: AbortSignal | undefined): CallToolResult {
  return unanswered?.aborted ? STOPPED : thrownAnswer(tool, error, logger);
}

function thrownResult(tool: NamedTool, error: unknown, logger: Logger): CallToolResult {
  // `throw inputRequired(…)`: the tool asks the client for input; the SDK sends or fulfils it (client-requests.ts).
  const asked = thrownInputRequest(error);
  if (asked !== undefined) return askedForInput(tool, asked, logger);
  // `throw new UrlElicitationRequiredError(…)`: passed on as the SDK passes it on, an error of the request (server.ts throws it).
  // Any other coded error (a ProtocolError, ResourceNotFoundError) is an error result below, as the SDK's own tools answer it.
  const url = thrownUrlElicitation(error);
  if (url !== undefined) {
    const copied = copiedUrlElicitation(url);
    if (copied.ok) return copied.error as unknown as CallToolResult;
    return refusedResult(tool, logger, (label) => `${label} ${copied.refusal}`);
  }
  if (isToolError(error)) return expectedFailure(tool, expectedFailureText(error), logger);
  const { message, detail } = describeThrown(error);
  const result = errorResult(`${toolLabel(tool, "result")} failed: ${message}`);
  warn(logger, `${toolLabel(tool, "log")} threw: ${detail}`);
  return result;
}

/**
 * A request for input the tool threw, as it leaves the server: its plain-JSON copy
 * (client-requests.ts), never the tool's object. One that may not leave is refused as a result is:
 * an error result naming the tool, and one warning.
 */
function askedForInput(tool: NamedTool, asked: InputRequiredResult, logger: Logger): CallToolResult {
  const copied = copiedInputRequest(asked);
  // The copy is the SDK's to send or fulfil: a result of its own kind, which it reads as one.
  if (copied.ok) return copied.request as unknown as CallToolResult;
  return refusedResult(tool, logger, (label) => `${label} ${copied.refusal}`);
}

/**
 * The text of a `ToolError`, as its author wrote it for the LLM: `undefined` when it has none to
 * give — a message without visible text, not a string, or a `message` getter that throws — and
 * the answer names what failed instead.
 */
export function expectedFailureText(error: ToolError): string | undefined {
  let message: unknown;
  try {
    message = error.message;
  } catch {
    return undefined;
  }
  return typeof message === "string" && hasVisibleText(message) ? message : undefined;
}

/**
 * A `ToolError`: its message is the answer, as the tool wrote it for the LLM (one naming the tool
 * stands in for a message it cannot give); the log gets one line without a stack.
 */
function expectedFailure(tool: NamedTool, message: string | undefined, logger: Logger): CallToolResult {
  const text = message ?? `${toolLabel(tool, "result")} failed.`;
  warn(logger, `${toolLabel(tool, "log")} answered with an error: ${text.replace(/\s*[\r\n\u2028\u2029]+\s*/gu, " ")}`);
  return errorResult(text);
}

/** An error result and its warning: one text, the warning's naming the registration site too. */
function refusedResult(tool: NamedTool, logger: Logger, text: (label: string) => string): CallToolResult {
  const result = errorResult(text(toolLabel(tool, "result")));
  warn(logger, text(toolLabel(tool, "log")));
  return result;
}

/**
 * Each contract's result schema compiled by zod (`z.compile`, zod 4.5 and later): a valid result
 * is checked by generated code, without the interpreter's per-node dispatch; anything else falls
 * back to the interpreter, so the issues and the messages are the same. Compiled at its first call
 * (~10 ms), not when the package loads; an older zod checks with the interpreter alone.
 */
const compiledSchemas = new WeakMap<ResultContract, ResultContract["result"]>();

function compiledSchema(contract: ResultContract): ResultContract["result"] {
  let compiled = compiledSchemas.get(contract);
  if (compiled === undefined) {
    compiled = typeof z.compile === "function" ? z.compile(contract.result) : contract.result;
    compiledSchemas.set(contract, compiled);
  }
  return compiled;
}

/** What every tool returns, in the words messages use. */
const CONTRACT_SHAPE = "a tool must return { content, structuredContent: { sources } }";

function checkedResult(tool: NamedTool, value: unknown, logger: Logger, contract: ResultContract): CallToolResult {
  const wire = toWire(value);
  if (!wire.ok) {
    const { path, problem } = wire.refusal;
    return refusedResult(tool, logger, (label) => `${label} returned a result that cannot be sent as JSON, so it was not sent:\n- ${describePath(path)}: ${problem}`);
  }
  const returned = wire.value;
  if (typeof returned !== "object" || returned === null || Array.isArray(returned)) {
    return refusedResult(tool, logger, (label) => `${label} returned ${describeReturned(returned)}; ${CONTRACT_SHAPE}.`);
  }
  const parsed = compiledSchema(contract).safeParse(returned, { error: inPlainWords });
  // The copy is plain JSON and the schema has no transforms: the checked copy itself is sent.
  if (parsed.success) return returned as CallToolResult;
  const problems = describeProblems(parsed.error.issues);
  // A request for input returned rather than thrown breaks the contract too: the message says how to ask.
  const hint = returnedInputRequestHint(returned);
  return refusedResult(
    tool,
    logger,
    (label) => `${label} returned a result that breaks the DataToolOutput contract, so it was not sent:\n${problems.map((line) => `- ${line}`).join("\n")}${hint}`,
  );
}
