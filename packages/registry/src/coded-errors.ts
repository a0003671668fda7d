import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { describePath, describeReturned } from "./problems.js";
import { toWire, type WirePath } from "./wire.js";

/*
 * A coded error a prompt or a resource read throws — `ResourceNotFoundError` from a template's
 * read, a `ProtocolError` of -32602 for arguments it cannot use, one of the application's own code —
 * leaves as the SDK's own server lets it leave: the JSON-RPC error of the request, with its code,
 * message and data, which clients moved from the SDK act on (a v2 Client rebuilds
 * `ResourceNotFoundError` from -32602 and `{ uri }`). What leaves is its plain-JSON copy, each part
 * read once by the copier every result goes through (wire.ts), never the author's error: a getter or
 * a `toJSON` of its data runs once, and one the copy refuses, or a message that is no text, may not
 * leave — the transport could not write it, or no client could read it.
 *
 * A tool's does not: the SDK answers whatever a tool throws with an error result (`isError`, its
 * message as the text), a URL elicitation (-32042) aside, and so does the net (net.ts).
 *
 * Only the codes a callback may answer its own request with leave. JSON-RPC 2.0 (§5.1) reserves
 * -32768 to -32000 for the protocol — -32700 parse error, -32600 invalid request, -32601 method not
 * found, -32602 invalid params, -32603 internal error, -32000 to -32099 for the implementation's
 * server errors — and leaves every other code to the application. MCP assigns its codes from the
 * reserved range, and each belongs to a layer beneath the callback: the transports answer -32700 (a
 * body that is no JSON), -32600 (a message that is no request, a second `initialize`), and the
 * SDK's HTTP transport -32000 (a request it refuses) and -32001 (a session it does not know); the
 * dispatcher -32601 (a method the server does not serve); 2026-07-28's HTTP entry -32020 (headers
 * that contradict the body), the SDK's capability gate -32021 (an `inputRequired(…)` the client
 * declared no capability for, the one code the SDK's HTTP entry answers with HTTP 400 whatever
 * raised it), and version negotiation -32022. A client reads those as news of the connection — its
 * message was broken, its session is gone, its revision or its capabilities are refused, the server
 * lacks the method — while the request they would answer was parsed, dispatched and is being
 * answered: sent by a callback, each would be a lie about the layers beneath it, so it is refused,
 * as is the rest of the reserved range (the codes a later revision may assign). What a callback may
 * answer with: -32602 (what the client asked is wrong — `ResourceNotFoundError`, the code the
 * 2026-07-28 specification requires for an unknown resource), -32002 (earlier revisions'
 * resource-not-found, which the SDK sends as -32602 on every revision), -32042 (a URL elicitation,
 * client-requests.ts), and any code outside the reserved range. -32603 is a failure of the server's:
 * answered as any throw is, naming the callback, and logged with its stack.
 *
 * The SDK's protocol layer sends the `code` of whatever a prompt or a read throws when it is an
 * integer, with its `message` and `data`: a `ProtocolError`, recognised as the SDK's own handlers
 * recognise it (a brand that holds across copies of the SDK), the v1 line's `McpError` (not of
 * that brand, but of the same shape: `code`, `message`, `data`), and a plain `Error` given an
 * integer `code`. A server moved from the v1 line, or written with plain errors, answers its
 * clients with those codes, and they act on them; so the registry passes on the code of each, as
 * their copy, under the same rule: a code the layers beneath a callback own is refused, whichever
 * error carries it. A thrown value that is no `Error` is a failure, whatever its `code`.
 */

/** A `ProtocolError` thrown by the author's code, and its code, read once; `undefined` for any other throw, and for a code that is no integer (the SDK answers it -32603, as any failure). */
export function thrownProtocolError(thrown: unknown): { readonly error: ProtocolError; readonly code: number } | undefined {
  try {
    if (!(thrown instanceof ProtocolError)) return undefined;
    const code: unknown = thrown.code;
    return typeof code === "number" && Number.isSafeInteger(code) ? { error: thrown, code } : undefined;
  } catch {
    // A proxy whose traps throw, or a throwing `code` getter: a failure like any other.
    return undefined;
  }
}

/** A thrown coded error as a refusal names it: a `ProtocolError`, or any other `Error` given a code. */
export type ThrownErrorName = "a ProtocolError" | "an error";

/**
 * A coded error thrown by a prompt or a read, and its code, read once: a `ProtocolError`, or any
 * other `Error` whose `code` is an integer (the v1 line's `McpError`, an `Error` given a code; see
 * above); `undefined` for any other throw. `named`: what it is, in the words a refusal of its code
 * says it threw.
 */
export function thrownCodedError(thrown: unknown): { readonly error: object; readonly code: number; readonly named: ThrownErrorName } | undefined {
  const protocol = thrownProtocolError(thrown);
  if (protocol !== undefined) return { ...protocol, named: "a ProtocolError" };
  try {
    if (!(thrown instanceof Error) || thrown instanceof ProtocolError) return undefined;
    const code: unknown = (thrown as { code?: unknown }).code;
    return typeof code === "number" && Number.isSafeInteger(code) ? { error: thrown, code, named: "an error" } : undefined;
  } catch {
    // A proxy whose traps throw, or a throwing `code` getter: a failure like any other.
    return undefined;
  }
}

