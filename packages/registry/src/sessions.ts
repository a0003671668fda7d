import { randomUUID } from "node:crypto";
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo, type EventStore, type McpServer } from "@modelcontextprotocol/server";
import { MemoryEventStore } from "./event-store.js";

/** `serveHttp({ sessions })`: 2025-era clients get a session each, as the SDK's session transport serves them. */
export interface HttpSessionOptions {
  /**
   * The event store of each new session, where its event streams are kept for a client that
   * resumes one (`Last-Event-ID`). Defaults to a `MemoryEventStore` (1,000 events, 5 minutes).
   */
  eventStore?: () => EventStore;
  /** The `retry` a priming event tells clients to wait before they reconnect, in ms. Default 1,000. */
  retryMs?: number;
  /** Sessions open at once: one more `initialize` is answered 503 (with `Retry-After`). Default 1,024. */
  maxSessions?: number;
  /**
   * How long a session lives without a request and without an open stream, in ms: then it is
   * closed, and its client, answered 404 from then on, starts a new one. Default 30 minutes.
   */
  idleTimeoutMs?: number;
}

const DEFAULTS: Required<Omit<HttpSessionOptions, "eventStore">> = { retryMs: 1_000, maxSessions: 1_024, idleTimeoutMs: 30 * 60_000 };

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  lastSeen: number;
  /** Answers still being written (an event stream stays open as long as its client reads it). */
  open: number;
}

export interface HandleOptions {
  readonly parsedBody?: unknown;
  readonly authInfo?: AuthInfo;
}

/** An SSE comment: clients skip it. */
const OPENED = new TextEncoder().encode(": stream open\n\n");

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

/**
 * The sessions of the sessionful mode of `serveHttp`: one server (from `createServer`) and one SDK
 * session transport per session, found by its `Mcp-Session-Id`. What needs a session works then:
 * a tool's requests to the client (sampling, elicitation), whose answers come in later POSTs of the
 * same session; the GET stream, which carries list changes and resource updates; and resumption,
 * from each session's event store (priming events with `retry`, `Last-Event-ID`). Bounded: at most
 * `maxSessions`, each closed after `idleTimeoutMs` unused.
 */
export class HttpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly options: Required<Omit<HttpSessionOptions, "eventStore">> & Pick<HttpSessionOptions, "eventStore">;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly createServer: () => McpServer,
    options: HttpSessionOptions,
    private readonly onerror: (error: Error) => void,
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.sweep = setInterval(() => this.closeIdle(), Math.max(50, Math.min(60_000, this.options.idleTimeoutMs / 4)));
    this.sweep.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Answers one request of a 2025-era client: an `initialize` opens a session, anything else goes to its session. */
  async handle(request: Request, options: HandleOptions): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId === null) {
      if (request.method !== "POST" || !isInitializeRequest(options.parsedBody)) {
        return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required (a session starts with an initialize request)");
      }
      if (this.sessions.size >= this.options.maxSessions) {
        return jsonRpcError(503, -32000, `Service unavailable: ${this.options.maxSessions} sessions are open; retry shortly`, { "retry-after": "1", connection: "close" });
      }
      const session = await this.open();
      return this.track(session, () => this.initialize(session, request, options));
    }
    const session = this.sessions.get(sessionId);
    // The client starts a new session on 404 (Streamable HTTP, session management).
    if (session === undefined) return jsonRpcError(404, -32001, "Session not found: it was closed, or another instance holds it (route on Mcp-Session-Id)");
    // A GET stream carries nothing until there is something to tell: a comment opens it, so its
    // client (and every proxy on the way) has its headers at once rather than at the first keep-alive.
    return this.track(session, () => session.transport.handleRequest(request, options), request.method === "GET");
  }

  /** Every session's server, for what is sent to every client (list changes, resource updates). */
  servers(): McpServer[] {
    return [...this.sessions.values()].map((session) => session.server);
  }

  /** Ends every session's GET stream (shutdown): its client reconnects, elsewhere once this instance is gone. */
  endStreams(): void {
    for (const session of this.sessions.values()) session.transport.closeStandaloneSSEStream();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all([...this.sessions.values()].map((session) => this.close(session)));
  }

  /** A session not yet initialised: it joins the map when the SDK gives it its id. */
  private async open(): Promise<Session> {
    const { eventStore, retryMs } = this.options;
    // The callbacks run once the transport serves the initialize, after `session` below exists.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: eventStore?.() ?? new MemoryEventStore(),
      retryInterval: retryMs,
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    const server = this.createServer();
    const session: Session = { transport, server, lastSeen: Date.now(), open: 0 };
    transport.onerror = this.onerror;
    const closed = transport.onclose;
    transport.onclose = () => {
      closed?.();
      if (transport.sessionId !== undefined && this.sessions.get(transport.sessionId) === session) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return session;
  }

  /** The session's `initialize`: the SDK gives it its id then (`onsessioninitialized`). */
  private initialize(session: Session, request: Request, options: HandleOptions): Promise<Response> {
    return session.transport.handleRequest(request, options).then((response) => {
      // An initialize the transport refused leaves a session that never began.
      if (session.transport.sessionId === undefined) void this.close(session);
      return response;
    });
  }

  /** Counts the answer as open until its body is written or cancelled: a session with one open is not idle. */
  private async track(session: Session, answer: () => Promise<Response>, opened = false): Promise<Response> {
    session.lastSeen = Date.now();
    session.open++;
    let response: Response;
    try {
      response = await answer();
    } catch (error) {
      session.open--;
      throw error;
    }
    if (response.body === null) {
      session.open--;
      return response;
    }
    const reader = response.body.getReader();
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      session.open--;
      session.lastSeen = Date.now();
    };
    const stream = opened && (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        if (stream) controller.enqueue(OPENED);
      },
      pull: async (controller) => {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            finish();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      cancel: (reason) => {
        finish();
        return reader.cancel(reason).catch(() => undefined);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) {
      if (session.open === 0 && now - session.lastSeen >= this.options.idleTimeoutMs) void this.close(session);
    }
  }

  private async close(session: Session): Promise<void> {
    const id = session.transport.sessionId;
    if (id !== undefined && this.sessions.get(id) === session) this.sessions.delete(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }
}
