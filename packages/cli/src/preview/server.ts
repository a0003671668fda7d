import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { Connection, ServerStderr, StderrLine } from "./connect";
import { MCP_APP_MIME_TYPE } from "./connect";
import type { CallRequest, CallResponse, CallToolResultJson, JsonSchema, PreviewTool, ReadResponse, ToolsResponse, ViewFrame } from "./protocol";

/** The MCP Apps key a tool names its UI resource by, nested (current) and flat (legacy). */
function uiResourceUriOf(meta: unknown): string | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const record = meta as Record<string, unknown>;
  const ui = record.ui as { resourceUri?: unknown } | undefined;
  const uri = typeof ui?.resourceUri === "string" ? ui.resourceUri : record["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}

/** The domains a UI resource may reach (`_meta.ui.csp`), as a host turns them into a CSP. */
interface ResourceCsp {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
}

/** Only origins (`https://api.example.org`, `https://*.example.org`): anything else would widen the CSP. */
function cspSources(domains: readonly unknown[] | undefined): string {
  const origins = (domains ?? []).filter((domain): domain is string => typeof domain === "string" && /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(domain));
  return origins.length === 0 ? "'none'" : origins.join(" ");
}

/**
 * The CSP a host puts on a view: inline script and style (the view is one self-contained file),
 * and only the domains its resource declares. With none declared, the view reaches nothing.
 */
export function viewCsp(csp: ResourceCsp | undefined): string {
  const resources = cspSources(csp?.resourceDomains);
  const extra = resources === "'none'" ? "" : ` ${resources}`;
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline'${extra}`,
    `style-src 'unsafe-inline'${extra}`,
    `img-src data:${extra}`,
    `font-src${extra || " 'none'"}`,
    `connect-src ${cspSources(csp?.connectDomains)}`,
    `frame-src ${cspSources(csp?.frameDomains)}`,
    "base-uri 'none'",
    "form-action 'none'",
    // Opaque origin even when the frame's URL is opened on its own, outside the sandboxed iframe.
    "sandbox allow-scripts",
  ].join("; ");
}

export interface PreviewServer {
  readonly url: URL;
  close(): Promise<void>;
}

