import type { McpServer } from "@modelcontextprotocol/server";
import { gatewayView } from "./gateway.js";
import { compileInput, InputRefusal, type CompiledInput } from "./input.js";
import { stderrLogger, type Logger } from "./logger.js";
import { describeGiven, listKeys, optionProblems, REGISTRY_OPTIONS, TOOL_ANNOTATIONS, TOOL_OPTIONS } from "./options.js";
import { DEFAULT_CALL_TIMEOUT_MS } from "./net.js";
import { serveHttp, serveStdio, type HttpServeOptions, type HttpServing, type StdioServeOptions, type StdioServing } from "./serve.js";
import { buildServer, ToolTable, type ServingContext } from "./server.js";
import { assertToolName } from "./tool-name.js";
import { enclosingClassName, formatSite, LazySite, lowerStackTraceLimit, type Site } from "./site.js";
import type { ToolArgs, ToolDecorator, ToolFunction, ToolInput, ToolOptions } from "./types.js";
import { verifiedBy } from "./verified.js";

export interface RegistryOptions {
  /** The server's name, announced in the MCP `initialize` handshake. */
  name: string;
  version: string;
  /** Receives refusals and failed results. Defaults to stderr (stdout carries the stdio transport). */
  logger?: Logger;
  /**
   * Refuse every registration whose function carries no verified stamp (see `VERIFIED_STAMP`):
   * one warning, the function returned unchanged, the tool absent from `tools/list`.
   * Turn it on for production builds made with the `@sourced/transformer`.
   */
  requireVerified?: boolean;
  /**
   * Declare the data view (MCP Apps) on every tool and serve it, so hosts that render MCP Apps
   * show each result's sources, table, charts and force. Default `true`; a tool opts out alone
   * with `registry.tool({ ui: false })`.
   */
  ui?: boolean;
  /**
   * Every call's deadline, in ms (`Infinity` for none), unless its tool sets `timeoutMs`: a call
   * still running then is answered with an error result naming the tool, and its signal
   * (`extra.mcpReq.signal`) aborted. Default 50 s, under the 60 s after which the MCP SDK's
   * clients give up waiting.
   */
  callTimeoutMs?: number;
}

export type { ToolCallExtra } from "./types.js";

/** A tool as the registry holds it. */
export interface RegisteredTool {
  readonly name: string;
  readonly options: Readonly<ToolOptions>;
  /** The registered function, exactly as given. */
  readonly fn: ToolFunction;
  /** Where it was registered. */
  readonly site: string;
  /** The verifier named by its stamp, if any. */
  readonly verifiedBy: string | undefined;
}

export interface Registry {
  readonly name: string;
  readonly version: string;
  /**
   * Returns a decorator that registers a function (call form: `registry.tool()(function list_cities() {…})`)
   * or a static method (`@registry.tool() static forecast() {…}`) and gives it back unchanged.
   * Each call receives `(args, extra)`: the input parsed by `options.input` (`{}` without input) and
   * the SDK's request context; the function's first parameter is typed from `options.input`.
   */
  tool<I extends ToolInput | undefined = undefined>(options?: ToolOptions<I>): ToolDecorator<ToolArgs<I>>;
  /** The registered tools, in registration order. */
  readonly tools: readonly RegisteredTool[];
  /**
   * A new SDK `McpServer` offering every tool registered so far, each call going through the net:
   * for a transport of your own (`await registry.createServer().connect(transport)`). The tool
   * definitions (input schema, `outputSchema` = the `structuredContent` schema) are computed once
   * for the registrations so far, not per server.
   */
  createServer(): McpServer;
  /** Serves every tool over stdio (the process's stdin/stdout). */
  serveStdio(options?: StdioServeOptions): Promise<StdioServing>;
  /** Serves every tool over Streamable HTTP, on 127.0.0.1 and an ephemeral port unless told otherwise. */
  serveHttp(options?: HttpServeOptions): Promise<HttpServing>;
}

/** A decorated static method: its name, and its class once the class exists. */
interface StaticMethod {
  readonly name: string;
  owner: unknown;
}

/**
 * Stack frames kept for the site of a call-form registration: the decorator's own and its caller's,
 * the first frame outside this package (every frame more costs each registration 0.5–2 µs). A TC39
 * decorator keeps `Error.stackTraceLimit`: its class body lies below the decorator helpers and any
 * wrappers.
 */
const CALL_FORM_FRAMES = 2;

/**
 * A tool as the registry holds it. `label` and `site` are read only by messages: computing them
 * for every tool would cost more than the registration itself, so they are prototype getters.
 */
class Entry implements RegisteredTool {
  constructor(
    readonly name: string,
    readonly options: Readonly<ToolOptions>,
    readonly input: CompiledInput | undefined,
    readonly fn: ToolFunction,
    readonly verifiedBy: string | undefined,
    private readonly lazySite: LazySite,
    private readonly method: StaticMethod | undefined,
  ) {}

