import { McpServer, type ResourceTemplate } from "@modelcontextprotocol/server";
import type { GatewayView } from "./gateway.js";
import type { ResourceUri } from "./resource-uri.js";
import { TemplateIndex, templateMatches } from "./template-index.js";

/*
 * The resources and prompts a registry offers (`registry.resource()`, `registry.prompt()`), held in
 * tables as its tools are (server.ts `ToolTable`), so that a server built for a request registers
 * none of them: what a request costs does not grow with how many are offered.
 *
 * A table is one SDK `McpServer`, never connected, on which each resource and prompt is registered
 * once, with the SDK's own `registerResource` and `registerPrompt`. A server built for a request
 * or a connection answers `resources/list`, `resources/templates/list`, `resources/read`,
 * `prompts/list`, `prompts/get` and `completion/complete` with the SDK's own handlers of its
 * table — kept as the SDK installs them on the table's server — so every answer, its order and
 * its errors are the SDK's, as when each server registered everything itself. The SDK's handles
 * of each resource and prompt on a table are what `enable()`, `disable()` and `remove()` change;
 * the SDK tells the table of a change in a list, and the table tells the servers it answers for
 * that stay connected and declared `listChanged` on that list, as the SDK would tell each of them
 * (the SDK tells them whatever they declared; a server that declared `listChanged: false` sends
 * no such notification).
 *
 * A resource's read and a prompt's answer are bounded by the serving's shutdown, and refused what a
 * stateless request cannot do: one table for each shutdown and statelessness (and with or without
 * the data view, which it offers first), built at the first server that needs it, with every
 * resource and prompt offered then; one registered later is registered on every table.
 *
 * A server the registry built stays an SDK `McpServer` (`createServer()`, for a transport of one's
 * own): resources and prompts registered on it with the SDK's own methods are registered on a
 * table of its own, holding the registry's as well, and it answers from that one.
 */

/** What a resource or prompt is registered for: the shutdown bounding its reads, and whether it serves stateless 2025-era requests. */
export interface OfferingServing {
  readonly shutdown?: AbortSignal | undefined;
  readonly stateless?: boolean | undefined;
}

/** The SDK's handle of a resource or prompt on one server. */
export interface OfferingHandle {
  enable(): void;
  disable(): void;
  remove(): void;
}

/** A resource or prompt of the registry's (`registry.resource()`, `registry.prompt()`): registered once on each table. */
export interface Offering {
  readonly kind: "resources" | "prompts";
  /**
   * Registers it on `server` for `serving` (its shutdown bounds the reads as it does the calls;
   * a stateless request is refused what it cannot do); returns the SDK's handle of it there
   * (`RegisteredResource`, `RegisteredPrompt`, …).
   */
  readonly register: (server: McpServer, serving: OfferingServing) => OfferingHandle | undefined;
  /** What the registry's handle changed: disabled (`enabled: false`), or removed. */
  readonly state: { enabled: boolean; removed: boolean };
  /** Its SDK handle on each table's server. */
  readonly handles: WeakMap<McpServer, OfferingHandle>;
}

/** What a server built now offers: resources (its own or the data view), prompts, completion. */
export interface OfferedKinds {
  readonly resources: boolean;
  readonly prompts: boolean;
  readonly completions: boolean;
}

/** What the SDK's `McpServer` records of its resources: the static ones by URI, the templates by name. */
interface ResourceRecords {
  readonly _registeredResources: Record<string, unknown>;
  readonly _registeredResourceTemplates: Record<string, unknown>;
}

/** A request handler as the SDK's `McpServer` installs it (`setRequestHandler(method, handler)`). */
type Handler = (request: never, ctx: never) => unknown;

/** The low-level server, as the handlers are installed on it. */
interface Answering {
  setRequestHandler(method: string, handler: Handler): void;
}

const COMPLETE = "completion/complete";

/** The methods a table answers, by what a server offers. */
const METHODS: { readonly [K in keyof OfferedKinds]: readonly string[] } = {
  resources: ["resources/list", "resources/templates/list", "resources/read"],
  prompts: ["prompts/list", "prompts/get"],
  completions: [COMPLETE],
};

const KINDS = ["resources", "prompts", "completions"] as const;

/** One table: an SDK server holding resources and prompts, whose handlers answer for the servers built from it (see above). */
class OfferingTable {
  readonly server: McpServer;
  private readonly handlers = new Map<string, Handler>();
  /** The servers it answers for that stay connected to their client (or were given a table of their own): told when a list changes. */
  private readonly members = new Set<McpServer>();

