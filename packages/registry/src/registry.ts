import { McpServer, type Icon, type PromptCallback, type ReadResourceCallback, type ReadResourceTemplateCallback, type ResourceMetadata, type ResourceTemplate, type ServerContext, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { CONTRACT_KEYS, declaredKeys } from "./contract.js";
import { gatewayView } from "./gateway.js";
import { compileInput, InputRefusal, type CompiledInput } from "./input.js";
import { stderrLogger, type Logger } from "./logger.js";
import { describeGiven, listKeys, optionProblems, REGISTRY_OPTIONS, TOOL_ANNOTATIONS, TOOL_OPTIONS } from "./options.js";
import { DEFAULT_CALL_TIMEOUT_MS } from "./net.js";
import { serveHttp, serveStdio, type HttpServeOptions, type HttpServing, type StdioServeOptions, type StdioServing } from "./serve.js";
import { checkedPrompt, checkedRead } from "./resource-net.js";
import { ServedResources } from "./resource-sources.js";
import { buildServer, ToolTable, type Offering, type ServingContext, type TableSource } from "./server.js";
import { DEFAULT_STARTUP_CHECK_TIMEOUT_MS, hintAtDecoratorSyntaxErrors, isCheckableFile, judge, unjudgedWarning, type StartupCheckMode, type Verdict } from "./startup.js";
import { assertToolName } from "./tool-name.js";
import { enclosingClassName, formatSite, LazySite, lowerStackTraceLimit, type Site } from "./site.js";
import type { ToolArgs, ToolDecorator, ToolDecoratorFor, ToolFunction, ToolInput, ToolOptions, ToolOutput } from "./types.js";
import { verifiedBy } from "./verified.js";

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
   * that does not answer) would hold them forever. Default 120 s.
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
  /** The verifier named by its stamp, or `@sourced/project@<version>` once the start-up check verified it; `undefined` otherwise. */
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
  tool<I extends ToolInput | undefined = undefined, O extends ToolOutput | undefined = undefined>(options?: ToolOptions<I, O>): ToolDecoratorFor<ToolArgs<I>, O>;
  /** The registered tools, in registration order. */
  readonly tools: readonly RegisteredTool[];
  /**
   * Serves a resource beside the tools, on every server the registry builds (stdio, HTTP,
   * `createServer()`): the SDK's `registerResource`, with its arguments. Its reads go through the
   * net as a tool's calls do: only a checked `ReadResourceResult` is sent, else an error naming
   * it. Register it before serving; a mistake the SDK refuses (a URI taken twice) throws here. Its URI (a template's: each instance) may then stand as a source of
   * any tool — `sources: ["memory://graph"]` — for data with no http(s) URL: a local file, a
   * database, memory. The net accepts it, and the data view opens it with `resources/read`.
   */
  resource(name: string, uri: string, metadata: ResourceMetadata, read: ReadResourceCallback): void;
  resource(name: string, template: ResourceTemplate, metadata: ResourceMetadata, read: ReadResourceTemplateCallback): void;
  /** Serves a prompt beside the tools, as `resource` does: the SDK's `registerPrompt`, with its arguments. */
  prompt(name: string, config: PromptConfig<undefined>, get: PromptCallback): void;
  prompt<Args extends StandardSchemaWithJSON>(name: string, config: PromptConfig<Args>, get: PromptCallback<Args>): void;
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

