import type { ReadResourceResult, ServerContext } from "@modelcontextprotocol/server";
import { getPromptResultSchema, readResourceResultSchema } from "./contract.js";
import type { Logger } from "./logger.js";
import type { CallBounds } from "./bounds.js";
import { checkedCallback } from "./offering-net.js";

/*
 * A resource's reads and a prompt's answers through the net (offering-net.ts): only a checked
 * `ReadResourceResult` or `GetPromptResult` is sent, else an MCP error naming the resource or the
 * prompt, within the calls' deadline and each serving's shutdown.
 */

/** A callback of the SDK's whose request context comes last: a read `(uri, ctx)`, `(uri, variables, ctx)`; a prompt `(args, ctx)`, `(ctx)`. */
type Args = [...unknown[], ServerContext];

/** A resource's `read`, checked and bounded by `bounds` (the registry's deadline, the serving's shutdown). */
export function checkedRead(name: string, read: (...args: Args) => unknown, logger: Logger, bounds: CallBounds): (...args: Args) => Promise<ReadResourceResult> {
  return checkedCallback({ kind: "resource", name, contract: "ReadResourceResult", schema: readResourceResultSchema, running: "being read", stops: "the read" }, read, logger, bounds);
}

/** A prompt's `get`, checked and bounded as a read is. */
export function checkedPrompt(name: string, get: (...args: Args) => unknown, logger: Logger, bounds: CallBounds): (...args: Args) => Promise<unknown> {
  return checkedCallback({ kind: "prompt", name, contract: "GetPromptResult", schema: getPromptResultSchema, running: "answering", stops: "the prompt" }, get, logger, bounds);
}
