import type { McpServer } from "@modelcontextprotocol/server";
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

/**
 * The built page, loaded at the first `resources/read`: servers that are never asked for it never
 * parse its 600 KiB. One module, `esm/data-view.js`, serves both builds: the path is the same from
 * `dist/` and from `esm/`, and the CommonJS build reaches it through `import()` as the ES module
 * build does, so the package ships the page once, and a bundler that bundles the registry (either
 * build) bundles the page with it.
 */
export const loadDataView = async (): Promise<string> => (await import("../esm/data-view.js")).html;

export interface GatewayView {
  /** The `_meta` of a tool: the view's URI unless the tool (`registry.tool({ ui: false })`) opted out. */
  toolMeta(toolUi: boolean | undefined): Record<string, unknown> | undefined;
  /** Serves the resource on `server` (`resources/list`, `resources/read`). */
  serve(server: McpServer): void;
}

/** The registry's view: `undefined` with `createRegistry({ ui: false })`. */
export function gatewayView(registryUi: boolean | undefined, logger: Logger, load: () => Promise<string> = loadDataView): GatewayView | undefined {
  if (registryUi === false) return undefined;
  let html: Promise<string> | undefined;
  const read = (): Promise<string> =>
    (html ??= load().catch((error: unknown) => {
      html = undefined;
      const message =
        `the data view cannot be loaded (${error instanceof Error ? error.message : String(error)}): ` +
        "this build of @sourced/registry is incomplete; reinstall it, or pass { ui: false } to createRegistry().";
      logger.warn(message);
      throw new Error(message);
    }));
  return {
    toolMeta: (toolUi) => (toolUi === false ? undefined : { ui: { resourceUri: DATA_VIEW_URI }, [LEGACY_RESOURCE_URI_KEY]: DATA_VIEW_URI }),
    serve(server) {
      server.registerResource(
        "sourced-data-view",
        DATA_VIEW_URI,
        {
          title: "Data view",
          description: "Renders a sourced tool result for the user: sources as links, the table, the charts and the verbatim text.",
          mimeType: MCP_APP_MIME_TYPE,
          _meta: { ui: DATA_VIEW_UI_META },
        },
        async () => ({ contents: [{ uri: DATA_VIEW_URI, mimeType: MCP_APP_MIME_TYPE, text: await read(), _meta: { ui: DATA_VIEW_UI_META } }] }),
      );
    },
  };
}
