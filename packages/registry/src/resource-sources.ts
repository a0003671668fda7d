import type { ResourceTemplate } from "@modelcontextprotocol/server";
import { closestMatch, isResourceUriForm, localDataAdvice, SOURCE_URL_PATTERN, urlRuleProblem } from "@sourced/contract-rules";
import { resourceUri, servedAs, type ResourceUri } from "./resource-uri.js";
import { templateMatches, templatePrefix } from "./template-index.js";

/*
 * The resources a registry serves, as sources: data a tool read from a local file, a database or
 * memory has no http(s) URL, but the registry can serve it (`registry.resource()`), and then the
 * resource's URI is an honest source — a client reads it with `resources/read`, the data view opens
 * it. The net accepts a source that is an accepted http(s) URL or the URI of one of these (a
 * template's instances too), and `tools/list` publishes the same in each tool's `outputSchema`.
 *
 * The same record answers the subscriptions (audience.ts): which URIs the registry serves, of any
 * form (a resource at an http(s) URL is no source, yet a client reads it and subscribes to it), and
 * which it withdrew — disabled or removed — and serves no more.
 */

/** How many served URIs a refusal lists. */
const LISTED = 5;

/**
 * How many withdrawn registrations the registry remembers, the last ones withdrawn: each is a URI
 * or a template's text kept after its resource is gone, so a server that registers and removes
 * resources while it runs would otherwise hold every one it ever removed.
 */
const MAX_WITHDRAWN = 10_000;

/** How many schemes the published schema of a source names one by one (sourceJsonSchema); past that, any scheme. */
const PUBLISHED_SCHEMES = 16;
/** An RFC 3986 scheme, as a pattern. */
const SCHEME_PATTERN = "[A-Za-z][A-Za-z0-9+.-]*";

const SCHEME = new RegExp(`^${SCHEME_PATTERN}(?=:)`, "u");

/** The scheme of a URI or a template, as written (`memory`); `""` when it starts with none. */
function schemeOf(uri: string): string {
  return SCHEME.exec(uri)?.[0] ?? "";
}

/** A scheme (lowercase) as a pattern of either case: `memory` as `[mM][eE][mM][oO][rR][yY]`, `+` and `.` escaped. */
function eitherCase(scheme: string): string {
  return scheme.replace(/[a-z]/gu, (letter) => `[${letter}${letter.toUpperCase()}]`).replace(/[.+]/gu, "\\$&");
}

/**
 * One registration's URI or template, while it is offered: `offered(false)` when its handle
 * disables or removes it, `offered(true)` when it enables it again. A resource no longer offered is
 * one a client can no longer read, so it says where data came from no better than a URI never
 * served, and is refused as one.
 */
export interface ServedSource {
  offered(offered: boolean): void;
  /** Whether `uri` is its URI, or an instance of its template, written or as the SDK reads it (resource-uri.ts). */
  covers(uri: ResourceUri): boolean;
}

/** A template served, one per registration: two registrations of the same template are two entries, and removing one leaves the other. */
interface TemplateEntry {
  readonly text: string;
  readonly template: ResourceTemplate;
  readonly prefix: string;
}

/**
 * Templates by their literal prefix's length, then by prefix (template-index.ts): a template
 * matches only a URI its prefix starts, so a URI is matched against those alone, not against every
 * template held — each match builds and runs the template's pattern.
 */
class TemplatesByPrefix {
  private readonly byPrefix = new Map<number, Map<string, TemplateEntry[]>>();
  /** The prefixes' lengths present, ascending. */
  private lengths: number[] = [];

  place(entry: TemplateEntry): void {
    const { prefix } = entry;
    let prefixes = this.byPrefix.get(prefix.length);
    if (prefixes === undefined) {
      prefixes = new Map();
      this.byPrefix.set(prefix.length, prefixes);
      this.lengths = [...this.byPrefix.keys()].sort((a, b) => a - b);
    }
    const entries = prefixes.get(prefix);
    if (entries === undefined) prefixes.set(prefix, [entry]);
    else entries.push(entry);
  }

  unplace(entry: TemplateEntry): void {
    const { prefix } = entry;
    const prefixes = this.byPrefix.get(prefix.length);
    const entries = prefixes?.get(prefix);
    const at = entries?.indexOf(entry) ?? -1;
    if (prefixes === undefined || entries === undefined || at < 0) return;
    entries.splice(at, 1);
    if (entries.length > 0) return;
    prefixes.delete(prefix);
    if (prefixes.size > 0) return;
    this.byPrefix.delete(prefix.length);
    this.lengths = [...this.byPrefix.keys()].sort((a, b) => a - b);
  }

  /** Whether `value` is an instance of a template held. */
  matches(value: string): boolean {
    for (const length of this.lengths) {
      if (length > value.length) break;
      const entries = this.byPrefix.get(length)?.get(value.slice(0, length));
      if (entries?.some(({ template }) => templateMatches(template, value)) === true) return true;
    }
    return false;
  }
}