  constructor(
    identity: { readonly name: string; readonly version: string },
    readonly serving: OfferingServing,
  ) {
    this.server = new McpServer({ name: identity.name, version: identity.version });
    // A read tries only the templates whose literal prefix starts its URI, in the SDK's order (template-index.ts).
    const templates = new TemplateIndex(this.server);
    const low = this.server.server as unknown as Answering;
    const install = low.setRequestHandler.bind(low);
    // The SDK's own handlers, kept as it installs them (once each, at the first registration that needs one).
    low.setRequestHandler = (method, handler) => {
      this.handlers.set(method, method === "resources/read" ? templates.reading(handler) : handler);
      install(method, handler);
    };
    // The SDK tells its server's client of a change in a list; this one has none, and tells its members.
    this.server.sendResourceListChanged = () => this.tell("resources");
    this.server.sendPromptListChanged = () => this.tell("prompts");
  }

  /** Makes `server` answer `kinds` from this table (`server` declares them already). */
  answerOn(server: McpServer, kinds: OfferedKinds): void {
    const low = server.server as unknown as Answering;
    for (const kind of KINDS) {
      if (!kinds[kind]) continue;
      for (const method of METHODS[kind]) {
        const handler = this.handlers.get(method);
        if (handler !== undefined) low.setRequestHandler(method, handler);
      }
    }
    // A resource's or prompt's OAuth scope challenge (the SDK's `scopeChallenge`) is found where it is registered.
    server.resolveScopeChallenge = (context) => this.server.resolveScopeChallenge(context);
  }

  /**
   * `server` offers `kind` from this table after a registration of its own (`registerResource`,
   * `registerPrompt`): as the SDK's registration on `server` itself would, it declares what it did
   * not (the SDK's capabilities, `listChanged` included; completion when the table completes), which
   * throws as the SDK does once `server` is connected.
   */
  adopt(server: McpServer, kind: "resources" | "prompts"): void {
    const low = server.server;
    const declared = low.getCapabilities();
    if (this.handlers.has(COMPLETE) && declared.completions === undefined) {
      low.registerCapabilities({ completions: {} });
      this.answerOn(server, { resources: false, prompts: false, completions: true });
    }
    if (declared[kind] === undefined) {
      low.registerCapabilities({ [kind]: { listChanged: true } });
      this.answerOn(server, { resources: kind === "resources", prompts: kind === "prompts", completions: false });
    }
  }

  /** `server` is told of this table's changes until it closes (or `leave`). */
  join(server: McpServer): void {
    this.members.add(server);
    const low = server.server;
    const closed = low.onclose;
    low.onclose = () => {
      this.members.delete(server);
      closed?.();
    };
  }

  leave(server: McpServer): void {
    this.members.delete(server);
  }

  /**
   * `notifications/<kind>/list_changed` to each member that declared `listChanged` on `kind`. The
   * SDK's own server sends it whatever it declared; a server that declared `listChanged: false`
   * (the registry's default) promised its client no such notification, and its tools' changes send
   * none either (registry.ts, `Announcer`).
   */
  private tell(kind: "resources" | "prompts"): void {
    for (const member of this.members) {
      if (!member.isConnected() || member.server.getCapabilities()[kind]?.listChanged !== true) continue;
      try {
        const sent = kind === "resources" ? member.server.sendResourceListChanged() : member.server.sendPromptListChanged();
        sent.catch(() => undefined);
      } catch {
        // Its connection is closing: nothing to tell.
      }
    }
  }
}

/**
 * A registry's resources and prompts, and the tables that hold them (see above). `kinds` and
 * `serve` cost the same whatever the number offered; `add` and `change` are paid once per table.
 */
export class OfferingTables {
  /** What is offered, in registration order (a removed one is not). */
  private readonly offerings: Offering[] = [];
  private readonly counts = { resources: 0, prompts: 0, completions: 0 };
  /** Those that can be completed (`completion/complete`): a template's `complete` callbacks, a prompt's `completable` arguments. */
  private readonly completing = new WeakSet<Offering>();
  /** Each serving's tables, by its shutdown: they go when it does. */
  private readonly byShutdown = new WeakMap<AbortSignal, Map<string, OfferingTable>>();
  /** The tables of servers built without a shutdown (stdio, `createServer()`). */
  private readonly unbounded = new Map<string, OfferingTable>();
  /** Every table, for a registration or a change while serving. */
  private readonly live = new Set<WeakRef<OfferingTable>>();
  /** The table each server built answers from. */
  private readonly answering = new WeakMap<McpServer, OfferingTable>();
  /** The servers given a table of their own (a registration of the author's own on them). */
  private readonly owned = new WeakSet<McpServer>();
  /** The SDK's handles of the resources registered on a server built, with its own `registerResource`, on that server's table. */
  private readonly ownResources = new WeakSet<object>();

