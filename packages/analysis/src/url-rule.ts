/*
 * The run time's URL rule for sources (the registry's `url-rule.ts`), copied for the same reason
 * as the tool-name rule (see `tool-name.ts`) and pinned equal to it by a test: which strings the
 * net accepts as a source, and the words (and the fix) it answers a refused one with.
 */

const LABEL = "[A-Za-z0-9_-]+";
const LAST_LABEL = "(?![0-9]+(?![A-Za-z0-9_-]))(?!0[xX][0-9A-Fa-f]*(?![A-Za-z0-9_-]))[A-Za-z0-9_-]+";
const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `(?:${OCTET}\\.){3}${OCTET}`;
const HOST = `(?:${IPV4}|(?:${LABEL}\\.)*${LAST_LABEL})`;
const PORT = "(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?";
const PCHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})";
const QUERY_CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})";

/** The rule as the registry publishes it (JSON Schema `pattern`, read with the `u` flag). */
export const SOURCE_URL_PATTERN = `^https?://${HOST}${PORT}(?:/${PCHAR}*)*(?:\\?${QUERY_CHAR}*)?(?:#${QUERY_CHAR}*)?$`;

const SOURCE_URL_REGEX = new RegExp(SOURCE_URL_PATTERN, "u");

/** Whether the net accepts `value` as a source URL. */
export function isSourceUrl(value: string): boolean {
  return SOURCE_URL_REGEX.test(value);
}

const RULE = "must be an absolute http: or https: URL";
const QUOTE_LIMIT = 120;

function codePointName(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return char === " " ? "a space" : `U+${hex}`;
}

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

/** The net's message for a refused source: the rule, what breaks it, and the form to write when the WHATWG serialisation passes. */
export function describeSourceUrlProblem(value: string): string {
  const why = reason(value);
  let suggestion = "";
  try {
    const href = new URL(value).href;
    if (href !== value && isSourceUrl(href)) suggestion = `; write ${quote(href)}`;
  } catch {
    // Not a URL at all: nothing to suggest.
  }
  const advice = localDataAdvice(value);
  return `${RULE}${why === undefined ? "" : ` (${why})`}${suggestion}${advice === "" && !canNeverBeSource(value) && !isSourceUrl(value) ? RESOURCE_ADVICE : advice}`;
}

/** For an absolute URI of another scheme, on a registry that serves no resource with it. */
const RESOURCE_ADVICE = "; the URI of a resource this server serves may stand as a source: serve the data with registry.resource() (docs/registry.md, \"Local data\")";

/** A bare file name of a common data format (`cities.csv`); a bare host (`example.org`) is none. */
const DATA_FILE = /^[^/:]+\.(?:json|jsonl|ndjson|csv|tsv|txt|md|xml|ya?ml|db|sqlite3?|parquet|xlsx?|pdf|html?)$/iu;
/** A Windows path (`C:\data`, `C:/data`): its drive letter reads as a scheme. */
const DRIVE_PATH = /^[A-Za-z]:[\\/]/u;

/** The net's advice for a path or a `file:` URL: serve the file as a resource and cite its URI. */
function localDataAdvice(value: string): string {
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

/** A scheme (RFC 3986): a letter, then letters, digits, `+`, `-` or `.`, then `:`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/u;
/** What an absolute URI of any scheme may hold: RFC 3986's characters and well-formed escapes. */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/u;

/** Schemes a browser runs or renders itself: never a source, served or not (the registry's url-rule.ts). */
const BROWSER_SCHEME = /^(?:javascript|vbscript|data|blob|about):/iu;

/**
 * Whether no rule can accept `value` as a source, now or when a source may also be the URI of a
 * resource the registry serves: it fails the URL rule, and it is no absolute URI of another
 * scheme (`file:`, `memory:`, `urn:` are left to the net, which knows the resources). Relative
 * paths, bare hosts, a misspelt `http(s)` URL, a space or a backslash anywhere are never sources.
 */
export function canNeverBeSource(value: string): boolean {
  if (isSourceUrl(value)) return false;
  if (!SCHEME.test(value) || /^https?:/iu.test(value) || BROWSER_SCHEME.test(value)) return true;
  return !URI_CHARACTERS.test(value);
}