/**
 * The registrations the registry withdrew (disabled or removed), by URI or template text: what
 * `registry.resourceUpdated()` tells no one of while nothing of the registry's serves it. One
 * served again (enabled, or registered anew at that URI or with that template) is forgotten; past
 * `MAX_WITHDRAWN`, the one withdrawn longest ago is, and its URI is then told of as one the
 * registry never knew.
 */
class Withdrawn {
  /** Oldest first: a key is moved to the end when withdrawn again. */
  private readonly record = new Map<string, TemplateEntry | undefined>();
  private readonly templates = new TemplatesByPrefix();

  remember(key: string, template?: TemplateEntry): void {
    this.forget(key);
    this.record.set(key, template);
    if (template !== undefined) this.templates.place(template);
    if (this.record.size > MAX_WITHDRAWN) this.forget(this.record.keys().next().value!);
  }

  forget(key: string): void {
    if (!this.record.has(key)) return;
    const template = this.record.get(key);
    this.record.delete(key);
    if (template !== undefined) this.templates.unplace(template);
  }

  /** Whether `value` is a URI withdrawn, or an instance of a template withdrawn. */
  holds(value: string): boolean {
    return this.record.has(uriKey(value)) || this.templates.matches(value);
  }
}

/** The key of a URI in the record of what was withdrawn; a template's is its text's (the two never meet). */
const uriKey = (uri: string): string => `uri ${uri}`;
const templateKey = (text: string): string => `template ${text}`;

export class ServedResources {
  /** The URIs served that may stand as sources (isResourceUriForm), each with how many offered registrations hold it. */
  private readonly uris = new Map<string, number>();
  /**
   * The URIs served that may not (an http(s) URL, one of a browser's schemes), counted likewise:
   * no source, but a resource all the same, which a client reads and subscribes to.
   */
  private readonly others = new Map<string, number>();
  private readonly templates: TemplateEntry[] = [];
  private readonly byPrefix = new TemplatesByPrefix();
  private readonly withdrawn = new Withdrawn();

  /**
   * A resource's URI, or its template, registered; the handle follows its registration's
   * `enable()`, `disable()` and `remove()`. Only a URI that may stand as a source (isResourceUriForm)
   * is accepted as one; every URI and template is served.
   */
  add(uri: string | ResourceTemplate): ServedSource {
    if (typeof uri === "string") {
      const held = isResourceUriForm(uri) ? this.uris : this.others;
      const key = uriKey(uri);
      return this.follow(
        () => {
          held.set(uri, (held.get(uri) ?? 0) + 1);
          this.withdrawn.forget(key);
        },
        () => {
          const count = (held.get(uri) ?? 0) - 1;
          if (count > 0) held.set(uri, count);
          else held.delete(uri);
          this.withdrawn.remember(key);
        },
        (value) => servedAs(value, (written) => written === uri),
      );
    }
    const entry: TemplateEntry = { text: uri.uriTemplate.toString(), template: uri, prefix: templatePrefix(uri) };
    const key = templateKey(entry.text);
    return this.follow(
      () => {
        this.templates.push(entry);
        this.byPrefix.place(entry);
        this.withdrawn.forget(key);
      },
      () => {
        this.templates.splice(this.templates.indexOf(entry), 1);
        this.byPrefix.unplace(entry);
        this.withdrawn.remember(key, entry);
      },
      (value) => servedAs(value, (written) => templateMatches(uri, written)),
    );
  }

  /** Takes a registration in (`take`) now and whenever it is offered again; lets it go (`release`) whenever it is not. */
  private follow(take: () => void, release: () => void, covers: (uri: ResourceUri) => boolean): ServedSource {
    let offered = true;
    take();
    return {
      offered: (now) => {
        if (now === offered) return;
        offered = now;
        if (now) take();
        else release();
      },
      covers,
    };
  }

  get empty(): boolean {
    return this.uris.size === 0 && this.templates.length === 0;
  }

  /**
   * Whether `value` may stand as a source: the URI of a resource served here, or an instance of a
   * template served here, as written or as the SDK reads it (resource-uri.ts) — a client reads
   * `MEMORY://graph` or `file://localhost/srv/a.json` back as `memory://graph` or `file:///srv/a.json`,
   * so a tool citing either spelling cites what it can read, as a subscription matches it. What is
   * sent stays as the tool wrote it. The form is the written value's (isResourceUriForm): the
   * analysis judges sources as written, and a spelling it refuses is refused here too.
   */
  accepts(value: string): boolean {
    // As written first: the URI registered, with no URL parsed.
    if (this.uris.has(value)) return true;
    if (!isResourceUriForm(value)) return false;
    return servedAs(resourceUri(value), (spelling) => this.uris.has(spelling) || this.byPrefix.matches(spelling));
  }

  /**
   * Whether a resource served here has the URI `uri`, whatever its form, or a template served here
   * has it as an instance: as written, or as the SDK reads it (resource-uri.ts).
   */
  serves(uri: ResourceUri): boolean {
    return servedAs(uri, (value) => this.uris.has(value) || this.others.has(value) || this.byPrefix.matches(value));
  }