  /** How errors name it: `function list_cities`, `static method Weather.forecast`. */
  get label(): string {
    return describeRegistered(this.fn, this.method, this.lazySite.get());
  }

  get site(): string {
    return formatSite(this.lazySite.get());
  }

  /** `this` for the call: the class of a static method, `undefined` for a plain function. */
  get thisArg(): unknown {
    return this.method?.owner;
  }
}

function describeRegistered(fn: ToolFunction, method: { name: string } | undefined, site: Site | undefined): string {
  if (method) return `static method ${enclosingClassName(site) ?? "(anonymous class)"}.${method.name}`;
  return fn.name === "" ? "an anonymous function" : `function ${fn.name}`;
}

/**
 * The error for options that break their table (options.ts), naming the call and its site:
 * `createRegistry() at src/registry.ts:3:25: unknown option "requireVerifed": did you mean …`.
 */
function optionsError(call: string, site: LazySite, problems: readonly string[], known: string): TypeError {
  const where = `${call} at ${formatSite(site.get())}`;
  const sentence = (problem: string): string => (problem.endsWith("?") ? problem : `${problem}.`);
  const list = problems.length === 1 ? `: ${sentence(problems[0]!)}` : `:\n${problems.map((problem) => `- ${problem}`).join("\n")}\n`;
  const unknown = problems.some((problem) => problem.startsWith("unknown "));
  return new TypeError(`${where}${list}${unknown ? `${problems.length === 1 ? " " : ""}${call} takes ${known}.` : ""}`);
}

/** The problems of `registry.tool()` options, its annotations' keys included. */
function toolOptionProblems(options: unknown): string[] {
  if (typeof options !== "object" || options === null) {
    return [`expects an options object, not ${describeGiven(options)}; write registry.tool({ name: "population", description: "…" })`];
  }
  const problems = optionProblems(options, TOOL_OPTIONS, "option");
  const annotations = (options as ToolOptions).annotations;
  if (typeof annotations === "object" && annotations !== null) problems.push(...optionProblems(annotations, TOOL_ANNOTATIONS, "annotation"));
  return problems;
}

/**
 * Registries with tools that nothing serves yet. A module that registers tools and never starts
 * a transport exits 0 without a word, and its client only sees "Connection closed": when Node is
 * about to exit because nothing is left to do, each such registry says so once.
 */
const unserved = new Set<{ readonly describe: () => string | undefined; readonly logger: Logger }>();
let exitHintInstalled = false;

function hintAtExit(registry: { readonly describe: () => string | undefined; readonly logger: Logger }): void {
  unserved.add(registry);
  if (exitHintInstalled || typeof process === "undefined" || typeof process.once !== "function") return;
  exitHintInstalled = true;
  process.once("beforeExit", () => {
    for (const { describe, logger } of unserved) {
      const hint = describe();
      if (hint === undefined) continue;
      try {
        logger.warn(hint);
      } catch {
        stderrLogger.warn(hint);
      }
    }
    unserved.clear();
  });
}

