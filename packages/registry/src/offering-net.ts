import { ProtocolError, ProtocolErrorCode, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Logger } from "./logger.js";
import { answerText, describeThrown, warn } from "./answers.js";
import { deadlineText, withinBounds, type CallBounds } from "./bounds.js";
import { callbackContext, copiedInputRequest, copiedUrlElicitation, returnedInputRequestHint, STATELESS_INPUT_REFUSAL, thrownInputRequest } from "./client-requests.js";
import { copiedErrorParts, copiedProtocolError, thrownCodedError } from "./coded-errors.js";
import { expectedFailureText, isToolError } from "./net.js";
import { describePath, describeProblems, inPlainWords } from "./problems.js";
import { toWire } from "./wire.js";

/*
 * A resource's reads and a prompt's answers through the net, as a tool's calls: what the author's
 * callback answers is made into its plain-JSON wire copy (once: a `toJSON`, a getter or a proxy
 * runs once, before the check) and checked against the MCP result it must be, and only the checked
 * copy is sent. A callback that throws, or answers what breaks the contract, is answered with an
 * MCP error naming the resource or the prompt (and one warning; a `ToolError` is one line without a
 * stack): never an unchecked answer, never silence, never a crashed server. Each is bounded as a
 * call is (`withinBounds`): one still running at the registry's `callTimeoutMs`, or at the end of
 * the shutdown grace, is answered then with an MCP error, and the signal it was given
 * (`ctx.mcpReq.signal`) aborted.
 *
 * A callback asks the client for input as a tool does, by throwing `inputRequired(…)`: the request
 * leaves as its wire copy (client-requests.ts), which the SDK sends to a 2026-07-28 client or, on a
 * 2025-era connection, fulfils by asking the client and calling the callback again with
 * `ctx.mcpReq.inputResponses` — the SDK's own way for `prompts/get` and `resources/read`, as for
 * `tools/call`. A copy that may not leave is refused as a result that breaks the contract is; on a
 * stateless 2025-era request, where no later request could bring the answers back, asking is
 * refused with the reason, as a tool's is (server.ts), and so is a request pushed to the client
 * (`ctx.mcpReq.requestSampling`, `elicitInput`: client-requests.ts). A URL elicitation thrown the
 * 2025-era way (`UrlElicitationRequiredError`, -32042) leaves as the SDK lets it leave, as a tool's
 * does: an error of the request, its message and data copied once (client-requests.ts). A page any
 * of them asks the client to open is held to the URL rule of sources, as a tool's is.
 *
 * A coded error thrown (`ResourceNotFoundError`, a `ProtocolError` of -32602 or of the
 * application's own code) leaves as the SDK lets it leave too, with its code, message and data, as
 * their copy; one of a code only the layers beneath a callback may send is refused (coded-errors.ts).
 *
 * A request for input *returned* is refused as a tool's is, its message saying to throw it: the
 * result schemas are strict, and `resultType` is none of their keys. One rule for every callback
 * of the registry's — what is returned is the answer, checked against its contract; a request for
 * input is thrown — so code moved between a tool, a prompt and a read keeps its meaning, and a
 * request for input never passes for an answer, nor an answer for one.
 */

/** What bounds a read or a prompt's answer (`CallBounds`), and whether it serves a stateless 2025-era HTTP request. */
export interface OfferingBounds extends CallBounds {
  readonly stateless?: boolean | undefined;
}

/** What is answered through the net: a resource's reads, or a prompt's `prompts/get`. */
export interface Offered {
  /** "resource" or "prompt", as messages name it. */
  readonly kind: "resource" | "prompt";
  readonly name: string;
  /** The MCP result it must answer: `ReadResourceResult`, `GetPromptResult`. */
  readonly contract: string;
  readonly schema: z.ZodType;
  /**
   * The schema that words a refused answer, where its words name the request (a read's own URI):
   * built for a refusal only, so what passes is checked by `schema` alone.
   */
  readonly describedBy?: (args: Args) => z.ZodType;
  /** What it is doing while it runs, and what is stopped: "being read" and "the read"; "answering" and "the answer". */
  readonly running: string;
  readonly stops: string;
  /** How messages name it, when not as `Resource "name"` or `Prompt "name"` (a template's list: `Resource template "name"`). */
  readonly label?: string;
  /**
   * Whether the SDK can carry a request for input it throws: a read's and a prompt's, yes; a
   * template's list, no (`resources/list` has no such answer), and one thrown there is refused.
   */
  readonly asks?: boolean;
  /**
   * `false` for a callback the SDK gives no request context (a template's `complete`, called with
   * the value and the other arguments): it is called with what it is given, bounded by the deadline
   * and the shutdown alone.
   */
  readonly context?: false;
}

/** A callback of the SDK's whose request context comes last: a read `(uri, ctx)`, `(uri, variables, ctx)`; a prompt `(args, ctx)`, `(ctx)`. */
type Args = [...unknown[], ServerContext];

