import type { ContentBlock, CallToolResult } from "@modelcontextprotocol/server";
import type { ChartConfiguration } from "chart.js";
import { z } from "zod";
import { describeSourceUrlProblem, SOURCE_URL_REGEX, urlRuleProblem } from "@sourced/contract-rules";
import type { CompiledInput, ParsedArguments } from "./input.js";
import type { ServedResources } from "./resource-sources.js";
import { contentBlockFor, meta, missing, onlyKeys, textBlockOf, type BlockWords } from "./mcp-schemas.js";
import { describeReturned, isScalar, quoteText } from "./problems.js";
import { thrownText } from "./wire.js";

/*
 * The data contract of every sourced tool (DESIGN §1). ONE zod schema: the `structuredContent` part
 * is published as each tool's MCP `outputSchema` (the SDK converts it to JSON Schema), the whole
 * result is what the run-time net checks, and the TypeScript type is derived from it. It is checked
 * against the plain-JSON wire copy of a result (wire.ts), so it needs no rule for what JSON cannot
 * carry; it has no transforms or defaults, so what passes is sent unchanged. It imports nothing
 * from the MCP SDK at run time: every object is strict and accepts a subset of what any SDK version
 * accepts for the same part. The parts every MCP answer shares (content blocks, `_meta`) are
 * mcp-schemas.ts's, which the schemas of what resources and prompts answer share too
 * (offering-schemas.ts).
 */

/**
 * An absolute `http:` or `https:` URL, by the one URL rule (@sourced/contract-rules): its pattern is published
 * in the JSON Schema next to `format: "uri"`, and the pattern is all the server checks, so a client
 * validating with the published schema accepts exactly what the server accepts.
 */
const webUrl = (problem: (value: unknown) => string) =>
  z
    .string({ error: (issue) => problem(issue.input) })
    .regex(SOURCE_URL_REGEX, { error: (issue) => problem(issue.input) })
    .meta({ format: "uri", description: "An absolute http: or https: URL of the original data" });

/** A source: its refusal advises how to cite local data (a resource). */
const sourceUrl = webUrl(describeSourceUrlProblem);
/** The URI of a resource link or an embedded resource: the URL rule's words alone. */
const contentUri = webUrl(urlRuleProblem);

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

/**
 * One source: an accepted http(s) URL, or — on a registry that serves resources — the URI of one
 * of them (resource-sources.ts), published with the served URIs beside the URL rule's pattern.
 */
function sourceSchema(served: ServedResources | undefined) {
  if (served === undefined || served.empty) return sourceUrl;
  return webOrServedUri(served).meta(served.sourceJsonSchema("An absolute http: or https: URL of the original data, or the URI of a resource this server serves"));
}

/** An accepted http(s) URL or the URI of a resource `served` holds; refused in the net's words for a source. */
function webOrServedUri(served: ServedResources) {
  const refusal = (issue: { input?: unknown }) => served.describe(issue.input);
  return z.string({ error: refusal }).refine((value) => SOURCE_URL_REGEX.test(value) || served.accepts(value), { error: refusal });
}

/** The keys of `structuredContent` the contract gives a meaning: a tool's `output` may not declare them. */
export const CONTRACT_KEYS = ["sources", "table", "charts", "force"] as const;

/** The keys a tool's `output` declares: its JSON Schema's `properties`. */
export function declaredKeys(output: CompiledInput): string[] {
  const properties = (output.json as { properties?: unknown }).properties;
  return typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
}

