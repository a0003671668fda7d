import { AppBridge, PostMessageTransport, type McpUiHostContext, type McpUiTheme } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallResponse, CallToolResultJson, PreviewTool, ReadResponse, ToolsResponse } from "../src/preview/protocol";
import { argumentForm, type ArgumentForm } from "./form";

/*
 * The page of `sourced preview`: a local MCP Apps host. It lists the server's tools, calls one
 * with the arguments of a form generated from its input schema, and shows side by side what the
 * LLM reads (`content`), what the user sees (the server's data view, framed and driven through
 * ext-apps' AppBridge as a real host drives it) and the raw JSON.
 */

const HOST_INFO = { name: "sourced preview", version: "1.0.0" };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const root = document.getElementById("root")!;
let theme: McpUiTheme = window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
let bridge: AppBridge | undefined;
let frame: HTMLIFrameElement | undefined;

const header = el("header");
const title = el("h1", {}, "sourced preview");
const target = el("p", { class: "target" });
const themeSelect = el("select", { id: "theme", "aria-label": "Host theme" });
themeSelect.append(new Option("Light theme", "light"), new Option("Dark theme", "dark"));
header.append(title, target, themeSelect);

const toolList = el("nav", { id: "tools", "aria-label": "Tools" });
const callPanel = el("section", { id: "call", "aria-live": "polite" });
const layout = el("div", { class: "layout" });
layout.append(toolList, callPanel);
root.append(header, layout);

function applyTheme(next: McpUiTheme): void {
  theme = next;
  themeSelect.value = next;
  document.documentElement.dataset.theme = next;
  if (bridge !== undefined) void bridge.sendHostContextChange({ theme: next });
}
themeSelect.addEventListener("change", () => applyTheme(themeSelect.value === "dark" ? "dark" : "light"));
applyTheme(theme);

function containerDimensions(): McpUiHostContext["containerDimensions"] {
  return { maxHeight: 2000, width: Math.max(200, Math.floor(frame?.clientWidth ?? 480)) };
}

let resizeTimer: number | undefined;
window.addEventListener("resize", () => {
  window.clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => void bridge?.sendHostContextChange({ containerDimensions: containerDimensions() }), 100);
});

function selectTool(tool: PreviewTool): void {
  for (const button of toolList.querySelectorAll("button")) button.setAttribute("aria-current", String(button.dataset.tool === tool.name));
  const form = el("form", { id: "call-form" });
  form.append(el("h2", {}, tool.title ?? tool.name));
  if (tool.description) form.append(el("p", { class: "description" }, tool.description));
  const fields: ArgumentForm = argumentForm(document, tool.inputSchema);
  const problem = el("p", { class: "problem", role: "alert" });
  const submit = el("button", { type: "submit" }, `Call ${tool.name}`);
  form.append(fields.element, problem, submit);
  const output = el("div", { id: "output" });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const read = fields.read();
    if (!read.ok) {
      problem.textContent = read.message;
      return;
    }
    problem.textContent = "";
    submit.disabled = true;
    void call(tool, read.arguments, output).finally(() => (submit.disabled = false));
  });
  callPanel.replaceChildren(form, output);
}

function contentPane(result: CallToolResultJson): HTMLElement {
  const pane = el("section", { class: "pane", id: "content-pane" });
  pane.append(el("h3", {}, "What the LLM reads (content)"));
  for (const block of result.content ?? []) {
    pane.append(block.type === "text" ? el("pre", { class: "text-block" }, block.text ?? "") : el("p", { class: "hint" }, `[${block.type} block]`));
  }
  return pane;
}

function rawPane(value: unknown): HTMLElement {
  const pane = el("section", { class: "pane", id: "raw-pane" });
  pane.append(el("h3", {}, "Raw JSON"), el("pre", { id: "raw-json" }, JSON.stringify(value, null, 2)));
  return pane;
}

async function call(tool: PreviewTool, args: Record<string, unknown>, output: HTMLElement): Promise<void> {
  await closeView();
  output.replaceChildren(el("p", { class: "hint" }, `Calling ${tool.name}…`));
  let response: CallResponse;
  try {
    response = await api<CallResponse>("/api/call", { name: tool.name, arguments: args });
  } catch (error) {
    response = { kind: "failed", error: error instanceof Error ? error.message : String(error) };
  }
  output.replaceChildren();
  output.dataset.kind = response.kind;
  if (response.kind === "failed") {
    output.append(el("div", { class: "refusal", id: "refusal", role: "alert" }, `The call failed: ${response.error}`));
    return;
  }
  const { result, view } = response;
  if (result.isError === true) {
    const refusal = el("div", { class: "refusal", id: "refusal", role: "alert" });
    refusal.append(el("strong", {}, "The server answered with an error result (isError): nothing of its data was sent."));
    refusal.append(el("pre", {}, (result.content ?? []).map((block) => block.text ?? "").join("\n")));
    output.append(refusal);
  }
  const panes = el("div", { class: "panes" });
  const viewPane = el("section", { class: "pane", id: "view-pane" });
  viewPane.append(el("h3", {}, "What the user sees (data view)"));
  panes.append(contentPane(result), viewPane, rawPane(result));
  output.append(panes);
  if (view === undefined) viewPane.append(el("p", { class: "hint" }, "This tool declares no UI resource (_meta.ui.resourceUri): hosts show only the text."));
  else if ("error" in view) viewPane.append(el("p", { class: "refusal" }, view.error));
  else await openView(viewPane, view.url, tool, args, result);
}

