/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "../../cli/test/browser";
import { PALETTE } from "../view/charts";
import type { HttpServing } from "../dist/index.js";
import { PACKAGE_DIR } from "./helpers";
import { startAppsHost, type AppsHost } from "./hosts/apps-host-server";
import type { AppsHostApi } from "./hosts/apps-host";
import { colourCounts, viewGeometry } from "./hosts/measure";
import { GRAPH_TEXT, GRAPH_URI, LONG_TABLE_ROWS, OVERVIEW_HEADER, OWN_BAR_COLOUR, OWN_LINE_COLOUR, SOURCES, viewCasesRegistry } from "./hosts/view-cases";

/*
 * The data view in a host that is not ours (hosts/apps-host.ts: ext-apps' AppBridge holding an
 * MCP Client, the view written into a sandbox frame on another origin), at the widths chat hosts
 * give it, in both themes. The tests compare geometry and drawn colours, never stored pixels; the
 * screenshots they take are the ones docs/gateway.md shows.
 */

const WIDTHS = [320, 420, 700, 1000] as const;
type Theme = "light" | "dark";

let serving: HttpServing;
let host: AppsHost;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  serving = await viewCasesRegistry().serveHttp();
  host = await startAppsHost(serving.url);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  // Nothing outside 127.0.0.1 is reachable: a view that asked for anything would fail visibly.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
  await page.goto(host.url);
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await serving?.close();
});

declare const appsHost: AppsHostApi;

/** The view's own frame (inside the sandbox proxy's frame), once the result is drawn. */
async function viewFrame(): Promise<Frame> {
  const outer = (await (await page.waitForSelector("#app-frame[data-state=delivered]")).contentFrame())!;
  const inner = (await (await outer.waitForSelector("iframe")).contentFrame())!;
  await inner.waitForSelector("body[data-state]");
  return inner;
}

async function show(tool: string, width: number, theme: Theme): Promise<Frame> {
  await page.evaluate(({ tool, width, theme }) => appsHost.show(tool, {}, width, theme), { tool, width, theme });
  const frame = await viewFrame();
  await frame.waitForFunction((theme) => document.documentElement.dataset.theme === theme, theme);
  return frame;
}

/** The host switches theme or narrows its column; resolves once the view has followed. */
async function change(frame: Frame, context: { theme?: Theme; width?: number }): Promise<void> {
  await page.evaluate((context) => appsHost.change(context), context);
  if (context.theme !== undefined) await frame.waitForFunction((theme) => document.documentElement.dataset.theme === theme, context.theme);
  if (context.width !== undefined) {
    // Chart.js redraws on its own resize observer: wait until every canvas fits the new width.
    await frame.waitForFunction(
      (width) => document.documentElement.clientWidth === width && [...document.querySelectorAll("canvas")].every((canvas) => canvas.clientWidth <= width - 24),
      context.width,
    );
  }
}

/** Everything the issue asks of the view at a width: nothing overflows, the table is reachable, charts and links read. */
async function expectReadable(frame: Frame, width: number): Promise<void> {
  const geometry = await viewGeometry(frame);
  expect(geometry.viewport).toBe(width);
  expect(geometry.scrollWidth, "the document scrolls sideways").toBeLessThanOrEqual(width);
  expect(geometry.overflowing).toEqual([]);

  // The table stays in its box, which scrolls when the table is wider; its last column can be reached, header included.
  expect(geometry.table!.right).toBeLessThanOrEqual(width);
  const end = await frame.$eval(".table-scroll", (region) => {
    region.scrollLeft = region.scrollWidth;
    const box = region.getBoundingClientRect();
    const last = [...region.querySelectorAll("th")].at(-1)!.getBoundingClientRect();
    const shown = { lastHeaderInside: last.left >= box.left - 1 && last.right <= box.right + 1, headerTop: last.top - box.top };
    region.scrollLeft = 0;
    return shown;
  });
  expect(end.lastHeaderInside).toBe(true);
  expect(end.headerTop).toBeGreaterThanOrEqual(0);

  // Charts fill the width and keep a readable height: never a strip, never a tower.
  expect(geometry.canvases.map((canvas) => canvas.label)).toEqual(["Chart 1 (pie)", "Chart 2 (line)"]);
  for (const canvas of geometry.canvases) {
    expect(canvas.width).toBeLessThanOrEqual(width - 24);
    expect(canvas.height).toBeGreaterThanOrEqual(220);
    expect(canvas.width / canvas.height).toBeGreaterThanOrEqual(0.9);
    expect(canvas.width / canvas.height).toBeLessThanOrEqual(3);
  }

  // Links stay inside the view; the long one is cut after two lines, its full URL in its title.
  expect(geometry.links.map((link) => [link.href, link.title])).toEqual(SOURCES.map((source) => [source, source]));
  for (const link of geometry.links) expect(link.right).toBeLessThanOrEqual(width);
  const long = geometry.links[1]!;
  expect(long.lines).toBeLessThanOrEqual(2);
  expect(long.clipped).toBe(true);
}

