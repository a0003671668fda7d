import { UnsupportedProtocolVersionError } from "@modelcontextprotocol/server";
import type { Logger } from "./logger.js";

/*
 * The SDK's HTTP handler reports each request it refuses (a body that is no JSON-RPC message, a
 * header it rejects, a revision it does not serve) through the same error callback as its own
 * failures. A refused request is the client's mistake, already answered with a 4xx: it is logged
 * as one line without a stack, and at most `REFUSALS_PER_MINUTE` a minute, the rest counted in
 * one line when the minute ends, so no client can flood the server's log. A failure of the SDK or
 * of the server keeps its stack.
 */

/** Refused requests logged one by one in a minute; past them, one line counts the rest. */
export const REFUSALS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

/** Whether the SDK's reported error is its refusal of a client's request (answered with a 4xx), not a failure. */
export function isClientRefusal(error: Error): boolean {
  return (
    error instanceof UnsupportedProtocolVersionError ||
    error.message.startsWith("Rejected inbound request (") ||
    error.message.startsWith("Rejected 2025-era request") ||
    error.message.startsWith("Unsupported Media Type:") ||
    // The SDK's session transport (the sessionful mode): a request its session cannot take.
    SESSION_REFUSALS.some((prefix) => error.message.startsWith(prefix))
  );
}

/** How the SDK's session transport words what it answers with a 4xx (a second GET stream is 409, an unknown event id 400). */
const SESSION_REFUSALS = ["Bad Request:", "Conflict:", "Not Acceptable:", "Session not found", "Invalid event ID format", "Method not allowed"];

/** What serveHttp gives the SDK as its `onerror`: refusals in one line and bounded, failures with their stack. */
export class HttpErrorLog {
  private windowStart = -Infinity;
  private loggedInWindow = 0;
  private unlogged = 0;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(private readonly logger: Logger) {}

  readonly report = (error: Error): void => {
    if (!isClientRefusal(error)) {
      this.logger.warn(`HTTP request failed: ${error.stack ?? error.message}`);
      return;
    }
    const now = Date.now();
    if (now - this.windowStart >= MINUTE_MS) {
      this.flush();
      this.windowStart = now;
      this.loggedInWindow = 0;
    }
    if (this.loggedInWindow < REFUSALS_PER_MINUTE) {
      this.loggedInWindow++;
      // The SDK's message may carry what the client sent: one line, as every log line is.
      this.logger.warn(`HTTP request refused: ${error.message.replace(/\s+/g, " ")}`);
      return;
    }
    this.unlogged++;
    // Counted when the minute ends, even if no request comes after; the timer never holds the process.
    this.flushTimer ??= setTimeout(() => this.flush(), this.windowStart + MINUTE_MS - now).unref();
  };

  /** Logs the count of refusals not logged one by one (at the end of their minute, and when the serving closes). */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.unlogged === 0) return;
    const count = this.unlogged;
    this.unlogged = 0;
    this.logger.warn(`HTTP: ${count} more ${count === 1 ? "request was" : "requests were"} refused as invalid in the same minute, not logged one by one (at most ${REFUSALS_PER_MINUTE} a minute are)`);
  }
}
