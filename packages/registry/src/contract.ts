import type { ChartConfiguration } from "chart.js";
import { z } from "zod";

/*
 * The data contract of every sourced tool (DESIGN §1). ONE zod schema; the TypeScript type and the
 * JSON Schema published as each tool's `outputSchema` are both derived from it.
 */

const httpUrl = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http: or https: URL")
  .meta({ format: "uri", description: "An absolute http: or https: URL" });

const tableCell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const table = z
  .array(z.array(tableCell))
  .min(1, "needs at least the header row")
  .superRefine((rows, ctx) => {
    const header = rows[0] ?? [];
    header.forEach((cell, column) => {
      if (typeof cell !== "string") {
        ctx.addIssue({ code: "custom", path: [0, column], message: "header cells must be strings" });
      }
    });
    rows.forEach((row, index) => {
      if (row.length !== header.length) {
        ctx.addIssue({
          code: "custom",
          path: [index],
          message: `row ${index} has ${row.length} cells, the header has ${header.length}`,
        });
      }
    });
  })
  .meta({ description: "Rows of the table; the first row is the header" });

const chart = z
  .looseObject({ type: z.string().min(1), data: z.looseObject({}), options: z.looseObject({}).optional() })
  .meta({ description: "A Chart.js configuration (type, data, options)" });

/** The schema of `structuredContent`; published as every tool's MCP `outputSchema`. */
export const structuredContentSchema = z.object({
  sources: z.array(httpUrl).min(1, "needs at least one source").meta({
    description: "Links to the original data, rendered as source links under the answer",
  }),
  table: table.optional(),
  charts: z.array(chart).optional(),
  force: z.string().optional().meta({ description: "Shown to the user exactly as is, never through the LLM" }),
});

const textBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
const contentBlock = z.looseObject({ type: z.string() });

/** The schema of a whole tool result: `content` for the LLM, `structuredContent` for the gateway. */
export const dataToolOutputSchema = z.looseObject({
  content: z
    .array(contentBlock)
    .refine(
      (blocks) => blocks.some((block) => textBlock.safeParse(block).success && (block.text as string).trim() !== ""),
      "needs at least one text block with non-empty text",
    ),
  structuredContent: structuredContentSchema,
  isError: z.boolean().optional(),
});

type SchemaStructuredContent = z.infer<typeof structuredContentSchema>;

/** The `structuredContent` of a tool result. `charts` is typed by chart.js itself. */
export type StructuredData = Omit<SchemaStructuredContent, "charts"> & {
  charts?: ChartConfiguration[];
};

/** What every registered tool returns. */
export type DataToolOutput = Omit<z.infer<typeof dataToolOutputSchema>, "structuredContent" | "content"> & {
  content: Array<{ type: "text"; text: string } | { type: string; [key: string]: unknown }>;
  structuredContent: StructuredData;
};
