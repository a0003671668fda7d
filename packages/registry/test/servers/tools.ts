// A registry with one good tool, one with an input, and every bad result the net must stop.
// Compiled by plain tsc: the start-up check would refuse the tools that break the contract on
// purpose, so it is off (the net is what is tested here).
import { createRegistry, type DataToolOutput, type Logger } from "@sourced/registry";
import { z } from "zod";

const text = (value: string) => [{ type: "text" as const, text: value }];
const sources = ["https://example.org/cities-data"];

const POPULATION: Record<string, number> = { Tokyo: 37400068, Delhi: 30290936, Shanghai: 27058479 };

/** Everything a bad tool may return, keyed by tool name. Typed loosely: these break the contract. */
export const BAD_RESULTS: Record<string, unknown> = {
  no_structured_content: { content: text("Tokyo is the largest city.") },
  empty_sources: { content: text("x"), structuredContent: { sources: [] } },
  javascript_source: { content: text("x"), structuredContent: { sources: ["javascript:alert(1)"] } },
  relative_source: { content: text("x"), structuredContent: { sources: ["/cities-data"] } },
  garbage_source: { content: text("x"), structuredContent: { sources: ["not a url at all"] } },
  ragged_table: { content: text("x"), structuredContent: { sources, table: [["City", "Population"], ["Tokyo"]] } },
  numeric_header: { content: text("x"), structuredContent: { sources, table: [["City", 2024], ["Tokyo", 1]] } },
  empty_content: { content: [], structuredContent: { sources } },
  no_text_block: {
    content: [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }],
    structuredContent: { sources },
  },
  chart_without_type: {
    content: text("x"),
    structuredContent: { sources, charts: [{ data: { labels: ["Tokyo"], datasets: [{ data: [1] }] } }] },
  },
  not_an_object: "Tokyo, Delhi, Shanghai",
  returns_nothing: undefined,
  returns_null: null,
  returns_a_list: [text("Tokyo")],
  sources_not_a_list: { content: text("x"), structuredContent: { sources: "https://example.org/cities-data" } },
  text_left_out: { content: [{ type: "text" }], structuredContent: { sources } },
  text_not_a_string: { content: [{ type: "text", text: 37400068 }], structuredContent: { sources } },
  priority_too_big: { content: [{ type: "text", text: "x", annotations: { priority: 2 } }], structuredContent: { sources } },
  audience_unknown: { content: [{ type: "text", text: "x", annotations: { audience: ["robot"] } }], structuredContent: { sources } },
};

/** What each bad result's error text must mention (its first problem). */
export const FIRST_PROBLEM: Record<keyof typeof BAD_RESULTS, string> = {
  no_structured_content: "structuredContent: is missing",
  empty_sources: "structuredContent.sources: needs at least one source",
  javascript_source: "structuredContent.sources[0]: must be an absolute http: or https: URL",
  relative_source: "structuredContent.sources[0]: must be an absolute http: or https: URL",
  garbage_source: "structuredContent.sources[0]: must be an absolute http: or https: URL",
  ragged_table: "structuredContent.table[1]: row 1 has 1 cells, the header has 2",
  numeric_header: "structuredContent.table[0][1]: header cells must be strings",
  empty_content: "content: is empty",
  no_text_block: "content: needs at least one text block",
  chart_without_type: "structuredContent.charts[0].type:",
  not_an_object: "returned a string; a tool must return { content, structuredContent: { sources } }.",
  returns_nothing: "returned nothing (undefined); a tool must return { content, structuredContent: { sources } }.",
  returns_null: "returned null; a tool must return { content, structuredContent: { sources } }.",
  returns_a_list: "returned a list; a tool must return { content, structuredContent: { sources } }.",
  sources_not_a_list: "structuredContent.sources: must be a list, not a string",
  text_left_out: "content[0].text: is missing: it must be a string",
  text_not_a_string: "content[0].text: must be a string, not a number",
  priority_too_big: "content[0].annotations.priority: must be at most 1",
  audience_unknown: 'content[0].annotations.audience[0]: must be "user" or "assistant"',
};

export function buildRegistry(logger?: Logger) {
  const registry = createRegistry({ name: "net-test", version: "1.0.0", startupCheck: false, ...(logger ? { logger } : {}) });

  registry.tool({ description: "Return the top 3 cities by population." })(function list_cities(): DataToolOutput {
    return {
      content: text("The 3 most populated cities are Tokyo (37,400,068), Delhi (30,290,936) and Shanghai (27,058,479)."),
      structuredContent: {
        sources,
        table: [
          ["City", "Population"],
          ["Tokyo", "37400068"],
          ["Delhi", "30290936"],
          ["Shanghai", "27058479"],
        ],
        charts: [
          {
            type: "bar",
            data: { labels: ["Tokyo", "Delhi", "Shanghai"], datasets: [{ label: "Population", data: [37400068, 30290936, 27058479] }] },
          },
        ],
      },
    };
  });

  registry.tool({ description: "Population of one city.", input: { city: z.string() } })(
    async function population({ city }: { city: string }): Promise<DataToolOutput> {
      const value = POPULATION[city];
      if (value === undefined) throw new Error(`no population known for ${city}`);
      return { content: text(`${city} has ${value} inhabitants.`), structuredContent: { sources, force: String(value) } };
    },
  );

  for (const [name, result] of Object.entries(BAD_RESULTS)) {
    registry.tool({ name })(() => result);
  }
  registry.tool({ name: "throws" })(() => {
    throw new Error("the upstream API is down");
  });
  registry.tool({ name: "rejects" })(async () => Promise.reject(new Error("timed out after 5 s")));
  return registry;
}
