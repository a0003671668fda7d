import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import { Chart } from "chart.js/auto";
import { renderCharts, renderError, renderForce, renderSources, renderTable, viewModelOf, type DrawChart } from "./render";

/*
 * The data view: an MCP App (SEP-1865) that a host renders in a sandboxed frame next to the answer.
 * It receives the tool result from the host through ext-apps' `App` and draws its
 * `structuredContent`; it makes no network request (its CSP allows none).
 */

const root = document.getElementById("root")!;
const app = new App({ name: "sourced data view", version: "1.0.0" }, {}, { autoResize: true });
let charts: Array<ReturnType<DrawChart>> = [];

/**
 * Draws a chart, and draws it anew for a theme change: an existing chart keeps the defaults it
 * resolved (text, grid and border colours), whatever `update()` is asked.
 */
const drawChart: DrawChart = (canvas, config) => {
  let chart = new Chart(canvas, structuredClone(config));
  return {
    redraw() {
      chart.destroy();
      chart = new Chart(canvas, structuredClone(config));
    },
    destroy: () => chart.destroy(),
  };
};

/**
 * Text, grid lines and slice borders in the theme's colours. Only these element defaults are set:
 * a dataset's own colours come from the palette or from the tool (charts.ts), never from here.
 */
function applyChartTheme(): void {
  const styles = getComputedStyle(document.documentElement);
  const variable = (name: string) => styles.getPropertyValue(name).trim();
  const text = variable("--text-secondary");
  const border = variable("--border");
  const background = variable("--background");
  if (text) Chart.defaults.color = text;
  if (border) {
    Chart.defaults.set("scale", { grid: { color: border }, border: { color: border } });
    Chart.defaults.set("scales.radialLinear", { angleLines: { color: border } });
  }
  if (background) {
    // Slices are separated by the background, and a radial scale's tick labels sit on it.
    Chart.defaults.set("elements.arc", { borderColor: background });
    Chart.defaults.set("scale", { ticks: { backdropColor: background } });
  }
}

/**
 * The host's theme, style variables and container. The view always fills its frame's width (a
 * fixed `width` is the frame's own); a `maxWidth` caps it, and a fixed `height` is kept, with the
 * document scrolling inside it.
 */
function applyHostContext(context: McpUiHostContext | undefined): void {
  if (context === undefined) return;
  if (context.theme !== undefined) applyDocumentTheme(context.theme);
  if (context.styles?.variables !== undefined) applyHostStyleVariables(context.styles.variables);
  const dimensions = context.containerDimensions as { maxWidth?: number; height?: number } | undefined;
  if (dimensions !== undefined) {
    const style = document.documentElement.style;
    style.maxWidth = dimensions.maxWidth !== undefined ? `${dimensions.maxWidth}px` : "";
    style.height = dimensions.height !== undefined ? `${dimensions.height}px` : "";
  }
  if (context.theme !== undefined || context.styles?.variables !== undefined) {
    applyChartTheme();
    for (const chart of charts) chart.redraw();
  }
}

function show(result: Parameters<typeof viewModelOf>[0]): void {
  for (const chart of charts) chart.destroy();
  charts = [];
  const model = viewModelOf(result);
  root.replaceChildren();
  document.body.dataset.state = model.kind;
  if (model.kind === "error") {
    root.append(renderError(document, model.message));
    return;
  }
  const { sources, table, charts: configs, force } = model.data;
  if (force !== undefined) root.append(renderForce(document, force));
  if (table !== undefined) root.append(renderTable(document, table));
  if (configs.length > 0) {
    applyChartTheme();
    const rendered = renderCharts(document, configs, drawChart);
    root.append(rendered.section);
    charts = rendered.drawn;
  }
  root.append(
    renderSources(
      document,
      sources,
      (url) => void app.openLink({ url }).catch(() => undefined),
      // A resource the server serves: read from it through the host.
      (uri) => app.readServerResource({ uri }),
    ),
  );
}

app.ontoolresult = (result) => show(result);
app.ontoolcancelled = ({ reason }) => {
  for (const chart of charts) chart.destroy();
  charts = [];
  document.body.dataset.state = "error";
  root.replaceChildren(renderError(document, `The tool call was cancelled${reason ? `: ${reason}` : "."}`));
};
app.onhostcontextchanged = (context) => applyHostContext(context);

app.connect().then(
  () => applyHostContext(app.getHostContext()),
  (error: unknown) => {
    root.replaceChildren(renderError(document, `The view could not reach its host: ${error instanceof Error ? error.message : String(error)}`));
  },
);
