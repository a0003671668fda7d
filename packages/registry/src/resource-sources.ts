import type { ResourceTemplate } from "@modelcontextprotocol/server";
import { closestMatch, isResourceUriForm, localDataAdvice, SOURCE_URL_PATTERN, urlRuleProblem } from "@sourced/contract-rules";
import { templatePrefix } from "./template-index.js";

/*
 * The resources a registry serves, as sources: data a tool read from a local file, a database or
 * memory has no http(s) URL, but the registry can serve it (`registry.resource()`), and then the
 * resource's URI is an honest source — a client reads it with `resources/read`, the data view opens
 * it. The net accepts a source that is an accepted http(s) URL or the URI of one of these (a
 * template's instances too), and `tools/list` publishes the same in each tool's `outputSchema`.
 */

/** How many served URIs a refusal lists. */
const LISTED = 5;

/** How many schemes the published schema of a source names one by one (sourceJsonSchema); past that, any scheme. */
const PUBLISHED_SCHEMES = 16;
/** An RFC 3986 scheme, as a pattern. */
const SCHEME_PATTERN = "[A-Za-z][A-Za-z0-9+.-]*";

const SCHEME = new RegExp(`^${SCHEME_PATTERN}(?=:)`, "u");

/** The scheme of a URI or a template, as written (`memory`); `""` when it starts with none. */
function schemeOf(uri: string): string {
  return SCHEME.exec(uri)?.[0] ?? "";
}

/**
 * One registration's URI or template as a source, while it is offered: `offered(false)` when its
 * handle disables or removes it, `offered(true)` when it enables it again. A resource no longer
 * offered is one a client can no longer read, so it says where data came from no better than a URI
 * never served, and is refused as one.
 */
export interface ServedSource {
  offered(offered: boolean): void;
}

/** A template served, one per registration: two registrations of the same template are two entries, and removing one leaves the other. */
interface TemplateEntry {
  readonly text: string;
  readonly template: ResourceTemplate;
  readonly prefix: string;
}

export class ServedResources {
  /** The URIs served, each with how many offered registrations hold it. */
  private readonly uris = new Map<string, number>();
  private readonly templates: TemplateEntry[] = [];
  /**
   * The templates by their literal prefix's length, then by prefix (template-index.ts): a template
   * matches only a URI its prefix starts, so a source is matched against those alone, not against
   * every template served — each match builds and runs the template's pattern.
   */
  private readonly byPrefix = new Map<number, Map<string, TemplateEntry[]>>();
  /** The prefixes' lengths present, ascending. */
  private lengths: number[] = [];

  /**
   * A resource's URI, or its template, registered: only one that may stand as a source
   * (isResourceUriForm) is taken; the handle follows its registration's `enable()`, `disable()`
   * and `remove()`.
   */
  add(uri: string | ResourceTemplate): ServedSource | undefined {
    if (typeof uri === "string") {
      if (!isResourceUriForm(uri)) return undefined;
      return this.follow(
        () => this.uris.set(uri, (this.uris.get(uri) ?? 0) + 1),
        () => {
          const held = (this.uris.get(uri) ?? 0) - 1;
          if (held > 0) this.uris.set(uri, held);
          else this.uris.delete(uri);
        },
      );
    }
    const entry: TemplateEntry = { text: uri.uriTemplate.toString(), template: uri, prefix: templatePrefix(uri) };
    return this.follow(
      () => this.place(entry),
      () => this.unplace(entry),
    );
  }

  /** Takes a registration in (`take`) now and whenever it is offered again; lets it go (`release`) whenever it is not. */
  private follow(take: () => void, release: () => void): ServedSource {
    let offered = true;
    take();
    return {
      offered: (now) => {
        if (now === offered) return;
        offered = now;
        if (now) take();
        else release();
      },
    };
  }

