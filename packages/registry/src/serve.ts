import type { McpServer } from "@modelcontextprotocol/server";
import type { Audience } from "./audience.js";
import { serveHttpRequests } from "./http.js";
import type { HttpServeOptions, HttpServing } from "./http-types.js";
import type { Logger } from "./logger.js";
import type { ServingContext } from "./server.js";
import { serveStdioLines, type StdioServeOptions, type StdioServing } from "./stdio.js";

/*
 * Serving a registry: the two transports (stdio.ts, http.ts) given the registry's server factory.
 * Each transport passes its serving context down to the servers it asks for; none reaches back up.
 */

export type { AuthenticationRequest, HttpLimits, HttpServeOptions, HttpServing } from "./http-types.js";
export type { HttpSessionOptions } from "./sessions.js";
export type { StdioServeOptions, StdioServing } from "./stdio.js";

/** What serves a registry: anything that can build an `McpServer` with its tools (for a serving layer, as it asks). */
export interface ServerFactory {
  createServer(serving?: ServingContext): McpServer;
  /** Who hears of changes while serving: the HTTP handler's notifier joins it. */
  readonly audience?: Audience;
}

export function serveStdio(registry: ServerFactory, logger: Logger, options?: StdioServeOptions): Promise<StdioServing> {
  return serveStdioLines((serving) => registry.createServer(serving), logger, options);
}

/** Serves the registry's tools over Streamable HTTP (http.ts); each request gets a server from the registry, read at that request. */
export function serveHttp(registry: ServerFactory, logger: Logger, options?: HttpServeOptions): Promise<HttpServing> {
  return serveHttpRequests((serving) => registry.createServer(serving), logger, options, registry.audience);
}
