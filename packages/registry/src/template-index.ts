import { ResourceTemplate, UriTemplate, type McpServer } from "@modelcontextprotocol/server";

/*
 * Which resource template answers a `resources/read`, found without trying every template.
 *
 * The SDK's `McpServer` answers a read of a URI no static resource has by trying its templates one
 * after another, in the order of its own record of them, and the first that matches answers (or
 * refuses: a disabled one). Each try builds the template's regular expression and runs it: about
 * 2 µs, so 20 ms a read beside 10,000 templates — twice that over HTTP, where the SDK's OAuth scope
 * challenge looks the template up the same way before the read. Yet a template of the SDK's matches
 * only a URI that starts with its literal prefix, the text before its first `{…}` expression: its
 * pattern is `^`, that text escaped, then the expressions. So a read need only try the templates
 * whose prefix starts the URI (those with none, `{scheme}://…`, start every URI), in the SDK's own
 * order.
 *
 * `TemplateIndex` keeps the templates of one SDK server by prefix, and for the duration of one
 * enumeration of its record — the one the SDK's read handler (or scope-challenge lookup) starts with
 * — shows it only those candidates, in the order the record holds them. Everything else stays the
 * SDK's: the static lookup, the match and its variables, a disabled template's refusal, the
 * not-found error, the cache hints; and `resources/templates/list`, `resources/list` (the templates'
 * list callbacks) and `completion/complete` still see every template. Whatever the index does not
 * know to be the SDK's own matching (a subclass, a template of another copy of the SDK, a template
 * too long for the SDK's bound on its pattern) is a candidate for every URI, tried as before.
 */

/** A record of the SDK's `McpServer`: its registered templates by name, and its static resources by URI. */
interface Records {
  _registeredResourceTemplates: Record<string, unknown>;
  readonly _registeredResources: Record<string, unknown>;
  registerResource: (...args: unknown[]) => unknown;
  resolveScopeChallenge: (context: { readonly request: { readonly method: string; readonly params?: { readonly uri?: unknown } } }) => unknown;
}

/** The SDK's bound on a URI it matches (`UriTemplate.match` throws past it): past it, every template is tried as before, and throws as it did. */
const MAX_URI_LENGTH = 1_000_000;
/**
 * A template longer than this is a candidate for every URI: the SDK throws when a template's
 * pattern exceeds 1,000,000 characters, which a template of over ~166,000 may (an expression's
 * pattern is at most about 6 times its text), and so it must be tried where the SDK tries it.
 */
const MAX_INDEXED_TEMPLATE = 100_000;

/** A request handler as the SDK installs it. */
type Handler = (request: never, ctx: never) => unknown;

/** One name of the SDK's record and the template it holds. */
interface Entry {
  readonly name: string;
  /** When the name entered the record: the record's order, after its array-index names. */
  readonly order: number;
  /** The name as an array index (`"7"`), which an object lists first, in numeric order; else `undefined`. */
  readonly index: number | undefined;
  value: unknown;
  prefix: string;
}

/** The templates of one SDK server by literal prefix (see above). */
export class TemplateIndex {
  private readonly entries = new Map<string, Entry>();
  /** The entries by the length of their prefix, then by prefix. */
  private readonly byPrefix = new Map<number, Map<string, Set<Entry>>>();
  /** The prefixes' lengths present, ascending. */
  private lengths: number[] = [];
  /** The names that hold each registered template (one, unless the SDK's `update({ name })` left two). */
  private readonly names = new WeakMap<object, Set<string>>();
  private added = 0;

  /** Keeps `server`'s templates: to be made before any is registered on it. */
  constructor(private readonly server: McpServer) {
    const records = server as unknown as Records;
    const register = records.registerResource.bind(server);
    // The SDK adds a template only here, and renames or removes one only by its handle's `update`.
    records.registerResource = (...args: unknown[]) => {
      try {
        return register(...args);
      } finally {
        // A name the SDK takes here is new to its record (it refuses one it holds).
        const name = propertyKey(args[0]);
        if (typeof args[1] !== "string" && name !== undefined) this.reconcile(name, true);
      }
    };
    const resolve = records.resolveScopeChallenge;
    records.resolveScopeChallenge = (context) => (context.request.method === "resources/read" ? this.narrowed(context.request.params?.uri, () => resolve(context)) : resolve(context));
  }

  /** The SDK's `resources/read` handler, trying only the templates that may match. */
  reading(handler: Handler): Handler {
    return (request, ctx) => this.narrowed((request as { params?: { uri?: unknown } } | undefined)?.params?.uri, () => handler(request, ctx));
  }