/** "a, b and c". */
function listWords(words: readonly string[]): string {
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(", ")} and ${words.at(-1)!}`;
}

/**
 * The schema of `structuredContent` for a registry serving `served`, of a tool whose `output`
 * declares keys beside the contract's: published as the tool's MCP `outputSchema`. A declared key
 * is checked by the tool's own schema (its values, its required keys); any other key is refused.
 */
function structuredContentSchemaFor(served: ServedResources | undefined, output?: CompiledInput) {
  const keys = output === undefined ? [] : declaredKeys(output);
  const schema = z
    .strictObject(
      {
        sources: z.array(sourceSchema(served)).min(1, "needs at least one source").meta({
          description: "Links to the original data, rendered as source links under the answer",
        }),
        table: table.optional(),
        charts: z.array(chart).optional().meta({ description: "Chart.js data and configuration, rendered as charts" }),
        force: z.string().optional().meta({ description: "Shown to the user exactly as is, never through the LLM" }),
        // Let through here, checked below by the tool's own schema. Typed as no key: the type of
        // structuredContent (StructuredData) is the contract's, and a declared key is the tool's.
        ...(Object.fromEntries(keys.map((key) => [key, z.unknown().optional()])) as Record<never, z.ZodOptional<z.ZodUnknown>>),
      },
      {
        error: (issue) =>
          missing("is missing: every result says where its data came from in structuredContent.sources")(issue) ??
          onlyKeys("structuredContent", listWords([...CONTRACT_KEYS, ...keys]))(issue),
      },
    )
    .meta({ title: "DataToolOutput structuredContent" });
  if (output === undefined) return schema;
  return schema.superRefine((value, ctx) => {
    const record = value as Record<string, unknown>;
    const declared = Object.fromEntries(keys.filter((key) => Object.hasOwn(record, key)).map((key) => [key, record[key]]));
    let parsed: ParsedArguments | Promise<ParsedArguments>;
    try {
      parsed = output.parse(declared);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `the tool's output schema threw while checking it: ${thrownText(error)}` });
      return;
    }
    if (parsed instanceof Promise) {
      parsed.catch(() => undefined);
      ctx.addIssue({ code: "custom", message: "the tool's output schema is asynchronous, and the net checks every result at once: declare a synchronous one" });
      return;
    }
    if (!parsed.ok) for (const problem of parsed.problems) ctx.addIssue({ code: "custom", message: problem });
  });
}

/** The schema of `structuredContent` of a registry that serves no resource. */
export const structuredContentSchema = structuredContentSchemaFor(undefined);

/**
 * A character a reader can see: not white space, a control, a format or bidi character, a
 * zero-width or other default-ignorable code point, a lone mark, an unassigned or surrogate code
 * point, nor the braille blank.
 */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Cs}\p{Cn}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Whether `text` has at least one character a reader can see. */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

/**
 * A tool result's block, or its whole list, given as its bare text, a number, true or false or
 * null: zod's "must be an object, not a string" says nothing of what to write, so the words give
 * the block (in its list), the text quoted. Error callbacks of the schema itself, run only on a
 * refusal: what passes is checked exactly as before.
 */
const BLOCK_WORDS: BlockWords = {
  scalar: (given) => `must be a content block, not ${describeReturned(given)}: ${textBlockOf(given)}`,
};
const contentListWords = (issue: { input: unknown }): string | undefined =>
  issue.input === undefined
    ? "is missing: the LLM reads only content"
    : isScalar(issue.input)
      ? `must be a list of content blocks, not ${describeReturned(issue.input)}: [${textBlockOf(issue.input)}]`
      : typeof issue.input === "object" && !Array.isArray(issue.input)
        ? `must be a list of content blocks, not one: [${blockShapeOf(issue.input)}]`
        : undefined;

/** One block given for the whole list, as the list's item is written: a text block with its text quoted, another by its type. */
function blockShapeOf(given: object): string {
  const { type, text } = given as { type?: unknown; text?: unknown };
  if (typeof text === "string" && (type === undefined || type === "text")) return textBlockOf(text);
  return typeof type === "string" && type !== "text" ? `{ type: ${quoteText(type)}, … }` : textBlockOf(null);
}

/** The content blocks of a registry that serves no resource: their URIs are http(s) URLs. */
const contentBlock = contentBlockFor(contentUri, BLOCK_WORDS);

/**
 * The schema of a whole tool result: `content` for the LLM, `structuredContent` for the gateway,
 * `isError`, `_meta`; no other key. An error result (`isError: true`) needs visible text too, and
 * may leave out `structuredContent`; when present, it is checked all the same.
 */
