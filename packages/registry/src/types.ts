import type { Icon, ServerContext, StandardSchemaWithJSON, ToolAnnotations } from "@modelcontextprotocol/server";
import type { RegistersTool } from "./brand.js";
import type { DataResult, ErrorResult } from "./contract.js";
import type { Logger } from "./logger.js";
import type { StartupCheckMode } from "./startup.js";

/** The second argument of every tool call: the SDK's request context (`mcpReq.signal`, `http.authInfo`, …). */
export type ToolCallExtra = ServerContext;

/**
 * Any function; `tool()` is typed loosely on purpose: the analysis, not an overload, judges.
 * A tool is called as `fn(args, extra)`: `args` is the input parsed by `ToolOptions.input` (`{}`
 * when the tool has none), `extra` the SDK's request context (`signal`, `sessionId`, …). A static
 * method is called with `this` = its class.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolFunction = (...args: any[]) => unknown;

/**
 * A schema the SDK's `registerTool` takes as a tool's input: a Standard Schema that also converts
 * itself to JSON Schema (zod 4.2 or later, ArkType, Valibot through `toStandardJsonSchema`, …).
 */
export type InputSchema = StandardSchemaWithJSON;

/** A zod field schema: what the SDK wraps in `z.object()` when it is given a raw shape. */
type ZodField = StandardSchemaWithJSON & { readonly _zod: object };

/** A zod raw shape, `{ city: z.string() }`: the registry wraps it in `z.object()`, as the SDK does. */
export type InputShape = { readonly [key: string]: ZodField };

/** What `ToolOptions.input` takes. */
export type ToolInput = InputSchema | InputShape;

/** The arguments of a tool without input: no key at all. */
export type NoArguments = Record<string, never>;

/**
 * zod marks a field that may be absent from its object (`.optional()`) on its type: the marker
 * zod's own object inference reads, so a raw shape infers what `z.object(shape)` would.
 */
type OptionalField = { readonly _zod: { readonly optout: "optional" } };

/** What a schema parses to (`"output"`, a tool's arguments) or takes (`"input"`, what a tool writes into structuredContent). */
type Side<S, Which extends "input" | "output"> = S extends StandardSchemaWithJSON
  ? Which extends "output"
    ? StandardSchemaWithJSON.InferOutput<S>
    : StandardSchemaWithJSON.InferInput<S>
  : never;

/** `{ a: X } & { b?: Y }` as one object type, as editors show it. */
type Flatten<T> = { [K in keyof T]: T[K] } & {};

type ShapeOutput<S extends InputShape, Which extends "input" | "output" = "output"> = Flatten<
  { -readonly [K in keyof S as S[K] extends OptionalField ? never : K]: Side<S[K], Which> } & {
    -readonly [K in keyof S as S[K] extends OptionalField ? K : never]?: Side<S[K], Which>;
  }
>;

/**
 * The first argument a tool receives for the input `I`: what the schema parses to, as the SDK's
 * `registerTool` infers it. No input: no arguments. A schema whose type is not known statically
 * (options held in a `ToolOptions` variable) leaves them `any`.
 */
export type ToolArgs<I> = 0 extends 1 & I
  ? // eslint-disable-next-line @typescript-eslint/no-explicit-any
    any
  : [I] extends [undefined]
    ? NoArguments
    : [ToolInput] extends [NonNullable<I>]
      ? // eslint-disable-next-line @typescript-eslint/no-explicit-any
        any
      : I extends StandardSchemaWithJSON
        ? StandardSchemaWithJSON.InferOutput<I>
        : I extends InputShape
          ? ShapeOutput<I>
          : never;

/**
 * A function a tool with arguments `Args` can register: called as `fn(args, extra)`. Parameters
 * left unannotated take these types; an annotation that contradicts them is a type error. `Result`:
 * what it must return — anything, for the analysis to judge, unless the tool declares an `output`.
 */
export type ToolHandler<Args, Result = unknown> = (args: Args, extra: ToolCallExtra) => Result;

/** What `ToolOptions.output` takes: a zod raw shape, a zod object, or any Standard Schema with JSON Schema, as `input`. */
export type ToolOutput = ToolInput;

/**
 * The keys a tool's `output` adds to its `structuredContent`: what the schema takes (its input
 * side: what the tool writes). No output: none.
 */
export type OutputKeys<O> = O extends StandardSchemaWithJSON
      ? Side<O, "input">
      : O extends InputShape
        ? ShapeOutput<O, "input">
        : never;

/**
 * What a function registered with an `output` whose schema describes no object must return: the
 * registry's refusal, in its words (`z.array(Alert)`, the MCP quickstart's `outputSchema`, is refused
 * at start-up: its keys sit in structuredContent beside `sources`), so no function compiles there.
 */
