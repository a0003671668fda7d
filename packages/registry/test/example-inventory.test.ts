/// <reference lib="dom" />
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { Stream } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { callTool, launchChromium, screenshot, startPreview, type RunningPreview } from "../../cli/test/browser";
import { bundle, tspcBuild } from "../../unplugin/test/support.js";
import { PACKAGE_DIR } from "./helpers.js";

/*
 * The second example server (fixtures/projects/inventory: its stock in a local JSON file, served as
 * the resource inventory://stock that its tools cite) on every path a user runs it: from its
 * sources with Node's type stripping and with tsx (the start-up check judges them), built with
 * tspc (the transformer), and bundled by esbuild with @sourced/unplugin. On each, the SDK's v2 and
 * legacy v1 Clients over stdio see exactly the compliant tools, a checked result from each, the
 * resource, the prompt, progress and a cancelled call; then the data view shows a result in Chromium.
 */

const REPO = join(PACKAGE_DIR, "..", "..");
const INVENTORY = join(REPO, "fixtures", "projects", "inventory");
// The example's own tsx, as `npx tsx` would run it there.
const TSX = join(INVENTORY, "node_modules", "tsx", "dist", "cli.mjs");
const STOCK_URI = "inventory://stock";
const COMPLIANT = ["audit_stock", "item_details", "list_stock", "restock"];
const STOCK_CSV_REFUSED = /tool "stock_csv" \(src\/tools\/stock-csv\.ts:\d+:\d+\) was not registered: Tool 'stock_csv' is declared to return 'Promise<CallToolResult>', which is not DataToolOutput/;

/** How each path starts the server; `fromSource`: the start-up check judges it (the build stripped stock_csv otherwise). */
interface ServerPath {
  readonly command: readonly string[];
  readonly fromSource: boolean;
}

const paths = new Map<string, ServerPath>();
const stockCopies: string[] = [];

beforeAll(async () => {
  paths.set("node src/server.ts (Node's type stripping)", { command: [join(INVENTORY, "src", "server.ts")], fromSource: true });
  paths.set("tsx src/server.ts", { command: [TSX, join(INVENTORY, "src", "server.ts")], fromSource: true });
  paths.set("tspc (the transformer)", { command: [join(tspcBuild(INVENTORY), "server.js")], fromSource: false });
  const bundled = await bundle({ bundler: "esbuild", project: INVENTORY, name: "esbuild", format: "esm", plugin: { severity: "warning" } });
  if (bundled.failed) throw new Error(`esbuild failed:\n${bundled.texts.join("\n")}`);
  expect(bundled.warnings).toEqual([expect.stringMatching(/^src\/tools\/stock-csv\.ts:\d+:\d+ SRC92002$/)]);
  paths.set("esbuild with @sourced/unplugin", { command: ["--enable-source-maps", bundled.bundle], fromSource: false });
}, 120_000);

afterAll(() => {
  for (const copy of stockCopies) rmSync(copy, { recursive: true, force: true });
});

/** A fresh copy of the shipped stock file for one server: restock writes to it. */
function stockCopy(): string {
  const directory = mkdtempSync(join(tmpdir(), "sourced-inventory-"));
  stockCopies.push(directory);
  const file = join(directory, "inventory.json");
  copyFileSync(join(INVENTORY, "data", "inventory.json"), file);
  return file;
}

interface Progress {
  readonly progress: number;
  readonly total?: number;
}

interface CallResult {
  readonly content: ReadonlyArray<{ type: string; text?: string }>;
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** What the test asks of a server, the same through either client. */
interface Session {
  tools(): Promise<string[]>;
  /** The keys each tool's published outputSchema declares. */
  outputKeys(): Promise<Record<string, string[]>>;
  call(name: string, args?: Record<string, unknown>, onprogress?: (progress: Progress) => void, signal?: AbortSignal): Promise<CallResult>;
  read(uri: string): Promise<string>;
  prompt(name: string, args: Record<string, string>): Promise<string>;
  readonly stderr: () => string;
  close(): Promise<void>;
}

const env = (stock: string): Record<string, string> => ({ ...(process.env as Record<string, string>), NODE_OPTIONS: "", INVENTORY_FILE: stock });

const textOf = (content: unknown): string => (content as { text: string }).text;

/** What both SDK lines' Clients have in common, as the test uses it. */
interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string; outputSchema?: Record<string, unknown> }> }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: Array<{ content: unknown }> }>;
  close(): Promise<void>;
}

function session(client: AnyClient, call: Session["call"], stderr: () => string): Session {
  return {
    tools: async () => (await client.listTools()).tools.map((tool) => tool.name).sort(),
    outputKeys: async () => Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, Object.keys((tool.outputSchema?.properties as object | undefined) ?? {})])),
    call,
    read: async (uri) => textOf((await client.readResource({ uri })).contents[0]),
    prompt: async (name, args) => textOf((await client.getPrompt({ name, arguments: args })).messages[0]!.content),
    stderr,
    close: () => client.close(),
  };
}

/** The server's stderr, collected from a transport started with `stderr: "pipe"`. */
function collect(transport: { stderr: Stream | null }): () => string {
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return () => stderr;
}

