import type { ContentBlock, CallToolResult } from "@modelcontextprotocol/server";
import { ContentBlockSchema } from "@modelcontextprotocol/core";
import type { ChartConfiguration } from "chart.js";
import { z } from "zod";

/*
 * The data contract of every sourced tool (DESIGN §1). ONE zod schema: the `structuredContent` part
 * is published as each tool's MCP `outputSchema` (the SDK converts it to JSON Schema), the whole
 * result is what the run-time net checks, and the TypeScript type is derived from it.
 */

/**
 * An absolute `http:` or `https:` URL. `z.url` parses it with WHATWG `URL` and checks the scheme;
 * the prefix pattern repeats the scheme rule in the JSON Schema (`format: "uri"` alone admits
 * `javascript:`), so a client validating with the published schema rejects what the server rejects.
 * (`format` is restated in `meta` because zod drops it from the JSON Schema once a pattern is added.)
 */
const sourceUrl = z
  .url({ protocol: /^https?$/, error: "must be an absolute http: or https: URL" })
  .regex(/^https?:\/\//, "must be an absolute http: or https: URL")
  .meta({ format: "uri", description: "An absolute http: or https: URL of the original data" });

const tableCell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const table = z
  .array(z.array(tableCell))
  .min(1, "needs at least the header row")
  .superRefine((rows, ctx) => {
    const header = rows[0] ?? [];
    header.forEach((cell, column) => {
      if (typeof cell !== "string") {
        ctx.addIssue({ code: "custom", path: [0, column], message: `header cells must be strings, got ${JSON.stringify(cell)}` });
      }
    });
    rows.forEach((row, index) => {
      if (index > 0 && row.length !== header.length) {
        ctx.addIssue({
          code: "custom",
          path: [index],
          message: `row ${index} has ${row.length} cells, the header has ${header.length}`,
        });
      }
    });
  })
  .meta({ description: "Rows of an HTML table; the first row is the header (strings), every row has its width" });

/** Checked at run time: what Chart.js cannot draw without (`type`, `data.datasets`). */
const chart = z
  .looseObject({
    type: z.string().min(1, "needs the chart type, e.g. \"bar\""),
    data: z.looseObject({ datasets: z.array(z.looseObject({})), labels: z.array(z.unknown()).optional() }),
    options: z.looseObject({}).optional(),
  })
  .meta({ description: "A Chart.js configuration: type, data, options" });

/** Replaces zod's "expected object, received undefined" for a field left out. */
const missing = (message: string) => (issue: { input: unknown }) => (issue.input === undefined ? message : undefined);

/** The schema of `structuredContent`; published as every tool's MCP `outputSchema`. */
export const structuredContentSchema = z
  .strictObject(
    {
      sources: z.array(sourceUrl).min(1, "needs at least one source").meta({
        description: "Links to the original data, rendered as source links under the answer",
      }),
      table: table.optional(),
      charts: z.array(chart).optional().meta({ description: "Chart.js data and configuration, rendered as charts" }),
      force: z.string().optional().meta({ description: "Shown to the user exactly as is, never through the LLM" }),
    },
    { error: missing("is missing: every result says where its data came from in structuredContent.sources") },
  )
  .meta({ title: "DataToolOutput structuredContent" });

/**
 * The schema of a whole tool result: `content` for the LLM, `structuredContent` for the gateway.
 * Content blocks are the SDK's own `ContentBlockSchema`, so what passes here also passes the SDK's
 * `CallToolResult` check on the way out.
 */
export const dataToolOutputSchema = z.looseObject({
  content: z
    .array(ContentBlockSchema, { error: missing("is missing: the LLM reads only content") })
    .superRefine((blocks, ctx) => {
      if (!blocks.some((block) => block.type === "text" && block.text.trim() !== "")) {
        ctx.addIssue({
          code: "custom",
          message: `${blocks.length === 0 ? "is empty: it " : ""}needs at least one text block with non-empty text (the LLM reads only content)`,
        });
      }
    }),
  structuredContent: structuredContentSchema,
  isError: z.boolean().optional(),
});

/** The `structuredContent` of a tool result. `charts` is typed by chart.js itself. */
export type StructuredData = Omit<z.infer<typeof structuredContentSchema>, "charts"> & {
  charts?: ChartConfiguration[];
};

/**
 * What every registered tool returns: an MCP `CallToolResult` whose `structuredContent` says where
 * its data came from. Assignable to the SDK's `CallToolResult`.
 */
export type DataToolOutput = {
  /** For the LLM: at least one `text` block that repeats the facts of `structuredContent`. */
  content: ContentBlock[];
  /** For the gateway: sources (required), table, charts, force. */
  structuredContent: StructuredData;
  isError?: boolean;
  _meta?: CallToolResult["_meta"];
};
