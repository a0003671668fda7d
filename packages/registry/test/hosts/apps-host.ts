/// <reference lib="dom" />
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, getToolUiResourceUri, PostMessageTransport, RESOURCE_MIME_TYPE, type McpUiHostContext, type McpUiTheme } from "@modelcontextprotocol/ext-apps/app-bridge";

/*
 * An MCP Apps host that is not ours, written as ext-apps' own example host writes one: an MCP
 * Client in the page (its requests go to the host's own origin, which relays them to the server),
 * ext-apps' AppBridge holding that client, and the double-iframe sandbox: an outer proxy frame on
 * another origin, whose HTTP CSP is built from the resource's `_meta.ui.csp`, writes the view's
 * HTML into an inner frame and relays the messages. Bundled for the browser by the test
 * (hosts/apps-host-server.ts); the test drives it through `window.appsHost`.
 */

export interface AppsHostApi {
  /** Calls the tool and renders its view at that width and theme; resolves once the view has the result. */
  show(tool: string, args: Record<string, unknown>, width: number, theme: McpUiTheme): Promise<void>;
  /** What a host does when its user switches themes or its column narrows. */
  change(context: { theme?: McpUiTheme; width?: number }): void;
  /** Links the view asked the host to open (`ui/open-link`). */
  readonly opened: string[];
}

declare global {
  interface Window {
    appsHost: AppsHostApi;
  }
}

const HOST_INFO = { name: "another apps host", version: "1.0.0" };
const stage = document.getElementById("stage")!;
const sandboxUrl = new URL(document.body.dataset.sandbox!);
const opened: string[] = [];
let client: Client | undefined;
let bridge: AppBridge | undefined;
let context: McpUiHostContext = {};

async function connected(): Promise<Client> {
  if (client !== undefined) return client;
  const next = new Client(HOST_INFO, { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } } });
  await next.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  return (client = next);
}

/** The outer sandbox frame, on its own origin; resolves when it says it is ready for the view's HTML. */
function sandboxFrame(csp: unknown): Promise<HTMLIFrameElement> {
  const iframe = document.createElement("iframe");
  iframe.id = "app-frame";
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  iframe.style.cssText = "width: 100%; height: 120px; border: 0; display: block;";
  const url = new URL(sandboxUrl);
  if (csp !== undefined) url.searchParams.set("csp", JSON.stringify(csp));
  const ready = new Promise<HTMLIFrameElement>((resolve) => {
    const listener = ({ source, data }: MessageEvent) => {
      if (source === iframe.contentWindow && (data as { method?: unknown } | null)?.method === "ui/notifications/sandbox-proxy-ready") {
        window.removeEventListener("message", listener);
        resolve(iframe);
      }
    };
    window.addEventListener("message", listener);
  });
  iframe.src = url.href;
  stage.replaceChildren(iframe);
  return ready;
}

async function show(tool: string, args: Record<string, unknown>, width: number, theme: McpUiTheme): Promise<void> {
  const mcp = await connected();
  const { tools } = await mcp.listTools();
  const definition = tools.find((candidate) => candidate.name === tool);
  const uri = definition === undefined ? undefined : getToolUiResourceUri(definition);
  if (uri === undefined) throw new Error(`${tool} declares no UI resource`);
  const [result, resource] = await Promise.all([mcp.callTool({ name: tool, arguments: args }), mcp.readResource({ uri })]);
  const content = resource.contents[0];
  if (content === undefined || content.mimeType !== RESOURCE_MIME_TYPE || !("text" in content)) throw new Error(`${uri} is no MCP App`);
  const csp = (content._meta as { ui?: { csp?: unknown } } | undefined)?.ui?.csp;

  await bridge?.close().catch(() => undefined);
  stage.style.width = `${width}px`;
  const iframe = await sandboxFrame(csp);
  context = { theme, displayMode: "inline", availableDisplayModes: ["inline"], platform: "web", containerDimensions: { width, maxHeight: 6000 } };
  const capabilities = mcp.getServerCapabilities();
  // The same Client class, typed here through the SDK's CommonJS declarations and in ext-apps through its ES module ones.
  const bridgeClient = mcp as unknown as ConstructorParameters<typeof AppBridge>[0];
  const appBridge = new AppBridge(bridgeClient, HOST_INFO, { openLinks: {}, serverTools: capabilities?.tools, serverResources: capabilities?.resources }, { hostContext: context });
  bridge = appBridge;
  appBridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };
  appBridge.onopenlink = ({ url }) => {
    opened.push(url);
    return Promise.resolve({});
  };
  const initialized = new Promise<void>((resolve) => (appBridge.oninitialized = () => resolve()));
  await appBridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  await appBridge.sendSandboxResourceReady({ html: content.text, csp: csp as never });
  await initialized;
  await appBridge.sendToolInput({ arguments: args });
  await appBridge.sendToolResult(result);
  iframe.dataset.state = "delivered";
}

function change({ theme, width }: { theme?: McpUiTheme; width?: number }): void {
  if (width !== undefined) stage.style.width = `${width}px`;
  context = {
    ...context,
    ...(theme === undefined ? {} : { theme }),
    ...(width === undefined ? {} : { containerDimensions: { width, maxHeight: 6000 } }),
  };
  bridge?.setHostContext(context);
}

window.appsHost = { show, change, opened };
