import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import { isSourceUrl, urlRuleProblem } from "@sourced/contract-rules";
import { statelessRefusal } from "./audience.js";
import { copiedErrorParts, thrownProtocolError } from "./coded-errors.js";
import { describePath, describeReturned } from "./problems.js";
import { toWire, type WirePath } from "./wire.js";

/*
 * What a tool — or a prompt, or a resource's read — may ask of the client, by where it runs. Over
 * stdio and in a session of the sessionful HTTP mode, the SDK's own context serves it as it is
 * (`requestSampling`, `elicitInput`, `send`), and an `inputRequired(…)` it throws is fulfilled by
 * the SDK: on 2026-07-28 the client answers it and calls again, on a 2025-era connection the SDK
 * asks the client itself and calls the tool again with the answers. On a stateless 2025-era HTTP
 * request none of it can work — the client's answer would reach another server — and the tool, the
 * prompt or the read is told so, in the same words, instead of the SDK's "Client does not support
 * sampling", which is not the reason. Wherever it asks, a page it asks the client to open is held
 * to the URL rule of sources (below).
 */

type Pushes = Pick<ServerContext["mcpReq"], "requestSampling" | "elicitInput" | "send">;

/** What needs a session, on a stateless 2025-era HTTP request: each throws the true reason. */
const STATELESS_PUSHES: Pushes = {
  requestSampling: () => Promise.reject(new Error(statelessRefusal("Sampling (sampling/createMessage)"))),
  elicitInput: () => Promise.reject(new Error(statelessRefusal("Elicitation (elicitation/create)"))),
  send: (request: { method: string }) => Promise.reject(new Error(statelessRefusal(`A request to the client (${request.method})`))),
};

/**
 * The context a tool, a prompt or a read is called with: the SDK's, its signal the one that bounds
 * the call (its deadline, the serving's shutdown). On a stateless 2025-era HTTP request what needs a
 * session throws the true reason; elsewhere an elicitation pushed to the client leaves as its
 * plain-JSON copy, and one asking the client to open a URL the rule of sources refuses is refused
 * (`checkedPushes`).
 */
export function callbackContext(ctx: ServerContext, signal: AbortSignal, stateless: boolean): ServerContext {
  // The SDK's own idiom for a derived context (its buildContext spreads `mcpReq` the same way).
  return { ...ctx, mcpReq: { ...ctx.mcpReq, signal, ...(stateless ? STATELESS_PUSHES : checkedPushes(ctx.mcpReq)) } };
}

/**
 * What a tool throws to ask the client for input, the 2026-07-28 way (`throw inputRequired({
 * inputRequests: { … } })`): a result of its own kind, which the SDK sends or fulfils, never a
 * tool's answer. Thrown rather than returned, so the tool's declared return type stays
 * `DataToolOutput` and every check of it holds; its next call (with `ctx.mcpReq.inputResponses`)
 * answers through the net as any call does. A prompt and a resource's read ask the same way.
 */
export function thrownInputRequest(thrown: unknown): InputRequiredResult | undefined {
  try {
    return isInputRequiredResult(thrown) ? thrown : undefined;
  } catch {
    // A proxy whose traps throw, or a throwing getter: no request for input, a failure like any other.
    return undefined;
  }
}

/**
 * What the refusal of a request for input *returned* adds (`return inputRequired(…)`, as the SDK's
 * own callbacks may): returned, it is an answer, checked against the contract of a tool's result, a
 * prompt's or a read's — whose keys `resultType` is none of — and refused as one that breaks it;
 * the author is told how to ask instead. In one place, so a tool, a prompt and a read say it alike.
 */
export const RETURNED_INPUT_REQUEST_HINT = "A request for input is thrown, not returned: throw inputRequired(…) instead.";

/** The hint on a line of its own when `returned` (an answer's plain-JSON copy) is a request for input; else nothing. */
export function returnedInputRequestHint(returned: unknown): string {
  return thrownInputRequest(returned) === undefined ? "" : `\n${RETURNED_INPUT_REQUEST_HINT}`;
}

/** A thrown request for input as it may leave: its copy, or why it may not, in words that follow the name of what asked (`Prompt "p" ${refusal}`). */
export type CopiedInputRequest = { readonly ok: true; readonly request: InputRequiredResult } | { readonly ok: false; readonly refusal: string };

/** Asking for input needs a later request to bring the answers back: what a stateless 2025-era request is told. */
export const STATELESS_INPUT_REFUSAL = statelessRefusal("Asking the client for input (inputRequired)");

/**
 * A request for input thrown by the author's code (a tool, a prompt, a resource's read), as it
 * leaves the server: its plain-JSON copy, made once by the copier every result goes through
 * (wire.ts), so a getter, a proxy trap or a `toJSON` of it runs once and what the SDK reads — and
 * sends, or fulfils by asking the client — is that copy, never the author's object. One the copy
 * refuses (a BigInt, a cycle, a getter that throws), or one that is no request for input once
 * copied (it said otherwise when read again), may not leave: the refusal says why, and each net
 * answers it as it answers a result that breaks its contract. What an input request may ask is the
 * SDK's to check: it refuses a kind it does not know, and one the client has no capability for.
 */
