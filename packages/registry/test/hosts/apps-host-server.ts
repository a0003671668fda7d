import { build } from "esbuild";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/*
 * The servers of the third-party host (apps-host.ts), as ext-apps' example host runs them: the
 * host page on one origin, the sandbox proxy on another, whose Content-Security-Policy header is
 * built from the `csp` the host read from the resource (`?csp=`). The host's origin relays `/mcp`
 * to the MCP server, as a host's backend would: the page's Client never talks to another origin.
 */

/** The outer sandbox frame: writes the view's HTML into its inner frame and relays messages both ways. */
const SANDBOX_SCRIPT = `
const hostOrigin = new URL(document.referrer).origin;
const inner = document.createElement("iframe");
inner.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
inner.style.cssText = "width: 100%; height: 100%; border: 0; display: block;";
document.body.appendChild(inner);
window.addEventListener("message", (event) => {
  if (event.source === window.parent) {
    if (event.origin !== hostOrigin) return;
    if (event.data && event.data.method === "ui/notifications/sandbox-resource-ready") {
      const page = inner.contentDocument;
      page.open();
      page.write(event.data.params.html);
      page.close();
    } else {
      inner.contentWindow.postMessage(event.data, "*");
    }
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(event.data, hostOrigin);
  }
});
window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, hostOrigin);
`;

interface ResourceCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
}

/** As ext-apps' example host builds it: inline code allowed, the network limited to the declared domains. */
function sandboxCsp(query: string | null): string {
  let csp: ResourceCsp = {};
  try {
    csp = query === null ? {} : (JSON.parse(query) as ResourceCsp);
  } catch {
    csp = {};
  }
  const domains = (list: unknown) => (Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === "string" && !/[;\s'"]/.test(entry)).join(" ") : "");
  const resources = domains(csp.resourceDomains);
  return [
    "default-src 'self' 'unsafe-inline'",
    `script-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `style-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `img-src 'self' data: ${resources}`.trim(),
    `connect-src 'self' ${domains(csp.connectDomains)}`.trim(),
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join("; ");
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function relay(req: IncomingMessage, res: ServerResponse, endpoint: URL): void {
  const headers = { ...req.headers, host: endpoint.host };
  delete headers.origin;
  delete headers.referer;
  const upstream = request(endpoint, { method: req.method, headers }, (response) => {
    res.writeHead(response.statusCode ?? 502, response.headers);
    response.pipe(res);
  });
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(String(error));
  });
  req.pipe(upstream);
}

export interface AppsHost {
  /** The host page. */
  readonly url: string;
  /** The sandbox proxy's origin, where the view runs. */
  readonly sandboxOrigin: string;
  close(): Promise<void>;
}

/** Bundles the host page and starts its two origins in front of the MCP server at `endpoint`. */
export async function startAppsHost(endpoint: URL): Promise<AppsHost> {
  const bundle = await build({ entryPoints: [join(__dirname, "apps-host.ts")], bundle: true, write: false, format: "iife", platform: "browser", target: "es2022", logLevel: "silent" });
  const script = bundle.outputFiles[0]!.text;
  const sandbox = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox");
    if (url.pathname !== "/sandbox.html") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": sandboxCsp(url.searchParams.get("csp")), "cache-control": "no-store" });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><style>html, body { margin: 0; height: 100%; }</style></head><body><script>${SANDBOX_SCRIPT}</script></body></html>`);
  });
  const sandboxOrigin = await listen(sandbox);
  const host = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://host");
    if (pathname === endpoint.pathname) return relay(req, res, endpoint);
    if (pathname !== "/") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>another apps host</title><style>body { margin: 0; background: #808080; } #stage { background: transparent; }</style></head>` +
        `<body data-sandbox="${sandboxOrigin}/sandbox.html"><div id="stage"></div><script>${script}</script></body></html>`,
    );
  });
  const url = `${await listen(host)}/`;
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, sandboxOrigin, close: async () => void (await Promise.all([close(host), close(sandbox)])) };
}