  /** Whether a registration of `uri` (written, or as the SDK reads it) was withdrawn (disabled or removed), and none served here serves it now. */
  withdrew(uri: ResourceUri): boolean {
    return !this.serves(uri) && servedAs(uri, (value) => this.withdrawn.holds(value));
  }

  /**
   * The JSON Schema of one source, as `tools/list` publishes it: the URL rule's pattern, and the
   * schemes of the served URIs and templates (`^(?:memory|urn):`). A client's check may accept more
   * than the server sends, never less: so the published schema does not grow with the number of
   * resources (10,000 served URIs are one pattern, not a list every tool repeats), while the net
   * accepts exactly the served URIs. Past `PUBLISHED_SCHEMES` schemes, any scheme's. Each scheme in
   * either case (`^(?:[mM][eE][mM][oO][rR][yY]):`): the net takes `MEMORY://graph` for
   * `memory://graph`, as the SDK reads it (accepts), so a client's check must too — and a JSON
   * Schema pattern carries no `i` flag. The scheme is all the pattern says of a served URI, and the
   * only part of one that reading it changes the case of, so the pattern stays a superset.
   */
  sourceJsonSchema(description: string): Record<string, unknown> {
    const schemes = new Set<string>();
    // A template whose scheme is a variable (`{scheme}://…`) may have an instance of any scheme.
    let anyScheme = false;
    for (const uri of this.uris.keys()) schemes.add(schemeOf(uri).toLowerCase());
    for (const { text } of this.templates) {
      const scheme = schemeOf(text);
      if (scheme === "") anyScheme = true;
      // A template of an http(s) URL has no instance the net takes for a resource (isResourceUriForm).
      else if (!/^https?$/iu.test(scheme)) schemes.add(scheme.toLowerCase());
    }
    const anyOf: Record<string, unknown>[] = [{ pattern: SOURCE_URL_PATTERN, format: "uri" }];
    if (anyScheme || schemes.size > PUBLISHED_SCHEMES) anyOf.push({ pattern: `^${SCHEME_PATTERN}:` });
    else if (schemes.size > 0) anyOf.push({ pattern: `^(?:${[...schemes].sort().map(eitherCase).join("|")}):` });
    return { type: "string", description, anyOf };
  }

  /**
   * The net's words for a refused source: the URL rule's, then what this registry serves (the
   * nearest served URI), then advice for a path or a `file:` URL. That advice is to serve the file
   * as a resource; on a registry that serves `file:` resources already, the source is better one of
   * those, so it says so instead, and a path whose `file:` URL it serves is answered with that URL.
   */
  describe(value: unknown): string {
    const listed = [...this.uris.keys(), ...this.templates.map(({ text }) => text)];
    const shown = listed.slice(0, LISTED).join(", ") + (listed.length > LISTED ? `, and ${listed.length - LISTED} more` : "");
    const local = typeof value === "string" ? localDataAdvice(value) : "";
    const servesFiles = local !== "" && this.servesScheme("file");
    // A slip of a served URI (a long string, never one: its distance would cost too much).
    const nearest =
      (servesFiles ? this.servedFileUrlOf(value as string) : undefined) ?? (typeof value === "string" && value.length <= 200 ? closestMatch(value, [...this.uris.keys()]) : undefined);
    const served = `it is no URI of a resource this server serves (${shown})${nearest === undefined ? "" : `: did you mean ${JSON.stringify(nearest)}?`}`;
    return `${urlRuleProblem(value)}; ${served}${servesFiles ? SERVED_FILES_ADVICE : local}`;
  }

  /** Whether a URI or a template served here is of `scheme` (lowercase), in any case. */
  private servesScheme(scheme: string): boolean {
    const of = (uri: string): boolean => schemeOf(uri).toLowerCase() === scheme;
    return [...this.uris.keys()].some(of) || this.templates.some(({ text }) => of(text));
  }

  /**
   * The `file:` URL of an absolute path (`/srv/a.json`, `C:\data\a.db`), as the URL standard
   * writes it, when it is a source this registry accepts; `undefined` for anything else: a
   * relative path names no file a URL can without knowing the directory it was read from.
   */
  private servedFileUrlOf(path: string): string | undefined {
    if (!/^(?:\/(?!\/)|[A-Za-z]:[\\/])/u.test(path)) return undefined;
    const url = new URL("file:///");
    // Set as a path, `?` and `#` are escaped rather than read as a query or a fragment.
    url.pathname = path.startsWith("/") ? path : `/${path}`;
    return this.accepts(url.href) ? url.href : undefined;
  }
}

/** The advice for a path or a `file:` URL on a registry that serves `file:` resources: cite one of those, or serve this file too. */
const SERVED_FILES_ADVICE =
  ". A path or a file: URL is a source only as the URI of a file: resource this server serves: cite the one the data came from, as resources/list names it, " +
  'or serve this file too with registry.resource() (docs/registry.md, "Local data")';
