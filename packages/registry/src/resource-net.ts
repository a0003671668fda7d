import { ResourceTemplate, type CompleteResourceTemplateCallback, type InputRequiredResult, type ListResourcesCallback, type ReadResourceResult, type ServerContext } from "@modelcontextprotocol/server";
import { completionValuesSchema, getPromptResultSchema, listedResourcesSchema, readResourceResultSchema } from "./contract.js";
import type { Logger } from "./logger.js";
import { checkedCallback, type OfferingBounds } from "./offering-net.js";

/*
 * A resource's reads and a prompt's answers through the net (offering-net.ts): only a checked
 * `ReadResourceResult` or `GetPromptResult` is sent, else an MCP error naming the resource or the
 * prompt, within the calls' deadline and each serving's shutdown; or a request for input thrown
 * (`throw inputRequired(…)`), as a tool's: its checked copy, which the SDK sends or fulfils. A
 * template's `list` and `complete` callbacks likewise: what they answer reaches the client in
 * `resources/list` and `completion/complete`, so only its checked copy is given to the SDK, else an
 * MCP error naming the template.
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

/**
 * `template` with its `list` and `complete` callbacks checked and bounded as a read is: a list is
 * a `ListResourcesResult` (each resource's URI any absolute URI but a browser's own, as a read's
 * contents name), a completion a list of strings, each its plain-JSON copy; a throw, or an answer
 * that breaks it, is an MCP error naming the template and one warning. Neither can carry a request
 * for input, so one thrown there is refused. The same URI template, so the template matches,
 * reads and is found by its literal prefix (template-index.ts) as the author's does.
 */
export function checkedTemplate(name: string, template: ResourceTemplate, logger: Logger, bounds: OfferingBounds): ResourceTemplate {
  const list = template.listCallback as ((ctx: ServerContext) => unknown) | undefined;
  const complete: Record<string, CompleteResourceTemplateCallback> = {};
  for (const variable of template.uriTemplate.variableNames) {
    const callback = template.completeCallback(variable) as ((...args: unknown[]) => unknown) | undefined;
    if (typeof callback !== "function") continue;
    const label = `The completion of "${variable}" of resource template "${name}"`;
    const checked = checkedCallback<string[]>(
      { kind: "resource", name, contract: "CompleteResult", schema: completionValuesSchema, running: "completing", stops: "the completion", label, asks: false, context: false },
      (...args) => callback(...args),
      logger,
      bounds,
    );
    complete[variable] = checked as unknown as CompleteResourceTemplateCallback;
  }
  const checkedList =
    typeof list === "function"
      ? checkedCallback(
          { kind: "resource", name, contract: "ListResourcesResult", schema: listedResourcesSchema, running: "listing its resources", stops: "the list", label: `The list of resource template "${name}"`, asks: false },
          (...args) => list(args.at(-1) as ServerContext),
          logger,
          bounds,
        )
      : list;
  return new ResourceTemplate(template.uriTemplate, { list: checkedList as ListResourcesCallback | undefined, complete });
}
