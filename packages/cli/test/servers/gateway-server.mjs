// A server whose tools exercise every field of the data view, and one result the net refuses.
// Started by the preview tests as `sourced preview -- node gateway-server.mjs` (stdio), or with
// `--http` on 127.0.0.1 (it prints its endpoint) for `sourced preview --url`.
import { createRegistry } from "@sourced/registry";
import { z } from "zod";

const SOURCE = "https://example.org/cities-data";
const CITIES = ["Tokyo", "Delhi", "Shanghai"];
const registry = createRegistry({ name: "gateway-cases", version: "1.0.0" });

registry.tool({ description: "Population and growth of the 3 largest cities, as a bar and a line chart." })(function city_charts() {
  return {
    content: [{ type: "text", text: "Tokyo has 37.4 M inhabitants, Delhi 30.3 M and Shanghai 27.1 M; Delhi grows fastest." }],
    structuredContent: {
      sources: [SOURCE, "https://example.com/growth"],
      charts: [
        {
          type: "bar",
          data: { labels: CITIES, datasets: [{ label: "Population (M)", data: [37.4, 30.3, 27.1], backgroundColor: "#4e79a7" }] },
          options: { animation: false, plugins: { title: { display: true, text: "Population" } } },
        },
        {
          type: "line",
          data: {
            labels: ["2000", "2010", "2020"],
            datasets: [
              { label: "Delhi", data: [15.7, 21.9, 30.3], borderColor: "#e15759", borderWidth: 3 },
              { label: "Tokyo", data: [34.4, 36.8, 37.4], borderColor: "#59a14f", borderWidth: 3 },
            ],
          },
          options: { animation: false, plugins: { title: { display: true, text: "Growth" } } },
        },
      ],
    },
  };
});

/** Text that would run as script if anything parsed it as HTML. */
export const FORCED = 'Figures as published: <script>alert(1)</script><img src=x onerror="window.pwned=1"> & "quoted"\n  second line, indented';

registry.tool({ description: "A notice the tool shows verbatim." })(function verbatim_notice() {
  return {
    content: [{ type: "text", text: "The source publishes a notice about these figures." }],
    structuredContent: { sources: [SOURCE], force: FORCED },
  };
});

registry.tool({ description: "A wide table, twelve columns of numbers." })(function wide_table() {
  const header = ["City", ...Array.from({ length: 11 }, (_, index) => `Year ${2010 + index}`)];
  const rows = CITIES.map((city, row) => [city, ...Array.from({ length: 11 }, (_, index) => 1000 * (row + 1) + index)]);
  return {
    content: [{ type: "text", text: "Yearly figures for Tokyo, Delhi and Shanghai, 2010 to 2020." }],
    structuredContent: { sources: [SOURCE], table: [header, ...rows] },
  };
});

registry.tool({
  description: "Cities above a population, in a unit.",
  input: { min: z.number().describe("Smallest population, in millions"), unit: z.enum(["people", "millions"]), largestFirst: z.boolean().optional(), note: z.string().optional() },
})(function cities_above({ min, unit, largestFirst, note }) {
  const cities = [["Tokyo", 37.4], ["Delhi", 30.3], ["Shanghai", 27.1]].filter(([, millions]) => millions >= min);
  if (largestFirst === false) cities.reverse();
  const shown = cities.map(([city, millions]) => `${city} ${unit === "people" ? Math.round(millions * 1e6) : millions}`);
  return {
    content: [{ type: "text", text: `${shown.join(", ") || "none"}${note === undefined ? "" : ` (${note})`}; arguments ${JSON.stringify({ min, unit, largestFirst, note })}` }],
    structuredContent: { sources: [SOURCE] },
  };
});

registry.tool({ description: "Says where nothing came from: the net refuses its result." })(function unsourced_rumour() {
  return {
    content: [{ type: "text", text: "Shanghai will overtake Tokyo next year." }],
    structuredContent: { table: [["City", "Rank"], ["Shanghai", 1]] },
  };
});

registry.tool({ description: "The same data, served as text only.", ui: false })(function text_only() {
  return { content: [{ type: "text", text: "Tokyo is the largest city." }], structuredContent: { sources: [SOURCE] } };
});

if (process.argv.includes("--http")) {
  const serving = await registry.serveHttp();
  console.log(`listening on ${serving.url.href}`);
} else {
  await registry.serveStdio();
}
