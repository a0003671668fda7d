import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { HttpSessionOptions } from "./sessions.js";

/*
 * What serveHttp takes and gives back, as its users read it: the options (limits, allowlists,
 * authentication, sessions) with their defaults in words, and the running server. Apart from
 * http.ts, which serves by them, so that the serving reads as one piece and the public words as
 * another; the default values themselves stay with the serving that applies them.
 */

/** What `authenticate` is given: the request's method, URL and headers. */
export type AuthenticationRequest = Pick<IncomingMessage, "method" | "url" | "headers">;

/** Limits of `serveHttp`; every one has a default. */
export interface HttpLimits {
  /** Largest request body, in bytes: a larger one is answered 413 before it is parsed. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Requests handled at once: one more is answered 503 (with `Retry-After`) before its body is
   * read. `subscriptions/listen` streams do not count: they have `maxListenStreams`. Default 1,024.
   */
  maxConcurrentRequests?: number;
  /** `subscriptions/listen` streams (and sessions' GET streams) open at once: one more is answered 503 (with `Retry-After`). Default 1,024. */
  maxListenStreams?: number;
  /**
   * How long a `subscriptions/listen` stream stays open without carrying a notification, in ms:
   * then it ends gracefully (the listen request's result) and frees its slot. A registry's lists
   * do not change while it serves, so its streams never carry one. Default 5 minutes.
   */
  listenIdleTimeoutMs?: number;
  /**
   * How long an answer may wait on a client that does not read it — the connection's buffers full,
   * nothing drained — in ms: then the connection is closed and its slot freed. Default 30 s.
   */
  sendTimeoutMs?: number;
  /** Deepest nesting of objects and arrays in a request's JSON: a deeper one is answered 400 (-32600) and logged. Default 128. */
  maxJsonDepth?: number;
  /** Time to receive a request's headers, in ms: a slower client gets 408. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request (headers and body), in ms: a slower client gets 408. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive socket stays open, in ms. Default 65 s: longer than clients keep
   * an idle socket (they close theirs first, from the `Keep-Alive: timeout` hint), so a reused
   * socket is never reset under a request.
   */
  keepAliveTimeoutMs?: number;
}

export interface HttpServeOptions {
  /** Defaults to `127.0.0.1`: a local server is not reachable from the network unless you say so. */
  host?: string;
  /** Defaults to `0`: an ephemeral port, reported in `HttpServing.port`. */
  port?: number;
  /** The MCP endpoint. Defaults to `/mcp`. */
  path?: string;
  /**
   * Host names (without port; IPv6 in brackets) a request's `Host` header may name; any other is
   * answered 403 (DNS rebinding). Defaults to the names of the bind address: the address itself,
   * `localhost` for a loopback address, and every address and the name of this machine for a
   * wildcard (`0.0.0.0`, `::`).
   */
  allowedHosts?: readonly string[];
  /**
   * Origins a browser request's `Origin` header may name, as `https://app.example.com` (scheme,
   * host and port must match) or a bare host name (any scheme and port). A present `Origin` that
   * is not allowed is answered 403. Defaults to `allowedHosts`.
   */
  allowedOrigins?: readonly string[];
  /**
   * Called for every request before its body is read: return who is calling (the SDK's
   * `AuthInfo`, which tools see as `extra.http.authInfo`), or `undefined` / throw to answer 401.
   * E.g. `(req) => verifyBearerToken(req.headers.authorization, { verifier })` from
   * `@modelcontextprotocol/server`. Without it, a server bound off loopback warns once.
   */
  authenticate?: (request: AuthenticationRequest) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
  limits?: HttpLimits;
  /**
   * Serve 2025-era clients in sessions (`Mcp-Session-Id`), through the SDK's session transport,
   * instead of statelessly: what needs a session works then — a tool's sampling and elicitation
   * requests, resource subscriptions and list changes on the GET stream, resumption of a lost
   * stream from an event store (priming events, `retry`, `Last-Event-ID`). `true`, or the sessions'
   * options. 2026-07-28 clients are served as ever (that revision has no sessions). Behind a
   * balancer, route each session to its instance: sticky on `Mcp-Session-Id`.
   */
  sessions?: boolean | HttpSessionOptions;
}

export interface HttpServing {
  readonly host: string;
  readonly port: number;
  /** The endpoint to give a Streamable HTTP client, e.g. `http://127.0.0.1:52314/mcp`. */
  readonly url: URL;
  /**
   * Stops accepting connections and ends every `subscriptions/listen` stream gracefully; lets
   * requests in flight finish (up to `graceMs`, default 10 s); answers tool calls still running
   * then with an error result (their signal aborted); then closes every connection. Calling it
   * again returns the same promise.
   */
  close(graceMs?: number): Promise<void>;
}
