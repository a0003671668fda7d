import type { InputRequiredResult, ReadResourceResult, ServerContext } from "@modelcontextprotocol/server";
import { getPromptResultSchema, readResourceResultSchema } from "./contract.js";
import type { Logger } from "./logger.js";
import { checkedCallback, type OfferingBounds } from "./offering-net.js";

/*
 * A resource's reads and a prompt's answers through the net (offering-net.ts): only a checked
 * `ReadResourceResult` or `GetPromptResult` is sent, else an MCP error naming the resource or the
 * prompt, within the calls' deadline and each serving's shutdown; or a request for input thrown
 * (`throw inputRequired(…)`), as a tool's: its checked copy, which the SDK sends or fulfils.
 */

/** A callback of the SDK's whose request context comes last: a read `(uri, ctx)`, `(uri, variables, ctx)`; a prompt `(args, ctx)`, `(ctx)`. */
type Args = [...unknown[], ServerContext];

/** A resource's `read`, checked and bounded by `bounds` (the registry's deadline, the serving's shutdown; whether it serves a stateless 2025-era request). */
export function checkedRead(name: string, read: (...args: Args) => unknown, logger: Logger, bounds: OfferingBounds): (...args: Args) => Promise<ReadResourceResult | InputRequiredResult> {
  return checkedCallback({ kind: "resource", name, contract: "ReadResourceResult", schema: readResourceResultSchema, running: "being read", stops: "the read" }, read, logger, bounds);
}

/** A prompt's `get`, checked and bounded as a read is. */
export function checkedPrompt(name: string, get: (...args: Args) => unknown, logger: Logger, bounds: OfferingBounds): (...args: Args) => Promise<unknown> {
  return checkedCallback({ kind: "prompt", name, contract: "GetPromptResult", schema: getPromptResultSchema, running: "answering", stops: "the prompt" }, get, logger, bounds);
}
