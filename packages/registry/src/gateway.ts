import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Logger } from "./logger.js";

/*
 * The gateway view (MCP Apps, SEP-1865): every tool declares, in its `_meta`, one UI resource the
 * registry serves — the data view, a self-contained HTML app (built from view/ by `pnpm build`)
 * that a host renders in a sandboxed frame next to the answer, drawing the result's sources,
 * table, charts and force. Results are not touched: a client without MCP Apps sees the same tools
 * and the same results, and simply ignores the `_meta`.
 */

/** The data view's resource. */
export const DATA_VIEW_URI = "ui://sourced/data-view.html";
/** The mime type MCP Apps hosts render (ext-apps' `RESOURCE_MIME_TYPE`). */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";
/** The flat `_meta` key older hosts read (ext-apps' `RESOURCE_URI_META_KEY`); current ones read `_meta.ui.resourceUri`. */
const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/** The view reaches no origin: hosts build its CSP from these lists, and empty means none. */
const DATA_VIEW_UI_META = { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } as const;

/** Where `pnpm build` puts the view (`scripts/build-pages.mjs`). */
const DATA_VIEW_FILE = join(__dirname, "data-view.html");
const htmlByFile = new Map<string, string>();

/** The built view, read once; `undefined` when the package was built without it. */
function dataViewHtml(file: string): string | undefined {
  let html = htmlByFile.get(file);
  if (html === undefined) {
    try {
      html = readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
    htmlByFile.set(file, html);
  }
  return html;
}

/** What `registry.tool({ ui })` and `createRegistry({ ui })` say; both default to on. */
export interface GatewayView {
  /** The `_meta` of a tool: the view's URI unless the tool opted out. */
  toolMeta(toolUi: boolean | undefined): Record<string, unknown> | undefined;
  /** Serves the resource on `server` when some tool declares it. */
  serve(server: McpServer, anyToolUsesIt: boolean): void;
}

/**
 * The registry's view: off with `ui: false`, and off (one warning) when the built view is missing,
 * which would otherwise make hosts fail to load a resource the tools name.
 */
export function gatewayView(registryUi: boolean | undefined, logger: Logger, file: string = DATA_VIEW_FILE): GatewayView {
  let enabled = registryUi !== false;
  let warned = false;
  const available = (): boolean => {
    if (!enabled) return false;
    if (dataViewHtml(file) !== undefined) return true;
    if (!warned) {
      warned = true;
      logger.warn(
        `the data view (${file}) is missing, so tools are served without it: ` +
          "this build of @sourced/registry is incomplete; reinstall it, or pass { ui: false } to createRegistry().",
      );
    }
    enabled = false;
    return false;
  };
  return {
    toolMeta: (toolUi) => (toolUi !== false && available() ? { ui: { resourceUri: DATA_VIEW_URI }, [LEGACY_RESOURCE_URI_KEY]: DATA_VIEW_URI } : undefined),
    serve(server, anyToolUsesIt) {
      const text = anyToolUsesIt && available() ? dataViewHtml(file) : undefined;
      if (text === undefined) return;
      server.registerResource(
        "sourced-data-view",
        DATA_VIEW_URI,
        {
          title: "Data view",
          description: "Renders a sourced tool result for the user: sources as links, the table, the charts and the verbatim text.",
          mimeType: MCP_APP_MIME_TYPE,
          _meta: { ui: DATA_VIEW_UI_META },
        },
        () => ({ contents: [{ uri: DATA_VIEW_URI, mimeType: MCP_APP_MIME_TYPE, text, _meta: { ui: DATA_VIEW_UI_META } }] }),
      );
    },
  };
}
