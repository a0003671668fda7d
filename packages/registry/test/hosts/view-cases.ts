import { createRegistry, type DataToolOutput, type Registry } from "../../dist/index.js";
import { recordingLogger } from "../helpers";

/*
 * The results the data view is shown in third-party hosts with: every field at once, charts with
 * no colours of their own, charts with the tool's own colours, and a long table.
 */

/** Three sources, one of them a URL long enough to need more than two lines in a narrow host. */
export const SOURCES = [
  "https://example.org/cities-data",
  "https://data.example.org/statistics/population/urban-agglomerations/2024/edition-2/table-3-largest-cities-of-the-world?format=html&region=all&sort=population-descending&columns=city,country,population,area,density,founded,elevation,time-zone&footnotes=included&methodology=un-desa-world-urbanization-prospects&revision=2024-11",
  "https://example.com/growth",
];

export const OVERVIEW_HEADER = ["City", "Country", "Population", "Area (km²)", "Density (/km²)", "Founded", "Elevation (m)", "Time zone"];

/** The colours the tool names itself in `own_colours`: the view must draw exactly these. */
export const OWN_BAR_COLOUR = "#4e79a7";
export const OWN_LINE_COLOUR = "#e15759";

const CITIES = ["Tokyo", "Delhi", "Shanghai"];

function overviewResult(): DataToolOutput {
  return {
    content: [{ type: "text", text: "Tokyo (37.4 M), Delhi (30.3 M) and Shanghai (27.1 M) are the largest cities; Delhi grows fastest." }],
    structuredContent: {
      sources: SOURCES,
      table: [
        OVERVIEW_HEADER,
        ["Tokyo", "Japan", 37400068, 2194, 17046, 1457, 40, "Asia/Tokyo"],
        ["Delhi", "India", 30290936, 1484, 20411, 1052, 216, "Asia/Kolkata"],
        ["Shanghai", "China", 27058479, 6341, 4267, 751, 4, "Asia/Shanghai"],
      ],
      charts: [
        // No colours, no title: the legend is the first thing drawn, at the top of the canvas.
        { type: "pie", data: { labels: CITIES, datasets: [{ label: "Population (M)", data: [37.4, 30.3, 27.1] }] }, options: { animation: false } },
        {
          type: "line",
          data: {
            labels: ["2000", "2010", "2020"],
            datasets: [
              { label: "Delhi", data: [15.7, 21.9, 30.3] },
              { label: "Tokyo", data: [34.4, 36.8, 37.4] },
            ],
          },
          options: { animation: false },
        },
      ],
    },
  };
}

function ownColoursResult(): DataToolOutput {
  return {
    content: [{ type: "text", text: "Population of the 3 largest cities, and the growth of two of them." }],
    structuredContent: {
      sources: [SOURCES[0]!],
      charts: [
        { type: "bar", data: { labels: CITIES, datasets: [{ label: "Population (M)", data: [37.4, 30.3, 27.1], backgroundColor: OWN_BAR_COLOUR }] }, options: { animation: false } },
        {
          type: "line",
          data: {
            labels: ["2000", "2010", "2020"],
            datasets: [
              { label: "Delhi", data: [15.7, 21.9, 30.3], borderColor: OWN_LINE_COLOUR },
              { label: "Tokyo", data: [34.4, 36.8, 37.4] },
            ],
          },
          options: { animation: false },
        },
      ],
    },
  };
}

export const LONG_TABLE_ROWS = 80;

/** A resource the registry serves, and what reading it returns. */
export const GRAPH_URI = "memory://graph";
export const GRAPH_TEXT = '{"entities":["Tokyo","Delhi"]}';

function longTableResult(): DataToolOutput {
  const rows = Array.from({ length: LONG_TABLE_ROWS }, (_, index) => [`City ${index + 1}`, 1000 + index, `Country ${index % 7}`]);
  return {
    content: [{ type: "text", text: `${LONG_TABLE_ROWS} cities.` }],
    structuredContent: { sources: [SOURCES[0]!], table: [["City", "Population", "Country"], ...rows] },
  };
}

/** A registry serving the three cases. */
export function viewCasesRegistry(): Registry {
  const registry = createRegistry({ name: "view-cases", version: "1.0.0", logger: recordingLogger() });
  registry.tool({ description: "Every field of the view: a table, a pie and a line chart without colours, three sources." })(function overview() {
    return overviewResult();
  });
  registry.tool({ description: "Charts in the tool's own colours." })(function own_colours() {
    return ownColoursResult();
  });
  registry.tool({ description: "A table of many rows." })(function long_table() {
    return longTableResult();
  });
  // Local data: the tool cites the resource the registry serves it as.
  registry.resource("graph", GRAPH_URI, { mimeType: "application/json" }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: GRAPH_TEXT }] }));
  registry.tool({ description: "Data with no web address, cited as the resource the server serves it as." })(function local_graph() {
    return { content: [{ type: "text", text: "The graph holds 2 entities." }], structuredContent: { sources: [GRAPH_URI, SOURCES[0]!] } } satisfies DataToolOutput;
  });
  return registry;
}
