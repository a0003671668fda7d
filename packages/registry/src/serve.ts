import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Logger } from "./logger.js";

/** What serves a registry: anything that can build an `McpServer` with its tools. */
interface ServerFactory {
  createServer(): McpServer;
}

export interface StdioServing {
  readonly server: McpServer;
  close(): Promise<void>;
}

export interface HttpServeOptions {
  /** Defaults to `127.0.0.1`: a local server is not reachable from the network unless you say so. */
  host?: string;
  /** Defaults to `0`: an ephemeral port, reported in `HttpServing.port`. */
  port?: number;
  /** The MCP endpoint. Defaults to `/mcp`. */
  path?: string;
}

export interface HttpServing {
  readonly host: string;
  readonly port: number;
  /** The endpoint to give a Streamable HTTP client, e.g. `http://127.0.0.1:52314/mcp`. */
  readonly url: URL;
  /** Stops listening and drops open connections; calling it again is harmless. */
  close(): Promise<void>;
}

export async function serveStdio(registry: ServerFactory): Promise<StdioServing> {
  const server = registry.createServer();
  await server.connect(new StdioServerTransport());
  return { server, close: () => server.close() };
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}

function sendJsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Streamable HTTP in stateless mode: every POST gets a fresh server and transport (the SDK's
 * stateless pattern), so no session state is kept between requests. On a loopback address the
 * Host header must name a loopback host too (DNS rebinding protection).
 */
export async function serveHttp(registry: ServerFactory, logger: Logger, options: HttpServeOptions = {}): Promise<HttpServing> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const checkHost = LOOPBACK_HOSTS.has(host);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== path) {
      sendJsonRpcError(res, 404, `Not found: the MCP endpoint is ${path}`);
      return;
    }
    if (checkHost && !LOOPBACK_HOSTS.has(hostnameOf(req.headers.host) ?? "")) {
      sendJsonRpcError(res, 403, `Forbidden: host ${JSON.stringify(req.headers.host)} is not a loopback host`);
      return;
    }
    if (req.method !== "POST") {
      sendJsonRpcError(res, 405, "Method not allowed: this server is stateless and answers POST only", { allow: "POST" });
      return;
    }
    const server = registry.createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const httpServer = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.warn(`HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendJsonRpcError(res, 500, "Internal server error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = new URL(`http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`);
  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    url,
    // Idempotent: stops listening and drops open connections.
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        httpServer.close((error) => (error ? reject(error) : resolve()));
        httpServer.closeAllConnections();
      })),
  };
}