/** A thrown error's message and data as they may leave, or what the copy refused: where and why, or the message that is no text. */
export type CopiedErrorParts =
  | { readonly ok: true; readonly message: string; readonly data: unknown }
  | { readonly ok: false; readonly path: WirePath; readonly problem: string }
  | { readonly ok: false; readonly path: undefined; readonly problem: string };

/**
 * `thrown`'s message and data, each read once by the copier every result goes through (wire.ts),
 * so that a getter of either that throws is refused with its path, and what leaves is the copy.
 * Refused: a part the copy refuses (`path` where), or a message that is no text (`path` undefined).
 */
export function copiedErrorParts(thrown: object): CopiedErrorParts {
  const wire = toWire({
    get message(): unknown {
      return (thrown as { message?: unknown }).message;
    },
    get data(): unknown {
      return (thrown as { data?: unknown }).data;
    },
  });
  if (!wire.ok) return { ok: false, path: wire.refusal.path, problem: wire.refusal.problem };
  const { message, data } = wire.value as { message?: unknown; data?: unknown };
  if (typeof message === "string") return { ok: true, message, data };
  const found = typeof message === "object" && message !== null && !Array.isArray(message) ? "an object" : describeReturned(message);
  return { ok: false, path: undefined, problem: found };
}

/** A prompt's or a read's coded error as it may leave: its copy, or why it may not, in words that follow the name of what threw it (`Prompt "p" ${refusal}`). */
export type CopiedProtocolError = { readonly ok: true; readonly error: ProtocolError } | { readonly ok: false; readonly refusal: string };

/** The codes of the reserved range a callback may answer with (see above): -32042 is a URL elicitation's, client-requests.ts. */
const ANSWERS: ReadonlySet<number> = new Set([ProtocolErrorCode.InvalidParams, ProtocolErrorCode.ResourceNotFound]);

/** Whose each code of the reserved range is, as a refusal names it (see above). */
const OWNERS: ReadonlyMap<number, string> = new Map([
  [ProtocolErrorCode.ParseError, "Parse error: the transport's, for a message that is no JSON"],
  [ProtocolErrorCode.InvalidRequest, "Invalid Request: the JSON-RPC layer's, for a message that is no request"],
  [ProtocolErrorCode.MethodNotFound, "Method not found: the server's, for a method it does not serve"],
  [-32_000, "the SDK's HTTP transport's, for a request it refuses"],
  [-32_001, "Session not found: the SDK's HTTP transport's"],
  [-32_020, "Header mismatch: the HTTP entry's, for headers that contradict the body"],
  [ProtocolErrorCode.MissingRequiredClientCapability, "Missing required client capability: the SDK's own, for an inputRequired(…) the client declared no capability for, answered with HTTP 400"],
  [ProtocolErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version: version negotiation's"],
]);

/** JSON-RPC's reserved range: the protocol's codes, MCP's among them. */
const RESERVED_LOW = -32_768;
const RESERVED_HIGH = -32_000;

/** What the refusal of a code no callback may send says to throw instead. */
export const CODED_ERROR_FIX =
  "Throw ResourceNotFoundError for a URI nothing serves, a ProtocolError of code -32602 (ProtocolErrorCode.InvalidParams) for what the client asked wrongly, or one of a code of your own outside -32768 to -32000.";

/**
 * A prompt's or a read's thrown coded error of `code` (read once, `thrownCodedError`) as it
 * leaves: its copy, of the same code, message and data the SDK would send; the refusal of a code no
 * callback may send (saying it threw `named`), or of a part the copy refuses; `undefined` for
 * -32603, a failure answered as any throw. -32042 is no concern of this: a URL elicitation
 * (client-requests.ts).
 */
export function copiedProtocolError(thrown: object, code: number, named: ThrownErrorName): CopiedProtocolError | undefined {
  if (code === ProtocolErrorCode.InternalError) return undefined;
  const reserved = code >= RESERVED_LOW && code <= RESERVED_HIGH;
  if (reserved && !ANSWERS.has(code)) {
    const owner = OWNERS.get(code) ?? "reserved by JSON-RPC for the protocol (-32768 to -32000), where MCP assigns its codes";
    return { ok: false, refusal: `threw ${named} of code ${code} (${owner}), which no prompt or resource read may answer with, so it was not sent: ${quotedMessage(thrown)}\n${CODED_ERROR_FIX}` };
  }
  const parts = copiedErrorParts(thrown);
  if (parts.ok) return { ok: true, error: new ProtocolError(code, parts.message, parts.data) };
  if (parts.path === undefined) return { ok: false, refusal: `answered with the error ${code}, whose message is no text, so it was not sent:\n- message: ${parts.problem}` };
  return { ok: false, refusal: `answered with the error ${code}, which cannot be sent as JSON, so it was not sent:\n- ${describePath(parts.path, "the error")}: ${parts.problem}` };
}

/** The message of a refused error, quoted for the refusal; never throws. */
function quotedMessage(thrown: object): string {
  try {
    const message: unknown = (thrown as { message?: unknown }).message;
    if (typeof message === "string") return JSON.stringify(message);
  } catch {
    // A getter that throws: nothing to quote.
  }
  return "(a message that is no text)";
}