/** The SDK's prompt configuration (`registerPrompt`'s second argument). */
export interface PromptConfig<Args extends StandardSchemaWithJSON | undefined> {
  title?: string;
  description?: string;
  argsSchema?: Args;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** A tool's input and output, compiled once at `registry.tool(options)`. */
interface CompiledSchemas {
  readonly input: CompiledInput | undefined;
  readonly output: CompiledInput | undefined;
}

/**
 * A tool's `output`, compiled as an input is (input.ts), whose keys may not be the contract's own:
 * `sources`, `table`, `charts` and `force` keep their meaning on every tool.
 */
function compileOutput(output: unknown): CompiledInput {
  const compiled = compileInput(output, "output");
  // Every result carrying it would be refused by the net (wire.ts): refused here, once, as a tool named so is.
  if (declaredKeys(compiled).includes("__proto__") || ownsProto(output) || ownsProto((output as { shape?: unknown }).shape)) {
    throw new InputRefusal(
      'output declares "__proto__", which JSON readers may take for the prototype: no result could carry it (the net refuses such a key). Give the key another name (output: { proto: z.string() }).',
    );
  }
  const taken = declaredKeys(compiled).filter((key) => (CONTRACT_KEYS as readonly string[]).includes(key));
  if (taken.length > 0) {
    throw new InputRefusal(
      `output declares ${taken.map((key) => JSON.stringify(key)).join(" and ")}, which ${taken.length === 1 ? "is a key" : "are keys"} of the contract itself: ` +
        "sources, table, charts and force keep their meaning on every tool. Declare only the keys you add (output: { entities: z.array(Entity) }).",
    );
  }
  return compiled;
}

/** Whether `shape` (a raw shape, a zod object's `shape`) has an own `__proto__` key, which its JSON Schema would lose. */
function ownsProto(shape: unknown): boolean {
  try {
    return typeof shape === "object" && shape !== null && Object.hasOwn(shape, "__proto__");
  } catch {
    return false;
  }
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
 * Stack frames kept for an unstamped registration the start-up check may judge: a registration
 * made through a platform's wrapper is found at the wrapper's call, a few frames out.
 */
const STARTUP_CHECK_FRAMES = 6;

/**
 * A tool as the registry holds it. `label` and `site` are read only by messages: computing them
 * for every tool would cost more than the registration itself, so they are prototype getters.
 */
class Entry implements RegisteredTool {
  constructor(
    readonly name: string,
    readonly options: Readonly<ToolOptions>,
    readonly input: CompiledInput | undefined,
    readonly output: CompiledInput | undefined,
    readonly fn: ToolFunction,
    public verifiedBy: string | undefined,
    readonly lazySite: LazySite,
    private readonly method: StaticMethod | undefined,
  ) {}

  /** Registered unstamped, the start-up check not asked yet: under requireVerified it is not a tool until the check verifies it. */
  awaitingVerdict = false;

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
  // What every server built says of itself, read once: a later change to `options` changes nothing.
  const { name, version, title, instructions, icons, websiteUrl } = options;
  const identity = { name, version, title, instructions, icons, websiteUrl };
  // Checked with the other options (options.ts).
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const entries = new Map<string, Entry>();
  /** Computed at the first server built after a registration; shared by every server until the next one. */
  let table: ToolTable | undefined;
  const view = gatewayView(options.ui, logger);
  const checkMode: StartupCheckMode = options.startupCheck ?? "auto";
  /** Unstamped registrations the start-up check has not been asked about yet. */
  const unjudged: Entry[] = [];
  /**
   * Registrations the registry cannot take as they are — no function, a decorated field, an
   * instance method, an anonymous function, a name already taken — made from a source the check
   * reads. The build strips the ones the analysis rejects, so run from source they wait for its
   * verdict instead of throwing while the module loads: refused with the finding, or with the
   * registry's own reason; a name taken only by a tool the check then refuses is free again.
   */
  const undecided: { readonly name: string; readonly lazySite: LazySite; readonly error: Error; readonly entry?: Entry }[] = [];
  /** The check in flight: settles once its verdicts are applied. */
  let checking: Promise<void> | undefined;
  if (checkMode !== false) hintAtDecoratorSyntaxErrors();

  /** Throws `error`, or, for a registration the start-up check will judge, keeps it for the check's verdict (see `undecided`). */
  function cannotRegister(error: Error, name: string, lazySite: LazySite, entry?: Entry): void {
    if (checkMode === false || !isCheckableFile(lazySite.get()?.file)) throw error;
    undecided.push({ name, lazySite, error, ...(entry === undefined ? {} : { entry }) });
  }

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

  function register(fn: unknown, toolOptions: ToolOptions, schemas: CompiledSchemas, lazySite: LazySite, method?: StaticMethod): void {
    if (typeof fn !== "function") {
      const error = new TypeError(
        `registry.tool() at ${formatSite(lazySite.get())} expects a function, got ${fn === null ? "null" : typeof fn}. ` +
          "Write registry.tool()(function my_tool() {…}).",
      );
      cannotRegister(error, toolOptions.name ?? "(not a function)", lazySite);
      return;
    }
    const tool = fn as ToolFunction;
    const name = toolOptions.name ?? method?.name ?? tool.name;
    if (name === "") {
      const error = new TypeError(
        `registry.tool() at ${formatSite(lazySite.get())} cannot name the tool: the function is anonymous. ` +
          'Name the function (function list_cities() {…}) or pass { name: "list_cities" }. ' +
          "If the source names it, a minifier probably removed the name: build with @sourced/unplugin or @sourced/transformer, " +
          "which state each tool's name in the emitted code, or pass { name }.",
      );
      cannotRegister(error, "(anonymous)", lazySite);
      return;
    }
    const stamp = verifiedBy(tool);
    try {
      assertToolName(name, () => formatSite(lazySite.get()));
    } catch (error) {
      // The build strips a name the MCP rule forbids (invalid-tool-name): from source, the check's verdict decides.
      if (stamp !== undefined || !(error instanceof TypeError)) throw error;
      cannotRegister(error, name, lazySite);
      return;
    }
    // Unstamped: the start-up check may still verify it when serving starts. With requireVerified,
    // whatever the check cannot judge is refused now, as before (a stack is read only then).
    const awaitsCheck = stamp === undefined && checkMode !== false && (!options.requireVerified || isCheckableFile(lazySite.get()?.file));
    if (options.requireVerified && stamp === undefined && !awaitsCheck) {
      logger.warn(
        `tool "${name}" (${formatSite(lazySite.get())}) was not registered: requireVerified is on and the function carries no verified stamp, ` +
          "so no compile step has checked that it returns DataToolOutput. Build it with @sourced/transformer (tspc) or bundle it with @sourced/unplugin.",
      );
      return;
    }
    const entry = new Entry(name, { ...toolOptions }, schemas.input, schemas.output, tool, stamp, lazySite, method);
    const previous = entries.get(name);
    if (previous) {
      const error = new Error(
        `tool "${name}" is registered twice: first by ${previous.label} at ${previous.site}, ` +
          `then by ${entry.label} at ${entry.site}. Give one of them another name with { name: "…" }.`,
      );
      // The first may be one the check refuses (and the build strips): then the name is free.
      if (stamp !== undefined || !previous.awaitingVerdict) throw error;
      cannotRegister(error, name, lazySite, entry);
      return;
    }
    entries.set(name, entry);
    if (awaitsCheck) {
      entry.awaitingVerdict = true;
      unjudged.push(entry);
    }
    table = undefined;
    if (!served && entries.size === 1) hintAtExit(exitHint);
  }

  /** The resources served, whose URIs the tools may cite as sources. */
  const resources = new ServedResources();
  /** Resources and prompts, registered on every server built; `probe` hears the SDK's refusals at the registration. */
  const offerings: Offering[] = [];
  let probe: McpServer | undefined;
  /** `site`: captured in the registry's entry method, as every site is (site.ts). */
  function offer(what: string, site: LazySite, kind: Offering["kind"], register: Offering["register"]): void {
    if (served) {
      throw new Error(`${what} at ${formatSite(site.get())}: the registry is already serving, and servers already built would not offer it; register resources and prompts before serving.`);
    }
    try {
      register((probe ??= new McpServer({ name, version })), {});
    } catch (error) {
      throw new TypeError(`${what} at ${formatSite(site.get())}: ${error instanceof Error ? error.message : String(error)}`);
    }
    offerings.push({ kind, register });
  }

  /** Asked for a server: no hint at exit, and the registry is no longer held for one. */
  function markServed(): void {
    served = true;
    unserved.delete(exitHint);
  }

  /**
   * Starts the start-up check for the registrations it has not judged yet (serving calls it);
   * returns what settles once every verdict so far is applied, or `undefined` when none is awaited.
   */
  function check(): Promise<void> | undefined {
    const registered = unjudged.splice(0);
    const pending = undecided.splice(0);
    if (registered.length === 0 && pending.length === 0) return checking;
    const judgeBatch = async (): Promise<void> => {
      // Serving starts first: reading the stacks (tens of µs each) and the cached verdicts waits a turn.
      await new Promise((resolve) => setImmediate(resolve));
      // Only registrations from sources the check reads; the rest are served as ever (or were refused under requireVerified).
      const batch = registered.filter((entry) => {
        entry.awaitingVerdict = entries.get(entry.name) === entry && isCheckableFile(entry.lazySite.get()?.file);
        return entry.awaitingVerdict;
      });
      if (batch.length === 0 && pending.length === 0) return;
      const asked = [...batch.map((entry) => ({ tool: entry.name, frames: entry.lazySite.frames() })), ...pending.map(({ name, lazySite }) => ({ tool: name, frames: lazySite.frames() }))];
      const { verifier, verdicts } = await judge(asked, options.startupCheckTimeoutMs ?? DEFAULT_STARTUP_CHECK_TIMEOUT_MS);
      applyVerdicts(batch, verdicts.slice(0, batch.length), verifier);
      pending.forEach(({ name, error, entry }, index) => {
        const verdict = verdicts[batch.length + index]!;
        // The analysis' finding, as the build that strips it prints it.
        if (verdict.kind === "refused") {
          logger.warn(`tool "${name}" (${verdict.finding.file}:${verdict.finding.line}:${verdict.finding.column}) was not registered: ${verdict.finding.message}`);
        } else if (entry !== undefined && !entries.has(name) && (verdict.kind === "verified" || !(checkMode === "require" || options.requireVerified))) {
          // Its name was taken by a tool the check refused: it is free.
          entry.verifiedBy = verdict.kind === "verified" ? verifier : undefined;
          entries.set(name, entry);
        } else {
          logger.warn(`tool "${name}" was not registered: ${error.message}`);
        }
      });
    };
    // The check never takes serving down: a failure of its own is one warning, and its tools are
    // treated as ones it could not judge (served, or refused where the check is required).
    const judged = judgeBatch().catch((error: unknown) => {
      const reason = `the start-up check failed (${error instanceof Error ? error.message : String(error)}). Please report it`;
      const left = registered.filter((entry) => entry.awaitingVerdict);
      try {
        applyVerdicts(left, left.map(() => ({ kind: "unjudged", reason })), "");
      } catch {
        process.stderr.write(`[sourced] warning: ${reason}\n`);
      }
    });
    const run: Promise<void> = Promise.all([checking, judged]).then(() => {
      table = undefined;
      if (checking === run) checking = undefined;
    });
    checking = run;
    return checking;
  }

  function applyVerdicts(batch: readonly Entry[], verdicts: readonly Verdict[], verifier: string): void {
    const required = checkMode === "require" || options.requireVerified === true;
    const refuse = (entry: Entry, why: string): void => {
      if (entries.get(entry.name) === entry) entries.delete(entry.name);
      logger.warn(`tool "${entry.name}" (${entry.site}) was not registered: ${why}`);
    };
    const cannotJudge = new Map<string, Entry[]>();
    batch.forEach((entry, index) => {
      const verdict = verdicts[index]!;
      entry.awaitingVerdict = false;
      switch (verdict.kind) {
        case "verified":
          entry.verifiedBy = verifier;
          return;
        case "refused": {
          const { finding } = verdict;
          // The finding as the build prints it, where it prints it; the seed's warning.
          if (entries.get(entry.name) === entry) entries.delete(entry.name);
          logger.warn(`tool "${entry.name}" (${finding.file}:${finding.line}:${finding.column}) was not registered: ${finding.message}`);
          return;
        }
        case "unverified":
          if (required) refuse(entry, `the start-up check cannot verify it: ${verdict.reason}, and ${requirement()}`);
          else logger.warn(`tool "${entry.name}" (${entry.site}) is served unchecked: the start-up check cannot verify it: ${verdict.reason}.`);
          return;
        case "unjudged":
          cannotJudge.set(verdict.reason, [...(cannotJudge.get(verdict.reason) ?? []), entry]);
          return;
        case "unchecked":
          // Plain JavaScript no tsconfig checks: as without the check.
          if (options.requireVerified) refuse(entry, "requireVerified is on and the function carries no verified stamp, so no compile step has checked that it returns DataToolOutput. Build it with @sourced/transformer (tspc) or bundle it with @sourced/unplugin.");
          return;
      }
    });
    for (const [reason, unjudgedEntries] of cannotJudge) {
      if (required) for (const entry of unjudgedEntries) if (entries.get(entry.name) === entry) entries.delete(entry.name);
      logger.warn(unjudgedWarning(unjudgedEntries.map((entry) => ({ name: entry.name, site: entry.lazySite.get() })), reason, !required));
    }
  }

  function requirement(): string {
    return options.requireVerified ? "requireVerified is on." : 'startupCheck is "require".';
  }

  /** The tools as served: at once, or once the check in flight has settled. */
  const tables: TableSource = {
    table(): ToolTable | Promise<ToolTable> {
      const pending = check();
      return pending === undefined ? (table ??= new ToolTable(entries.values(), view, callTimeoutMs, resources)) : pending.then(() => tables.table());
    },
    get view() {
      if (checking === undefined) return (table ??= new ToolTable(entries.values(), view, callTimeoutMs, resources)).view;
      // Before the verdicts: served when any tool may declare it.
      return [...entries.values()].some((entry) => view?.toolMeta(entry.options.ui) !== undefined) ? view : undefined;
    },
  };

  const registry: Registry = {
    name: options.name,
    version: options.version,

    tool(toolOptions: ToolOptions = {}): ToolDecorator<never> {
      const problems = toolOptionProblems(toolOptions);
      if (problems.length > 0) throw optionsError("registry.tool()", new LazySite(new Error()), problems, listKeys(TOOL_OPTIONS));
      let schemas: CompiledSchemas;
      try {
        schemas = {
          input: toolOptions.input === undefined ? undefined : compileInput(toolOptions.input),
          output: toolOptions.output === undefined ? undefined : compileOutput(toolOptions.output),
        };
      } catch (error) {
        if (!(error instanceof InputRefusal)) throw error;
        throw new TypeError(`registry.tool() at ${formatSite(new LazySite(new Error()).get())}: ${error.message}`);
      }
      const decorator = (fn: unknown, context?: DecoratorContext): unknown => {
        // Captured in this very frame: a helper would add a frame of its own to every stack.
        const limit = context === undefined ? lowerStackTraceLimit(checkMode !== false && verifiedBy(fn) === undefined ? STARTUP_CHECK_FRAMES : CALL_FORM_FRAMES) : undefined;
        const site = new LazySite(new Error());
        if (limit !== undefined) Error.stackTraceLimit = limit;
        if (context === undefined) {
          register(fn, toolOptions, schemas, site);
          return fn;
        }
        const methodName = typeof context.name === "string" ? context.name : "";
        if (context.kind !== "method") {
          const error = new TypeError(`registry.tool() at ${formatSite(site.get())} decorates a ${context.kind}: it registers functions and static methods only.`);
          cannotRegister(error, toolOptions.name ?? methodName, site);
          return fn;
        }
        if (!context.static) {
          const className = enclosingClassName(site.get());
          const error = new TypeError(
            `registry.tool() cannot register the instance method "${methodName}" of ${
              className === undefined ? "an anonymous class" : `class ${className}`
            } (${formatSite(site.get())}): a tool is called without an instance. ` +
              `Make it static (@registry.tool() static ${methodName}(…)) or register a plain function.`,
          );
          cannotRegister(error, toolOptions.name ?? methodName, site);
          return fn;
        }
        // Static initializers run with `this` = the class once it exists: calls get it as `this`.
        const method: StaticMethod = { name: methodName, owner: undefined };
        context.addInitializer(function (this: unknown) {
          method.owner = this;
        });
        register(fn, toolOptions, schemas, site, method);
        return fn;
      };
      return decorator as ToolDecorator<never>;
    },

    get tools(): readonly RegisteredTool[] {
      // Under requireVerified, an unstamped registration is a tool once the start-up check verified it.
      return [...entries.values()]
        .filter((entry) => !(options.requireVerified && entry.awaitingVerdict))
        .map(({ name, options, fn, site, verifiedBy }) => ({ name, options, fn, site, verifiedBy }));
    },

    resource(...args: unknown[]): void {
      // Its reads go through the net (resource-net.ts), within the calls' deadline and each serving's
      // shutdown; a read that is no function is the SDK's to refuse.
      const [resourceName, uri, metadata, read] = args;
      offer("registry.resource()", new LazySite(new Error()), "resources", (server, serving) => {
        const bounds = { timeoutMs: callTimeoutMs, shutdown: serving.shutdown };
        const checked = typeof read === "function" ? checkedRead(String(resourceName), read as (...given: [...unknown[], ServerContext]) => unknown, logger, bounds) : read;
        (server.registerResource as (...given: unknown[]) => unknown)(resourceName, uri, metadata, checked, ...args.slice(4));
      });
      // Registered (the SDK took it): its URI, or its template's instances, may stand as sources.
      resources.add(args[1] as string | ResourceTemplate);
      table = undefined;
    },

    prompt(...args: unknown[]): void {
      // Its answers go through the net as a resource's reads do (resource-net.ts); a `get` that is
      // no function is the SDK's to refuse.
      const [promptName, config, get] = args;
      offer("registry.prompt()", new LazySite(new Error()), "prompts", (server, serving) => {
        const bounds = { timeoutMs: callTimeoutMs, shutdown: serving.shutdown };
        const checked = typeof get === "function" ? checkedPrompt(String(promptName), get as (...given: [...unknown[], ServerContext]) => unknown, logger, bounds) : get;
        (server.registerPrompt as (...given: unknown[]) => unknown)(promptName, config, checked, ...args.slice(3));
      });
    },

    // A serving layer passes what it asks of its servers; the public signature takes nothing.
    createServer(serving?: ServingContext): McpServer {
      markServed();
      void check();
      return buildServer(identity, tables, logger, serving, offerings);
    },

    // The check starts with serving, before any client asks: only the first tools/list waits for it.
    serveStdio: (stdioOptions) => {
      markServed();
      void check();
      return serveStdio(registry, logger, stdioOptions);
    },
    serveHttp: (httpOptions) => {
      markServed();
      void check();
      return serveHttp(registry, logger, httpOptions);
    },
  };
  return registry;
}