  /**
   * Runs `lookup` (the SDK's read handler or scope-challenge lookup for `uri`) with the record
   * showing, to its first enumeration, only the candidates for `uri`; the record itself is
   * restored at that enumeration, before any template is matched or read, so whatever a read does
   * (a registration while serving) is done to it.
   */
  private narrowed<T>(uri: unknown, lookup: () => T): T {
    const candidates = this.candidatesFor(uri);
    if (candidates === undefined) return lookup();
    const records = this.server as unknown as Records;
    const record = records._registeredResourceTemplates;
    // A proxy of an empty object that reads the record: a proxy of the record itself would have its
    // every key checked against what `ownKeys` answers, as a proxy's invariants ask.
    records._registeredResourceTemplates = new Proxy<Record<string, unknown>>(
      {},
      {
        ownKeys: () => {
          records._registeredResourceTemplates = record;
          return candidates;
        },
        getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(record, key),
        get: (_, key): unknown => record[key as string],
        has: (_, key) => Reflect.has(record, key),
        set: (_, key, value) => Reflect.set(record, key, value),
        defineProperty: (_, key, descriptor) => Reflect.defineProperty(record, key, descriptor),
        deleteProperty: (_, key) => Reflect.deleteProperty(record, key),
      },
    );
    try {
      return lookup();
    } finally {
      records._registeredResourceTemplates = record;
    }
  }

  /**
   * The names of the templates that may match `given`, in the record's order; `undefined` where
   * the SDK does not enumerate the templates (no URI, one it cannot parse, a static resource's:
   * it answers those before) or would throw at the first (a URI past its bound).
   */
  private candidatesFor(given: unknown): string[] | undefined {
    if (typeof given !== "string" || this.entries.size === 0) return undefined;
    let uri: string;
    try {
      uri = new URL(given).toString();
    } catch {
      return undefined;
    }
    if (uri.length > MAX_URI_LENGTH || (this.server as unknown as Records)._registeredResources[uri]) return undefined;
    const found: Entry[] = [];
    for (const length of this.lengths) {
      if (length > uri.length) break;
      const entries = this.byPrefix.get(length)?.get(uri.slice(0, length));
      if (entries !== undefined) found.push(...entries);
    }
    return found.sort(recordOrder).map((entry) => entry.name);
  }

  /** Makes the index hold what the SDK's record holds under `name`; `added`: the name entered the record anew, at its end. */
  private reconcile(name: string, added = false): void {
    const record = (this.server as unknown as Records)._registeredResourceTemplates;
    const value = Object.hasOwn(record, name) ? record[name] : undefined;
    let entry = this.entries.get(name);
    if (entry !== undefined && (value === undefined || (added && entry.value !== value))) {
      this.drop(entry);
      entry = undefined;
    }
    if (value === undefined) return;
    if (entry === undefined) {
      entry = { name, order: this.added++, index: arrayIndex(name), value, prefix: "" };
      this.entries.set(name, entry);
    } else {
      this.unplace(entry);
      this.forget(entry);
      entry.value = value;
    }
    this.watch(entry);
    entry.prefix = literalPrefix(value);
    this.place(entry);
  }

  /**
   * Follows what the SDK changes on a registered template: `update()` (which `enable()`,
   * `disable()` and `remove()` call) renames or removes it in the record, and `update({ template })`
   * or an assignment replaces its `resourceTemplate`.
   */
  private watch(entry: Entry): void {
    const { value } = entry;
    if (typeof value !== "object" || value === null) return;
    let names = this.names.get(value);
    if (names === undefined) {
      names = new Set();
      this.names.set(value, names);
      const handle = value as { update?: unknown; resourceTemplate?: unknown };
      const update = handle.update;
      if (typeof update === "function") {
        handle.update = (updates: { name?: unknown } | undefined, ...rest: unknown[]) => {
          const given = updates?.name;
          const renamed = given === undefined || given === null ? undefined : propertyKey(given);
          // A name new to the record enters it at its end; one it holds keeps its place.
          const fresh = renamed !== undefined && !Object.hasOwn((this.server as unknown as Records)._registeredResourceTemplates, renamed);
          try {
            return (update as (...args: unknown[]) => unknown).call(value, updates, ...rest);
          } finally {
            // The names it holds, and the one it was registered under (`entry`'s: watched first there), which the SDK's
            // `update()` deletes from the record whatever it was renamed to since — another's, registered under it later.
            const touched = new Set([...(this.names.get(value) ?? []), entry.name]);
            if (renamed !== undefined) this.reconcile(renamed, fresh);
            for (const name of touched) if (name !== renamed) this.reconcile(name);
          }
        };
      }
      let template = handle.resourceTemplate;
      try {
        Object.defineProperty(value, "resourceTemplate", {
          configurable: true,
          enumerable: true,
          get: () => template,
          set: (next: unknown) => {
            template = next;
            // A copy: reconciling a name takes it out of the set and puts it back.
            for (const name of [...(this.names.get(value) ?? [])]) this.reconcile(name);
          },
        });
      } catch {
        // Fixed: it cannot be replaced either.
      }
    }
    names.add(entry.name);
  }

