import { CONTRACT_KEYS, declaredKeys } from "./contract.js";
import { compileInput, InputRefusal, type CompiledInput } from "./input.js";
import { stderrLogger, type Logger } from "./logger.js";
import { enclosingClassName, formatSite, LazySite, lowerStackTraceLimit, type Site } from "./site.js";
import { hintAtDecoratorSyntaxErrors, isCheckableFile, type StartupCheckMode } from "./startup.js";
import { toolNameRefusal } from "./tool-name.js";
import type { RegisteredTool, ToolDecorator, ToolFunction, ToolOptions } from "./types.js";
import { verifiedBy } from "./verified.js";

/*
 * Registration: what `registry.tool()` does with a function — named, checked, held in the table of
 * entries — and what it does with one it cannot take: throws, or, made from a source the start-up
 * check reads, keeps it for the check's verdict (verdicts.ts). The state of one registry's
 * registrations lives in one `Registrations`; createRegistry (registry.ts) holds it.
 */

/** A tool's input and output, compiled once at `registry.tool(options)`. */
export interface CompiledSchemas {
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
export class Entry implements Pick<RegisteredTool, "name" | "options" | "fn" | "site" | "verifiedBy" | "enabled"> {
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

  /** `RegisteredTool.disable()` turns it off: still registered, not served. */
  enabled = true;

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

/** Compiles a tool's `input` and `output` once, at `registry.tool(options)`; throws `InputRefusal` for a schema it cannot serve. */
export function compileSchemas(toolOptions: ToolOptions): CompiledSchemas {
  return {
    input: toolOptions.input === undefined ? undefined : compileInput(toolOptions.input),
    output: toolOptions.output === undefined ? undefined : compileOutput(toolOptions.output),
  };
}

/**
 * Registries with tools that nothing serves yet. A module that registers tools and never starts
 * a transport exits 0 without a word, and its client only sees "Connection closed": when Node is
 * about to exit because nothing is left to do, each such registry says so once.
 */
/** What a registry says at exit when nothing served its tools. */
interface ExitHint {
  readonly describe: () => string | undefined;
  readonly logger: Logger;
}

const unserved = new Set<ExitHint>();
let exitHintInstalled = false;

function hintAtExit(registry: ExitHint): void {
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

/** What registration follows of the registry's options. */
export interface RegistrationPolicy {
  /** The registry's name, for the hint at exit. */
  readonly registryName: string;
  readonly logger: Logger;
  readonly checkMode: StartupCheckMode;
  readonly requireVerified: boolean;
  /** How long the start-up check may take (`RegistryOptions.startupCheckTimeoutMs`). */
  readonly startupCheckTimeoutMs: number;
}

/** A registration the registry cannot take as it is, waiting for the start-up check's verdict (see `Registrations.undecided`). */
export interface Undecided {
  readonly name: string;
  readonly lazySite: LazySite;
  /**
   * Why the registry cannot take it, worded when said: the sites it names (`LazySite.where`) are
   * where the code ran until the check traces them to their sources.
   */
  readonly why: () => string;
  readonly entry?: Entry;
}

/** One registry's registrations: the tools by name, and those waiting for the start-up check. */
export class Registrations {
  readonly entries = new Map<string, Entry>();
  /** Unstamped registrations the start-up check has not been asked about yet. */
  readonly unjudged: Entry[] = [];
  /**
   * Registrations the registry cannot take as they are — no function, a decorated field, an
   * instance method, an anonymous function, a name already taken — made from a source the check
   * reads. The build strips the ones the analysis rejects, so run from source they wait for its
   * verdict instead of throwing while the module loads: refused with the finding, or with the
   * registry's own reason; a name taken only by a tool the check then refuses is free again.
   */
  readonly undecided: Undecided[] = [];
  /** Whether a server has been asked for (served, or built for a transport of the caller's own). */
  private served = false;
  /** Told when the tools change while serving (a late registration, enable, disable, remove): the registry announces it. */
  whileServing: (() => void) | undefined;
  private readonly exitHint: ExitHint;

  /** `changed`: called when the tools change, so the tool table is computed again. */
  constructor(
    private readonly policy: RegistrationPolicy,
    private readonly changed: () => void,
  ) {
    const { logger, registryName } = policy;
    this.exitHint = {
      logger,
      describe: (): string | undefined => {
        if (this.served || this.entries.size === 0) return undefined;
        const names = [...this.entries.keys()];
        const tools = names.length === 1 ? `tool "${names[0]!}" is` : `${names.length} tools (${names.slice(0, 3).map((name) => `"${name}"`).join(", ")}${names.length > 3 ? ", …" : ""}) are`;
        return (
          `registry "${registryName}": ${tools} registered, but the process is exiting without serving them, so no client can call them. ` +
          "Start a transport once the tools are registered: registry.serveStdio() for a client that starts this process, or registry.serveHttp() for clients that connect to it."
        );
      },
    };
    if (policy.checkMode !== false) hintAtDecoratorSyntaxErrors();
  }

  /** Asked for a server: no hint at exit, and the registry is no longer held for one. */
  markServed(): void {
    this.served = true;
    unserved.delete(this.exitHint);
  }

  get isServed(): boolean {
    return this.served;
  }

  /** The registered tools, in registration order; under requireVerified, an unstamped one once the start-up check verified it. */
  get tools(): readonly RegisteredTool[] {
    return [...this.entries.values()]
      .filter((entry) => !(this.policy.requireVerified && entry.awaitingVerdict))
      .map((entry) => {
        const { name, options, fn, site, verifiedBy, enabled } = entry;
        return {
          name,
          options,
          fn,
          site,
          verifiedBy,
          enabled,
          enable: () => this.change(entry, "enable"),
          disable: () => this.change(entry, "disable"),
          remove: () => this.change(entry, "remove"),
        };
      });
  }

  /** The tools served: the registered ones not disabled. */
  enabledEntries(): Entry[] {
    return [...this.entries.values()].filter((entry) => entry.enabled);
  }

  /** `RegisteredTool.enable()`, `disable()`, `remove()`: a change of what is served. */
  private change(entry: Entry, change: "enable" | "disable" | "remove"): void {
    // A handle of a registration replaced since (removed, its name taken again) changes nothing.
    if (this.entries.get(entry.name) !== entry) return;
    if (change === "remove") this.entries.delete(entry.name);
    else if (entry.enabled === (change === "enable")) return;
    else entry.enabled = change === "enable";
    this.changed();
    if (this.served) this.whileServing?.();
  }

  /**
   * The decorator `registry.tool(toolOptions)` returns. It captures the site in its own frame (the
   * caller's is the next one, site.ts): a helper between would add a frame of its own to every stack.
   */
  decorator(toolOptions: ToolOptions, schemas: CompiledSchemas): ToolDecorator<never> {
    const checkMode = this.policy.checkMode;
    const decorator = (fn: unknown, context?: DecoratorContext): unknown => {
      // Captured in this very frame: a helper would add a frame of its own to every stack.
      const limit = context === undefined ? lowerStackTraceLimit(checkMode !== false && verifiedBy(fn) === undefined ? STARTUP_CHECK_FRAMES : CALL_FORM_FRAMES) : undefined;
      const site = new LazySite(new Error());
      if (limit !== undefined) Error.stackTraceLimit = limit;
      if (context === undefined) {
        this.register(fn, toolOptions, schemas, site);
        return fn;
      }
      const methodName = typeof context.name === "string" ? context.name : "";
      if (context.kind !== "method") {
        const kind = context.kind;
        this.cannotRegister(TypeError, () => `registry.tool() at ${site.where()} decorates a ${kind}: it registers functions and static methods only.`, toolOptions.name ?? methodName, site);
        return fn;
      }
      if (!context.static) {
        const className = enclosingClassName(site.get());
        this.cannotRegister(
          TypeError,
          () =>
            `registry.tool() cannot register the instance method "${methodName}" of ${className === undefined ? "an anonymous class" : `class ${className}`} (${site.where()}): a tool is called without an instance. ` +
            `Make it static (@registry.tool() static ${methodName}(…)) or register a plain function.`,
          toolOptions.name ?? methodName,
          site,
        );
        return fn;
      }
      // Static initializers run with `this` = the class once it exists: calls get it as `this`.
      const method: StaticMethod = { name: methodName, owner: undefined };
      context.addInitializer(function (this: unknown) {
        method.owner = this;
      });
      this.register(fn, toolOptions, schemas, site, method);
      return fn;
    };
    return decorator as ToolDecorator<never>;
  }

  /**
   * Throws an `Error` (or `TypeError`) saying `why`, or, for a registration the start-up check will
   * judge, keeps it for the check's verdict (see `undecided`), worded only then: the places it
   * names are the sources' once the check traced them (plain tsc's output), as a run from them says.
   */
  private cannotRegister(kind: ErrorConstructor | TypeErrorConstructor, why: () => string, name: string, lazySite: LazySite, entry?: Entry): void {
    if (this.policy.checkMode === false || !isCheckableFile(lazySite.get()?.file)) throw new kind(why());
    this.undecided.push({ name, lazySite, why, ...(entry === undefined ? {} : { entry }) });
  }

  private register(fn: unknown, toolOptions: ToolOptions, schemas: CompiledSchemas, lazySite: LazySite, method?: StaticMethod): void {
    if (typeof fn !== "function") {
      const got = fn === null ? "null" : typeof fn;
      this.cannotRegister(TypeError, () => `registry.tool() at ${lazySite.where()} expects a function, got ${got}. Write registry.tool()(function my_tool() {…}).`, toolOptions.name ?? "(not a function)", lazySite);
      return;
    }
    const tool = fn as ToolFunction;
    const name = toolOptions.name ?? method?.name ?? tool.name;
    if (name === "") {
      this.cannotRegister(
        TypeError,
        () =>
          `registry.tool() at ${lazySite.where()} cannot name the tool: the function is anonymous. ` +
          'Name the function (function list_cities() {…}) or pass { name: "list_cities" }. ' +
          "If the source names it, a minifier probably removed the name: build with @sourced/unplugin or @sourced/transformer, " +
          "which state each tool's name in the emitted code, or pass { name }.",
        "(anonymous)",
        lazySite,
      );
      return;
    }
    const stamp = verifiedBy(tool);
    const badName = toolNameRefusal(name);
    if (badName !== undefined) {
      // The build strips a name the MCP rule forbids (invalid-tool-name): from source, the check's verdict decides.
      if (stamp !== undefined) throw new TypeError(badName(formatSite(lazySite.get())));
      this.cannotRegister(TypeError, () => badName(lazySite.where()), name, lazySite);
      return;
    }
    // Unstamped: the start-up check may still verify it when serving starts. With requireVerified,
    // whatever the check cannot judge is refused now, as before (a stack is read only then).
    const awaitsCheck = stamp === undefined && this.policy.checkMode !== false && (!this.policy.requireVerified || isCheckableFile(lazySite.get()?.file));
    if (this.policy.requireVerified && stamp === undefined && !awaitsCheck) {
      this.policy.logger.warn(
        `tool "${name}" (${formatSite(lazySite.get())}) was not registered: requireVerified is on and the function carries no verified stamp, ` +
          "so no compile step has checked that it returns DataToolOutput. Build it with @sourced/transformer (tspc) or `sourced build` (plain tsc), or bundle it with @sourced/unplugin.",
      );
      return;
    }
    const entry = new Entry(name, { ...toolOptions }, schemas.input, schemas.output, tool, stamp, lazySite, method);
    const previous = this.entries.get(name);
    if (previous) {
      const why = (): string =>
        `tool "${name}" is registered twice: first by ${previous.label} at ${previous.lazySite.where()}, ` +
        `then by ${entry.label} at ${entry.lazySite.where()}. Give one of them another name with { name: "…" }.`;
      // The first may be one the check refuses (and the build strips): then the name is free.
      if (stamp !== undefined || !previous.awaitingVerdict) throw new Error(why());
      this.cannotRegister(Error, why, name, lazySite, entry);
      return;
    }
    this.entries.set(name, entry);
    if (awaitsCheck) {
      entry.awaitingVerdict = true;
      this.unjudged.push(entry);
    }
    this.changed();
    if (this.served) this.whileServing?.();
    if (!this.served && this.entries.size === 1) hintAtExit(this.exitHint);
  }
}