async function v2Session(command: readonly string[], stock: string): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...command], cwd: INVENTORY, env: env(stock), stderr: "pipe" });
  const stderr = collect(transport);
  const client = new Client({ name: "inventory-test", version: "1.0.0" });
  await client.connect(transport);
  const call: Session["call"] = async (name, args, onprogress, signal) =>
    (await client.callTool({ name, arguments: args }, onprogress === undefined ? undefined : { onprogress, ...(signal && { signal }) })) as CallResult;
  return session(client, call, stderr);
}

async function v1Session(command: readonly string[], stock: string): Promise<Session> {
  const transport = new LegacyStdioClientTransport({ command: process.execPath, args: [...command], cwd: INVENTORY, env: env(stock), stderr: "pipe" });
  const stderr = collect(transport);
  const client = new LegacyClient({ name: "inventory-test-v1", version: "1.0.0" });
  await client.connect(transport);
  const call: Session["call"] = async (name, args, onprogress, signal) =>
    (await client.callTool({ name, arguments: args }, undefined, onprogress === undefined ? undefined : { onprogress, ...(signal && { signal }) })) as CallResult;
  return session(client, call, stderr);
}

const CLIENTS = { "v2 Client": v2Session, "v1 Client (@modelcontextprotocol/sdk 1.32)": v1Session };

describe.each(["node src/server.ts (Node's type stripping)", "tsx src/server.ts", "tspc (the transformer)", "esbuild with @sourced/unplugin"])("inventory, %s", (title) => {
  test.each(Object.keys(CLIENTS) as Array<keyof typeof CLIENTS>)(
    "%s over stdio: exactly the compliant tools, a checked result from each, the resource, the prompt, progress and a cancelled call",
    async (clientName) => {
      const path = paths.get(title)!;
      const stock = stockCopy();
      const session = await CLIENTS[clientName](path.command, stock);
      try {
        expect(await session.tools(), session.stderr()).toEqual(COMPLIANT);
        // list_stock publishes its typed output beside the contract's keys; the others the contract alone.
        const contract = ["sources", "table", "charts", "force"];
        expect(await session.outputKeys()).toEqual({ audit_stock: contract, item_details: contract, list_stock: [...contract, "warehouse", "items"], restock: contract });
        // Run from the sources, the start-up check refused it with the build's finding; built, it was stripped.
        if (path.fromSource) expect(session.stderr()).toMatch(STOCK_CSV_REFUSED);
        else expect(session.stderr()).not.toContain("stock_csv");

        // A typed output: the stock itself beside the contract's keys, as the shipped file holds it
        // (and, for the v1 Client, checked against the outputSchema tools/list published).
        const shipped = JSON.parse(readFileSync(join(INVENTORY, "data", "inventory.json"), "utf8")) as { warehouse: string; items: unknown[] };
        const listed = await session.call("list_stock");
        expect(listed.isError, JSON.stringify(listed)).toBeUndefined();
        expect(listed.structuredContent).toEqual({
          sources: [STOCK_URI],
          table: [
            ["SKU", "Item", "Quantity", "Reorder at"],
            ["BLT-M8", "M8 hex bolt, zinc plated", 1200, 500],
            ["NUT-M8", "M8 hex nut", 340, 500],
            ["WSH-M8", "M8 flat washer", 2100, 800],
            ["BRK-L40", "Angle bracket 40 mm", 75, 100],
            ["SCR-4X30", "Wood screw 4 x 30 mm", 5000, 1500],
          ],
          warehouse: shipped.warehouse,
          items: shipped.items,
        });

        // The supplier wrote "…?size=M8|flat": toSourceUrl percent-encodes the "|"; "not a link" gives no source.
        expect((await session.call("item_details", { sku: "wsh-m8" })).structuredContent?.sources).toEqual([STOCK_URI, "https://fixings.example.org/washers?size=M8%7Cflat"]);
        expect((await session.call("item_details", { sku: "SCR-4X30" })).structuredContent?.sources).toEqual([STOCK_URI]);

        const progress: Progress[] = [];
        const audit = await session.call("audit_stock", {}, (update) => progress.push(update));
        expect(audit.content[0]!.text).toBe(
          "2 of 5 items in Lisbon are at or below their reorder level: M8 hex nut (NUT-M8, 340 left, reorder at 500), Angle bracket 40 mm (BRK-L40, 75 left, reorder at 100).",
        );
        // One notification as each of the 5 items is checked, in order. Both SDK Clients handle a
        // notification a tick later than a response, and stop listening once the response is in:
        // when the client process is starved long enough to read the last one together with the
        // response (a loaded machine), it is dropped; starved longer, the ones before it too.
        const received = progress.map((update) => [update.progress, update.total]);
        expect(received.length).toBeGreaterThan(0);
        expect(received).toEqual([0, 1, 2, 3, 4].slice(0, received.length).map((done) => [done, 5]));

        // Cancelled once it has started (the user closed the chat): the tool stops at its next
        // item (its signal aborted), no answer is sent, nothing is logged as a failure.
        const cancel = new AbortController();
        // On its first progress, or after 60 ms should no progress reach a starved client first (the audit takes 125 ms or more).
        const late = setTimeout(() => cancel.abort(new Error("the user closed the chat")), 60);
        const cancelled = await session
          .call("audit_stock", {}, () => cancel.abort(new Error("the user closed the chat")), cancel.signal)
          .then(
            () => "answered",
            (error: unknown) => String(error),
          );
        clearTimeout(late);
        expect(cancelled).toContain("the user closed the chat");

        // The action's source is the resource it changed: reading it shows the new quantity.
        const restocked = await session.call("restock", { sku: "NUT-M8", quantity: 200 });
        expect([restocked.content[0]!.text, restocked.structuredContent?.sources]).toEqual(["Recorded 200 × M8 hex nut (NUT-M8): 540 now in stock.", [STOCK_URI]]);
        const read = JSON.parse(await session.read(STOCK_URI)) as { items: Array<{ sku: string; quantity: number }> };
        expect(read.items.find((item) => item.sku === "NUT-M8")?.quantity).toBe(540);

        // An expected failure (ToolError): its message for the LLM, one line in the log, no stack.
        const unknown = await session.call("restock", { sku: "NUT-M9", quantity: 1 });
        expect([unknown.isError, unknown.content[0]!.text]).toEqual([true, "No item with SKU NUT-M9: nothing was changed. Known SKUs: BLT-M8, NUT-M8, WSH-M8, BRK-L40, SCR-4X30."]);
        // The log line may reach the client after the answer (two pipes): polled, not read once.
        await expect.poll(() => session.stderr()).toMatch(/Tool "restock" \(registered at [^)]+\) answered with an error: No item with SKU NUT-M9: nothing was changed\.[^\n]*\n(?!\s+at )/);

        expect(await session.prompt("reorder_plan", { budget: "500 EUR" })).toBe(
          "Call audit_stock, then propose a purchase order for every item it lists, spending at most 500 EUR. Cite the supplier page of each item (item_details).",
        );
        // The run-time net refused nothing: every result above was sent as the tool returned it.
        expect(session.stderr()).not.toContain("breaks the DataToolOutput contract");
        expect(session.stderr()).not.toMatch(/Tool "audit_stock"[^\n]* threw/);
      } finally {
        await session.close();
      }
      expect(JSON.parse(readFileSync(stock, "utf8"))).toMatchObject({ items: expect.arrayContaining([expect.objectContaining({ sku: "NUT-M8", quantity: 540 })]) });
    },
    60_000,
  );
});

