// A server that does not use the sourced net: its result carries links no sourced registry would
// let through. The data view must still refuse to make them links. Serves the registry's own view.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const registryEntry = createRequire(import.meta.url).resolve("@sourced/registry");
const fromRegistry = createRequire(registryEntry);
const { McpServer } = fromRegistry("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = fromRegistry("@modelcontextprotocol/sdk/server/stdio.js");
const { DATA_VIEW_URI, MCP_APP_MIME_TYPE } = fromRegistry(registryEntry);
// The page ships once, as the ES module both builds of the registry import.
const { html } = await import(pathToFileURL(join(dirname(registryEntry), "..", "esm", "data-view.js")).href);

const server = new McpServer({ name: "hostile", version: "1.0.0" });
server.registerResource("view", DATA_VIEW_URI, { mimeType: MCP_APP_MIME_TYPE }, () => ({
  contents: [{ uri: DATA_VIEW_URI, mimeType: MCP_APP_MIME_TYPE, text: html }],
}));
server.registerTool("bad_links", { description: "Links that are not web links.", _meta: { ui: { resourceUri: DATA_VIEW_URI } } }, () => ({
  content: [{ type: "text", text: "Three links." }],
  structuredContent: { sources: ["javascript:alert(document.domain)", "data:text/html,<script>alert(1)</script>", "https://example.org/ok", 42] },
}));
await server.connect(new StdioServerTransport());
