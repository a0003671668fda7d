import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, isLegacyRequest, type AuthInfo, type McpHandlerRequestOptions, type McpServer } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { ListenStreams, withSerialisedTools } from "./http-answers.js";
import type { Audience } from "./audience.js";
import type { Logger } from "./logger.js";
import type { HttpLimits, HttpServeOptions, HttpServing } from "./http-types.js";
import { BodyError, hostnameOf, hostsOfBindAddress, isLoopback, nestsDeeperThan, normalizeHost, normalizeOrigin, originAllowed, pathnameOf, readBody, requestOf, sendError, withConnectionClose } from "./http-requests.js";
import { HttpErrorLog } from "./refusal-log.js";
import { HttpSessions } from "./sessions.js";
import type { ServingContext } from "./server.js";
import { SerialisedLists } from "./tools-list.js";

/*
 * serveHttp: Streamable HTTP in front of the SDK's handler, with the checks a server reachable by
 * others needs before a body is read. It builds its servers through the function it is given,
 * with a serving context of its own (its shutdown, its tools/list answers): it knows no registry.
 * Its options and what it returns are in http-types.ts.
 */

const DEFAULT_LIMITS: Required<HttpLimits> = {
  maxBodyBytes: 1024 * 1024,
  maxConcurrentRequests: 1024,
  maxListenStreams: 1024,
  listenIdleTimeoutMs: 5 * 60_000,
  sendTimeoutMs: 30_000,
  maxJsonDepth: 128,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
};

/** How long `close()` waits, once the calls still running have been answered, for those answers to be written. */
const ANSWER_FLUSH_MS = 1_000;

/** The first protocol revision without JSON-RPC batches; revisions compare as ISO dates. */
const NO_BATCH_REVISION = "2025-06-18";

/**
 * Streamable HTTP through the SDK's `createMcpHandler`: 2026-07-28 clients on the modern path,
 * 2025-era clients through its stateless fallback, one server instance per request from the
 * registry (which holds no per-tool work) — or, with `sessions`, through the SDK's session
 * transport, one server per session (sessions.ts). In front of the SDK, in this order and before the
 * body is read: the endpoint path (404), the Host allowlist (403), the Origin allowlist (403),
 * the method (405), the concurrency limit (503), authentication (401), the body size (413); then
 * the body is parsed, a JSON-RPC batch refused (400) unless the client speaks a revision older
 * than 2025-06-18, and JSON nested deeper than `maxJsonDepth` refused (400). A
 * `subscriptions/listen` stream then leaves the requests' slots for one of its own.
 */
