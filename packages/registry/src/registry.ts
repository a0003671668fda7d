import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import { gatewayView } from "./gateway.js";
import { stderrLogger, type Logger } from "./logger.js";
import { DEFAULT_CALL_TIMEOUT_MS, deadlineOption } from "./net.js";
import { serveHttp, serveStdio, type HttpServeOptions, type HttpServing, type StdioServeOptions, type StdioServing } from "./serve.js";
import { buildServer, ToolTable, type ServingContext } from "./server.js";
import { assertToolName } from "./tool-name.js";
import { enclosingClassName, formatSite, LazySite, lowerStackTraceLimit, type Site } from "./site.js";
import type { ToolDecorator, ToolFunction, ToolOptions } from "./types.js";
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

/** The second argument of every tool call: the SDK's request context (`mcpReq.signal`, `http.authInfo`, …). */
export type ToolCallExtra = ServerContext;

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
   * the SDK's request context.
   */
  tool(options?: ToolOptions): ToolDecorator;
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

export function createRegistry(options: RegistryOptions): Registry {
  const logger = options.logger ?? stderrLogger;
  const callTimeoutMs = options.callTimeoutMs === undefined ? DEFAULT_CALL_TIMEOUT_MS : deadlineOption(options.callTimeoutMs, "callTimeoutMs", "createRegistry()");
  const entries = new Map<string, Entry>();
  /** Computed at the first server built after a registration; shared by every server until the next one. */
  let table: ToolTable | undefined;
  const view = gatewayView(options.ui, logger);

  function register(fn: unknown, toolOptions: ToolOptions, lazySite: LazySite, method?: StaticMethod): void {
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
    if (toolOptions.timeoutMs !== undefined) deadlineOption(toolOptions.timeoutMs, "timeoutMs", `registry.tool() at ${formatSite(lazySite.get())}`);
    const stamp = verifiedBy(tool);
    if (options.requireVerified && stamp === undefined) {
      logger.warn(
        `tool "${name}" (${formatSite(lazySite.get())}) was not registered: requireVerified is on and the function carries no verified stamp, ` +
          "so no compile step has checked that it returns DataToolOutput. Build it with @sourced/transformer (tspc) or bundle it with @sourced/unplugin.",
      );
      return;
    }
    const entry = new Entry(name, { ...toolOptions }, tool, stamp, lazySite, method);
    const previous = entries.get(name);
    if (previous) {
      throw new Error(
        `tool "${name}" is registered twice: first by ${previous.label} at ${previous.site}, ` +
          `then by ${entry.label} at ${entry.site}. Give one of them another name with { name: "…" }.`,
      );
    }
    entries.set(name, entry);
    table = undefined;
  }

  const registry: Registry = {
    name: options.name,
    version: options.version,

    tool(toolOptions: ToolOptions = {}): ToolDecorator {
      const decorator = (fn: unknown, context?: DecoratorContext): unknown => {
        // Captured in this very frame: a helper would add a frame of its own to every stack.
        const limit = context === undefined ? lowerStackTraceLimit(CALL_FORM_FRAMES) : undefined;
        const site = new LazySite(new Error());
        if (limit !== undefined) Error.stackTraceLimit = limit;
        if (context === undefined) {
          register(fn, toolOptions, site);
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
        register(fn, toolOptions, site, method);
        return fn;
      };
      return decorator as ToolDecorator;
    },

    get tools(): readonly RegisteredTool[] {
      return [...entries.values()].map(({ name, options, fn, site, verifiedBy }) => ({ name, options, fn, site, verifiedBy }));
    },

    // A serving layer passes what it asks of its servers; the public signature takes nothing.
    createServer(serving?: ServingContext): McpServer {
      table ??= new ToolTable(entries.values(), view, callTimeoutMs);
      return buildServer(registry, table, logger, serving);
    },

    serveStdio: (stdioOptions) => serveStdio(registry, logger, stdioOptions),
    serveHttp: (httpOptions) => serveHttp(registry, logger, httpOptions),
  };
  return registry;
}
