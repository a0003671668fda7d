import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { DEFAULT_CONTRACT, hasVisibleText, type ResultContract } from "./contract.js";
import { stderrLogger, type Logger } from "./logger.js";
import { ToolError } from "./tool-error.js";
import type { ToolFunction } from "./types.js";
import { thrownText, toWire } from "./wire.js";

/** How many problems an error result lists; the warning carries the same text. */
const MAX_PROBLEMS = 3;

/**
 * The longest text an error result carries, in characters. A longer one is cut, and says so; the
 * warning in the log carries the whole text (up to `LOG_TEXT_LIMIT`) and the stack.
 */
export const ERROR_TEXT_LIMIT = 2_000;
/** The longest warning the net logs, in characters; a longer one is cut and says so. */
export const LOG_TEXT_LIMIT = 100_000;

function describePath(path: readonly PathSegment[], root = "the result"): string {
  if (path.length === 0) return root;
  const text = path
    .map((segment) => (typeof segment === "object" ? segment.key : segment))
    .map((key, index) =>
      typeof key === "number"
        ? `[${key}]`
        : typeof key === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/u.test(key)
          ? `${index === 0 ? "" : "."}${key}`
          : `[${JSON.stringify(String(key).slice(0, 80))}]`,
    )
    .join("");
  return text.length > 300 ? `${text.slice(0, 150)}…${text.slice(-150)}` : text;
}

type PathSegment = PropertyKey | { readonly key: PropertyKey };

/** A problem a schema reports: a zod issue, or a Standard Schema's (`message` and `path` only). */
export interface Issue {
  readonly message: string;
  readonly path?: readonly PathSegment[] | undefined;
  readonly code?: string;
  /** zod's `invalid_union`: the issues of each branch. */
  readonly errors?: readonly (readonly Issue[])[];
}

/** For a union (a content block), report the branch that came closest rather than "Invalid input". */
function closestIssue(issue: Issue): Issue {
  if (issue.code !== "invalid_union" || issue.errors === undefined || issue.errors.length === 0) return issue;
  const branch = issue.errors.reduce((best, next) => (next.length < best.length ? next : best));
  const inner = branch[0];
  return inner ? closestIssue({ ...inner, path: [...(issue.path ?? []), ...(inner.path ?? [])] }) : issue;
}

/** The first problems of a failed parse, one line each: `structuredContent.sources[0]: must be …`. */
export function describeProblems(issues: readonly Issue[], max = MAX_PROBLEMS, root?: string): string[] {
  // One value can fail two checks with the same message (a URL that is no string, say).
  const all = [...new Set(issues.map((raw) => {
    const issue = closestIssue(raw);
    return `${describePath(issue.path ?? [], root)}: ${issue.message}`;
  }))];
  const lines = all.slice(0, max);
  if (all.length > max) lines.push(`… and ${all.length - max} more`);
  return lines;
}

/** `text`, cut to `limit` characters (never inside a surrogate pair) with a note saying so. */
export function capText(text: string, limit: number, where: string): string {
  if (text.length <= limit) return text;
  const note = ` … [cut: ${(text.length - limit).toLocaleString("en-US")} more characters ${where}]`;
  let end = Math.max(0, limit - note.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${note}`;
}

/**
 * Control characters but the line break and the tab (C0, DEL, C1: an ANSI escape sequence, a bell,
 * a carriage return) and the bidi controls: what a tool's text carries of them would act on the
 * terminal or the log viewer that shows a warning — recolour it, retitle the window, hide a line,
 * reorder it.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with its control characters escaped (`\x1b`, `\u202e`), as the log shows it. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** Logs once, its control characters escaped; a logger that throws falls back to stderr, so a warning is never lost nor doubled. */
export function warn(logger: Logger, message: string): void {
  const text = escapeControls(capText(message, LOG_TEXT_LIMIT, "not logged"));
  try {
    logger.warn(text);
  } catch (error) {
    stderrLogger.warn(`${text}\n(the registry's logger threw: ${capText(thrownText(error), 1_000, "not shown")})`);
  }
}

/** An error's text as a client receives it: capped, saying where the rest is. */
export function answerText(text: string): string {
  return capText(text, ERROR_TEXT_LIMIT, "in the server log");
}

/** An error result: its text names the tool, is capped, and says where the rest is. */
function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text: answerText(text) }], isError: true };
}

