import type { ResourceTemplate } from "@modelcontextprotocol/server";

/*
 * A resource's URI as a subscription names it. The SDK's `McpServer` answers `resources/read` of
 * the URI `new URL(uri).toString()`: the scheme and an http(s) host lowercased, a default port and
 * `.` and `..` segments dropped, an empty http(s) path made `/`, characters percent-encoded where
 * the URL standard does. It looks that up among its static resources (registered URIs as written)
 * and matches it against its templates. A client that reads `HTTPS://Example.org:443/a` reads
 * `https://example.org/a`; so it subscribes to that resource, and is told of it, whichever way it
 * or the author writes it. A URI `new URL()` cannot parse is compared as written.
 */

/** A URI as written (by a client or the author) and as the SDK reads it; computed once per request. */
export interface ResourceUri {
  readonly written: string;
  /** `new URL(written).toString()`, as the SDK's read handler looks it up; `written` when it cannot parse it. */
  readonly read: string;
}

export function resourceUri(written: string): ResourceUri {
  let read: string;
  try {
    read = new URL(written).toString();
  } catch {
    read = written;
  }
  return { written, read };
}

/**
 * Whether `uri` is `served` (a registered URI, or a template's instance) as written, or as the SDK
 * reads it: written, it keeps what a subscription always matched (a URI registered in a spelling
 * the SDK itself does not look up); read, what the client can read.
 */
export function servedAs(uri: ResourceUri, served: (value: string) => boolean): boolean {
  return served(uri.written) || (uri.read !== uri.written && served(uri.read));
}

/** The scheme a URI or a template's literal prefix starts with (`Memory` of `Memory://graph`); none when it starts with no scheme and `:`. */
const LEADING_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/u;

/**
 * Why a resource registered at `uri` could never be read, or `undefined`: the SDK keeps a static
 * resource under its URI as written, and looks every `resources/read` up as `new URL(uri).toString()`
 * (resource-uri.ts, above). A URI that is not already that spelling (`Memory://graph`,
 * `memory://graph/./x`, `file://localhost/srv/a.json`) is found by no read, whichever spelling the
 * client asks for: the read of `memory://graph` looks up `memory://graph`, and so does the read of
 * `Memory://graph`. `new URL()` gives back its own output unchanged, so the normalised spelling is
 * the one to register, and it answers both. A URI `new URL()` cannot parse is the SDK's to take as it is.
 */
export function unreadableUriProblem(uri: string): string | undefined {
  let read: string;
  try {
    read = new URL(uri).toString();
  } catch {
    return undefined;
  }
  if (read === uri) return undefined;
  return (
    `no client can ever read the resource at ${JSON.stringify(uri)}: the SDK keeps it under that URI as written, but looks every resources/read up ` +
    `as new URL(uri).toString(), ${JSON.stringify(read)}, so a read of either spelling finds nothing. Register it as ${JSON.stringify(read)}, ` +
    "which a client reads in either spelling."
  );
}

/**
 * The text of `template`'s URI template when it is the SDK's own `UriTemplate`, of either of its
 * builds (an ES module importing the SDK gets another copy of the class than the registry's
 * CommonJS build requires): only its matching is known, a pattern of its literal parts as written.
 */
function sdkTemplateText(template: ResourceTemplate): string | undefined {
  const uriTemplate = template.uriTemplate as unknown as object;
  const own = (member: string): boolean => Object.hasOwn(uriTemplate, member);
  if ((Object.getPrototypeOf(uriTemplate) as { constructor?: { name?: unknown } } | null)?.constructor?.name !== "UriTemplate" || own("match") || own("toString")) return undefined;
  const text: unknown = template.uriTemplate.toString();
  return typeof text === "string" ? text : undefined;
}

/**
 * Why a template of the SDK's could never match a read, or `undefined` when it may. Only one case
 * is certain whatever its variables hold: a literal prefix (the text before the first `{`) that
 * starts with a scheme written with a capital letter. `new URL()` lowercases every scheme, and the
 * SDK matches a template against `new URL(uri).toString()` with a case-sensitive pattern that
 * starts with that prefix as written. Dot segments, a `file://localhost/` or an http(s) host in
 * capitals in a prefix may or may not survive `new URL()` depending on what follows them in an
 * instance, so they are left to the SDK.
 */
export function unreadableTemplateProblem(template: ResourceTemplate): string | undefined {
  const text = sdkTemplateText(template);
  if (text === undefined) return undefined;
  const brace = text.indexOf("{");
  const scheme = LEADING_SCHEME.exec(brace < 0 ? text : text.slice(0, brace))?.[1];
  if (scheme === undefined || scheme === scheme.toLowerCase()) return undefined;
  const lowered = `${scheme.toLowerCase()}${text.slice(scheme.length)}`;
  return (
    `no client can ever read an instance of the template ${JSON.stringify(text)}: the SDK matches every resources/read against ` +
    `new URL(uri).toString(), whose scheme is always lowercase, and the template's scheme ${JSON.stringify(scheme)} is not. ` +
    `Write the scheme in lowercase, ${JSON.stringify(lowered)}, which a client reads in either spelling.`
  );
}