/** `callback`, checked against `offered.schema` and bounded by `bounds` (the registry's deadline, the serving's shutdown): see above. */
export function checkedCallback<T>(offered: Offered, callback: (...args: Args) => unknown, logger: Logger, bounds: OfferingBounds): (...args: Args) => Promise<T | InputRequiredResult> {
  const { kind, name, contract, schema, running, stops } = offered;
  const label = offered.label ?? `${kind === "resource" ? "Resource" : "Prompt"} "${name}"`;
  const subject = `${label.charAt(0).toLowerCase()}${label.slice(1)}`;
  const checked = async (args: Args, signal: AbortSignal): Promise<T | InputRequiredResult> => {
    const refuse = (text: string, log: string = text, data?: unknown): never => {
      // Once its signal is aborted (stopped here, or cancelled by the client) the SDK sends no
      // answer: what it failed with afterwards is no failure to log.
      if (!signal.aborted) warn(logger, log);
      throw new ProtocolError(ProtocolErrorCode.InternalError, answerText(text), data);
    };
    let value: unknown;
    try {
      value = await callback(...args);
    } catch (error) {
      const asked = thrownInputRequest(error);
      if (asked !== undefined && offered.asks === false) return refuse(`${label} asked for input, which ${contract} cannot carry, so nothing was asked: only a tool, a prompt or a resource read may ask (throw inputRequired(…) there).`);
      if (asked !== undefined) {
        const copied = copiedInputRequest(asked);
        if (!copied.ok) return refuse(`${label} ${copied.refusal}`);
        if (bounds.stateless === true) return refuse(`${label} failed: ${STATELESS_INPUT_REFUSAL}`);
        return copied.request;
      }
      const coded = thrownCodedError(error);
      if (coded?.code === ProtocolErrorCode.InternalError) {
        // The server's own failure, answered as any throw is (named, logged with its stack), with
        // the data its author gave it, as the SDK sends it: its copy, or none if it has none.
        const parts = copiedErrorParts(coded.error);
        const { message, detail } = describeThrown(error);
        const text = `${label} failed: ${parts.ok ? parts.message : message}`;
        const left = parts.ok ? "" : `\n(its data was not sent: ${parts.path === undefined ? `- message: ${parts.problem}` : `- ${describePath(parts.path, "the error")}: ${parts.problem}`})`;
        return refuse(text, `${label} threw: ${detail}${left}`, parts.ok ? parts.data : undefined);
      }
      if (coded !== undefined) {
        // A URL elicitation (-32042), or an error of a code a callback may answer with — a
        // ProtocolError, the v1 line's McpError, an Error given a code: passed on as the SDK passes
        // on a prompt's or a read's own, as its copy, thrown to the SDK (which keeps the code,
        // message and data).
        const copied = coded.code === ProtocolErrorCode.UrlElicitationRequired ? copiedUrlElicitation(coded.error) : copiedProtocolError(coded.error, coded.code, coded.named);
        if (copied !== undefined) {
          if (!copied.ok) return refuse(`${label} ${copied.refusal}`);
          throw copied.error;
        }
      }
      if (isToolError(error)) {
        const text = expectedFailureText(error) ?? `${label} failed.`;
        return refuse(text, `${label} answered with an error: ${text}`);
      }
      const { message, detail } = describeThrown(error);
      return refuse(`${label} failed: ${message}`, `${label} threw: ${detail}`);
    }
    const wire = toWire(value);
    if (!wire.ok) return refuse(`${label} answered with a result that cannot be sent as JSON, so it was not sent: ${wire.refusal.problem}`);
    const parsed = schema.safeParse(wire.value, { error: inPlainWords });
    if (!parsed.success) {
      const issues = offered.describedBy?.(args).safeParse(wire.value, { error: inPlainWords }).error?.issues ?? parsed.error.issues;
      const problems = describeProblems(issues).map((line) => `- ${line}`);
      // A request for input returned rather than thrown: refused as a tool's is, saying how to ask.
      return refuse(`${label} answered with a result that breaks the ${contract} contract, so it was not sent:\n${problems.join("\n")}${returnedInputRequestHint(wire.value)}`);
    }
    return wire.value as T;
  };
  const stopped = (text: string): never => {
    throw new ProtocolError(ProtocolErrorCode.InternalError, answerText(text));
  };
  return (...args: Args) => {
    const ctx = offered.context === false ? undefined : (args.at(-1) as ServerContext);
    const outcome = withinBounds(
      ctx?.mcpReq.signal ?? new AbortController().signal,
      bounds,
      logger,
      (signal) => {
        if (ctx === undefined) return checked(args, signal);
        // The callback sees the bounded signal in its context, as a tool does in its `extra`; on a
        // stateless 2025-era request, what needs a session (`requestSampling`, `elicitInput`, `send`)
        // throws the reason, as a tool's does, not the SDK's "Client does not support …"; elsewhere
        // an elicitation it pushes leaves as its copy, a page to open held to the URL rule, as a tool's.
        return checked([...args.slice(0, -1), callbackContext(ctx, signal, bounds.stateless === true)] as unknown as Args, signal);
      },
      (cause) => {
        if (cause === "shutdown") {
          return {
            reason: new DOMException(`the server shut down while ${subject} was ${running}`, "AbortError"),
            answer: () => stopped(`${label} was still ${running} when the server shut down, so ${stops} was stopped.`),
            warning: `${subject} was still ${running} at the end of the shutdown grace: ${stops} was answered with an error and its signal aborted.`,
          };
        }
        const ms = deadlineText(bounds.timeoutMs);
        return {
          reason: new DOMException(`${subject} did not answer within ${ms}`, "TimeoutError"),
          answer: () => stopped(`${label} did not answer within ${ms}, so ${stops} was stopped.`),
          warning: `${subject} did not answer within ${ms}: ${stops} was answered with an error and its signal aborted. If it needs longer, raise the limit: createRegistry({ callTimeoutMs }).`,
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