  private place(entry: TemplateEntry): void {
    this.templates.push(entry);
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

  private unplace(entry: TemplateEntry): void {
    this.templates.splice(this.templates.indexOf(entry), 1);
    const { prefix } = entry;
    const prefixes = this.byPrefix.get(prefix.length);
    const entries = prefixes?.get(prefix);
    if (prefixes === undefined || entries === undefined) return;
    entries.splice(entries.indexOf(entry), 1);
    if (entries.length > 0) return;
    prefixes.delete(prefix);
    if (prefixes.size > 0) return;
    this.byPrefix.delete(prefix.length);
    this.lengths = [...this.byPrefix.keys()].sort((a, b) => a - b);
  }

  get empty(): boolean {
    return this.uris.size === 0 && this.templates.length === 0;
  }

  /** Whether `value` is the URI of a resource served here, or an instance of a template served here. */
  accepts(value: string): boolean {
    if (this.uris.has(value)) return true;
    if (!isResourceUriForm(value) || this.templates.length === 0) return false;
    for (const length of this.lengths) {
      if (length > value.length) break;
      const entries = this.byPrefix.get(length)?.get(value.slice(0, length));
      if (entries?.some(({ template }) => matches(template, value)) === true) return true;
    }
    return false;
  }

  /**
   * The JSON Schema of one source, as `tools/list` publishes it: the URL rule's pattern, and the
   * schemes of the served URIs and templates (`^(?:memory|urn):`). A client's check may accept more
   * than the server sends, never less: so the published schema does not grow with the number of
   * resources (10,000 served URIs are one pattern, not a list every tool repeats), while the net
   * accepts exactly the served URIs. Past `PUBLISHED_SCHEMES` schemes, any scheme's.
   */
  sourceJsonSchema(description: string): Record<string, unknown> {
    const schemes = new Set<string>();
    // A template whose scheme is a variable (`{scheme}://…`) may have an instance of any scheme.
    let anyScheme = false;
    for (const uri of this.uris.keys()) schemes.add(schemeOf(uri));
    for (const { text } of this.templates) {
      const scheme = schemeOf(text);
      if (scheme === "") anyScheme = true;
      // A template of an http(s) URL has no instance the net takes for a resource (isResourceUriForm).
      else if (!/^https?$/iu.test(scheme)) schemes.add(scheme);
    }
    const anyOf: Record<string, unknown>[] = [{ pattern: SOURCE_URL_PATTERN, format: "uri" }];
    if (anyScheme || schemes.size > PUBLISHED_SCHEMES) anyOf.push({ pattern: `^${SCHEME_PATTERN}:` });
    else if (schemes.size > 0) anyOf.push({ pattern: `^(?:${[...schemes].sort().map((scheme) => scheme.replace(/[.+]/gu, "\\$&")).join("|")}):` });
    return { type: "string", description, anyOf };
  }

  /** The net's words for a refused source: the URL rule's, then what this registry serves (the nearest served URI), then advice for a path. */
  describe(value: unknown): string {
    const listed = [...this.uris.keys(), ...this.templates.map(({ text }) => text)];
    const shown = listed.slice(0, LISTED).join(", ") + (listed.length > LISTED ? `, and ${listed.length - LISTED} more` : "");
    // A slip of a served URI (a long string, never one: its distance would cost too much).
    const nearest = typeof value === "string" && value.length <= 200 ? closestMatch(value, [...this.uris.keys()]) : undefined;
    const served = `it is no URI of a resource this server serves (${shown})${nearest === undefined ? "" : `: did you mean ${JSON.stringify(nearest)}?`}`;
    return `${urlRuleProblem(value)}; ${served}${typeof value === "string" ? localDataAdvice(value) : ""}`;
  }
}

/** Whether `value` is an instance of `template`. */
function matches(template: ResourceTemplate, value: string): boolean {
  try {
    return template.uriTemplate.match(value) !== null;
  } catch {
    return false; // a URI too long for the SDK's matcher is no instance
  }
}
