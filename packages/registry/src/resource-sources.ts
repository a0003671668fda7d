import type { ResourceTemplate } from "@modelcontextprotocol/server";
import { closestMatch, isResourceUriForm, localDataAdvice, SOURCE_URL_PATTERN, urlRuleProblem } from "@sourced/contract-rules";

/*
 * The resources a registry serves, as sources: data a tool read from a local file, a database or
 * memory has no http(s) URL, but the registry can serve it (`registry.resource()`), and then the
 * resource's URI is an honest source — a client reads it with `resources/read`, the data view opens
 * it. The net accepts a source that is an accepted http(s) URL or the URI of one of these (a
 * template's instances too), and `tools/list` publishes the same in each tool's `outputSchema`.
 */

/** How many served URIs a refusal lists. */
const LISTED = 5;

export class ServedResources {
  private readonly uris = new Set<string>();
  private readonly templates: { readonly text: string; readonly template: ResourceTemplate }[] = [];

  /** A resource's URI, or its template: only one that may stand as a source (isResourceUriForm) is taken. */
  add(uri: string | ResourceTemplate): void {
    if (typeof uri === "string") {
      if (isResourceUriForm(uri)) this.uris.add(uri);
    } else {
      this.templates.push({ text: uri.uriTemplate.toString(), template: uri });
    }
  }

  get empty(): boolean {
    return this.uris.size === 0 && this.templates.length === 0;
  }

  /** Whether `value` is the URI of a resource served here, or an instance of a template served here. */
  accepts(value: string): boolean {
    if (this.uris.has(value)) return true;
    if (!isResourceUriForm(value) || this.templates.length === 0) return false;
    return this.templates.some(({ template }) => {
      try {
        return template.uriTemplate.match(value) !== null;
      } catch {
        return false; // a URI too long for the SDK's matcher is no instance
      }
    });
  }

  /**
   * The JSON Schema of one source, as `tools/list` publishes it: the URL rule's pattern, the served
   * URIs, and for each template its fixed start (a client's check may accept more instances than
   * the template matches, never fewer, so it never refuses what the server sends).
   */
  sourceJsonSchema(description: string): Record<string, unknown> {
    const anyOf: Record<string, unknown>[] = [{ pattern: SOURCE_URL_PATTERN, format: "uri" }];
    if (this.uris.size > 0) anyOf.push({ enum: [...this.uris] });
    for (const { text } of this.templates) {
      const start = text.slice(0, text.search(/\{|$/u));
      anyOf.push({ pattern: `^${start.replace(/[.*+?^${}()|[\]\\/]/gu, "\\$&")}` });
    }
    return { type: "string", description, anyOf };
  }

  /** The net's words for a refused source: the URL rule's, then what this registry serves (the nearest served URI), then advice for a path. */
  describe(value: unknown): string {
    const listed = [...this.uris, ...this.templates.map(({ text }) => text)];
    const shown = listed.slice(0, LISTED).join(", ") + (listed.length > LISTED ? `, and ${listed.length - LISTED} more` : "");
    // A slip of a served URI (a long string, never one: its distance would cost too much).
    const nearest = typeof value === "string" && value.length <= 200 ? closestMatch(value, [...this.uris]) : undefined;
    const served = `it is no URI of a resource this server serves (${shown})${nearest === undefined ? "" : `: did you mean ${JSON.stringify(nearest)}?`}`;
    return `${urlRuleProblem(value)}; ${served}${typeof value === "string" ? localDataAdvice(value) : ""}`;
  }
}
