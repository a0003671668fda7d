import { isRecord } from "./values";

/*
 * What the view adds to a tool's Chart.js configuration before drawing it: series colours, and a
 * size that reads at any width. The tool's own choices always win: a dataset that names a colour
 * keeps its colours, and a chart that sets its own aspect ratio keeps it.
 */

/**
 * The series colours, in order. Hues after Paul Tol's and Okabe & Ito's colour-blind-safe schemes,
 * each set to at least a 3:1 contrast (WCAG's minimum for graphics) against both themes'
 * backgrounds, so one palette reads in light and dark hosts and a theme switch recolours nothing.
 * Blue and orange come first: the common colour-vision deficiencies still tell them apart.
 */
export const PALETTE = ["#0077BB", "#D9661A", "#009988", "#EE3377", "#8A63D2", "#9A7B00", "#3B8E3B", "#CC3311"] as const;

/** Charts whose slices are the data points: each slice, not each dataset, takes a colour. */
const SLICED = new Set(["pie", "doughnut", "polarArea"]);
/** Charts drawn in a square frame; the others get a frame wider than tall. */
const ROUND = new Set([...SLICED, "radar"]);

function namesColour(options: unknown): boolean {
  return isRecord(options) && (options.backgroundColor !== undefined || options.borderColor !== undefined);
}

/**
 * Whether the chart's options colour its datasets themselves (chart-wide, per element or per
 * dataset type), or set Chart.js's own automatic colours (`plugins.colors`) off or to override.
 */
function optionsChooseColours(options: Record<string, unknown>): boolean {
  const plugins = isRecord(options.plugins) ? options.plugins : {};
  const colors = isRecord(plugins.colors) ? plugins.colors : {};
  if (colors.enabled === false || colors.forceOverride === true) return true;
  return namesColour(options) || [options.elements, options.datasets].some((group) => isRecord(group) && Object.values(group).some(namesColour));
}

/** The frame the stylesheet gives a chart that does not size itself. */
export type ChartShape = "wide" | "round";

/**
 * Prepares a copy of a chart configuration for drawing, in place. Datasets that name no colour
 * take the palette's. Unless the chart sets `aspectRatio` or `maintainAspectRatio` itself, its
 * canvas fills a frame the stylesheet sizes (`maintainAspectRatio: false`), so a narrow host does
 * not squeeze it into a strip: the frame's shape is returned, or `undefined` when the chart sizes itself.
 */
export function prepareChart(config: Record<string, unknown>): ChartShape | undefined {
  const type = typeof config.type === "string" ? config.type : "";
  config.options ??= {};
  if (!isRecord(config.options)) return undefined;
  const options = config.options;
  const datasets = isRecord(config.data) && Array.isArray(config.data.datasets) ? (config.data.datasets as unknown[]) : [];
  if (!optionsChooseColours(options)) {
    datasets.forEach((dataset, index) => {
      if (!isRecord(dataset) || namesColour(dataset)) return;
      const datasetType = typeof dataset.type === "string" ? dataset.type : type;
      if (SLICED.has(datasetType)) {
        // Slice i has the same colour in every ring of a doughnut, as the legend (one entry per label) shows it.
        if (Array.isArray(dataset.data)) dataset.backgroundColor = dataset.data.map((_, slice) => PALETTE[slice % PALETTE.length]);
        return;
      }
      const colour = PALETTE[index % PALETTE.length]!;
      dataset.borderColor = colour;
      // Bars are filled solid; points and the area under a line half transparent, as Chart.js fills its own palette.
      dataset.backgroundColor = datasetType === "bar" ? colour : `${colour}80`;
    });
  }
  if (options.aspectRatio !== undefined || options.maintainAspectRatio !== undefined) return undefined;
  options.maintainAspectRatio = false;
  return ROUND.has(type) ? "round" : "wide";
}