export async function serveHttpRequests(
  createServer: (serving: ServingContext) => McpServer,
  logger: Logger,
  options: HttpServeOptions = {},
  audience?: Audience,
): Promise<HttpServing> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const allowedHosts = new Set((options.allowedHosts ?? hostsOfBindAddress(host)).map(normalizeHost));
  const allowedOrigins = new Set((options.allowedOrigins ?? [...allowedHosts]).map(normalizeOrigin));
  if (!isLoopback(host) && options.authenticate === undefined) {
    logger.warn(
      `serveHttp is bound to ${host}, off loopback, without an authenticate hook: anyone who can reach it can call every tool. ` +
        "Pass { authenticate } (for example with verifyBearerToken from @modelcontextprotocol/server), or bind to 127.0.0.1.",
    );
  }

  const shutdown = new AbortController();
  // A client's refused requests in one line each, and no more than a few a minute; failures with their stack.
  const errors = new HttpErrorLog(logger);
  const lists = new SerialisedLists();
  const serving: ServingContext = { shutdown: shutdown.signal, lists };
  // 2025-era requests reach this handler only without sessions: its stateless fallback.
  const mcp = createMcpHandler(({ era }) => createServer({ ...serving, era, stateless: era === "legacy" }), {
    maxRequestBodySize: limits.maxBodyBytes,
    maxSubscriptions: limits.maxListenStreams,
    onerror: errors.report,
  });
  // Resource updates and list changes reach the 2026-07-28 clients' listen streams.
  const leaveAudience = audience?.addNotifier(mcp.notify);
  const sessionOptions = options.sessions === true ? {} : options.sessions === false ? undefined : options.sessions;
  // A session's server stays: its tools/list answers are written as they are (its event store keeps them).
  const sessions = sessionOptions === undefined ? undefined : new HttpSessions(() => createServer({ shutdown: shutdown.signal, era: "legacy", stays: true }), sessionOptions, errors.report);
  const listens = new ListenStreams(limits.listenIdleTimeoutMs);
  /** The request each body parsed here belongs to (the SDK hands the body back to `fetch`). */
  const requests = new WeakMap<object, { method: string; id: string | number | null }>();
  const toSdk = toNodeHandler(
    {
      fetch: async (request: Request, requestOptions?: McpHandlerRequestOptions) => {
        if (sessions !== undefined && (await isLegacyRequest(request, requestOptions?.parsedBody, { maxRequestBodySize: limits.maxBodyBytes }))) {
          const answer = await sessions.handle(request, requestOptions ?? {});
          return closing ? withConnectionClose(answer) : answer;
        }
        const response = await mcp.fetch(request, requestOptions);
        const body = requestOptions?.parsedBody;
        const exchange = typeof body === "object" && body !== null ? requests.get(body) : undefined;
        const answer =
          exchange?.method === "tools/list"
            ? await withSerialisedTools(response, lists)
            : exchange?.method === "subscriptions/listen" && exchange.id !== null
              ? listens.bound(response, exchange.id)
              : response;
        return closing ? withConnectionClose(answer) : answer;
      },
    },
    {
      maxRequestBodySize: limits.maxBodyBytes,
      onerror: errors.report,
    },
  );
  /** Requests holding a slot of `maxConcurrentRequests`: every one but the listen streams. */
  const inFlight = new Set<ServerResponse>();
  /** `subscriptions/listen` streams and sessions' GET streams, each holding a slot of `maxListenStreams`. */
  const streams = new Set<ServerResponse>();
  /** Since when an answer has been waiting on a client that does not read it. */
  const waiting = new Map<ServerResponse, number>();
  let closing = false;
  let drained: (() => void) | undefined;

  const handle = async (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<void> => {
    if (pathnameOf(req.url) !== path) {
      sendError(res, 404, -32000, `Not found: the MCP endpoint is ${path}`);
      return;
    }
    const requestHost = hostnameOf(req.headers.host);
    if (requestHost === undefined || !allowedHosts.has(requestHost)) {
      sendError(res, 403, -32000, `Forbidden: host ${JSON.stringify(req.headers.host ?? "")} is not allowed (allowedHosts)`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowedOrigins)) {
      sendError(res, 403, -32000, `Forbidden: origin ${JSON.stringify(origin)} is not allowed (allowedOrigins)`);
      return;
    }
    const sessionStream = sessions !== undefined && (req.method === "GET" || req.method === "DELETE");
    if (req.method !== "POST" && !sessionStream) {
      const message =
        sessions === undefined
          ? "Method not allowed: this server serves 2025-era clients statelessly and answers POST only (a GET stream needs a session: serveHttp({ sessions: true }))"
          : "Method not allowed: POST, GET and DELETE only";
      sendError(res, 405, -32000, message, { allow: sessions === undefined ? "POST" : "POST, GET, DELETE" });
      return;
    }
    if (options.authenticate) {
      let auth: AuthInfo | undefined;
      try {
        auth = await options.authenticate(req);
      } catch {
        auth = undefined;
      }
      if (auth === undefined) {
        sendError(res, 401, -32000, "Unauthorized", { "www-authenticate": "Bearer" });
        return;
      }
      req.auth = auth;
    }
    if (sessionStream) {
      if (req.method === "GET") {
        // A session's GET stream may stay open for long: it gives back its request slot and takes a stream slot.
        release(res);
        if (closing || streams.size >= limits.maxListenStreams) {
          const why = closing ? "the server is shutting down" : `${limits.maxListenStreams} streams are open`;
          sendError(res, 503, -32000, `Service unavailable: ${why}; retry shortly`, { "retry-after": "1", connection: "close" });
          return;
        }
        streams.add(res);
        res.once("close", () => {
          streams.delete(res);
          if (closing && inFlight.size === 0 && streams.size === 0) drained?.();
        });
      }
      await toSdk(req, res);
      return;
    }
    const declaredLength = Number(req.headers["content-length"] ?? 0);
    if (declaredLength > limits.maxBodyBytes) {
      sendError(res, 413, -32000, `Payload too large: the request body exceeds ${limits.maxBodyBytes} bytes`, { connection: "close" });
      return;
    }
    let raw: Buffer;
    let body: unknown;
    try {
      raw = await readBody(req, limits.maxBodyBytes);
      body = JSON.parse(raw.toString("utf8"));
    } catch (error) {
      if (error instanceof BodyError) sendError(res, error.status, -32000, error.message, error.status === 413 ? { connection: "close" } : {});
      else sendError(res, 400, -32700, "Parse error: the request body is not JSON");
      return;
    }
    if (Array.isArray(body)) {
      const revision = req.headers["mcp-protocol-version"];
      if (typeof revision !== "string" || revision >= NO_BATCH_REVISION) {
        sendError(res, 400, -32600, `Invalid request: JSON-RPC batches are not part of MCP since revision ${NO_BATCH_REVISION}; send one message per request`);
        return;
      }
    }
    const request = requestOf(body);
    // The SDK re-serialises the parsed body, which overflows the stack past a few thousand levels.
    if (nestsDeeperThan(raw, limits.maxJsonDepth)) {
      logger.warn(`HTTP request refused: its JSON nests deeper than ${limits.maxJsonDepth} levels (maxJsonDepth)${request ? ` (${request.method})` : ""}`);
      sendError(res, 400, -32600, `Invalid request: the JSON is nested deeper than ${limits.maxJsonDepth} levels`, {}, request?.id ?? null);
      return;
    }
    if (request !== undefined) requests.set(body as object, request);
    if (request?.method === "subscriptions/listen") {
      // A stream may stay open for long: it gives back its request slot and takes a stream slot.
      release(res);
      if (closing || streams.size >= limits.maxListenStreams) {
        const why = closing ? "the server is shutting down" : `${limits.maxListenStreams} subscriptions/listen streams are open`;
        sendError(res, 503, -32000, `Service unavailable: ${why}; retry shortly`, { "retry-after": "1", connection: "close" }, request.id);
        return;
      }
      streams.add(res);
      res.once("close", () => {
        streams.delete(res);
        if (closing && inFlight.size === 0 && streams.size === 0) drained?.();
      });
    }
    await toSdk(req, res, body);
  };

  /** Gives back a request's slot; the last one of a closing server lets `close()` go on. */
  const release = (res: ServerResponse): void => {
    if (!inFlight.delete(res)) return;
    if (closing && inFlight.size === 0 && streams.size === 0) drained?.();
  };

  const httpServer: HttpServer = createHttpServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often timeouts are checked; Node's 30 s default would let a 1 s limit run 30 s.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersTimeoutMs / 4)),
    },
    (req, res) => {
      if (closing) res.setHeader("connection", "close");
      if (inFlight.size >= limits.maxConcurrentRequests) {
        sendError(res, 503, -32000, `Service unavailable: ${limits.maxConcurrentRequests} requests are being handled; retry shortly`, {
          "retry-after": "1",
          connection: "close",
        });
        req.resume();
        return;
      }
      inFlight.add(res);
      res.on("drain", () => waiting.delete(res));
      res.once("close", () => {
        waiting.delete(res);
        release(res);
      });
      handle(req, res).catch((error: unknown) => {
        logger.warn(`HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        sendError(res, 500, -32603, "Internal server error");
      });
    },
  );

  // An answer the client does not read fills the connection's buffers and would hold its slot
  // for as long as the client likes: past sendTimeoutMs without draining, the connection goes.
  const waitsOnClient = (res: ServerResponse): boolean => res.writableNeedDrain || (res.writableEnded && !res.writableFinished);
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const slots of [inFlight, streams]) {
        for (const res of slots) {
          if (!waitsOnClient(res)) {
            waiting.delete(res);
            continue;
          }
          const since = waiting.get(res);
          if (since === undefined) waiting.set(res, now);
          else if (now - since >= limits.sendTimeoutMs) {
            waiting.delete(res);
            logger.warn(`HTTP: a client did not read its answer for ${limits.sendTimeoutMs} ms (sendTimeoutMs); its connection was closed`);
            res.destroy();
          }
        }
      }
    },
    Math.max(50, Math.min(1000, limits.sendTimeoutMs / 4)),
  );

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    // A burst of new connections waits in the accept queue rather than being dropped (a dropped
    // SYN is retried after 1 s, 3 s, 7 s…, past a client's connect timeout). Node's default is 511.
    httpServer.listen({ port: options.port ?? 0, host, backlog: Math.max(511, limits.maxConcurrentRequests) }, () => {
      httpServer.off("error", reject);
      resolve();
    });
  }).catch((error: unknown) => {
    clearInterval(sweep);
    throw error;
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = new URL(`http://${normalizeHost(host)}:${port}${path}`);
  /** Settles once no request or stream holds a slot, or after `ms`. */
  const drainedWithin = (ms: number): Promise<void> => {
    if (inFlight.size === 0 && streams.size === 0) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      new Promise<void>((resolve) => (drained = resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]).finally(() => clearTimeout(timer));
  };
  let closed: Promise<void> | undefined;
  return {
    host,
    port,
    url,
    close: (graceMs = 10_000) =>
      (closed ??= (async () => {
        closing = true;
        listens.endAll();
        leaveAudience?.();
        sessions?.endStreams();
        // Answers still to be sent end their connection: a client does not reuse a closing server's socket.
        // (The SDK's answers are given the header as they leave it, in `fetch` above.)
        for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeIdleConnections();
        // The streams, ended above, only need to write their last event: they do not wait for the grace.
        if (inFlight.size === 0) await drainedWithin(ANSWER_FLUSH_MS);
        else await drainedWithin(graceMs);
        if (inFlight.size > 0) {
          // Tool calls still running are answered now, with an error result, rather than cut.
          shutdown.abort();
          await drainedWithin(ANSWER_FLUSH_MS);
        }
        clearInterval(sweep);
        httpServer.closeAllConnections();
        await stopped;
        await sessions?.closeAll();
        await mcp.close();
        errors.flush();
      })()),
  };
}