/** The message and the log detail (the stack) of a thrown value. Never throws. */
export function describeThrown(error: unknown): { message: string; detail: string } {
  // Uncut here: the error result and the warning each cut it to their own limit.
  const message = thrownText(error);
  let detail = message;
  try {
    if (error instanceof Error && typeof error.stack === "string") detail = error.stack;
  } catch {
    // A throwing `stack` getter: the message is all there is.
  }
  return { message, detail };
}

/** The tool a message is about: its name, and where it was registered (`file:line:col`). */
export interface NamedTool {
  readonly name: string;
  readonly site: string;
}

/** What the net calls: a registered tool, as `fn.call(thisArg, args, extra)`. */
export interface NetTool extends NamedTool {
  readonly fn: ToolFunction;
  readonly thisArg: unknown;
}

/**
 * How a message names the tool: `Tool "list_cities"` in the error result a client receives, and
 * with its registration site in the server log. The site is a path on the server's machine: a
 * client has no use for it, and should not learn the server's file layout.
 */
function toolLabel(tool: NamedTool, where: "result" | "log"): string {
  if (where === "result") return `Tool "${tool.name}"`;
  let site: string;
  try {
    site = tool.site;
  } catch {
    site = "an unknown place"; // the error path cannot fail
  }
  return `Tool "${tool.name}" (registered at ${site})`;
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

/** The fixed answer when building one failed: an error result naming the tool, and one warning. */
function netFailure(tool: NamedTool, logger: Logger, error: unknown): CallToolResult {
  warn(logger, `${toolLabel(tool, "log")}: the net failed while answering the call: ${describeThrown(error).detail}`);
  return errorResult(`${toolLabel(tool, "result")} failed, and its failure could not be described; see the server log.`);
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
  if (isToolError(error)) return expectedFailure(tool, expectedFailureText(error), logger);
  const { message, detail } = describeThrown(error);
  const result = errorResult(`${toolLabel(tool, "result")} failed: ${message}`);
  warn(logger, `${toolLabel(tool, "log")} threw: ${detail}`);
  return result;
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
  return refusedResult(
    tool,
    logger,
    (label) => `${label} returned a result that breaks the DataToolOutput contract, so it was not sent:\n${problems.map((line) => `- ${line}`).join("\n")}`,
  );
}

/** A returned value that is no object, as a message says it: "a string", "nothing (undefined)". */
function describeReturned(value: unknown): string {
  if (value === undefined) return "nothing (undefined)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}

/** What a JSON type is called in messages. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  array: "a list",
  object: "an object",
  string: "a string",
  number: "a number",
  boolean: "true or false",
  null: "null",
};

/** A value as messages name what was found: "a string", "a list", "null". */
function describeFound(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * zod's default messages ("Invalid input: expected array, received string") in plain words,
 * for the problems the contract's own messages do not word: the error map of one parse, so the
 * schema's messages still come first and zod's global configuration is left alone.
 */
export function inPlainWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return issue.input === undefined ? `is missing: it must be ${expected}` : `must be ${expected}, not ${describeFound(issue.input)}`;
    }
    case "too_small":
      return issue.origin === "number" ? `must be at least ${String(issue.minimum)}` : undefined;
    case "too_big":
      return issue.origin === "number" ? `must be at most ${String(issue.maximum)}` : undefined;
    case "invalid_format":
      return issue.format === "datetime" ? "must be an ISO 8601 date and time with its offset, e.g. 2026-01-31T12:00:00Z" : undefined;
    case "invalid_value":
      return `must be ${issue.values.map((value) => JSON.stringify(value)).join(" or ")}`;
    default:
      return undefined;
  }
}

// -------------------------------------------------------------------------------------------
// Deadlines: every call is answered in bounded time.

/** The default of `RegistryOptions.callTimeoutMs`: under the 60 s after which the SDK's clients give up, so they get the answer. */
export const DEFAULT_CALL_TIMEOUT_MS = 50_000;
/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** What a stopped call's own late outcome resolves to; never sent. */
export const STOPPED: CallToolResult = Object.freeze({ content: [], isError: true });

/** What bounds one call: its deadline, and the shutdown of the serving that received it. */
export interface CallBounds {
  /** Milliseconds; `Infinity` for none. */
  readonly timeoutMs: number;
  readonly shutdown: AbortSignal | undefined;
}

/**
 * Why a call or a read was stopped before it settled: its deadline passed, the serving shut down
 * past its grace, or its client cancelled it (or went away: its answer is never sent, nor warned).
 */
export type StopCause = "deadline" | "shutdown" | "cancelled";

