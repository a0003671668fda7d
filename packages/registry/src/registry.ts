import { McpServer, type Icon, type PromptCallback, type ReadResourceCallback, type ReadResourceTemplateCallback, type ResourceMetadata, type ResourceTemplate, type ServerContext, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { Audience, type ListKind } from "./audience.js";
import { DEFAULT_CALL_TIMEOUT_MS } from "./bounds.js";
import { gatewayView } from "./gateway.js";
import { InputRefusal } from "./input.js";
import { stderrLogger, type Logger } from "./logger.js";
import { describeGiven, listKeys, optionProblems, optionsError, REGISTRY_OPTIONS, TOOL_OPTIONS, toolOptionProblems } from "./options.js";
import { compileSchemas, Registrations, type CompiledSchemas, type RegistrationPolicy } from "./registration.js";
import { checkedPrompt, checkedPromptConfig, checkedRead, checkedTemplate } from "./resource-net.js";
import { ServedResources } from "./resource-sources.js";
import { unreadableTemplateProblem, unreadableUriProblem } from "./resource-uri.js";
import { serveHttp, serveStdio, type HttpServeOptions, type HttpServing, type StdioServeOptions, type StdioServing } from "./serve.js";
import { OfferingTables, type Offering, type OfferingHandle } from "./offering-tables.js";
import { buildServer, ToolTable, type ServingContext, type TableSource } from "./server.js";
import { formatSite, LazySite } from "./site.js";
import type { RegisteredTool, RegistryOptions, ToolArgs, ToolDecorator, ToolDecoratorFor, ToolInput, ToolOptions, ToolOutput } from "./types.js";
import { DEFAULT_STARTUP_CHECK_TIMEOUT_MS } from "./startup.js";
import { StartupVerdicts } from "./verdicts.js";

/*
 * createRegistry: the top of the registry, where its parts meet — the options checked
 * (options.ts), the registrations (registration.ts) and the start-up check's verdicts on them
 * (verdicts.ts), the resources and prompts offered beside the tools, and the tool table every
 * server is built from (server.ts) and served (serve.ts).
 */

export type { RegisteredTool, RegistryOptions, ToolCallExtra } from "./types.js";

export interface Registry {
  readonly name: string;
  readonly version: string;
  /**
   * Returns a decorator that registers a function (call form: `registry.tool()(function list_cities() {…})`)
   * or a static method (`@registry.tool() static forecast() {…}`) and gives it back unchanged.
   * Each call receives `(args, extra)`: the input parsed by `options.input` (`{}` without input) and
   * the SDK's request context; the function's first parameter is typed from `options.input`.
   */
  tool<I extends ToolInput | undefined = undefined, O extends ToolOutput | undefined = undefined>(options?: ToolOptions<I, O>): ToolDecoratorFor<ToolArgs<I>, O>;
  /** The registered tools, in registration order. */
  readonly tools: readonly RegisteredTool[];
  /**
   * Serves a resource beside the tools, on every server the registry builds (stdio, HTTP,
   * `createServer()`): the SDK's `registerResource`, with its arguments. Its reads go through the
   * net as a tool's calls do: only a checked `ReadResourceResult` is sent, else an error naming
   * it. One registered while serving is offered by every server built afterwards, and announced
   * with `listChanged`; a mistake the SDK refuses (a URI taken twice) throws here. Its URI (a template's: each instance) may then stand as a source of
   * any tool — `sources: ["memory://graph"]` — for data with no http(s) URL: a local file, a
   * database, memory. The net accepts it, and the data view opens it with `resources/read`, while it
   * is offered: disabled or removed, it is refused as a source, and a subscription to it, as a URI never served.
   */
  resource(name: string, uri: string, metadata: ResourceMetadata, read: ReadResourceCallback): RegisteredOffering;
  resource(name: string, template: ResourceTemplate, metadata: ResourceMetadata, read: ReadResourceTemplateCallback): RegisteredOffering;
  /**
   * Serves a prompt beside the tools, as `resource` does: the SDK's `registerPrompt`, with its
   * arguments. Its answers go through the net as a resource's reads do: only a checked
   * `GetPromptResult` is sent (a copy made once: a `toJSON` or a getter runs once, before the
   * check), else an MCP error naming it and one warning, within `callTimeoutMs`; and so do the
   * completions of its `completable` arguments (a list of strings), naming it and the argument.
   */
  prompt(name: string, config: PromptConfig<undefined>, get: PromptCallback): RegisteredOffering;
  prompt<Args extends StandardSchemaWithJSON>(name: string, config: PromptConfig<Args>, get: PromptCallback<Args>): RegisteredOffering;
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
  /**
   * Tells every client subscribed to the resource `uri` that it changed
   * (`notifications/resources/updated`): 2025-era clients that sent `resources/subscribe` over stdio
   * or in a session of the sessionful HTTP mode, 2026-07-28 clients whose `subscriptions/listen`
   * filter names it. The client reads it again when it wants the new contents. Any URI is told as
   * the SDK tells it — a resource registered on a `createServer()` server with the SDK's own
   * `registerResource`, a URI the registry never served — but one whose resource or template the
   * registry disabled or removed: that one is told to no one while none of the registry's resources
   * serves it (but on a server whose own registration does), and the 2025-era subscriptions to it
   * ended when it was withdrawn.
   */
  resourceUpdated(uri: string): void;
}

/**
 * A resource or prompt as the registry holds it: the SDK's `enable()`, `disable()` and `remove()`,
 * applied to every server that offers it (the SDK tells each connected client; `listChanged`
 * tells the 2026-07-28 listen streams) and to every server built afterwards.
 */
export interface RegisteredOffering {
  /** Whether it is offered: a disabled one is absent from its list, and a request for it is answered as for an unknown one. */
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  /** Removes it for good (its name or URI is free again). */
  remove(): void;
}

/** The SDK's prompt configuration (`registerPrompt`'s second argument). */
export interface PromptConfig<Args extends StandardSchemaWithJSON | undefined> {
  title?: string;
  description?: string;
  argsSchema?: Args;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

export function createRegistry(options: RegistryOptions): Registry {
  if (typeof options !== "object" || options === null) {
    throw optionsError("createRegistry()", new LazySite(new Error()), [`expects an options object, not ${describeGiven(options)}; write createRegistry({ name: "cities", version: "1.0.0" })`], listKeys(REGISTRY_OPTIONS));
  }
  const problems = optionProblems(options, REGISTRY_OPTIONS, "option");
  if (problems.length > 0) throw optionsError("createRegistry()", new LazySite(new Error()), problems, listKeys(REGISTRY_OPTIONS));
  const logger = options.logger ?? stderrLogger;
  // What every server built says of itself, read once: a later change to `options` changes nothing.
  const { name, version, title, instructions, icons, websiteUrl } = options;
  const identity = { name, version, title, instructions, icons, websiteUrl };
  // Checked with the other options (options.ts).
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const view = gatewayView(options.ui, logger);
  const policy: RegistrationPolicy = {
    registryName: name,
    logger,
    checkMode: options.startupCheck ?? "auto",
    requireVerified: options.requireVerified === true,
    startupCheckTimeoutMs: options.startupCheckTimeoutMs ?? DEFAULT_STARTUP_CHECK_TIMEOUT_MS,
  };
  // Called only once all three exist: when a registration or a verdict changes the tools.
  const changed = (): void => tables.changed();
  const registrations = new Registrations(policy, changed);
  const verdicts = new StartupVerdicts(registrations, policy, changed);
  const tables = new ServedTables(registrations, verdicts, view, callTimeoutMs);
  /** Who hears of changes while serving: the servers that stay connected, the 2026-07-28 HTTP handlers. */
  const changes = {
    audience: new Audience({
      serves: (uri): boolean => tables.resources.serves(uri),
      withdrew: (uri): boolean => tables.resources.withdrew(uri),
      servesOwn: (server, uri): boolean => offerings.tables.servesOwn(server, uri),
    }),
    listChanged: options.listChanged === true,
  };
  const announcer = new Announcer(name, logger, changes);
  const offerings = new Offerings(name, version, registrations, changes, announcer);
  // A tool registered, enabled, disabled or removed while serving: announced once the start-up
  // check has judged what is new (a tool it refuses is never announced).
  registrations.whileServing = () => {
    const pending = verdicts.check();
    if (pending === undefined) announcer.changed("tools");
    else void pending.then(() => announcer.changed("tools"));
  };

  /** Asked for a server: no hint at exit, and the start-up check starts, before any client asks (only the first tools/list waits for it). */
  const startServing = (): void => {
    registrations.markServed();
    void verdicts.check();
  };

  // The audience is for the serving layers (serve.ts), not part of the public type.
  const registry: Registry & { readonly audience: Audience } = {
    name: options.name,
    version: options.version,

    tool(toolOptions: ToolOptions = {}): ToolDecorator<never> {
      const problems = toolOptionProblems(toolOptions);
      if (problems.length > 0) throw optionsError("registry.tool()", new LazySite(new Error()), problems, listKeys(TOOL_OPTIONS));
      let schemas: CompiledSchemas;
      try {
        schemas = compileSchemas(toolOptions);
      } catch (error) {
        if (!(error instanceof InputRefusal)) throw error;
        throw new TypeError(`registry.tool() at ${formatSite(new LazySite(new Error()).get())}: ${error.message}`);
      }
      return registrations.decorator(toolOptions, schemas);
    },

    get tools(): readonly RegisteredTool[] {
      return registrations.tools;
    },

    resource(...args: unknown[]): RegisteredOffering {
      // Its reads go through the net (resource-net.ts), within the calls' deadline and each serving's
      // shutdown; a read that is no function is the SDK's to refuse.
      const [resourceName, uri, metadata, read] = args;
      const site = new LazySite(new Error());
      // A URI or template the SDK would take but no read could ever reach is refused here, with the
      // spelling to write, rather than served and listed to clients that then cannot read it.
      const unreadable = typeof uri === "string" ? unreadableUriProblem(uri) : isTemplate(uri) ? unreadableTemplateProblem(uri) : undefined;
      if (unreadable !== undefined) throw new TypeError(`registry.resource() at ${formatSite(site.get())}: ${unreadable}`);
      const handle = offerings.offer(
        "registry.resource()",
        site,
        "resources",
        (server, serving) => {
          const bounds = { timeoutMs: callTimeoutMs, shutdown: serving.shutdown, stateless: serving.stateless };
          const checked = typeof read === "function" ? checkedRead(String(resourceName), read as (...given: [...unknown[], ServerContext]) => unknown, logger, bounds) : read;
          // A template's list and completions reach the client too: through the net as its reads do.
          const offered = isTemplate(uri) ? checkedTemplate(String(resourceName), uri, logger, bounds) : uri;
          return (server.registerResource as (...given: unknown[]) => OfferingHandle)(resourceName, offered, metadata, checked, ...args.slice(4));
        },
        // Disabled or removed, it is read by no client: a source citing it is refused, and a
        // subscription to it, as for a URI never served, the subscriptions made before end with it,
        // and an update of it is told to no one; enabled again, it stands again. (Called only by
        // the handle's methods, once `source` below is set.)
        (offered) => {
          source.offered(offered);
          tables.changed();
          if (!offered) changes.audience.withdrawn((uri) => source.covers(uri));
        },
      );
      // Registered (the SDK took it): its URI, or its template's instances, are served, and may stand as sources.
      const source = tables.resources.add(args[1] as string | ResourceTemplate);
      tables.changed();
      return handle;
    },

    prompt(...args: unknown[]): RegisteredOffering {
      // Its answers go through the net as a resource's reads do (resource-net.ts); a `get` that is
      // no function is the SDK's to refuse.
      const [promptName, config, get] = args;
      return offerings.offer("registry.prompt()", new LazySite(new Error()), "prompts", (server, serving) => {
        const bounds = { timeoutMs: callTimeoutMs, shutdown: serving.shutdown, stateless: serving.stateless };
        const checked = typeof get === "function" ? checkedPrompt(String(promptName), get as (...given: [...unknown[], ServerContext]) => unknown, logger, bounds) : get;
        // Its arguments' completions reach the client too: through the net as a template's do.
        const offered = checkedPromptConfig(String(promptName), config, logger, bounds);
        return (server.registerPrompt as (...given: unknown[]) => OfferingHandle)(promptName, offered, checked, ...args.slice(3));
      });
    },

    // A serving layer passes what it asks of its servers; the public signature takes nothing. A
    // server for a transport of the caller's own stays connected to its client, as a stdio one does.
    createServer(serving?: ServingContext): McpServer {
      startServing();
      return buildServer(identity, tables, logger, serving ?? { stays: true }, offerings.tables, changes);
    },

    resourceUpdated(uri: string): void {
      if (typeof uri !== "string") throw new TypeError(`registry.resourceUpdated() expects the resource's URI, a string, not ${describeGiven(uri)}`);
      changes.audience.resourceUpdated(uri);
    },

    get audience(): Audience {
      return changes.audience;
    },

    serveStdio: (stdioOptions) => {
      startServing();
      return serveStdio(registry, logger, stdioOptions);
    },
    serveHttp: (httpOptions) => {
      startServing();
      return serveHttp(registry, logger, httpOptions);
    },
  };
  return registry;
}

/**
 * The tools as served: the table computed at the first server built after a change, and shared by
 * every server until the next one — at once, or once the start-up check in flight has settled.
 */
class ServedTables implements TableSource {
  /** The resources served, whose URIs the tools may cite as sources. */
  readonly resources = new ServedResources();
  private current: ToolTable | undefined;

  constructor(
    private readonly registrations: Registrations,
    private readonly verdicts: StartupVerdicts,
    private readonly gateway: ReturnType<typeof gatewayView>,
    private readonly callTimeoutMs: number,
  ) {}

  /** The tools, or the resources they may cite, changed: the next server gets a new table. */
  changed(): void {
    this.current = undefined;
  }

  table(): ToolTable | Promise<ToolTable> {
    const pending = this.verdicts.check();
    return pending === undefined ? this.built() : pending.then(() => this.table());
  }

  get view(): ReturnType<typeof gatewayView> {
    if (!this.verdicts.pending) return this.built().view;
    // Before the verdicts: served when any tool may declare it.
    const { gateway } = this;
    return [...this.registrations.entries.values()].some((entry) => gateway?.toolMeta(entry.options.ui) !== undefined) ? gateway : undefined;
  }

  private built(): ToolTable {
    return (this.current ??= new ToolTable(this.registrations.enabledEntries(), this.gateway, this.callTimeoutMs, this.resources));
  }
}

/** What tells the clients of a change while serving, or says once that they are not told (`listChanged` off). */
class Announcer {
  private unannounced = false;

  constructor(
    private readonly registryName: string,
    readonly logger: Logger,
    private readonly changes: { readonly audience: Audience; readonly listChanged: boolean },
  ) {}

  /** `only`: `"notifiers"` when the SDK told the connected clients itself (a resource or prompt registered on their servers). */
  changed(kind: ListKind, only?: "notifiers"): void {
    if (this.changes.listChanged) {
      this.changes.audience.listChanged(kind, only);
      return;
    }
    if (this.unannounced) return;
    this.unannounced = true;
    this.logger.warn(
      `registry "${this.registryName}": its ${kind} changed while serving, and its clients are not told (listChanged is off): they see the change when they list them again. ` +
        "Pass createRegistry({ listChanged: true }) to announce changes.",
    );
  }
}

/** Resources and prompts, held in tables (offering-tables.ts) that every server built answers from. */
class Offerings {
  readonly tables: OfferingTables;

  constructor(
    name: string,
    version: string,
    private readonly registrations: Registrations,
    private readonly changes: { readonly audience: Audience },
    private readonly announcer: Announcer,
  ) {
    this.tables = new OfferingTables({ name, version });
  }

  /** `site`: captured in the registry's entry method, as every site is (site.ts). */
  /** `changed`: told whether it is still offered after each `enable()`, `disable()` or `remove()` that changed something. */
  offer(what: string, site: LazySite, kind: Offering["kind"], register: Offering["register"], changed?: (offered: boolean) => void): RegisteredOffering {
    const offering: Offering = { kind, register, state: { enabled: true, removed: false }, handles: new WeakMap() };
    try {
      this.tables.add(offering);
    } catch (error) {
      throw new TypeError(`${what} at ${formatSite(site.get())}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const handle: RegisteredOffering = {
      get enabled() {
        return offering.state.enabled && !offering.state.removed;
      },
      enable: () => this.change(offering, "enable", changed),
      disable: () => this.change(offering, "disable", changed),
      remove: () => this.change(offering, "remove", changed),
    };
    if (!this.registrations.isServed) return handle;
    // Registered while serving: every server built from now on offers it; a server that stays
    // connected offers it too when it already offers that kind (its capabilities were fixed at its
    // handshake), and its client is told.
    const unreached = this.changes.audience.lacking(kind);
    this.announcer.changed(kind, "notifiers");
    if (unreached > 0) {
      this.announcer.logger.warn(
        `${what} at ${formatSite(site.get())}: registered while serving; ${unreached} connected client${unreached === 1 ? "" : "s"} whose server offered no ${kind} at its handshake will see it once ${unreached === 1 ? "it reconnects" : "they reconnect"}.`,
      );
    }
    return handle;
  }

  /** The registry's `enable()`, `disable()`, `remove()`: on every table (each tells the connected clients it answers for), so for every server. */
  private change(offering: Offering, change: "enable" | "disable" | "remove", changed: ((offered: boolean) => void) | undefined): void {
    if (!this.tables.change(offering, change)) return;
    changed?.(offering.state.enabled && !offering.state.removed);
    if (this.registrations.isServed) this.announcer.changed(offering.kind, "notifiers");
  }
}

/** Whether `given` is a resource template as the SDK reads one (its URI template's variables, its callbacks); anything else is the SDK's to take or refuse. */
function isTemplate(given: unknown): given is ResourceTemplate {
  try {
    const template = given as Partial<ResourceTemplate> | null;
    return typeof template === "object" && template !== null && typeof template.completeCallback === "function" && Array.isArray(template.uriTemplate?.variableNames);
  } catch {
    return false;
  }
}
