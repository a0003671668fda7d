import { ProtocolError, ProtocolErrorCode, type McpServer } from "@modelcontextprotocol/server";
import { answerText } from "./answers.js";
import { describeProblems, inPlainWords, type Issue } from "./problems.js";

/*
 * A client's mistake answered as one. The SDK checks every request's params against the method's
 * schema before its handler runs, and answers a request that breaks it -32603 Internal error with
 * zod's issues as raw JSON for its message (on `tools/call`, -32602 with the same JSON): a client
 * that sends `resources/read` without a `uri` is told the server failed. Every request handler of
 * a server the registry builds is wrapped here, so that such a refusal is -32602 Invalid params in
 * the net's plain words (`Invalid params for resources/read: uri: is missing: it must be a
 * string`), on every method; -32603 stays the answer to the server's own failures.
 *
 * The SDK gives no hook between its check and the handler, so the wrapping reads its handler
 * table; with an SDK that has none, requests are answered as the SDK answers them.
 */

/** A request handler as the SDK's protocol layer stores it. */
type Handler = (request: unknown, ctx: unknown) => unknown;

const WRAPPED = Symbol("sourced.invalidParams");

/** Wraps every request handler of `server`, those registered later included (see above). */
export function answerClientMistakes(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  const table = handlers as Map<string, Handler>;
  for (const [method, handler] of table) table.set(method, plainInvalidParams(method, handler));
  const set = table.set.bind(table);
  table.set = (method: string, handler: Handler) => set(method, plainInvalidParams(method, handler));
}

function plainInvalidParams(method: string, handler: Handler): Handler {
  if ((handler as { [WRAPPED]?: true })[WRAPPED]) return handler;
  const wrapped = (request: unknown, ctx: unknown): unknown => {
    let outcome: unknown;
    try {
      outcome = handler(request, ctx);
    } catch (error) {
      throw reworded(method, error);
    }
    return outcome instanceof Promise
      ? outcome.catch((error: unknown) => {
          throw reworded(method, error);
        })
      : outcome;
  };
  return Object.assign(wrapped, { [WRAPPED]: true as const });
}

/** `Invalid tools/call request: [<issues>]`: how the SDK words its check of `tools/call`'s params. */
const TOOLS_CALL_REFUSAL = /^Invalid \S+ request: (\[[\s\S]*\])$/u;

/**
 * The SDK's refusal of a request's params, reworded as -32602 in plain words; anything else —
 * the handler's own failure, an error the SDK already coded — as it was.
 */
function reworded(method: string, error: unknown): unknown {
  const issues = paramIssues(error);
  if (issues === undefined) return error;
  const problems = describeProblems(issues.map(plainIssue), 3, "params");
  return new ProtocolError(ProtocolErrorCode.InvalidParams, answerText(`Invalid params for ${method}: ${problems.join("; ")}`));
}

/** The issues of the SDK's refusal of a request's params, each with its path below `params`; `undefined` for any other error. */
function paramIssues(error: unknown): Issue[] | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  let json: string;
  if (code === undefined && error.constructor === Error) json = error.message;
  else if (error instanceof ProtocolError && code === ProtocolErrorCode.InvalidParams) json = TOOLS_CALL_REFUSAL.exec(error.message)?.[1] ?? "";
  else return undefined;
  if (!json.startsWith("[")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isRequestIssue)) return undefined;
  return parsed.map((issue) => below(issue));
}

/** A zod issue of the request's check: its path starts at the request (`params`, `method`). */
function isRequestIssue(value: unknown): value is Issue & { path: PropertyKey[] } {
  if (typeof value !== "object" || value === null) return false;
  const { message, path } = value as { message?: unknown; path?: unknown };
  return typeof message === "string" && Array.isArray(path);
}

/** The issue with its path below `params` (and the branches of a union alike). */
function below(issue: Issue): Issue {
  const path = issue.path?.[0] === "params" ? issue.path.slice(1) : issue.path;
  return { ...issue, path, ...(issue.errors === undefined ? {} : { errors: issue.errors.map((branch) => branch.map(below)) }) };
}

/** What zod's JSON issue says it received: `Invalid input: expected string, received number`. */
const RECEIVED = /received (\w+)$/u;
/** A stand-in for what was received, as the net's words (`inPlainWords`) name it. */
const RECEIVED_VALUES: Readonly<Record<string, unknown>> = { undefined: undefined, null: null, number: 0, string: "", boolean: false, array: [], object: {}, bigint: 0n };
/** zod's expected types as the net's words name them. */
const EXPECTED: Readonly<Record<string, string>> = { record: "object", map: "object", int: "number", tuple: "array" };

/** The issue in the net's plain words, as a result's problems are worded; zod's own message where they have none. */
function plainIssue(issue: Issue): Issue {
  const raw = issue as Issue & { expected?: string; input?: unknown };
  let rawIssue: Record<string, unknown> = { ...raw };
  if (raw.code === "invalid_type" && typeof raw.expected === "string") {
    const received = RECEIVED.exec(raw.message)?.[1];
    if (received === undefined || !(received in RECEIVED_VALUES)) return issue;
    rawIssue = { ...raw, expected: EXPECTED[raw.expected] ?? raw.expected, input: RECEIVED_VALUES[received] };
  }
  let message: string | undefined;
  try {
    message = inPlainWords(rawIssue as never);
  } catch {
    message = undefined;
  }
  const errors = issue.errors?.map((branch) => branch.map(plainIssue));
  return { ...issue, message: message ?? issue.message, ...(errors === undefined ? {} : { errors }) };
}
