import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { dataToolOutputSchema } from "./contract.js";
import type { Logger } from "./logger.js";
import type { ToolFunction } from "./types.js";

/** How many problems an error result lists; the warning carries the same text. */
const MAX_PROBLEMS = 3;

function describePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "the result";
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`))
    .join("");
}

type Issue = z.core.$ZodIssue;

/** For a union (a content block), report the branch that came closest rather than "Invalid input". */
function closestIssue(issue: Issue): Issue {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return issue;
  const branch = issue.errors.reduce((best, next) => (next.length < best.length ? next : best));
  const inner = branch[0];
  return inner ? closestIssue({ ...inner, path: [...issue.path, ...inner.path] } as Issue) : issue;
}

/** The first problems of a failed parse, one line each: `structuredContent.sources[0]: must be …`. */
export function describeProblems(error: z.ZodError, max = MAX_PROBLEMS): string[] {
  // One value can fail two checks with the same message (a URL's parse and its scheme pattern).
  const all = [...new Set(error.issues.map((raw) => {
    const issue = closestIssue(raw);
    return `${describePath(issue.path)}: ${issue.message}`;
  }))];
  const lines = all.slice(0, max);
  if (all.length > max) lines.push(`… and ${all.length - max} more`);
  return lines;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function describeThrown(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the net calls: a registered tool, as `fn.call(thisArg, args, extra)`. */
export interface NetTool {
  readonly name: string;
  readonly fn: ToolFunction;
  readonly thisArg: unknown;
}

/**
 * The run-time net: calls a tool and lets its result leave only when the whole result matches
 * `DataToolOutput`. A failing result or a throwing tool becomes an MCP error result (`isError`,
 * which the SDK passes through unchecked) plus one warning; nothing unsourced is sent. What is
 * sent is zod's parsed copy (zod builds it while checking): neither unknown keys in content blocks
 * nor later changes to the returned object reach the client.
 *
 * A thenable result is awaited, as `await` would; any other result is checked at once, without
 * the promise and the microtask an `async` function would cost on every call.
 */
export function callThroughNet(tool: NetTool, args: unknown, extra: unknown, logger: Logger): CallToolResult | Promise<CallToolResult> {
  let value: unknown;
  let then: unknown;
  try {
    value = tool.fn.call(tool.thisArg, args, extra);
    if ((typeof value === "object" && value !== null) || typeof value === "function") then = (value as { then?: unknown }).then;
  } catch (error) {
    return thrownResult(tool.name, error, logger);
  }
  if (typeof then !== "function") return checkedResult(tool.name, value, logger);
  return Promise.resolve(value).then(
    (resolved) => checkedResult(tool.name, resolved, logger),
    (error: unknown) => thrownResult(tool.name, error, logger),
  );
}

function thrownResult(tool: string, error: unknown, logger: Logger): CallToolResult {
  logger.warn(`tool "${tool}" threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return errorResult(`Tool "${tool}" failed: ${describeThrown(error)}`);
}

/**
 * `dataToolOutputSchema` compiled by zod (`z.compile`): a valid result is checked by generated
 * code, without the interpreter's per-node dispatch; anything else falls back to the interpreter,
 * so the parsed copy, the issues and the messages are the same. Compiled at the first call
 * (~10 ms), not when the package loads.
 */
let compiledSchema: typeof dataToolOutputSchema | undefined;

function checkedResult(tool: string, value: unknown, logger: Logger): CallToolResult {
  compiledSchema ??= z.compile(dataToolOutputSchema);
  let parsed: ReturnType<typeof dataToolOutputSchema.safeParse>;
  try {
    parsed = compiledSchema.safeParse(value);
  } catch (error) {
    // A result whose getters or proxy traps throw cannot even be read: it is not sent either.
    const message = `Tool "${tool}" returned a result that cannot be read, so it was not sent: ${describeThrown(error)}`;
    logger.warn(message);
    return errorResult(message);
  }
  if (parsed.success) return parsed.data as CallToolResult;
  const problems = describeProblems(parsed.error);
  const message = `Tool "${tool}" returned a result that breaks the DataToolOutput contract, so it was not sent:\n${problems
    .map((line) => `- ${line}`)
    .join("\n")}`;
  logger.warn(message);
  return errorResult(message);
}