/** The page, and its CSP (the build puts it in a meta tag, with its script's hash), sent as a header too. */
function readPage(): { html: string; csp: string } {
  const page = path.join(__dirname, "page.html");
  let html: string;
  try {
    html = fs.readFileSync(page, "utf8");
  } catch {
    throw new Error(`the preview page is missing (${page}): this build of @sourced/cli is incomplete; reinstall it.`);
  }
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  if (csp === undefined) throw new Error(`the preview page (${page}) declares no Content-Security-Policy: rebuild @sourced/cli.`);
  return { html, csp: csp.replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&") };
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    ...headers,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

async function readBody(req: IncomingMessage, limit = 1 << 20): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error("request body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * `GET /api/activity`: the server's stderr as server-sent events, one line each (its text as a
 * JSON string), the kept lines first. A reconnecting EventSource resumes after the last line it got.
 */
function streamStderr(req: IncomingMessage, res: ServerResponse, stderr: ServerStderr): void {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" });
  const send = (line: StderrLine) => void res.write(`id: ${line.id}\ndata: ${JSON.stringify(line.text)}\n\n`);
  for (const line of stderr.since(Number(req.headers["last-event-id"]) || 0)) send(line);
  const stop = stderr.listen(send);
  res.on("close", stop);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The preview's local server on 127.0.0.1: the page, its JSON API, and the framed views. Only a
 * request whose Host names this very address is answered (a page elsewhere cannot reach it through
 * DNS rebinding), and calls must be JSON POSTs (a cross-site form cannot make one).
 */
export async function startPreviewServer(connection: Connection, port: number): Promise<PreviewServer> {
  const page = readPage();
  const { client } = connection;
  const listed = await client.listTools();
  const tools = new Map(listed.tools.map((tool) => [tool.name, tool]));
  const server = client.getServerVersion();
  const toolsResponse: ToolsResponse = {
    server: { name: server?.name ?? "(unnamed server)", version: server?.version ?? "" },
    target: connection.description,
    stderr: connection.started,
    tools: listed.tools.map((tool): PreviewTool => {
      const uiResourceUri = uiResourceUriOf(tool._meta);
      return {
        name: tool.name,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        inputSchema: tool.inputSchema as JsonSchema,
        ...(uiResourceUri === undefined ? {} : { uiResourceUri }),
      };
    }),
  };

  /** Views read for calls, served once each under an unguessable path. */
  const frames = new Map<string, { html: string; csp: string }>();

  async function viewFor(resourceUri: string): Promise<ViewFrame> {
    let contents;
    try {
      ({ contents } = await client.readResource({ uri: resourceUri }));
    } catch (error) {
      return { error: `resources/read ${resourceUri} failed: ${describe(error)}` };
    }
    const [content] = contents;
    if (contents.length !== 1 || content === undefined) return { error: `resources/read ${resourceUri} returned ${contents.length} contents, expected one.` };
    if (content.mimeType !== MCP_APP_MIME_TYPE) {
      return { error: `resources/read ${resourceUri} returned ${content.mimeType ?? "no mime type"}, not ${MCP_APP_MIME_TYPE}: hosts do not render it.` };
    }
    const html = "text" in content ? content.text : Buffer.from(content.blob, "base64").toString("utf8");
    const meta = content._meta as { ui?: { csp?: ResourceCsp } } | undefined;
    const id = randomUUID();
    frames.clear(); // Only the latest call's view is framed.
    frames.set(id, { html, csp: viewCsp(meta?.ui?.csp) });
    return { url: `/frame/${id}`, resourceUri };
  }

  async function call(body: string): Promise<CallResponse> {
    let request: CallRequest;
    try {
      request = JSON.parse(body) as CallRequest;
    } catch {
      return { kind: "failed", error: "the request is not JSON" };
    }
    const tool = tools.get(request.name);
    if (tool === undefined) return { kind: "failed", error: `the server lists no tool named ${JSON.stringify(request.name)}` };
    let result: CallToolResultJson;
    try {
      result = (await client.callTool({ name: request.name, arguments: request.arguments ?? {} })) as CallToolResultJson;
    } catch (error) {
      const stderr = connection.stderr.tail(10);
      return { kind: "failed", error: `${describe(error)}${stderr ? `\nServer stderr:\n${stderr}` : ""}` };
    }
    const resourceUri = uiResourceUriOf(tool._meta);
    return { kind: "result", result, view: resourceUri === undefined ? undefined : await viewFor(resourceUri) };
  }

  /** A resource the view asked for: read from the server, as a host does for its views. */
  async function read(body: string): Promise<ReadResponse> {
    let uri: unknown;
    try {
      ({ uri } = JSON.parse(body) as { uri?: unknown });
    } catch {
      return { kind: "failed", error: "the request is not JSON" };
    }
    if (typeof uri !== "string") return { kind: "failed", error: "the request names no resource: send { uri }" };
    try {
      return { kind: "result", result: await client.readResource({ uri }) };
    } catch (error) {
      return { kind: "failed", error: `resources/read ${uri} failed: ${describe(error)}` };
    }
  }

  let expectedHost = "";
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.headers.host !== expectedHost) {
      send(res, 403, "text/plain; charset=utf-8", `Forbidden: open the preview at http://${expectedHost}/`);
      return;
    }
    const { pathname } = new URL(req.url ?? "/", `http://${expectedHost}`);
    if (req.method === "GET" && pathname === "/") {
      send(res, 200, "text/html; charset=utf-8", page.html, { "content-security-policy": page.csp, "x-frame-options": "DENY" });
    } else if (req.method === "GET" && pathname === "/api/tools") {
      sendJson(res, 200, toolsResponse);
    } else if (req.method === "GET" && pathname === "/api/activity") {
      streamStderr(req, res, connection.stderr);
    } else if (req.method === "POST" && (pathname === "/api/call" || pathname === "/api/read")) {
      if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
        send(res, 415, "text/plain; charset=utf-8", `POST ${pathname} takes application/json`);
        return;
      }
      const body = await readBody(req);
      sendJson(res, 200, pathname === "/api/call" ? await call(body) : await read(body));
    } else if (req.method === "GET" && pathname.startsWith("/frame/")) {
      const frame = frames.get(pathname.slice("/frame/".length));
      if (frame === undefined) send(res, 404, "text/plain; charset=utf-8", "No such view: call the tool again.");
      else send(res, 200, "text/html; charset=utf-8", frame.html, { "content-security-policy": frame.csp });
    } else {
      send(res, 404, "text/plain; charset=utf-8", "Not found");
    }
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { kind: "failed", error: describe(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  expectedHost = `127.0.0.1:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url: new URL(`http://${expectedHost}/`),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      })),
  };
}
