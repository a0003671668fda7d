import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from "@modelcontextprotocol/client";
import { getToolUiResourceUri, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/server";
import { build } from "esbuild";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { gatewayView } from "../dist/gateway.js";
import { createRegistry, DATA_VIEW_URI, MCP_APP_MIME_TYPE, type Registry } from "../dist/index.js";
import { connectInMemory, PACKAGE_DIR, recordingLogger, seedResult } from "./helpers";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

// The gateway view as MCP Apps hosts find it: the tool's _meta names a ui:// resource that
// resources/list lists and resources/read returns as text/html;profile=mcp-app.

function citiesRegistry(options: { ui?: boolean; toolUi?: boolean } = {}): Registry {
  const registry = createRegistry({ name: "cities", version: "1.0.0", startupCheck: false, logger: recordingLogger(), ...(options.ui === undefined ? {} : { ui: options.ui }) });
  registry.tool({ description: "Return the top 3 cities by population." })(function list_cities() {
    return seedResult();
  });
  registry.tool(options.toolUi === undefined ? {} : { ui: options.toolUi })(function population() {
    return seedResult();
  });
  return registry;
}

describe("the data view (MCP Apps resource)", () => {
  it("every tool's _meta points at it, as ext-apps' own host code reads it", async () => {
    const { client, close } = await connectInMemory(citiesRegistry());
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, getToolUiResourceUri({ _meta: tool._meta })])).toEqual([
        ["list_cities", DATA_VIEW_URI],
        ["population", DATA_VIEW_URI],
      ]);
      expect(tools[0]?._meta).toEqual({ ui: { resourceUri: "ui://sourced/data-view.html" }, "ui/resourceUri": "ui://sourced/data-view.html" });
    } finally {
      await close();
    }
  });

  it("is listed and readable: one self-contained HTML app whose CSP reaches no origin", async () => {
    expect(MCP_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    const { client, close } = await connectInMemory(citiesRegistry());
    try {
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        expect.objectContaining({ uri: DATA_VIEW_URI, name: "sourced-data-view", mimeType: RESOURCE_MIME_TYPE, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } }),
      ]);
      const { contents } = await client.readResource({ uri: DATA_VIEW_URI });
      expect(contents).toHaveLength(1);
      const [content] = contents as Array<{ uri: string; mimeType?: string; text?: string; _meta?: unknown }>;
      expect(content).toMatchObject({ uri: DATA_VIEW_URI, mimeType: RESOURCE_MIME_TYPE, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } } });
      const html = content!.text!;
      expect(html.startsWith("<!doctype html>")).toBe(true);
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
      expect(csp).toMatch(/^default-src 'none'; .*script-src 'sha256-[A-Za-z0-9+/=]+'$/);
      expect(csp).not.toMatch(/https?:|\*/);
      // Everything is inline: no element loads anything.
      expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\b(src|href)=/i);
      expect(html.match(/<script>/g)).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it("the SDK v2 Client, announcing MCP Apps over Streamable HTTP, finds and reads it", async () => {
    const serving = await citiesRegistry().serveHttp();
    const client = new ClientV2(
      { name: "apps-host", version: "1.0.0" },
      { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransportV2(serving.url));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => getToolUiResourceUri({ _meta: tool._meta }))).toEqual([DATA_VIEW_URI, DATA_VIEW_URI]);
      const { contents } = await client.readResource({ uri: DATA_VIEW_URI });
      expect(contents[0]?.mimeType).toBe(RESOURCE_MIME_TYPE);
    } finally {
      await client.close();
      await serving.close();
    }
  });

  it("the legacy SDK 1.x Client sees the same _meta and reads the same resource", async () => {
    const serving = await citiesRegistry().serveHttp();
    const client = new ClientV1({ name: "legacy-host", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransportV1(serving.url));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => getToolUiResourceUri({ _meta: tool._meta }))).toEqual([DATA_VIEW_URI, DATA_VIEW_URI]);
      const { contents } = await client.readResource({ uri: DATA_VIEW_URI });
      expect(contents[0]?.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(await client.callTool({ name: "list_cities" })).toEqual(seedResult());
    } finally {
      await client.close();
      await serving.close();
    }
  });

  it("a client without MCP Apps gets exactly the results it got before", async () => {
    const withView = await connectInMemory(citiesRegistry());
    const withoutView = await connectInMemory(citiesRegistry({ ui: false }));
    try {
      const shown = await withView.client.callTool({ name: "list_cities" });
      const plain = await withoutView.client.callTool({ name: "list_cities" });
      expect(shown).toEqual(plain);
      expect(shown).toEqual(seedResult());
    } finally {
      await withView.close();
      await withoutView.close();
    }
  });

  it("createRegistry({ ui: false }): no tool declares it and no resource is served", async () => {
    const { client, close } = await connectInMemory(citiesRegistry({ ui: false }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool._meta)).toEqual([undefined, undefined]);
      expect(client.getServerCapabilities()?.resources).toBeUndefined();
    } finally {
      await close();
    }
  });

  it("registry.tool({ ui: false }): that tool alone is served as text only", async () => {
    const { client, close } = await connectInMemory(citiesRegistry({ toolUi: false }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, getToolUiResourceUri({ _meta: tool._meta })])).toEqual([
        ["list_cities", DATA_VIEW_URI],
        ["population", undefined],
      ]);
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([DATA_VIEW_URI]);
    } finally {
      await close();
    }
  });

  it("no tool uses it: no resource is served", async () => {
    const registry = createRegistry({ name: "quiet", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.tool({ ui: false })(function only_text() {
      return seedResult();
    });
    const { client, close } = await connectInMemory(registry);
    try {
      expect(client.getServerCapabilities()?.resources).toBeUndefined();
    } finally {
      await close();
    }
  });
});