export type OutputNotAnObject<O> = [OutputKeys<O>] extends [never]
  ? never
  : OutputKeys<O> extends readonly unknown[]
    ? 'output describes "array", not an object: it declares the keys structuredContent carries beside sources. Wrap it: z.object({ entities: … })'
    : OutputKeys<O> extends object
      ? never
      : "output describes no object: it declares the keys structuredContent carries beside sources. Wrap it: z.object({ entities: … })";

/**
 * What a function registered with `output` must return: a result whose `structuredContent`
 * carries the declared keys, or an error result; or a promise of one.
 */
export type ToolResult<O> = DataResult<OutputKeys<O> & object> | ErrorResult | PromiseLike<DataResult<OutputKeys<O> & object> | ErrorResult>;

/**
 * What `registry.tool(options)` returns for an `output` of type `O`: without one (or one whose type
 * is not known statically), a decorator whose function may return anything — the analysis judges
 * it; with one, a decorator whose function must return the declared keys. Each carries the keys
 * its tool's `structuredContent` may hold beyond the contract's (`NoOutputKeys` without an output,
 * `unknown` when its type is not known statically: `any`, a `ToolOptions` variable), which the
 * analysis holds the function's declared return type to.
 */
export type ToolDecoratorFor<Args, O> = 0 extends 1 & O
  ? ToolDecorator<Args>
  : [O] extends [undefined]
    ? ToolDecorator<Args, NoOutputKeys>
    : [ToolOutput] extends [NonNullable<O>]
      ? ToolDecorator<Args>
      : [OutputNotAnObject<O>] extends [never]
        ? TypedToolDecorator<Args, ToolResult<O>, OutputKeys<O>>
        : TypedToolDecorator<Args, OutputNotAnObject<O>>;

/**
 * The output keys of a tool without `output`: none beside the contract's. A platform's wrapper
 * whose tools have no output says so with `RegistersTool<F, NoOutputKeys>` (see `RegistersTool`).
 */
export type NoOutputKeys = Record<never, never>;

/**
 * Options of `registry.tool(options?)`. Every key is checked when the options are given: an
 * unknown one (a misspelling) or a value of the wrong type throws at once.
 */
export interface ToolOptions<I extends ToolInput | undefined = ToolInput | undefined, O extends ToolOutput | undefined = ToolOutput | undefined> {
  /** The tool's name; defaults to the function's (or method's) name. Required for an anonymous function. */
  name?: string;
  /** A human-readable title for clients' UIs. */
  title?: string;
  /** What the tool does, for the LLM (JSDoc is erased at run time: say it here). */
  description?: string;
  /**
   * The input, as the MCP SDK takes it: a zod raw shape (`{ city: z.string() }`), a zod object, or
   * any Standard Schema with JSON Schema (zod 4.2 or later); published as `inputSchema`. The
   * function's first parameter is typed from it.
   */
  input?: I;
  /**
   * The keys the tool's `structuredContent` carries beside the contract's, as the SDK's
   * `outputSchema` takes them: a zod raw shape (`{ entities: z.array(Entity) }`), a zod object, or
   * any Standard Schema with JSON Schema, of an object. Published in the tool's `outputSchema`
   * beside `sources`, `table`, `charts` and `force` (which it may not declare), checked by the net,
   * and the function must return `DataResult<{ entities: Entity[] }>` (or an `ErrorResult`).
   */
  output?: O;
  annotations?: ToolAnnotations;
  /** Declare the registry's data view (MCP Apps) on this tool; `false` serves it to hosts as text only. Default `true`. */
  ui?: boolean;
  /**
   * This tool's call deadline, in ms (`Infinity` for none); defaults to the registry's
   * `callTimeoutMs`. A call still running then is answered with an error result and its signal
   * (`extra.mcpReq.signal`) aborted.
   */
  timeoutMs?: number;
  /** Icons clients may show for the tool: `{ src, mimeType?, sizes?, theme? }` (MCP `Icon`). */
  icons?: Icon[];
  /**
   * The tool's `_meta` in `tools/list`, for hosts that read keys of their own. The data view's keys
   * (`ui`) are the registry's while the tool declares it: for a view of your own, set `ui: false`.
   */
  _meta?: Record<string, unknown>;
}

/**
 * What `registry.tool(options?)` returns: applied to a function (call form) or to a static method
 * (TC39 decorator), it registers it and gives the very same function back. `Args` is what the
 * tool's input parses to: the function's first parameter.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolDecorator<Args = any, Output = unknown> = RegistersTool<
  {
    <F extends ToolHandler<Args>>(fn: F): F;
    <F extends ToolHandler<Args>>(method: F, context: ClassMethodDecoratorContext): F;
  },
  Output
>;

/**
 * `ToolDecorator` for a tool whose `output` declares keys: its function returns `Result` (see
 * `ToolResult`); `Output`, those keys, is what the analysis holds its declared return type to.
 */