export function copiedInputRequest(asked: InputRequiredResult): CopiedInputRequest {
  const wire = toWire(asked);
  if (!wire.ok) {
    const { path, problem } = wire.refusal;
    return { ok: false, refusal: `asked for input with a request that cannot be sent as JSON, so it was not sent:\n- ${describePath(path, "the request")}: ${problem}` };
  }
  const copy = wire.value;
  const request = thrownInputRequest(copy);
  if (request !== undefined) {
    const refused = refusedUrl(urlsOfInputRequests(request));
    return refused === undefined ? { ok: true, request } : { ok: false, refusal: refusedUrlText(refused, "the request") };
  }
  const then =
    typeof copy === "object" && copy !== null && !Array.isArray(copy)
      ? `resultType: "input_required", then ${JSON.stringify((copy as { resultType?: unknown }).resultType)?.slice(0, 80) ?? "none"}`
      : `the request: an object whose resultType is "input_required", then ${describeReturned(copy)}`;
  return { ok: false, refusal: `asked for input with a request that changed when it was read again, so it was not sent:\n- ${then}` };
}

/**
 * A URL elicitation thrown by the author's code, the 2025-era way (`throw new
 * UrlElicitationRequiredError([...])`: the JSON-RPC error -32042, whose data lists the pages the
 * user is asked to open): recognised as the SDK's own handlers recognise it, a `ProtocolError` of
 * that code. The SDK passes it on to the client as that error — from a tool, a prompt or a read
 * alike — where any other throw is a failure; the registry passes it on the same way.
 */
export function thrownUrlElicitation(thrown: unknown): ProtocolError | undefined {
  // A proxy whose traps throw, or a throwing `code` getter: no URL elicitation, a failure like any other.
  const coded = thrownProtocolError(thrown);
  return coded?.code === ProtocolErrorCode.UrlElicitationRequired ? coded.error : undefined;
}

/** A thrown URL elicitation as it may leave: its copy, or why it may not, in words that follow the name of what threw it. */
export type CopiedUrlElicitation = { readonly ok: true; readonly error: ProtocolError } | { readonly ok: false; readonly refusal: string };

/** The URL elicitations that went through `copiedUrlElicitation`: a tool's net answers with one, and its server throws it. */
const copiedUrlElicitations = new WeakSet<object>();

/**
 * A thrown URL elicitation as it leaves the server: a `ProtocolError` of its code, with its message
 * and the plain-JSON copy of its data, each read once by the copier every result goes through
 * (wire.ts, `copiedErrorParts`) — so what the SDK sends is that copy, with the same code, message
 * and data the SDK would send for the author's error, never a getter or a `toJSON` of it read again
 * while it is written out. One the copy refuses (a BigInt the transport could not write, a cycle, a
 * getter that throws) may not leave, nor one whose pages break the URL rule of sources
 * (`refusedUrl`), and each net answers it as it answers a request for input the copy refuses. What
 * it asks, and on which protocol revision, is the SDK's to decide, as for a tool of its own: it
 * sends -32042 on a 2025-era request, and refuses it on 2026-07-28, which has no such error
 * (`inputRequired.elicitUrl(…)` there).
 */
export function copiedUrlElicitation(thrown: object): CopiedUrlElicitation {
  const parts = copiedErrorParts(thrown);
  if (!parts.ok) {
    if (parts.path === undefined) return { ok: false, refusal: `asked for input with a URL elicitation whose message is no text, so it was not sent:\n- message: ${parts.problem}` };
    return { ok: false, refusal: `asked for input with a URL elicitation that cannot be sent as JSON, so it was not sent:\n- ${describePath(parts.path, "the error")}: ${parts.problem}` };
  }
  const { message, data } = parts;
  const refused = refusedUrl(urlsOfUrlElicitation(data));
  if (refused !== undefined) return { ok: false, refusal: refusedUrlText(refused, "the error") };
  const error = new ProtocolError(ProtocolErrorCode.UrlElicitationRequired, message, data);
  copiedUrlElicitations.add(error);
  return { ok: true, error };
}

/** Whether `value` is a URL elicitation's copy (`copiedUrlElicitation`): what a tool's server throws rather than sends as a result. */
export function isCopiedUrlElicitation(value: unknown): value is ProtocolError {
  return typeof value === "object" && value !== null && copiedUrlElicitations.has(value);
}

/*
 * A URL a request for input asks the client to open — a page the user signs in or pays on — is
 * held to the rule a source is held to (@sourced/contract-rules' URL rule): a host shows it, and
 * opens it in the user's browser, as it makes a link of a source, so it may never be what the
 * registry refuses as one — a `javascript:` or a `data:` URL a browser runs or renders itself, a
 * host disguised by user information (`https://example.org@evil.example`), a path, a misspelt
 * scheme. Every way a callback can ask for one is checked on the copy that leaves: a thrown
 * `inputRequired(…)` (`inputRequired.elicitUrl(…)`, which the SDK sends to a 2026-07-28 client or
 * asks a 2025-era one itself), a thrown `UrlElicitationRequiredError` (-32042), and an
 * `elicitation/create` pushed over the connection (`ctx.mcpReq.elicitInput(…)`, `ctx.mcpReq.send(…)`).
 * A resource's URI is no page a browser opens, so none stands here, though it may as a source.
 */