describe("inventory in the data view (sourced preview, Chromium)", () => {
  let browser: Browser;
  let preview: RunningPreview;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await preview?.stop();
    await browser?.close();
  });

  test("item_details: its table; its sources the supplier's page, a link, and the stock resource, which the view reads through the host", async () => {
    const server = relative(REPO, paths.get("tspc (the transformer)")!.command[0]!);
    preview = await startPreview(["--", "node", server], { INVENTORY_FILE: stockCopy() });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Nothing outside 127.0.0.1 is reachable from a test.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>opened</title>" }));
    const page = await context.newPage();
    await page.goto(preview.url);
    await page.waitForSelector("#tools button, #no-tools");
    expect(await page.$$eval("#tools button", (buttons) => buttons.map((button) => button.dataset.tool).sort())).toEqual(COMPLIANT);
    const frame = (await callTool(page, "item_details", { sku: "WSH-M8" }))!;
    expect(await page.textContent("#content-pane pre")).toBe("M8 flat washer (WSH-M8): 2100 in stock, reorder at 800. Supplier: https://fixings.example.org/washers?size=M8%7Cflat");
    expect(await frame.$$eval('thead th[scope="col"]', (cells) => cells.map((cell) => cell.textContent))).toEqual(["SKU", "Item", "Quantity", "Reorder at"]);
    expect(await frame.$$eval("tbody tr td", (cells) => cells.map((cell) => cell.textContent))).toEqual(["WSH-M8", "M8 flat washer", "2100", "800"]);
    expect(await frame.$$eval(".sources li", (items) => items.map((item) => item.textContent))).toEqual([
      expect.stringContaining(STOCK_URI),
      expect.stringContaining("https://fixings.example.org/washers?size=M8%7Cflat"),
    ]);
    expect(await frame.$$eval("a", (anchors) => anchors.map((a) => a.getAttribute("href")))).toEqual(["https://fixings.example.org/washers?size=M8%7Cflat"]);
    // The local source is no link but a button: the view asks the host to read the resource, and shows the stock file.
    expect(await frame.$$eval("button.resource .url", (urls) => urls.map((url) => url.textContent))).toEqual([STOCK_URI]);
    await frame.click("button.resource");
    const shown = JSON.parse((await (await frame.waitForSelector(".resource-contents pre, .sources .refused")).textContent()) ?? "") as { warehouse: string; items: unknown[] };
    expect([shown.warehouse, shown.items.length]).toEqual(["Lisbon", 5]);
    await page.waitForSelector(`#activity li:text-is("Read ${STOCK_URI}")`);
    await screenshot(page, "inventory-item-details");
    await context.close();
  });
});