/** Hovering or focusing the long link unfolds its whole URL, still inside the view. */
async function expectLongLinkUnfolds(frame: Frame, width: number, how: "hover" | "focus"): Promise<void> {
  const selector = `.sources a[title="${SOURCES[1]}"]`;
  if (how === "hover") await frame.hover(selector);
  else await frame.focus(selector);
  const unfolded = (await viewGeometry(frame)).links[1]!;
  expect(unfolded.clipped, `the URL is still cut on ${how}`).toBe(false);
  expect(unfolded.lines).toBeGreaterThan(2);
  expect(unfolded.right).toBeLessThanOrEqual(width);
  await frame.$eval(selector, (link) => (link as HTMLElement).blur());
  await page.mouse.move(0, 0);
}

/** The grid lines of each theme (view.css's `--border`). */
const GRID = { light: "#d5d8de", dark: "#43464d" } as const;

/** The palette's colours in the pie's slices and legend keys, and in the two lines and theirs; the grid in the theme's colour. */
async function expectChartColours(frame: Frame, theme: Theme): Promise<void> {
  const [grid, otherGrid] = await colourCounts(frame, 1, theme === "light" ? [GRID.light, GRID.dark] : [GRID.dark, GRID.light]);
  expect(grid, "the grid is not drawn in the theme's colour").toBeGreaterThan(300);
  expect(otherGrid, "the grid keeps the other theme's colour").toBe(0);

  const slices = PALETTE.slice(0, 3);
  const pie = await colourCounts(frame, 0, slices);
  for (const count of pie) expect(count).toBeGreaterThan(1000);
  // No title: the legend is drawn first, in the canvas's top rows, one key per slice in its colour.
  const pieLegend = await colourCounts(frame, 0, slices, { fromRow: 0, toRow: 28 });
  for (const count of pieLegend) expect(count).toBeGreaterThan(60);
  const lines = await colourCounts(frame, 1, PALETTE.slice(0, 2));
  for (const count of lines) expect(count).toBeGreaterThan(150);
  const lineLegend = await colourCounts(frame, 1, PALETTE.slice(0, 2), { fromRow: 0, toRow: 28 });
  for (const count of lineLegend) expect(count).toBeGreaterThan(60);
}

