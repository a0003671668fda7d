/*
 * The one URL rule: which strings may stand as a source (and as the URI of a resource link or an
 * embedded resource). It is a single regular expression, published as the JSON Schema `pattern`
 * next to `format: "uri"`, and it is what the server checks — nothing else. The pattern accepts a
 * strict subset of what ajv-formats' `uri` accepts (the format every SDK client checks), so the
 * published schema accepts exactly what the pattern accepts, and the server and every client that
 * validates with the published schema never disagree. The analysis reads the same rule at build
 * time (`canNeverBeSource`): what it refuses, no registry accepts at run time.
 *
 * Accepted: `http://` or `https://` (lowercase), a host that is a domain name or a dotted IPv4
 * address, an optional port up to 65535, then path, query and fragment of RFC 3986 characters with
 * well-formed percent escapes. Refused rather than normalised: anything else — user information
 * (`user@host`, which disguises the host), backslashes, spaces, non-ASCII characters (hosts go in
 * punycode, `xn--…`; paths percent-encoded), `"<>` and the like, broken `%` escapes, IPv6 hosts.
 * What the server sends is exactly what the tool wrote.
 */

/** A label of a domain name: letters, digits, `_` and `-`, as the WHATWG host parser keeps them. */
const LABEL = "[A-Za-z0-9_-]+";
/** The last label must not read as a number, or the WHATWG parser would take the host for IPv4. */
const LAST_LABEL = "(?![0-9]+(?![A-Za-z0-9_-]))(?!0[xX][0-9A-Fa-f]*(?![A-Za-z0-9_-]))[A-Za-z0-9_-]+";
const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `(?:${OCTET}\\.){3}${OCTET}`;
const HOST = `(?:${IPV4}|(?:${LABEL}\\.)*${LAST_LABEL})`;
const PORT = "(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?";
/** RFC 3986 pchar: unreserved, sub-delims, `:` and `@`, or a percent escape. */
const PCHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})";
const QUERY_CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})";

/** The rule as JSON Schema `pattern` source (read with the `u` flag, as ajv reads patterns). */
export const SOURCE_URL_PATTERN = `^https?://${HOST}${PORT}(?:/${PCHAR}*)*(?:\\?${QUERY_CHAR}*)?(?:#${QUERY_CHAR}*)?$`;

// Stryker disable next-line StringLiteral: the pattern matches ASCII only, so it reads the same with or without `u`.
export const SOURCE_URL_REGEX = new RegExp(SOURCE_URL_PATTERN, "u");

/**
 * What `tools/list` publishes for a source in every tool's `outputSchema` (the registry's
 * published-schema.ts): a
 * superset of the rule in 45 characters instead of 600 — http(s), then RFC 3986's characters and
 * `%` — so a client's check never refuses what the server sends, and 1,000 tools do not repeat
 * the whole rule 1,000 times. The net checks the rule itself; the contract's own JSON Schema
 * (`structuredContentSchema`) carries it whole.
 */
export const PUBLISHED_SOURCE_URL_PATTERN = "^https?://[A-Za-z0-9._~!$&'()*+,;=:@%/?#-]+$";

/** Whether `value` is accepted as a source URL. */
export function isSourceUrl(value: unknown): value is string {
  return typeof value === "string" && SOURCE_URL_REGEX.test(value);
}

const RULE = "must be an absolute http: or https: URL";
/** How much of a refused URL a message quotes. */
const QUOTE_LIMIT = 120;

function codePointName(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return char === " " ? "a space" : `U+${hex}`;
}

