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