describe("the palette", () => {
  /** WCAG relative luminance and contrast ratio. */
  const luminance = (hex: string) =>
    [1, 3, 5]
      .map((at) => parseInt(hex.slice(at, at + 2), 16) / 255)
      .map((channel) => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4))
      .reduce((sum, channel, index) => sum + channel * [0.2126, 0.7152, 0.0722][index]!, 0);
  const contrast = (a: string, b: string) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  };
  const css = readFileSync(join(PACKAGE_DIR, "view", "view.css"), "utf8");
  const backgrounds = [...css.matchAll(/--background: var\(--color-background-primary, (#[0-9a-f]{6})\)/g)].map((match) => match[1]!);

  it("every colour reads on both themes' backgrounds (3:1, WCAG's minimum for graphics), and no two are alike", () => {
    expect(backgrounds).toEqual(["#ffffff", "#1e1f22"]);
    for (const colour of PALETTE) for (const background of backgrounds) expect(contrast(colour, background), `${colour} on ${background}`).toBeGreaterThanOrEqual(3);
    expect(new Set(PALETTE.map((colour) => colour.toLowerCase())).size).toBe(PALETTE.length);
  });
});

describe.each(WIDTHS)("the data view in another host, %i px wide", (width) => {
  it("light, then dark: no overflow, the table reachable, charts readable and coloured, links whole on hover and focus", async () => {
    const frame = await show("overview", width, "light");
    expect(await frame.$$eval("thead th", (cells) => cells.map((cell) => cell.textContent))).toEqual(OVERVIEW_HEADER);
    await expectReadable(frame, width);
    await expectChartColours(frame, "light");
    await expectLongLinkUnfolds(frame, width, "hover");
    await expectLongLinkUnfolds(frame, width, "focus");
    await screenshot(page, `view-${width}-light`, page.locator("#app-frame"));

    await change(frame, { theme: "dark" });
    expect((await viewGeometry(frame)).background).toBe("rgb(30, 31, 34)");
    await expectReadable(frame, width);
    await expectChartColours(frame, "dark");
    await screenshot(page, `view-${width}-dark`, page.locator("#app-frame"));
  });
});

describe("the data view in another host", () => {
  it("the tool's own colours win; a dataset without any takes the palette's", async () => {
    const frame = await show("own_colours", 700, "light");
    const [own, palette] = await colourCounts(frame, 0, [OWN_BAR_COLOUR, PALETTE[0]]);
    expect(own).toBeGreaterThan(5000);
    expect(palette).toBe(0);
    const [ownLine, paletteLine] = await colourCounts(frame, 1, [OWN_LINE_COLOUR, PALETTE[1]]);
    expect(ownLine).toBeGreaterThan(150);
    expect(paletteLine).toBeGreaterThan(150);
  });

  it("a long table scrolls inside its box, its header row kept in view", async () => {
    const frame = await show("long_table", 420, "light");
    const scrolled = await frame.$eval(".table-scroll", (region) => {
      const before = { client: region.clientHeight, scroll: region.scrollHeight };
      region.scrollTop = region.scrollHeight;
      const box = region.getBoundingClientRect();
      const header = region.querySelector("th")!.getBoundingClientRect();
      const last = [...region.querySelectorAll("tbody tr")].at(-1)!.getBoundingClientRect();
      return { ...before, headerTop: header.top - box.top, lastRowInside: last.bottom <= box.bottom + 1, documentHeight: document.documentElement.scrollHeight };
    });
    expect(scrolled.scroll).toBeGreaterThan(scrolled.client);
    expect(Math.abs(scrolled.headerTop)).toBeLessThanOrEqual(1);
    expect(scrolled.lastRowInside).toBe(true);
    // The box, not the page, holds the rows: the view stays far shorter than LONG_TABLE_ROWS rows.
    expect(scrolled.documentHeight).toBeLessThan(LONG_TABLE_ROWS * 20);
  });

  it("the host's column narrows from 1,000 to 320 px: the view follows without overflowing", async () => {
    const frame = await show("overview", 1000, "light");
    await change(frame, { width: 320 });
    await expectReadable(frame, 320);
  });

  it("a source link opens through the host (ui/open-link)", async () => {
    const frame = await show("overview", 700, "light");
    await frame.click(`.sources a[title="${SOURCES[0]}"]`);
    await page.waitForFunction((url) => appsHost.opened.includes(url), SOURCES[0]!);
  });

  it("a resource the server serves, cited as a source, opens in the view: read through the host (resources/read), its contents shown", async () => {
    const frame = await show("local_graph", 420, "light");
    const button = `.sources button.resource[title="${GRAPH_URI}"]`;
    expect(await frame.$eval(button, (node) => node.textContent)).toBe(`resource${GRAPH_URI}`);
    // The web source beside it is still a link the host opens.
    expect(await frame.$$eval(".sources a", (links) => links.map((link) => link.getAttribute("href")))).toEqual([SOURCES[0]]);
    await frame.click(button);
    const shown = await frame.waitForSelector(".sources .resource-contents pre");
    expect(await shown.textContent()).toBe(GRAPH_TEXT);
    expect(await frame.$eval(button, (node) => node.getAttribute("aria-expanded"))).toBe("true");
    // Reading is no navigation: the host was asked to open no link for it.
    expect(await page.evaluate(() => appsHost.opened)).not.toContain(GRAPH_URI);
    const geometry = await viewGeometry(frame);
    expect(geometry.overflowing).toEqual([]);
  });
});
