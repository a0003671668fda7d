import type { ChartConfiguration } from "chart.js";
import { prepareChart } from "./charts";
import { isRecord } from "./values";

/*
 * What the user sees of a tool result: `structuredContent` rendered field by field, exactly as
 * the tool computed it. Everything here builds DOM nodes and sets `textContent`: no string of a
 * result is ever parsed as HTML.
 */

/** The parts of `structuredContent` the view draws; anything else in it is ignored. */
export interface ViewData {
  readonly sources: readonly unknown[];
  readonly table: readonly (readonly unknown[])[] | undefined;
  readonly charts: readonly unknown[];
  readonly force: string | undefined;
}

/** What a result becomes: the data to draw, or the error text a refused or failed call carries. */
export type ViewModel = { readonly kind: "data"; readonly data: ViewData } | { readonly kind: "error"; readonly message: string };

interface ResultLike {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  readonly isError?: unknown;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is { type: "text"; text: string } => isRecord(block) && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");
}

/**
 * An error result shows its text and nothing else, even if it carries `structuredContent`: a
 * refused result must never be drawn in part.
 */
export function viewModelOf(result: ResultLike): ViewModel {
  if (result.isError === true) {
    return { kind: "error", message: textOf(result.content) || "The tool call failed without saying why." };
  }
  const structured = result.structuredContent;
  if (!isRecord(structured)) {
    return { kind: "error", message: "The result carries no structuredContent: there is nothing to show but the text the model read." };
  }
  const table = Array.isArray(structured.table) && structured.table.every(Array.isArray) ? (structured.table as unknown[][]) : undefined;
  return {
    kind: "data",
    data: {
      sources: Array.isArray(structured.sources) ? structured.sources : [],
      table: table !== undefined && table.length > 0 ? table : undefined,
      charts: Array.isArray(structured.charts) ? structured.charts : [],
      force: typeof structured.force === "string" ? structured.force : undefined,
    },
  };
}

