import { completable, isCompletable, ResourceTemplate, type CompleteResourceTemplateCallback, type InputRequiredResult, type ListResourcesCallback, type ReadResourceResult, type ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import { completionValuesSchema, getPromptResultSchema, listedResourcesSchema, readResourceResultFor, readResourceResultSchema } from "./offering-schemas.js";
import type { Logger } from "./logger.js";
import { checkedCallback, type OfferingBounds } from "./offering-net.js";

/*
 * A resource's reads and a prompt's answers through the net (offering-net.ts): only a checked
 * `ReadResourceResult` or `GetPromptResult` is sent, else an MCP error naming the resource or the
 * prompt, within the calls' deadline and each serving's shutdown; or a request for input thrown
 * (`throw inputRequired(…)`), as a tool's: its checked copy, which the SDK sends or fulfils. A
 * template's `list` and `complete` callbacks likewise: what they answer reaches the client in
 * `resources/list` and `completion/complete`, so only its checked copy is given to the SDK, else an
 * MCP error naming the template; and so do a prompt's `completable` arguments, naming the prompt
 * and the argument.
 */

/** A callback of the SDK's whose request context comes last: a read `(uri, ctx)`, `(uri, variables, ctx)`; a prompt `(args, ctx)`, `(ctx)`. */
type Args = [...unknown[], ServerContext];

/** A resource's `read`, checked and bounded by `bounds` (the registry's deadline, the serving's shutdown; whether it serves a stateless 2025-era request). */
export function checkedRead(name: string, read: (...args: Args) => unknown, logger: Logger, bounds: OfferingBounds): (...args: Args) => Promise<ReadResourceResult | InputRequiredResult> {
  // A refused read's words name the URI it was read at (the SDK's first argument, a URL), so what they write is what to answer.
  const describedBy = (args: Args) => readResourceResultFor(args[0] instanceof URL ? args[0].href : undefined);
  return checkedCallback({ kind: "resource", name, contract: "ReadResourceResult", schema: readResourceResultSchema, describedBy, running: "being read", stops: "the read" }, read, logger, bounds);
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

/** The key under which the SDK's `completable` keeps an argument's `{ complete }` (its completable.ts: `Symbol.for("mcp.completable")`). */
const COMPLETABLE = Symbol.for("mcp.completable");

/**
 * `config` with each `completable` argument's `complete` checked and bounded as a template's is: a
 * list of strings, its plain-JSON copy made once, within the calls' deadline; a throw, or an answer
 * that breaks it, an MCP error naming the prompt and the argument and one warning. The SDK finds an
 * argument's completer on the argument schema's `.shape` alone (`handlePromptCompletion`: the
 * field, unwrapped of one `optional`, then its `completable` key), and parses and lists the
 * arguments with the schema's own `~standard`: so the schema given it is the author's own, but for
 * its `.shape`, where each completable argument is a view of the author's whose completer is the
 * checked one. What a prompt's arguments accept and how `prompts/list` describes them stay the
 * author's (`completable` marks its schema in place, and a copy of a zod schema loses its
 * `.describe()`). A config with no completable argument is given as it is.
 */
export function checkedPromptConfig(name: string, config: unknown, logger: Logger, bounds: OfferingBounds): unknown {
  if (typeof config !== "object" || config === null) return config;
  let schema: unknown;
  let shape: Record<string, unknown> | undefined;
  try {
    schema = (config as { argsSchema?: unknown }).argsSchema;
    // A raw shape ({ language: completable(z.string(), …) }), made an object as the SDK makes it.
    if (isRawShape(schema)) schema = z.object(schema as z.ZodRawShape);
    const read = typeof schema === "object" && schema !== null ? (schema as { shape?: unknown }).shape : undefined;
    shape = typeof read === "object" && read !== null ? (read as Record<string, unknown>) : undefined;
  } catch {
    // What cannot be read is the SDK's to refuse.
    return config;
  }
  if (shape === undefined) return config;
  const checkedShape: Record<string, unknown> = { ...shape };
  let completes = false;
  for (const [argument, field] of Object.entries(shape)) {
    const optional = (field as { type?: unknown } | undefined)?.type === "optional";
    const inner = optional ? ((field as { def?: { innerType?: unknown } }).def?.innerType ?? field) : field;
    if (!isCompletable(inner)) continue;
    const complete = (inner as unknown as Record<symbol, { complete?: unknown } | undefined>)[COMPLETABLE]?.complete;
    if (typeof complete !== "function") continue;
    const label = `The completion of "${argument}" of prompt "${name}"`;
    const checked = checkedCallback<string[]>(
      { kind: "prompt", name, contract: "CompleteResult", schema: completionValuesSchema, running: "completing", stops: "the completion", label, asks: false, context: false },
      (...args) => (complete as (...given: unknown[]) => unknown)(...args),
      logger,
      bounds,
    );
    // A view of the author's argument (everything it has, read through), completed by `checked`.
    const viewed = completable(Object.create(inner as object) as z.ZodType, checked as unknown as (value: unknown) => string[]);
    checkedShape[argument] = optional ? Object.create(field as object, { def: { value: { ...(field as { def: object }).def, innerType: viewed } } }) : viewed;
    completes = true;
  }
  if (!completes) return config;
  const author = schema as object;
  // Read through to the author's schema, its getters with it as `this`; one whose `.shape` is a
  // frozen value, which a proxy may not answer otherwise, is given as a view shadowing it.
  const own = Object.getOwnPropertyDescriptor(author, "shape");
  const frozen = own !== undefined && own.configurable === false && own.writable === false;
  const argsSchema: unknown = frozen
    ? Object.create(author, { shape: { value: checkedShape } })
    : new Proxy(author, { get: (target, key) => (key === "shape" ? checkedShape : (Reflect.get(target, key, target) as unknown)) });
  // The author's config read through too (its getters, its other keys), but for the schema.
  return Object.create(config, { argsSchema: { value: argsSchema, enumerable: true } });
}

/** Whether `given` is a raw shape as the SDK reads one (`isZodRawShape`): a plain object of zod 4 schemas, no schema itself. */
function isRawShape(given: unknown): boolean {
  if (typeof given !== "object" || given === null || "~standard" in given) return false;
  const prototype = Object.getPrototypeOf(given) as unknown;
  return (prototype === Object.prototype || prototype === null) && Object.values(given).every((value) => typeof value === "object" && value !== null && "_zod" in value);
}
