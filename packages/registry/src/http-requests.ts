import type { IncomingMessage, ServerResponse } from "node:http";
import { hostname as machineName, networkInterfaces } from "node:os";

/*
 * The requests serveHttp reads before the SDK sees them: which hosts and origins are its own, the
 * request's path, its body (read within a limit) and how deep its JSON nests, and the plain
 * JSON-RPC errors it answers a refused request with.
 */

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/**
 * A host as a URL's hostname spells it — the form a `Host` header's name is compared in: lowercase,
 * IPv6 in brackets and compressed (`0:0:0:0:0:0:0:1` is `[::1]`), IPv4 in four decimals.
 */
export function normalizeHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const bracketed = bare.includes(":") ? `[${bare}]` : bare;
  try {
    return new URL(`http://${bracketed}`).hostname;
  } catch {
    return bracketed.toLowerCase();
  }
}

export function isLoopback(host: string): boolean {
  const name = normalizeHost(host);
  return name === "localhost" || name === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

function isWildcard(host: string): boolean {
  return ["0.0.0.0", "[::]", ""].includes(normalizeHost(host));
}

/** The host names a client reaching `host` puts in its `Host` header. */
export function hostsOfBindAddress(host: string): string[] {
  if (isWildcard(host)) {
    const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => normalizeHost(entry.address)));
    return [...new Set([...LOOPBACK_NAMES, machineName().toLowerCase(), ...addresses])];
  }
  const name = normalizeHost(host);
  return isLoopback(name) ? [...new Set([name, "localhost"])] : [name];
}

export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}

/** The path of a request target; `undefined` for one no URL parser reads (`//[`, say). */
export function pathnameOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? "/", "http://localhost").pathname;
  } catch {
    return undefined;
  }
}

/** Whether `origin` (an `Origin` header) is allowed: `null` and unparsable values never are. */
export function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return allowed.has(url.origin) || allowed.has(url.hostname);
}

export function normalizeOrigin(entry: string): string {
  if (!entry.includes("://")) return normalizeHost(entry);
  try {
    return new URL(entry).origin;
  } catch {
    throw new TypeError(`serveHttp: allowedOrigins entry ${JSON.stringify(entry)} is not an origin; write "https://app.example.com" or a host name.`);
  }
}

/**
 * An SDK answer that ends its connection. The SDK names `Connection: keep-alive` on an event
 * stream, which would override a `connection` header set on the Node response beforehand.
 */
export function withConnectionClose(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("connection", "close");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function sendError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}

/** Whether JSON text nests objects and arrays deeper than `max` (strings skipped); never recurses. */
export function nestsDeeperThan(json: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const byte = json[index];
    if (inString) {
      if (byte === 0x5c) index++; // a backslash escapes the next byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > max) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

/** The method and id of a JSON-RPC request body; `undefined` for anything else (a batch, say). */
export function requestOf(body: unknown): { method: string; id: string | number | null } | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (typeof method !== "string") return undefined;
  return { method, id: typeof id === "string" || Number.isInteger(id) ? (id as string | number) : null };
}

/** Why a body could not be read: too large (413) or cut off (the client went away). */
export class BodyError extends Error {
  constructor(readonly status: 413 | 400, message: string) {
    super(message);
  }
}

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: BodyError): void => {
      req.off("data", onData);
      req.resume(); // drain what is left without keeping it
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) fail(new BodyError(413, `Payload too large: the request body exceeds ${maxBytes} bytes`));
      else chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks, size)));
    req.once("aborted", () => fail(new BodyError(400, "The request body was cut off")));
    req.once("error", (error) => fail(new BodyError(400, error.message)));
  });
}