export function createRegistry(options: RegistryOptions): Registry {
  if (typeof options !== "object" || options === null) {
    throw optionsError("createRegistry()", new LazySite(new Error()), [`expects an options object, not ${describeGiven(options)}; write createRegistry({ name: "cities", version: "1.0.0" })`], listKeys(REGISTRY_OPTIONS));
  }
  const problems = optionProblems(options, REGISTRY_OPTIONS, "option");
  if (problems.length > 0) throw optionsError("createRegistry()", new LazySite(new Error()), problems, listKeys(REGISTRY_OPTIONS));
  const logger = options.logger ?? stderrLogger;
  // Checked with the other options (options.ts).
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const entries = new Map<string, Entry>();
  /** Computed at the first server built after a registration; shared by every server until the next one. */
  let table: ToolTable | undefined;
  const view = gatewayView(options.ui, logger);

  /** Whether a server has been asked for (served, or built for a transport of the caller's own). */
  let served = false;
  const exitHint = {
    logger,
    describe: (): string | undefined => {
      if (served || entries.size === 0) return undefined;
      const names = [...entries.keys()];
      const tools = names.length === 1 ? `tool "${names[0]!}" is` : `${names.length} tools (${names.slice(0, 3).map((name) => `"${name}"`).join(", ")}${names.length > 3 ? ", …" : ""}) are`;
      return (
        `registry "${options.name}": ${tools} registered, but the process is exiting without serving them, so no client can call them. ` +
        "Start a transport once the tools are registered: registry.serveStdio() for a client that starts this process, or registry.serveHttp() for clients that connect to it."
      );
    },
  };

  function register(fn: unknown, toolOptions: ToolOptions, input: CompiledInput | undefined, lazySite: LazySite, method?: StaticMethod): void {
    if (typeof fn !== "function") {
      throw new TypeError(
        `registry.tool() at ${formatSite(lazySite.get())} expects a function, got ${fn === null ? "null" : typeof fn}. ` +
          "Write registry.tool()(function my_tool() {…}).",
      );
    }
    const tool = fn as ToolFunction;
    const name = toolOptions.name ?? method?.name ?? tool.name;
    if (name === "") {
      throw new TypeError(
        `registry.tool() at ${formatSite(lazySite.get())} cannot name the tool: the function is anonymous. ` +
          'Name the function (function list_cities() {…}) or pass { name: "list_cities" }. ' +
          "If the source names it, a minifier probably removed the name: build with @sourced/unplugin or @sourced/transformer, " +
          "which state each tool's name in the emitted code, or pass { name }.",
      );
    }
    assertToolName(name, () => formatSite(lazySite.get()));
    const stamp = verifiedBy(tool);
    if (options.requireVerified && stamp === undefined) {
      logger.warn(
        `tool "${name}" (${formatSite(lazySite.get())}) was not registered: requireVerified is on and the function carries no verified stamp, ` +
          "so no compile step has checked that it returns DataToolOutput. Build it with @sourced/transformer (tspc) or bundle it with @sourced/unplugin.",
      );
      return;
    }
    const entry = new Entry(name, { ...toolOptions }, input, tool, stamp, lazySite, method);
    const previous = entries.get(name);
    if (previous) {
      throw new Error(
        `tool "${name}" is registered twice: first by ${previous.label} at ${previous.site}, ` +
          `then by ${entry.label} at ${entry.site}. Give one of them another name with { name: "…" }.`,
      );
    }
    entries.set(name, entry);
    table = undefined;
    if (!served && entries.size === 1) hintAtExit(exitHint);
  }

  /** Asked for a server: no hint at exit, and the registry is no longer held for one. */
  function markServed(): void {
    served = true;
    unserved.delete(exitHint);
  }

  const registry: Registry = {
    name: options.name,
    version: options.version,

    tool(toolOptions: ToolOptions = {}): ToolDecorator<never> {
      const problems = toolOptionProblems(toolOptions);
      if (problems.length > 0) throw optionsError("registry.tool()", new LazySite(new Error()), problems, listKeys(TOOL_OPTIONS));
      let input: CompiledInput | undefined;
      try {
        input = toolOptions.input === undefined ? undefined : compileInput(toolOptions.input);
      } catch (error) {
        if (!(error instanceof InputRefusal)) throw error;
        throw new TypeError(`registry.tool() at ${formatSite(new LazySite(new Error()).get())}: ${error.message}`);
      }
      const decorator = (fn: unknown, context?: DecoratorContext): unknown => {
        // Captured in this very frame: a helper would add a frame of its own to every stack.
        const limit = context === undefined ? lowerStackTraceLimit(CALL_FORM_FRAMES) : undefined;
        const site = new LazySite(new Error());
        if (limit !== undefined) Error.stackTraceLimit = limit;
        if (context === undefined) {
          register(fn, toolOptions, input, site);
          return fn;
        }
        if (context.kind !== "method") {
          throw new TypeError(
            `registry.tool() at ${formatSite(site.get())} decorates a ${context.kind}: it registers functions and static methods only.`,
          );
        }
        const methodName = typeof context.name === "string" ? context.name : "";
        if (!context.static) {
          const className = enclosingClassName(site.get());
          throw new TypeError(
            `registry.tool() cannot register the instance method "${methodName}" of ${
              className === undefined ? "an anonymous class" : `class ${className}`
            } (${formatSite(site.get())}): a tool is called without an instance. ` +
              `Make it static (@registry.tool() static ${methodName}(…)) or register a plain function.`,
          );
        }
        // Static initializers run with `this` = the class once it exists: calls get it as `this`.
        const method: StaticMethod = { name: methodName, owner: undefined };
        context.addInitializer(function (this: unknown) {
          method.owner = this;
        });
        register(fn, toolOptions, input, site, method);
        return fn;
      };
      return decorator as ToolDecorator<never>;
    },

    get tools(): readonly RegisteredTool[] {
      return [...entries.values()].map(({ name, options, fn, site, verifiedBy }) => ({ name, options, fn, site, verifiedBy }));
    },

    // A serving layer passes what it asks of its servers; the public signature takes nothing.
    createServer(serving?: ServingContext): McpServer {
      markServed();
      table ??= new ToolTable(entries.values(), view, callTimeoutMs);
      return buildServer(registry, table, logger, serving);
    },

    serveStdio: (stdioOptions) => {
      markServed();
      return serveStdio(registry, logger, stdioOptions);
    },
    serveHttp: (httpOptions) => {
      markServed();
      return serveHttp(registry, logger, httpOptions);
    },
  };
  return registry;
}