export type TypedToolDecorator<Args, Result, Output = unknown> = RegistersTool<
  {
    <F extends ToolHandler<Args, Result>>(fn: F): F;
    <F extends ToolHandler<Args, Result>>(method: F, context: ClassMethodDecoratorContext): F;
  },
  Output
>;

export interface RegistryOptions {
  /** The server's name, announced in the MCP `initialize` handshake. */
  name: string;
  version: string;
  /** Receives refusals and failed results. Defaults to stderr (stdout carries the stdio transport). */
  logger?: Logger;
  /**
   * Refuse every registration that is not verified (see `VERIFIED_STAMP`): one warning, the
   * function returned unchanged, the tool absent from `tools/list`. Verified means stamped by a
   * build step (`@sourced/transformer`, `@sourced/unplugin`) or, run from source, judged
   * compliant by the start-up check. Turn it on for production builds.
   */
  requireVerified?: boolean;
  /**
   * The start-up check, for servers run from their TypeScript sources (`node src/server.ts`,
   * tsx, vitest), where no build step checked and stamped the tools: when serving starts, every
   * registration without a verified stamp made from a TypeScript source (or checked JavaScript, or
   * JavaScript whose source map leads to one) is judged by `@sourced/analysis`, through
   * `@sourced/project` resolved from your project, off the main thread: a tool the build would
   * strip is not served (one warning each, with the build's message and file:line:col), and
   * `tools/list` waits for the verdicts. Default `"auto"`: when it cannot run (no
   * `@sourced/project` or `typescript` installed, no tsconfig holds the file, no sources), one
   * warning says so and those tools are served unchecked. `"require"`: they are refused
   * instead. `false`: no check.
   */
  startupCheck?: StartupCheckMode;
  /**
   * How long the start-up check may take, in ms (`Infinity` for no limit): the tools it has not
   * judged by then are treated as ones it could not judge — served unchecked with one warning under
   * `"auto"`, refused under `"require"` — and the warning says why. `tools/list` and `tools/call`
   * wait for the check, so a check that blocks (a tsconfig `extends` naming a FIFO, a network mount
   * that does not answer) would hold them forever. Default 120 s: a cold check of a large project
   * on a loaded machine takes a minute.
   */
  startupCheckTimeoutMs?: number;
  /**
   * Declare the data view (MCP Apps) on every tool and serve it, so hosts that render MCP Apps
   * show each result's sources, table, charts and force. Default `true`; a tool opts out alone
   * with `registry.tool({ ui: false })`.
   */
  ui?: boolean;
  /**
   * Every call's deadline, in ms (`Infinity` for none), unless its tool sets `timeoutMs`: a call
   * still running then is answered with an error result naming the tool, and its signal
   * (`extra.mcpReq.signal`) aborted. Every resource read's too (`registry.resource()`): one still
   * running then is answered with an MCP error naming the resource, and its `ctx.mcpReq.signal`
   * aborted. Default 50 s, under the 60 s after which the MCP SDK's clients give up waiting.
   */
  callTimeoutMs?: number;
  /** A human-readable name for clients' UIs ("City data"); `name` stays the server's identifier. */
  title?: string;
  /** How to use the server and its tools, for the LLM: clients may add it to the system prompt. */
  instructions?: string;
  /** Icons clients may show for the server: `{ src, mimeType?, sizes?, theme? }` (MCP `Icon`). */
  icons?: Icon[];
  /** The server's website, for clients' UIs. */
  websiteUrl?: string;
  /**
   * Announce `listChanged` on the tools, resources and prompts, and tell every client that can be
   * told when they change while serving (a tool registered late, enabled, disabled or removed; a
   * resource or prompt registered late). Default `false`: a v2 host holds a `subscriptions/listen`
   * stream open for each list announced, so a server whose lists never change announces none.
   */
  listChanged?: boolean;
}

/** A tool as the registry holds it. */
export interface RegisteredTool {
  readonly name: string;
  readonly options: Readonly<ToolOptions>;
  /** The registered function, exactly as given. */
  readonly fn: ToolFunction;
  /** Where it was registered. */
  readonly site: string;
  /** The verifier named by its stamp, or `@sourced/project@<version>` once the start-up check verified it; `undefined` otherwise. */
  readonly verifiedBy: string | undefined;
  /** Whether it is served: a disabled tool is absent from `tools/list`, and a call to it is answered as to an unknown tool. */
  readonly enabled: boolean;
  /** Serves it again (the SDK's `RegisteredTool.enable()`); clients are told when `listChanged` is on. */
  enable(): void;
  /** Stops serving it, keeping its registration (the SDK's `disable()`). */
  disable(): void;
  /** Removes it: its name is free for another registration (the SDK's `remove()`). */
  remove(): void;
}