  constructor(private readonly identity: { readonly name: string; readonly version: string }) {}

  /** What a server built now offers of the registry's (the data view aside): resources, prompts, completion. */
  get kinds(): OfferedKinds {
    const { resources, prompts, completions } = this.counts;
    return { resources: resources > 0, prompts: prompts > 0, completions: completions > 0 };
  }

  /**
   * Registers `offering` on every table — first on the table of servers without a shutdown, which
   * is built then if it was not, so that a mistake the SDK refuses (a URI taken twice) throws here,
   * and nothing is kept of it.
   */
  add(offering: Offering): void {
    const first = this.table({}, undefined);
    const placed: OfferingTable[] = [];
    try {
      for (const table of [first, ...this.tables().filter((other) => other !== first)]) {
        this.place(offering, table);
        placed.push(table);
      }
    } catch (error) {
      for (const table of placed) undo(offering, table);
      throw error;
    }
    // A template, or a prompt with arguments, may complete: whether it does is the SDK's to say.
    const handle = offering.handles.get(first.server) as { resourceTemplate?: unknown; argsSchema?: unknown } | undefined;
    if (handle !== undefined && (handle.resourceTemplate !== undefined || handle.argsSchema !== undefined) && completes(offering.register, this.identity)) this.completing.add(offering);
    this.offerings.push(offering);
    this.count(offering, 1);
  }

  /** The registry's `enable()`, `disable()`, `remove()` of `offering`, on every table; whether it changed anything. */
  change(offering: Offering, change: "enable" | "disable" | "remove"): boolean {
    const { state } = offering;
    if (state.removed) return false;
    if (change === "remove") {
      state.removed = true;
      this.offerings.splice(this.offerings.indexOf(offering), 1);
      this.count(offering, -1);
    } else if (state.enabled === (change === "enable")) return false;
    else state.enabled = change === "enable";
    for (const table of this.tables()) {
      try {
        offering.handles.get(table.server)?.[change]();
      } catch {
        // A table's SDK refused nothing before; a change there that fails leaves the others changed.
      }
    }
    return true;
  }

  /**
   * Makes `server`, built for `serving`, answer what it offers (`kinds`: it declares them) from the
   * table of that serving, with `view` first among the resources when it serves the data view;
   * `stays`: it stays connected to its client and is told when a list changes. A resource or prompt
   * registered on `server` itself gives it a table of its own.
   */
  serve(server: McpServer, serving: OfferingServing, view: GatewayView | undefined, kinds: OfferedKinds, stays: boolean): void {
    if (kinds.resources || kinds.prompts) {
      const table = this.table(serving, view);
      table.answerOn(server, kinds);
      if (stays) table.join(server);
      this.answering.set(server, table);
    }
    const own = (kind: "resources" | "prompts", register: (table: McpServer) => unknown): unknown => {
      const table = this.own(server, serving, view);
      const registered = register(table.server);
      table.adopt(server, kind);
      return registered;
    };
    server.registerResource = ((...args: unknown[]) =>
      own("resources", (table) => {
        const registered = (table.registerResource as (...given: unknown[]) => unknown)(...args);
        if (typeof registered === "object" && registered !== null) this.ownResources.add(registered);
        return registered;
      })) as McpServer["registerResource"];
    server.registerPrompt = ((...args: unknown[]) => own("prompts", (table) => (table.registerPrompt as (...given: unknown[]) => unknown)(...args))) as McpServer["registerPrompt"];
  }