/** The page as a registry serves it. */
async function servedPage(registry: Pick<Registry, "createServer">): Promise<string> {
  const { client, close } = await connectInMemory(registry);
  try {
    const { contents } = await client.readResource({ uri: DATA_VIEW_URI });
    return (contents[0] as { text: string }).text;
  } finally {
    await close();
  }
}

describe("the page, shipped once", () => {
  it("the CommonJS and the ES module builds serve the same page, from the one module both import", async () => {
    const esm = await import("../esm/index.js");
    const { html } = await import("../esm/data-view.js");
    expect(html).toMatch(/^<!doctype html>/);
    const commonjs = createRegistry({ name: "cities", version: "1.0.0", logger: recordingLogger() });
    commonjs.tool()(function list_cities() {
      return seedResult();
    });
    const module = esm.createRegistry({ name: "cities", version: "1.0.0", logger: recordingLogger() });
    module.tool()(function list_cities() {
      return seedResult();
    });
    expect(await servedPage(commonjs)).toBe(html);
    // The same SDK classes, typed through their ES module declarations here.
    expect(await servedPage(module as unknown as Registry)).toBe(html);
    expect(readdirSync(join(PACKAGE_DIR, "dist")).filter((file) => file.startsWith("data-view"))).toEqual([]);
  });

  it.each(["esm", "cjs"] as const)("a server bundled by esbuild (%s) carries the page and serves it, with no node_modules beside it", async (format) => {
    const { html } = await import("../esm/data-view.js");
    const out = mkdtempSync(join(tmpdir(), `sourced-bundled-view-${format}-`));
    try {
      const serve = `
        const registry = createRegistry({ name: "bundled", version: "1.0.0" });
        registry.tool()(function list_cities() {
          return { content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: ["https://example.org/cities-data"] } };
        });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await registry.createServer().connect(serverSide);
        const client = new Client({ name: "bundle-test", version: "1.0.0" });
        await client.connect(clientSide);
        const { contents } = await client.readResource({ uri: "ui://sourced/data-view.html" });
        process.stdout.write(contents[0].text);
        await client.close();`;
      const contents =
        format === "esm"
          ? `import { createRegistry } from "@sourced/registry";\nimport { Client, InMemoryTransport } from "@modelcontextprotocol/client";\n${serve}`
          : `const { createRegistry } = require("@sourced/registry");\nconst { Client, InMemoryTransport } = require("@modelcontextprotocol/client");\n(async () => {${serve}})();`;
      const outfile = join(out, format === "esm" ? "server.mjs" : "server.cjs");
      await build({ stdin: { contents, resolveDir: __dirname, loader: "js" }, bundle: true, platform: "node", format, target: "node22", outfile, logLevel: "silent" });
      expect(readdirSync(out)).toEqual([format === "esm" ? "server.mjs" : "server.cjs"]);
      const { stdout } = await promisify(execFile)(process.execPath, [outfile], { cwd: out, maxBuffer: 16 << 20 });
      expect(stdout).toBe(html);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("a build without the view", () => {
  it("resources/read answers an error that says what to do, and one warning, once per failed load", async () => {
    const logger = recordingLogger();
    const view = gatewayView(undefined, logger, () => Promise.reject(new Error("Cannot find module './data-view.js'")))!;
    expect(view.toolMeta(undefined)).toEqual({ ui: { resourceUri: DATA_VIEW_URI }, "ui/resourceUri": DATA_VIEW_URI });
    expect(view.toolMeta(false)).toBeUndefined();
    const server = new McpServer({ name: "incomplete", version: "1.0.0" });
    view.serve(server);
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new ClientV2({ name: "host", version: "1.0.0" });
    await client.connect(clientTransport);
    try {
      await expect(client.readResource({ uri: DATA_VIEW_URI })).rejects.toThrow(/this build of @sourced\/registry is incomplete; reinstall it, or pass \{ ui: false \} to createRegistry\(\)/);
      expect(logger.warnings).toEqual([expect.stringMatching(/^the data view cannot be loaded \(Cannot find module '\.\/data-view\.js'\)/)]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
