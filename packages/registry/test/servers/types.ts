// Compile-time checks of the public types: this file must compile, and every @ts-expect-error must hold.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ChartConfiguration } from "chart.js";
import { createRegistry, markVerified, type DataToolOutput, type ToolFunction } from "@sourced/registry";

declare const output: DataToolOutput;
// DataToolOutput is an MCP CallToolResult.
export const asResult: CallToolResult = output;

export const withChart: DataToolOutput = {
  content: [{ type: "text", text: "Tokyo leads." }],
  structuredContent: {
    sources: ["https://example.org/cities-data"],
    charts: [{ type: "line", data: { labels: ["2023"], datasets: [{ label: "Tokyo", data: [37] }] } }],
  },
};
export const chart: ChartConfiguration = withChart.structuredContent.charts![0]!;

// @ts-expect-error sources is required
export const noSources: DataToolOutput = { content: [], structuredContent: {} };
// @ts-expect-error a chart is a Chart.js configuration
export const badChart: DataToolOutput = { content: [], structuredContent: { sources: [], charts: [{ kind: "bar" }] } };
// @ts-expect-error table cells are string | number | boolean | null
export const badCell: DataToolOutput = { content: [], structuredContent: { sources: [], table: [[{}]] } };

const registry = createRegistry({ name: "types", version: "1.0.0" });
function list(): DataToolOutput {
  return output;
}
// The call form returns the very same function, with its own type.
export const same: () => DataToolOutput = registry.tool()(list);
export const stamped: ToolFunction = markVerified(list, "@sourced/transformer@0.1.0");