  /**
   * Whether a resource registered on `server` itself (the SDK's `registerResource` on a server the
   * registry built, not `registry.resource()`) serves `uri`, enabled: its URI, or an instance of its
   * template — as its table holds it now, after whatever its SDK handle changed; `uri` as written,
   * or as the SDK reads it (resource-uri.ts).
   */
  servesOwn(server: McpServer, uri: ResourceUri): boolean {
    const table = this.owned.has(server) ? this.answering.get(server) : undefined;
    if (table === undefined) return false;
    const records = table.server as unknown as ResourceRecords;
    const own = (registered: unknown): boolean => typeof registered === "object" && registered !== null && this.ownResources.has(registered) && (registered as { enabled?: unknown }).enabled === true;
    const { written, read } = uri;
    const ownStatic = (value: string): boolean => Object.hasOwn(records._registeredResources, value) && own(records._registeredResources[value]);
    if (ownStatic(written) || (read !== written && ownStatic(read))) return true;
    // One pass over the templates, each tried with both spellings.
    return Object.values(records._registeredResourceTemplates).some((registered) => {
      if (!own(registered)) return false;
      const { resourceTemplate } = registered as { resourceTemplate: ResourceTemplate };
      return templateMatches(resourceTemplate, written) || (read !== written && templateMatches(resourceTemplate, read));
    });
  }

  /** The table `server` answers from once a resource or prompt is registered on it: one of its own, holding the registry's as the one it leaves does. */
  private own(server: McpServer, serving: OfferingServing, view: GatewayView | undefined): OfferingTable {
    const current = this.answering.get(server);
    if (current !== undefined && this.owned.has(server)) return current;
    const table = this.build(boundsOf(serving), view);
    current?.leave(server);
    table.join(server);
    const declared = server.server.getCapabilities();
    table.answerOn(server, { resources: declared.resources !== undefined, prompts: declared.prompts !== undefined, completions: declared.completions !== undefined });
    this.answering.set(server, table);
    this.owned.add(server);
    return table;
  }

  /** The table of `serving` (its shutdown, whether it is stateless), with the data view or without. */
  private table(serving: OfferingServing, view: GatewayView | undefined): OfferingTable {
    const bounds = boundsOf(serving);
    const { shutdown } = bounds;
    let tables = shutdown === undefined ? this.unbounded : this.byShutdown.get(shutdown);
    if (tables === undefined) {
      tables = new Map<string, OfferingTable>();
      if (shutdown !== undefined) this.byShutdown.set(shutdown, tables);
    }
    const key = `${bounds.stateless === true ? "stateless" : "sessionful"}${view === undefined ? "" : ", with the data view"}`;
    let table = tables.get(key);
    if (table === undefined) {
      table = this.build(bounds, view);
      tables.set(key, table);
    }
    return table;
  }

  /** A new table: the data view first, then every resource and prompt offered, each as its handle left it. */
  private build(serving: OfferingServing, view: GatewayView | undefined): OfferingTable {
    const table = new OfferingTable(this.identity, serving);
    view?.serve(table.server);
    for (const offering of this.offerings) this.place(offering, table);
    this.live.add(new WeakRef(table));
    return table;
  }

  private place(offering: Offering, table: OfferingTable): void {
    const handle = offering.register(table.server, table.serving);
    if (handle === undefined) return;
    if (!offering.state.enabled) handle.disable();
    offering.handles.set(table.server, handle);
  }

  /** Every table still in use. */
  private tables(): OfferingTable[] {
    const tables: OfferingTable[] = [];
    for (const held of this.live) {
      const table = held.deref();
      if (table === undefined) this.live.delete(held);
      else tables.push(table);
    }
    return tables;
  }

  private count(offering: Offering, by: 1 | -1): void {
    this.counts[offering.kind] += by;
    if (this.completing.has(offering)) this.counts.completions += by;
  }
}

/**
 * Whether `register` registers what can be completed: as the SDK decides it, on a server of its
 * own (it declares `completions` for a template with a `complete` callback, a prompt with a
 * `completable` argument).
 */
function completes(register: Offering["register"], identity: { readonly name: string; readonly version: string }): boolean {
  const server = new McpServer({ name: identity.name, version: identity.version });
  try {
    register(server, {});
  } catch {
    return false;
  }
  return server.server.getCapabilities().completions !== undefined;
}

/** What of a serving bounds a read: its shutdown, and whether it is stateless (never more, so that servings alike share a table). */
function boundsOf(serving: OfferingServing): OfferingServing {
  return { ...(serving.shutdown === undefined ? {} : { shutdown: serving.shutdown }), ...(serving.stateless === true ? { stateless: true } : {}) };
}

/** `offering` taken off `table` again: another table refused it. */
function undo(offering: Offering, table: OfferingTable): void {
  try {
    offering.handles.get(table.server)?.remove();
  } catch {
    // Nothing more to undo there.
  }
}
