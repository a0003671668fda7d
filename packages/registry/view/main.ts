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
let charts: Array<{ update(): void; destroy(): void }> = [];

const drawChart: DrawChart = (canvas, config) => new Chart(canvas, config);

function applyChartTheme(): void {
  const styles = getComputedStyle(document.documentElement);
  Chart.defaults.color = styles.getPropertyValue("--text-secondary").trim() || Chart.defaults.color;
  Chart.defaults.borderColor = styles.getPropertyValue("--border").trim() || Chart.defaults.borderColor;
}

function applyHostContext(context: McpUiHostContext | undefined): void {
  if (context === undefined) return;
  if (context.theme !== undefined) applyDocumentTheme(context.theme);
  if (context.styles?.variables !== undefined) applyHostStyleVariables(context.styles.variables);
  const dimensions = context.containerDimensions as { width?: number; maxWidth?: number; height?: number; maxHeight?: number } | undefined;
  if (dimensions !== undefined) {
    const style = document.documentElement.style;
    style.width = dimensions.width !== undefined ? `${dimensions.width}px` : "";
    style.maxWidth = dimensions.maxWidth !== undefined ? `${dimensions.maxWidth}px` : "";
    style.height = dimensions.height !== undefined ? `${dimensions.height}px` : "";
    style.maxHeight = dimensions.maxHeight !== undefined ? `${dimensions.maxHeight}px` : "";
  }
  if (context.theme !== undefined) {
    applyChartTheme();
    for (const chart of charts) chart.update();
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
  root.append(renderSources(document, sources, (url) => void app.openLink({ url }).catch(() => undefined)));
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
