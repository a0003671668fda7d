import type { CallToolResult } from "@modelcontextprotocol/server";
import { stderrLogger, type Logger } from "./logger.js";
import { thrownText } from "./wire.js";

/*
 * The error answers any call may end in — capped texts naming the tool, and the one warning each —
 * shared by the result check (net.ts) and the deadlines (bounds.ts), so neither reaches into the other.
 */

/**
 * The longest text an error result carries, in characters. A longer one is cut, and says so; the
 * warning in the log carries the whole text (up to `LOG_TEXT_LIMIT`) and the stack.
 */
export const ERROR_TEXT_LIMIT = 2_000;
/** The longest warning the net logs, in characters; a longer one is cut and says so. */
export const LOG_TEXT_LIMIT = 100_000;
/** What a stopped call's own late outcome resolves to; never sent. */
export const STOPPED: CallToolResult = Object.freeze({ content: [], isError: true });

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
// eslint-disable-next-line no-control-regex -- matching control characters is the point
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
export function errorResult(text: string): CallToolResult {
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

/**
 * How a message names the tool: `Tool "list_cities"` in the error result a client receives, and
 * with its registration site in the server log. The site is a path on the server's machine: a
 * client has no use for it, and should not learn the server's file layout.
 */
export function toolLabel(tool: NamedTool, where: "result" | "log"): string {
  if (where === "result") return `Tool "${tool.name}"`;
  let site: string;
  try {
    site = tool.site;
  } catch {
    site = "an unknown place"; // the error path cannot fail
  }
  return `Tool "${tool.name}" (registered at ${site})`;
}

/** The fixed answer when building one failed: an error result naming the tool, and one warning. */
export function netFailure(tool: NamedTool, logger: Logger, error: unknown): CallToolResult {
  warn(logger, `${toolLabel(tool, "log")}: the net failed while answering the call: ${describeThrown(error).detail}`);
  return errorResult(`${toolLabel(tool, "result")} failed, and its failure could not be described; see the server log.`);
}

