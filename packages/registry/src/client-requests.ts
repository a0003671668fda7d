import { isInputRequiredResult, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import { statelessRefusal } from "./audience.js";

/*
 * What a tool may ask of the client, by where it runs. Over stdio and in a session of the
 * sessionful HTTP mode, the SDK's own context serves it as it is (`requestSampling`,
 * `elicitInput`, `send`), and an `inputRequired(…)` thrown by the tool is fulfilled by the SDK:
 * on 2026-07-28 the client answers it and calls again, on a 2025-era connection the SDK asks the
 * client itself and calls the tool again with the answers. On a stateless 2025-era HTTP request
 * none of it can work — the client's answer would reach another server — and the tool is told so,
 * instead of the SDK's "Client does not support sampling", which is not the reason.
 */

/** The context of a tool called on a stateless 2025-era HTTP request: what needs a session throws the true reason. */
export function statelessContext(ctx: ServerContext): ServerContext {
  const refuse = (what: string) => () => Promise.reject(new Error(statelessRefusal(what)));
  const send = (request: { method: string }) => Promise.reject(new Error(statelessRefusal(`A request to the client (${request.method})`)));
  return {
    ...ctx,
    mcpReq: {
      ...ctx.mcpReq,
      requestSampling: refuse("Sampling (sampling/createMessage)"),
      elicitInput: refuse("Elicitation (elicitation/create)"),
      send: send,
    },
  };
}

/**
 * What a tool throws to ask the client for input, the 2026-07-28 way (`throw inputRequired({
 * inputRequests: { … } })`): a result of its own kind, which the SDK sends or fulfils, never a
 * tool's answer. Thrown rather than returned, so the tool's declared return type stays
 * `DataToolOutput` and every check of it holds; its next call (with `ctx.mcpReq.inputResponses`)
 * answers through the net as any call does.
 */
export function thrownInputRequest(thrown: unknown): InputRequiredResult | undefined {
  try {
    return isInputRequiredResult(thrown) ? thrown : undefined;
  } catch {
    // A proxy whose traps throw, or a throwing getter: no request for input, a failure like any other.
    return undefined;
  }
}