/** An absolute http:/https: URL, or `undefined` for anything else (`javascript:`, `data:`, relative, …). */
export function safeLink(value: unknown): URL | undefined {
  if (typeof value !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}

function element<K extends keyof HTMLElementTagNameMap>(
  document: Document,
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The URI of a resource the server serves (`memory://graph`): an absolute URI of a scheme other
 * than http(s), which the net accepts only when the server serves it. It is never navigated to:
 * the view asks the host to read it from the server (`resources/read`) and shows what it holds.
 * A scheme the browser runs or renders itself (`javascript:`, `data:` …) is never one: the net
 * refuses it as a source (the URL rule of @sourced/contract-rules), so only a result that bypassed the net can
 * hold it, and it is shown as refused text.
 */
export function resourceUri(value: unknown): string | undefined {
  return typeof value === "string" &&
    /^[A-Za-z][A-Za-z0-9+.-]*:/u.test(value) &&
    !/^https?:/iu.test(value) &&
    !/^(?:javascript|vbscript|data|blob|about):/iu.test(value)
    ? value
    : undefined;
}

/** What a resource read returns, as far as the view shows it. */
export interface ResourceContents {
  readonly contents: readonly { readonly uri?: unknown; readonly mimeType?: unknown; readonly text?: unknown; readonly blob?: unknown }[];
}

/** The longest text of a resource the view shows; the rest is said to be cut. */
export const RESOURCE_TEXT_LIMIT = 20_000;

/** A resource's contents under its source: text as it is (never parsed as HTML), binary data by its size. */
export function renderResourceContents(document: Document, read: ResourceContents): HTMLElement {
  const box = element(document, "div", { class: "resource-contents" });
  for (const part of read.contents) {
    if (typeof part.text === "string") {
      const cut = part.text.length > RESOURCE_TEXT_LIMIT;
      box.append(element(document, "pre", {}, cut ? `${part.text.slice(0, RESOURCE_TEXT_LIMIT)}\n… (${(part.text.length - RESOURCE_TEXT_LIMIT).toLocaleString("en-US")} more characters)` : part.text));
    } else if (typeof part.blob === "string") {
      const type = typeof part.mimeType === "string" ? part.mimeType : "binary data";
      box.append(element(document, "p", {}, `${type}, ${Math.floor((part.blob.length * 3) / 4).toLocaleString("en-US")} bytes`));
    }
  }
  if (box.childElementCount === 0) box.append(element(document, "p", {}, "The resource is empty."));
  return box;
}

/**
 * `sources`: one link per http/https URL, showing its domain; a button per URI of a resource the
 * server serves, which reads it through the host and shows its contents; anything else is shown
 * as refused text.
 */
export function renderSources(
  document: Document,
  sources: readonly unknown[],
  openLink: (url: string) => void,
  readResource: (uri: string) => Promise<ResourceContents>,
): HTMLElement {
  const section = element(document, "section", { class: "sources", "aria-label": "Sources" });
  section.append(element(document, "h2", {}, sources.length === 1 ? "Source" : "Sources"));
  const list = element(document, "ul");
  for (const source of sources) {
    const item = element(document, "li");
    const url = safeLink(source);
    const resource = url === undefined ? resourceUri(source) : undefined;
    if (resource !== undefined) {
      const button = element(document, "button", { type: "button", class: "resource", title: resource, "aria-expanded": "false" });
      button.append(element(document, "span", { class: "domain" }, "resource"), element(document, "span", { class: "url" }, resource));
      button.addEventListener("click", () => {
        item.querySelector(".resource-contents, .refused")?.remove();
        button.setAttribute("aria-expanded", "true");
        readResource(resource).then(
          (read) => item.append(renderResourceContents(document, read)),
          (error: unknown) => item.append(element(document, "p", { class: "refused" }, `Could not read the resource: ${error instanceof Error ? error.message : String(error)}`)),
        );
      });
      item.append(button);
    } else if (url === undefined) {
      item.className = "refused";
      item.textContent = `Not a web link, not opened: ${typeof source === "string" ? source : JSON.stringify(source)}`;
    } else {
      // The title shows the whole URL on hover; the stylesheet unfolds a long one on hover and focus.
      const link = element(document, "a", { href: url.href, rel: "noopener noreferrer", target: "_blank", title: url.href });
      link.append(element(document, "span", { class: "domain" }, url.hostname), element(document, "span", { class: "url" }, url.href));
      // The view runs in a sandboxed frame: the host opens the link, after its own checks.
      link.addEventListener("click", (event) => {
        event.preventDefault();
        openLink(url.href);
      });
      item.append(link);
    }
    list.append(item);
  }
  section.append(list);
  return section;
}

/** A number, or a string that reads as one (`"37400068"`, `"-1.5"`): right-aligned. */
function isNumeric(cell: unknown): boolean {
  if (typeof cell === "number") return true;
  return typeof cell === "string" && /^[+-]?(\d[\d,]*)(\.\d+)?%?$/.test(cell.trim());
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return "";
  return typeof cell === "string" ? cell : String(cell);
}

/**
 * `table`: the first row is the header (`<th scope="col">`); a column whose cells are all numbers
 * is right-aligned; a wide table scrolls inside its own region.
 */
export function renderTable(document: Document, rows: readonly (readonly unknown[])[]): HTMLElement {
  const [header = [], ...body] = rows;
  const numeric = header.map((_, column) => body.length > 0 && body.every((row) => row[column] === null || isNumeric(row[column])));
  const region = element(document, "div", { class: "table-scroll", role: "region", "aria-label": "Table", tabindex: "0" });
  const table = element(document, "table");
  const head = element(document, "thead");
  const headRow = element(document, "tr");
  header.forEach((cell, column) => headRow.append(element(document, "th", { scope: "col", class: numeric[column] ? "num" : "" }, cellText(cell))));
  head.append(headRow);
  const tbody = element(document, "tbody");
  for (const row of body) {
    const tr = element(document, "tr");
    row.forEach((cell, column) => tr.append(element(document, "td", { class: numeric[column] ? "num" : "" }, cellText(cell))));
    tbody.append(tr);
  }
  table.append(head, tbody);
  region.append(table);
  return region;
}

/** Draws one Chart.js configuration on a canvas; returns what can draw it again (in the theme's new colours) or remove it. */
export type DrawChart = (canvas: HTMLCanvasElement, config: ChartConfiguration) => { redraw(): void; destroy(): void };

/** `charts`: one canvas per configuration, each drawn by Chart.js from a copy of its type/data/options. */
export function renderCharts(
  document: Document,
  charts: readonly unknown[],
  draw: DrawChart,
): { section: HTMLElement; drawn: Array<ReturnType<DrawChart>> } {
  const section = element(document, "section", { class: "charts", "aria-label": "Charts" });
  const drawn: Array<ReturnType<DrawChart>> = [];
  charts.forEach((chart, index) => {
    const figure = element(document, "figure", { class: "chart" });
    const frame = element(document, "div", { class: "chart-frame" });
    const canvas = element(document, "canvas", { role: "img", "aria-label": chartLabel(chart, index) });
    frame.append(canvas);
    figure.append(frame);
    section.append(figure);
    if (!isRecord(chart) || typeof chart.type !== "string" || !isRecord(chart.data)) {
      figure.replaceChildren(element(document, "p", { class: "refused" }, `Chart ${index + 1} is not a Chart.js configuration and was not drawn.`));
      return;
    }
    try {
      // Chart.js writes into the configuration it is given: draw a copy, keep the result as sent.
      const config = structuredClone(chart);
      const shape = prepareChart(config);
      if (shape !== undefined) frame.classList.add(shape);
      drawn.push(draw(canvas, config as unknown as ChartConfiguration));
    } catch (error) {
      figure.replaceChildren(
        element(document, "p", { class: "refused" }, `Chart ${index + 1} could not be drawn: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  });
  return { section, drawn };
}

function chartLabel(chart: unknown, index: number): string {
  const title = isRecord(chart) && isRecord(chart.options) && isRecord(chart.options.plugins) ? chart.options.plugins.title : undefined;
  const text = isRecord(title) && typeof title.text === "string" ? title.text : undefined;
  const type = isRecord(chart) && typeof chart.type === "string" ? chart.type : "chart";
  return text ?? `Chart ${index + 1} (${type})`;
}

/** `force`: the tool's own words, shown verbatim as text and marked as not written by the model. */
export function renderForce(document: Document, force: string): HTMLElement {
  const section = element(document, "section", { class: "force", "aria-label": "Verbatim from the tool" });
  section.append(element(document, "p", { class: "force-label" }, "Verbatim from the tool — not written by the model"));
  section.append(element(document, "pre", {}, force));
  return section;
}

/** An error result: its text, and nothing of its data. */
export function renderError(document: Document, message: string): HTMLElement {
  const section = element(document, "section", { class: "error", role: "alert" });
  section.append(element(document, "h2", {}, "No data to show"), element(document, "pre", {}, message));
  return section;
}