function dataToolOutputSchemaFor(served: ServedResources | undefined, output?: CompiledInput) {
  return z
  .strictObject(
    {
      content: z
        .array(served === undefined || served.empty ? contentBlock : contentBlockFor(webOrServedUri(served), BLOCK_WORDS), { error: contentListWords })
        .superRefine((blocks, ctx) => {
          if (!blocks.some((block) => block.type === "text" && hasVisibleText(block.text))) {
            ctx.addIssue({
              code: "custom",
              message: `${blocks.length === 0 ? "is empty: it " : ""}needs at least one text block with visible text (the LLM reads only content)`,
            });
          }
        }),
      structuredContent: structuredContentSchemaFor(served, output).optional(),
      isError: z.boolean().optional(),
      _meta: meta.optional(),
    },
    { error: onlyKeys("a result", "content, structuredContent, isError and _meta") },
  )
  .superRefine((result, ctx) => {
    if (result.isError !== true && result.structuredContent === undefined) {
      ctx.addIssue({ code: "custom", path: ["structuredContent"], message: "is missing: every result says where its data came from in structuredContent.sources" });
    }
  });
}

/** The schema of a whole tool result of a registry that serves no resource. */
export const dataToolOutputSchema = dataToolOutputSchemaFor(undefined);

/** What the net checks a result against, and what `tools/list` publishes as `outputSchema`. */
export interface ResultContract {
  readonly result: z.ZodType;
  readonly structuredContent: z.ZodType;
  /** The tool's `output`, whose keys the published `outputSchema` carries beside the contract's. */
  readonly output?: CompiledInput;
}

/** The contract of a registry that serves no resource, for a tool without `output`. */
export const DEFAULT_CONTRACT: ResultContract = { result: dataToolOutputSchema, structuredContent: structuredContentSchema };

/** The contract of a tool declaring `output`, on a registry serving `served` (their URIs may stand as sources). */
export function contractFor(served: ServedResources | undefined, output?: CompiledInput): ResultContract {
  if ((served === undefined || served.empty) && output === undefined) return DEFAULT_CONTRACT;
  return {
    result: dataToolOutputSchemaFor(served, output),
    structuredContent: structuredContentSchemaFor(served, output),
    ...(output === undefined ? {} : { output }),
  };
}

/** No keys beyond the contract's: what `Extra` defaults to. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` vanishes from an intersection, so a result's type reads as before.
export type NoExtra = {};

/**
 * The `structuredContent` of a tool result: the contract's keys (`charts` typed by chart.js
 * itself), and those a tool's `output` declares (`Extra`, `{ entities: Entity[] }`).
 */
export type StructuredData<Extra extends object = NoExtra> = Omit<z.infer<typeof structuredContentSchema>, "charts"> & {
  charts?: ChartConfiguration[];
} & Extra;

/**
 * What every registered tool returns: an MCP `CallToolResult` whose `structuredContent` says where
 * its data came from, exactly as the net accepts it. The seed's class, as one object type (no
 * union: an interface can extend it; no interface: it stays assignable to the SDK's index-signed
 * `CallToolResult`): a tool's own result type extends it (`interface RichOut extends
 * DataToolOutput { … }`), indexes it (`DataToolOutput["structuredContent"]["sources"]`) and is
 * judged as the seed judges a subclass. An error result, which cites nothing, is an
 * `ErrorResult`: a tool that may fail declares `DataToolOutput | ErrorResult` (the analysis accepts
 * both, and the net).
 */
export type DataToolOutput = {
  /** For the LLM: at least one `text` block that repeats the facts of `structuredContent`. */
  content: ContentBlock[];
  /** For the gateway: sources (required), table, charts, force. */
  structuredContent: StructuredData;
  isError?: boolean;
  _meta?: CallToolResult["_meta"];
};

/**
 * A result with data whose `structuredContent` also carries the keys `Extra` that the tool's
 * `output` declares (`registry.tool({ output: { entities: z.array(Entity) } })` returns
 * `DataResult<{ entities: Entity[] }>`, or `DataResult<…> | ErrorResult`). `DataResult` alone is
 * `DataToolOutput`.
 */
export type DataResult<Extra extends object = NoExtra> = DataToolOutput & {
  /** For the gateway: sources (required), table, charts, force; and the keys the tool's `output` declares. */
  structuredContent: StructuredData<Extra>;
};

/**
 * An error result (`isError: true`): the LLM reads why the call failed; nothing was read, so
 * nothing needs citing. `structuredContent`, when present, is checked all the same. Declared beside
 * the data it would have returned: `DataToolOutput | ErrorResult`.
 */
export type ErrorResult = {
  /** For the LLM: at least one `text` block that says what went wrong. */
  content: ContentBlock[];
  structuredContent?: StructuredData;
  isError: true;
  _meta?: CallToolResult["_meta"];
};