/** Why `value` is refused, for a message: the first thing that breaks the rule. */
function reason(value: string): string | undefined {
  if (!/^https?:/u.test(value)) {
    if (/^https?:/iu.test(value)) return "the scheme must be written in lowercase";
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/u.exec(value)?.[1];
    return scheme === undefined ? "it has no scheme (a relative or bare address)" : `its scheme is ${JSON.stringify(scheme)}`;
  }
  if (!/^https?:\/\//u.test(value)) return "the scheme must be followed by //";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0x7e || code < 0x21) {
      return `it contains ${codePointName(char)}${code > 0x7e ? ": percent-encode it, and write a host in punycode, xn--…" : ""}`;
    }
    if (`"<>\\^\`{|}`.includes(char)) return `it contains ${JSON.stringify(char)}`;
  }
  const badEscape = /%(?![0-9A-Fa-f]{2})/u.exec(value);
  if (badEscape) return `it contains a "%" not followed by two hex digits (at ${badEscape.index})`;
  // Stryker disable next-line OptionalChaining,StringLiteral: `value` passed the check just above, so this always matches.
  const authority = /^https?:\/\/([^/?#]*)/u.exec(value)?.[1] ?? "";
  if (authority.includes("@")) return "it has user information before the host (user@host), which disguises the host";
  const host = authority.replace(/:[0-9]*$/u, "");
  if (host === "") return "it has no host";
  if (!new RegExp(`^${HOST}$`, "u").test(host)) return `its host ${JSON.stringify(host)} is not a domain name or an IPv4 address`;
  if (!new RegExp(`^${PORT}$`, "u").test(authority.slice(host.length))) return "its port is not a number from 0 to 65535";
  return undefined;
}

function quote(value: string): string {
  return JSON.stringify(value.length > QUOTE_LIMIT ? `${value.slice(0, QUOTE_LIMIT)}…` : value);
}

/**
 * The message for a refused source: the rule, what breaks it, and — when the WHATWG serialisation
 * of the same address passes — the form to write instead.
 */
export function describeSourceUrlProblem(value: unknown): string {
  if (typeof value !== "string") return urlRuleProblem(value);
  const advice = localDataAdvice(value);
  return `${urlRuleProblem(value)}${advice === "" && isResourceUriForm(value) ? RESOURCE_ADVICE : advice}`;
}

/** For an absolute URI of another scheme, on a registry that serves no resource with it. */
const RESOURCE_ADVICE = "; the URI of a resource this server serves may stand as a source: serve the data with registry.resource() (docs/registry.md, \"Local data\")";

/** The URL rule's words alone: what breaks it, and the form to write when the WHATWG serialisation passes. */
export function urlRuleProblem(value: unknown): string {
  if (typeof value !== "string") return `${RULE}, got ${value === null ? "null" : typeof value}`;
  const why = reason(value);
  let suggestion = "";
  try {
    const href = new URL(value).href;
    if (href !== value && isSourceUrl(href)) suggestion = `; write ${quote(href)}`;
  } catch {
    // Not a URL at all: nothing to suggest.
  }
  return `${RULE}${why === undefined ? "" : ` (${why})`}${suggestion}`;
}

/** A scheme (RFC 3986): a letter, then letters, digits, `+`, `-` or `.`, then `:`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/u;
/** What an absolute URI of any scheme may hold: RFC 3986's characters and well-formed escapes. */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/u;

/**
 * Schemes a browser runs or renders itself (`javascript:alert(1)`, `data:text/html,…`): a source
 * shown in a host is never one of them, even on a registry that happens to serve such a URI, so
 * no link or resource button is ever made of one. The data view keeps the same list.
 */
const BROWSER_SCHEME = /^(?:javascript|vbscript|data|blob|about):/iu;

/**
 * Whether `value` may stand as a source as the URI of a resource the registry serves: an absolute
 * URI of a scheme other than http(s) and the browser's own (`memory://graph`, `urn:…`,
 * `file:///…`), of RFC 3986 characters only. An http(s) URL is the URL rule's alone, so a misspelt one is never taken for a
 * resource.
 */
export function isResourceUriForm(value: string): boolean {
  return SCHEME.test(value) && !/^https?:/iu.test(value) && !BROWSER_SCHEME.test(value) && URI_CHARACTERS.test(value);
}

/**
 * Whether no rule can accept `value` as a source, now or when a source may also be the URI of a
 * resource the registry serves: it fails the URL rule, and it is no absolute URI of another
 * scheme (`file:`, `memory:`, `urn:` are left to the net, which knows the resources). Relative
 * paths, bare hosts, a misspelt `http(s)` URL, a space or a backslash anywhere are never sources.
 * The analysis reports these at build time.
 */
export function canNeverBeSource(value: string): boolean {
  return !isSourceUrl(value) && !isResourceUriForm(value);
}

/**
 * Whether `value` may be the URI of what a resource read or a prompt carries (a read's contents, an
 * embedded resource, a resource link): an absolute URI — a scheme, then anything — of a scheme other
 * than the browser's own, so a host never makes a link or a button of `javascript:alert(1)` a
 * server answered. Looser than a source (any scheme, any characters): these name what was read,
 * which the SDK already parsed as a URL.
 */
export function isContentsUri(value: string): boolean {
  return SCHEME.test(value) && !BROWSER_SCHEME.test(value);
}

/** Why `value` is no contents URI (isContentsUri), for the net's messages. */
export function contentsUriProblem(value: unknown): string {
  if (typeof value !== "string") return `must be a string, not ${value === null ? "null" : typeof value}`;
  if (BROWSER_SCHEME.test(value)) {
    return `is a URI a browser runs or renders itself (${value.slice(0, value.indexOf(":") + 1).toLowerCase()}), which no contents may name: name what was read, e.g. "memory://graph"`;
  }
  return 'must be an absolute URI (a scheme, then the rest: "memory://graph", "https://example.org/data")';
}

/** A bare file name of a common data format (`cities.csv`); a bare host (`example.org`) is none. */
const DATA_FILE = /^[^/:]+\.(?:json|jsonl|ndjson|csv|tsv|txt|md|xml|ya?ml|db|sqlite3?|parquet|xlsx?|pdf|html?)$/iu;
/** A Windows path (`C:\data`, `C:/data`): its drive letter reads as a scheme. */
const DRIVE_PATH = /^[A-Za-z]:[\\/]/u;

/**
 * Advice for a source that names local data: a `file:` URL or a path is no link a client can
 * open, so the data is served as a resource and its URI cited. Empty for anything else.
 */
export function localDataAdvice(value: string): string {
  const fileUrl = /^file:/iu.test(value);
  const path = !fileUrl && (DRIVE_PATH.test(value) || (!SCHEME.test(value) && (/^[./~\\]/u.test(value) || DATA_FILE.test(value))));
  if (!fileUrl && !path) return "";
  const name = (value.split(/[\\/]/u).pop() ?? "").replace(/[^A-Za-z0-9._~-]/gu, "") || "data.json";
  const uri = `local://${name}`;
  // A database, a spreadsheet, an image: its bytes are no UTF-8 text, so it is served as a blob.
  const binary = BINARY_DATA.exec(name);
  const read =
    binary === null
      ? `{}, () => ({ contents: [{ uri: ${JSON.stringify(uri)}, text: readFileSync(file, "utf8") }] })`
      : ((mimeType: string) => `{ mimeType: ${JSON.stringify(mimeType)} }, () => ({ contents: [{ uri: ${JSON.stringify(uri)}, mimeType: ${JSON.stringify(mimeType)}, blob: readFileSync(file).toString("base64") }] })`)(
          BINARY_MIME_TYPES[binary[1]!.toLowerCase()] ?? "application/octet-stream",
        );
  return (
    `. A path or a file: URL is no link a client can open: for local data, serve the file as a resource and cite the resource's URI, ` +
    `registry.resource(${JSON.stringify(name)}, ${JSON.stringify(uri)}, ${read}) ` +
    `and sources: [${JSON.stringify(uri)}] (docs/registry.md, "Local data")`
  );
}

/** A file name of binary data (a SQLite database, a spreadsheet, a PDF, an image, an archive): served as a base64 blob, not as text. */
const BINARY_DATA = /\.(sqlite3?|db3?|duckdb|parquet|arrow|feather|avro|xlsx?|ods|pdf|png|jpe?g|gif|webp|zip|gz|tgz)$/iu;
const BINARY_MIME_TYPES: Readonly<Record<string, string>> = {
  sqlite: "application/vnd.sqlite3",
  sqlite3: "application/vnd.sqlite3",
  db: "application/vnd.sqlite3",
  db3: "application/vnd.sqlite3",
  parquet: "application/vnd.apache.parquet",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xls: "application/vnd.ms-excel",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  zip: "application/zip",
  gz: "application/gzip",
  tgz: "application/gzip",
};

/** What the rule accepts after the host: RFC 3986 characters, `/`, `?`, the first `#`, and well-formed escapes. */
const AFTER_HOST_CHAR = /[A-Za-z0-9._~!$&'()*+,;=:@/?-]/u;

/**
 * A URL from upstream data (a search API's `url`, a record's link) as the rule accepts it, or
 * `undefined` when nothing honest can be made of it. A string the rule accepts is returned as it
 * is. Any other is read as a WHATWG parser (a browser) reads it — the host lowercased and in
 * punycode, spaces and non-ASCII characters percent-encoded — and then every character the rule
 * refuses after the host (`|`, `^`, `[`, `]`, a second `#`, a stray `%`) is percent-encoded too:
 * the same address, in the form the net accepts. `undefined` for what names no http(s) resource or
 * would change it: no URL at all, another scheme (`file:`, `javascript:`), user information
 * (`user@host`, which disguises the host), an IPv6 host, a host the rule refuses.
 */
export function toSourceUrl(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  if (SOURCE_URL_REGEX.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "") return undefined;
  const origin = `${url.protocol}//${url.host}`;
  let rest = "";
  let fragment = false;
  for (const char of url.href.slice(origin.length)) {
    if (char === "#" && !fragment) {
      fragment = true;
      rest += char;
    } else {
      rest += char === "%" || AFTER_HOST_CHAR.test(char) ? char : encodeURIComponent(char);
    }
  }
  // A `%` that starts no escape stands for itself.
  const candidate = origin + rest.replace(/%(?![0-9A-Fa-f]{2})/gu, "%25");
  return isSourceUrl(candidate) ? candidate : undefined;
}