async function closeView(): Promise<void> {
  const previous = bridge;
  bridge = undefined;
  frame?.remove();
  frame = undefined;
  await previous?.close().catch(() => undefined);
}

/** Frames the view and speaks MCP Apps to it: initialize, host context, tool input, tool result. */
async function openView(pane: HTMLElement, url: string, tool: PreviewTool, args: Record<string, unknown>, result: CallToolResultJson): Promise<void> {
  const iframe = el("iframe", { id: "view-frame", title: `Data view of ${tool.name}`, sandbox: "allow-scripts" });
  pane.append(iframe);
  frame = iframe;
  const appBridge = new AppBridge(null, HOST_INFO, { openLinks: {}, serverResources: {} }, {
    hostContext: {
      theme,
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      platform: "web",
      containerDimensions: containerDimensions(),
      toolInfo: { tool: { name: tool.name, inputSchema: { type: "object", ...tool.inputSchema } as never } },
    },
  });
  bridge = appBridge;
  appBridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${Math.ceil(height)}px`;
  };
  appBridge.onopenlink = async ({ url: link }) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(link);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return { isError: true };
    log(`Opened ${parsed.href}`);
    window.open(parsed.href, "_blank", "noopener,noreferrer");
    return {};
  };
  // A source that is a resource's URI: the view asks the host to read it from the server.
  appBridge.onreadresource = async ({ uri }) => {
    const response = await api<ReadResponse>("/api/read", { uri });
    if (response.kind === "failed") throw new Error(response.error);
    log(`Read ${uri}`);
    return response.result as never;
  };
  appBridge.onloggingmessage = ({ data }) => log(`view: ${typeof data === "string" ? data : JSON.stringify(data)}`);
  const initialized = new Promise<void>((resolve) => (appBridge.oninitialized = () => resolve()));
  await appBridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.src = url;
  await initialized;
  if (bridge !== appBridge) return;
  await appBridge.sendToolInput({ arguments: args });
  await appBridge.sendToolResult(result as never);
  iframe.dataset.state = "delivered";
}

/** What the page did as a host (links opened, the view's log) and what the server wrote to stderr. */
const activity = el("ul", { id: "activity", "aria-label": "Activity" });
const ACTIVITY_KEPT = 500;
function log(line: string, kind: "host" | "stderr" = "host"): void {
  activity.append(el("li", { class: kind }, line));
  while (activity.childElementCount > ACTIVITY_KEPT) activity.firstElementChild!.remove();
}

/** The server's stderr, from its first line (start-up warnings, refused tools) as it comes. */
function followStderr(): void {
  const events = new EventSource("/api/activity");
  events.onmessage = (event: MessageEvent<string>) => log(`server: ${JSON.parse(event.data) as string}`, "stderr");
}

async function start(): Promise<void> {
  const tools = el("div", { class: "tool-buttons" });
  toolList.append(el("h2", {}, "Tools"), tools, el("h2", {}, "Activity"), activity);
  try {
    const listed = await api<ToolsResponse>("/api/tools");
    title.textContent = `sourced preview — ${listed.server.name} ${listed.server.version}`;
    target.textContent = listed.target;
    if (listed.stderr) followStderr();
    toolList.querySelector("h2")!.textContent = `Tools (${listed.tools.length})`;
    for (const tool of listed.tools) {
      const button = el("button", { type: "button", "data-tool": tool.name }, tool.name);
      if (tool.uiResourceUri === undefined) button.append(el("span", { class: "badge" }, "text only"));
      button.addEventListener("click", () => selectTool(tool));
      tools.append(button);
    }
    if (listed.tools[0] !== undefined) selectTool(listed.tools[0]);
    else {
      const why = listed.stderr ? " What it wrote to stderr is under Activity: a tool it refused says why there." : "";
      callPanel.append(el("p", { class: "hint", id: "no-tools" }, `The server offers no tools.${why}`));
    }
  } catch (error) {
    callPanel.replaceChildren(el("div", { class: "refusal", role: "alert" }, `Cannot list the tools: ${error instanceof Error ? error.message : String(error)}`));
  }
}
void start();
