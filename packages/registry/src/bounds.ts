import type { CallToolResult } from "@modelcontextprotocol/server";
import { errorResult, netFailure, warn, type NamedTool } from "./answers.js";
import type { Logger } from "./logger.js";

/*
 * Deadlines: every call and every resource read is answered in bounded time — at its deadline,
 * or when the serving shuts down past its grace — whatever the author's code does meanwhile.
 */

/** The default of `RegistryOptions.callTimeoutMs`: under the 60 s after which the SDK's clients give up, so they get the answer. */
export const DEFAULT_CALL_TIMEOUT_MS = 50_000;
/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
    // nothing for it and has aborted its signal; the bounds end with it, so no timer of a request
    // that will never be answered keeps the process alive until its deadline.
    const onCancelled = (): void => {
      if (answered) return;
      settle(stopped("cancelled").answer);
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