/** A URL a request for input asks the client to open, and where it is in the request. */
interface AskedUrl {
  readonly path: WirePath;
  readonly url: unknown;
}

/** What a refusal of a URL the client may not be asked to open says to write instead. */
export const ASKED_URL_FIX = 'The client opens it for the user: give the page\'s absolute http: or https: URL, as a source is written (url: "https://example.org/login").';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The first URL of `asked` the URL rule refuses, with its words; `undefined` when it accepts them all. */
function refusedUrl(asked: Iterable<AskedUrl>): { readonly path: WirePath; readonly problem: string } | undefined {
  for (const { path, url } of asked) if (!isSourceUrl(url)) return { path, problem: urlRuleProblem(url) };
  return undefined;
}

/** The refusal of a request for input that asks the client to open `refused`, in words that follow the name of what asked. */
function refusedUrlText(refused: { readonly path: WirePath; readonly problem: string }, root: string): string {
  return `asked for input with a URL the client may not be asked to open, so it was not sent:\n- ${describePath(refused.path, root)}: ${refused.problem}\n${ASKED_URL_FIX}`;
}

/** The pages a thrown request for input's copy asks the client to open: each URL elicitation of its `inputRequests`. */
function* urlsOfInputRequests(request: InputRequiredResult): Iterable<AskedUrl> {
  const requests: unknown = request.inputRequests;
  if (!isRecord(requests)) return;
  for (const [key, entry] of Object.entries(requests)) {
    if (isRecord(entry) && entry["method"] === "elicitation/create" && isRecord(entry["params"]) && entry["params"]["mode"] === "url") {
      yield { path: ["inputRequests", key, "params", "url"], url: entry["params"]["url"] };
    }
  }
}

/** The pages a thrown URL elicitation's copied data asks the client to open: every `url` its `elicitations` hold (all of them are pages). */
function* urlsOfUrlElicitation(data: unknown): Iterable<AskedUrl> {
  const elicitations = isRecord(data) ? data["elicitations"] : undefined;
  if (!Array.isArray(elicitations)) return;
  for (const [index, elicitation] of elicitations.entries()) {
    if (isRecord(elicitation) && ("url" in elicitation || elicitation["mode"] === "url")) yield { path: ["data", "elicitations", index, "url"], url: elicitation["url"] };
  }
}

/**
 * An `elicitation/create` the author's code pushes to the client, as it leaves: the plain-JSON copy
 * of its params, made once, so the URL checked is the URL sent (a getter, a `toJSON` or a proxy of
 * them runs once); or why it may not leave — a copy refused, a URL the rule of sources refuses —
 * as the message the push is rejected with, which a callback that does not catch it fails with
 * (named, and logged once), as a push on a stateless request is refused.
 */
function pushedElicitation(params: unknown): { readonly ok: true; readonly params: unknown } | { readonly ok: false; readonly refusal: string } {
  const wire = toWire(params);
  if (!wire.ok) {
    const { path, problem } = wire.refusal;
    return { ok: false, refusal: `An elicitation (elicitation/create) that cannot be sent as JSON was not sent:\n- ${describePath(["params", ...path])}: ${problem}` };
  }
  const copy = wire.value;
  if (isRecord(copy) && copy["mode"] === "url" && !isSourceUrl(copy["url"])) {
    return { ok: false, refusal: `A URL elicitation (elicitation/create) asks the client to open a URL it may not be asked to open, so it was not sent:\n- params.url: ${urlRuleProblem(copy["url"])}\n${ASKED_URL_FIX}` };
  }
  return { ok: true, params: copy };
}

/** The SDK's `elicitInput` and `send` of `mcpReq`, each elicitation they push checked first (`pushedElicitation`); sampling as it is. */
function checkedPushes(mcpReq: ServerContext["mcpReq"]): Pushes {
  const { elicitInput, send, requestSampling } = mcpReq;
  return {
    requestSampling,
    elicitInput: (params, options) => {
      const pushed = pushedElicitation(params);
      return pushed.ok ? elicitInput(pushed.params as typeof params, options) : Promise.reject(new Error(pushed.refusal));
    },
    send: ((request: unknown, ...rest: unknown[]) => {
      const sendOn = send as (request: unknown, ...rest: unknown[]) => unknown;
      if (!isRecord(request)) return sendOn(request, ...rest);
      // Each key read once: the method judged is the method sent.
      const own = { ...request };
      if (own["method"] !== "elicitation/create") return sendOn(own, ...rest);
      const pushed = pushedElicitation(own["params"]);
      return pushed.ok ? sendOn({ ...own, params: pushed.params }, ...rest) : Promise.reject(new Error(pushed.refusal));
    }) as Pushes["send"],
  };
}