/** How a stopped call or read is answered: the reason its signal is aborted with, the warning, the answer (which may throw: an MCP error). */
export interface StoppedAnswer<T> {
  readonly reason: DOMException;
  readonly warning: string;
  readonly answer: () => T;
}

/**
 * Runs the author's code for one request — a tool's call, a resource's read — so that the request
 * is answered in bounded time. `start` gets the signal the code must see: the request's own (the
 * client cancelled, or went away), also aborted when it is stopped here. What settles at once is
 * answered at once; what is still running at its deadline, or when the serving shuts down past its
 * grace, is answered then with `stopped(cause)`'s answer (and its one warning), and its signal is
 * aborted. A rejection is answered with `failed(error)`. Either may throw: the request then fails.
 */
export function withinBounds<T>(
  requestSignal: AbortSignal,
  bounds: CallBounds,
  logger: Logger,
  start: (signal: AbortSignal) => T | Promise<T>,
  stopped: (cause: StopCause) => StoppedAnswer<T>,
  failed: (error: unknown) => T,
): T | Promise<T> {
  const stop = new AbortController();
  const outcome = start(AbortSignal.any([requestSignal, stop.signal]));
  if (!(outcome instanceof Promise)) return outcome;
  const { timeoutMs, shutdown } = bounds;
  if (timeoutMs === Infinity && shutdown === undefined) return outcome;
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    const settle = (answer: () => T): void => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      shutdown?.removeEventListener("abort", onShutdown);
      requestSignal.removeEventListener("abort", onCancelled);
      try {
        resolve(answer());
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown: the MCP error an answer means to send
        reject(error);
      }
    };
    const stopFor = (cause: StopCause): void => {
      if (answered) return;
      const { reason, warning, answer } = stopped(cause);
      warn(logger, warning);
      settle(answer);
      stop.abort(reason);
    };
    const onShutdown = (): void => stopFor("shutdown");
    // Cancelled by its client, or its connection closed (stdin's end, a client gone): the SDK sends
    // nothing for it and has aborted its signal; the bounds end with it, so no timer of a call
    // that will never be answered keeps the process alive until its deadline.
    const onCancelled = (): void => {
      if (answered) return;
      const { answer } = stopped("cancelled");
      settle(answer);
    };
    if (timeoutMs !== Infinity) timer = setTimeout(() => stopFor("deadline"), Math.min(timeoutMs, MAX_TIMER_MS));
    if (shutdown?.aborted) onShutdown();
    else shutdown?.addEventListener("abort", onShutdown, { once: true });
    if (requestSignal.aborted) onCancelled();
    else requestSignal.addEventListener("abort", onCancelled, { once: true });
    outcome.then(
      (value) => settle(() => value),
      (error: unknown) => settle(() => failed(error)),
    );
  });
}

/** A deadline as messages give it: "1,234 ms". */
export function deadlineText(timeoutMs: number): string {
  return `${timeoutMs.toLocaleString("en-US")} ms`;
}

/**
 * Runs one call — `start`, from its argument check on — within its bounds (`withinBounds`): a
 * call still running at its deadline, or at the end of the shutdown grace, is answered with an
 * error result naming the tool.
 */
export function callWithinBounds(
  tool: NamedTool,
  requestSignal: AbortSignal,
  bounds: CallBounds,
  logger: Logger,
  start: (signal: AbortSignal) => CallToolResult | Promise<CallToolResult>,
): CallToolResult | Promise<CallToolResult> {
  const { name } = tool;
  return withinBounds(
    requestSignal,
    bounds,
    logger,
    start,
    (cause) => {
      if (cause === "shutdown") {
        return {
          reason: new DOMException(`the server shut down while tool "${name}" was running`, "AbortError"),
          answer: () => errorResult(`Tool "${name}" was still running when the server shut down, so the call was stopped.`),
          warning: `tool "${name}" was still running at the end of the shutdown grace: the call was answered with an error result and its signal aborted.`,
        };
      }
      const ms = deadlineText(bounds.timeoutMs);
      return {
        reason: new DOMException(`tool "${name}" did not answer within ${ms}`, "TimeoutError"),
        answer: () => errorResult(`Tool "${name}" did not answer within ${ms}, so the call was stopped.`),
        warning:
          `tool "${name}" did not answer within ${ms}: the call was answered with an error result and its signal aborted. ` +
          "If it needs longer, raise its limit: registry.tool({ timeoutMs }) or createRegistry({ callTimeoutMs }).",
      };
    },
    (error) => netFailure(tool, logger, error),
  );
}