  private forget(entry: Entry): void {
    if (typeof entry.value === "object" && entry.value !== null) this.names.get(entry.value)?.delete(entry.name);
  }

  private drop(entry: Entry): void {
    this.unplace(entry);
    this.forget(entry);
    this.entries.delete(entry.name);
  }

  private place(entry: Entry): void {
    const { length } = entry.prefix;
    let prefixes = this.byPrefix.get(length);
    if (prefixes === undefined) {
      prefixes = new Map();
      this.byPrefix.set(length, prefixes);
      this.lengths = [...this.byPrefix.keys()].sort((a, b) => a - b);
    }
    let entries = prefixes.get(entry.prefix);
    if (entries === undefined) {
      entries = new Set();
      prefixes.set(entry.prefix, entries);
    }
    entries.add(entry);
  }

  private unplace(entry: Entry): void {
    const { length } = entry.prefix;
    const prefixes = this.byPrefix.get(length);
    const entries = prefixes?.get(entry.prefix);
    if (prefixes === undefined || entries === undefined) return;
    entries.delete(entry);
    if (entries.size > 0) return;
    prefixes.delete(entry.prefix);
    if (prefixes.size > 0) return;
    this.byPrefix.delete(length);
    this.lengths = [...this.byPrefix.keys()].sort((a, b) => a - b);
  }
}

/** The literal prefix (`templatePrefix`) of what the SDK holds of a registered template. */
export function literalPrefix(registered: unknown): string {
  return templatePrefix((registered as { resourceTemplate?: unknown } | null | undefined)?.resourceTemplate);
}

/**
 * The text every URI a template of the SDK matches starts with: its first part when that is text
 * (`memory://entities/` of `memory://entities/{name}`); `""`, a candidate for every URI, for one
 * that starts with an expression or whose matching is not the SDK's own.
 */
export function templatePrefix(template: unknown): string {
  if (!isPlain(template, ResourceTemplate.prototype, "uriTemplate")) return "";
  const uriTemplate = (template as ResourceTemplate).uriTemplate as unknown;
  if (!isPlain(uriTemplate, UriTemplate.prototype, "match")) return "";
  const { template: text, parts } = uriTemplate as { template?: unknown; parts?: unknown };
  if (typeof text !== "string" || text.length > MAX_INDEXED_TEMPLATE || !Array.isArray(parts)) return "";
  const [first] = parts as unknown[];
  return typeof first === "string" ? first : "";
}

/** Whether `value` is an instance of `template`, as the SDK matches a read of it. */
export function templateMatches(template: ResourceTemplate, value: string): boolean {
  try {
    return template.uriTemplate.match(value) !== null;
  } catch {
    return false; // a URI too long for the SDK's matcher is no instance
  }
}

/** Whether `value` is an instance of exactly the SDK's class of `prototype`, its `member` not replaced. */
function isPlain(value: unknown, prototype: object, member: string): boolean {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === prototype && !Object.hasOwn(value, member);
}

/** The key an object holds `value` under, as the SDK's record takes a name (`record[name] = …`); `undefined` for a symbol, which no enumeration shows. */
function propertyKey(value: unknown): string | undefined {
  const [key] = Reflect.ownKeys({ [value as PropertyKey]: true });
  return typeof key === "string" ? key : undefined;
}

/** `name` as an array index (a canonical integer below 2³² − 1), which an object lists before its other keys; else `undefined`. */
function arrayIndex(name: string): number | undefined {
  const number = Number(name);
  return Number.isInteger(number) && number >= 0 && number < 4_294_967_295 && String(number) === name ? number : undefined;
}

/** The order of an object's own string keys: array indices ascending, then the others as they were added. */
function recordOrder(a: Entry, b: Entry): number {
  if (a.index !== undefined || b.index !== undefined) {
    if (a.index === undefined) return 1;
    if (b.index === undefined) return -1;
    return a.index - b.index;
  }
  return a.order - b.order;
}
