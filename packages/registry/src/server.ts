import { McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { CallToolRequest, CallToolResult, ListToolsResult, ServerContext, Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { structuredContentSchema } from "./contract.js";
import type { GatewayView } from "./gateway.js";
import type { Logger } from "./logger.js";
import { callThroughNet, capText, describeProblems, ERROR_TEXT_LIMIT, thrownAnswer, type NetTool } from "./net.js";
import type { ToolOptions } from "./types.js";

/** The JSON Schema dialect the SDK converts Standard Schemas to; tools/list carries it. */
const JSON_SCHEMA_TARGET = "draft-2020-12";

/** What the server needs of a registered tool: the net's view of it plus its options. */
export interface ServedTool extends NetTool {
  readonly options: Readonly<ToolOptions>;
}

/** One tool ready to be called: its parsed input schema and the net's handle on it. */
interface CompiledTool {
  readonly tool: ServedTool;
  readonly input: z.ZodObject | undefined;
}

/**
 * Every tool's definition, computed once per set of registrations: the `tools/list` answer (JSON
 * Schemas included) and a name → tool map for `tools/call`. A server built from it does work
 * independent of the number of tools; the SDK's own `registerTool` would convert every schema
 * again for each `tools/list`, and re-register every tool for each HTTP request.
 */
export class ToolTable {
  readonly list: ListToolsResult;
  /** The data view, when at least one tool declares it: every server built from the table serves it. */
  readonly view: GatewayView | undefined;
  private readonly byName = new Map<string, CompiledTool>();

  constructor(tools: Iterable<ServedTool>, view?: GatewayView) {
    const definitions: Tool[] = [];
    const outputSchema = toJsonSchema(structuredContentSchema, "output");
    // Tools often share one input object: convert each once.
    const inputs = new WeakMap<object, { schema: z.ZodObject; json: Tool["inputSchema"] }>();
    for (const tool of tools) {
      const { title, description, input: shape, annotations } = tool.options;
      let input = shape === undefined ? undefined : inputs.get(shape);
      if (shape !== undefined && input === undefined) {
        const schema = isZodObject(shape) ? shape : z.object(shape);
        input = { schema, json: toJsonSchema(schema, "input") };
        inputs.set(shape, input);
      }
      this.byName.set(tool.name, { tool, input: input?.schema });
      const _meta = view?.toolMeta(tool.options.ui);
      if (_meta !== undefined) this.view = view;
      definitions.push({
        name: tool.name,
        ...(title === undefined ? {} : { title }),
        ...(description === undefined ? {} : { description }),
        inputSchema: input === undefined ? { type: "object", properties: {} } : input.json,
        outputSchema,
        ...(annotations === undefined ? {} : { annotations }),
        ...(_meta === undefined ? {} : { _meta }),
      });
    }
    this.list = { tools: definitions };
  }

  /**
   * Answers one `tools/call`: the arguments checked against the tool's input (an invalid call is an
   * error result, as the SDK's own tools answer it), then the call through the net. The input
   * schema is the tool author's code too: a refinement or transform that throws is answered as a
   * throwing tool is (named, capped, logged), and one that is async is awaited.
   */
  call(request: CallToolRequest, ctx: ServerContext, logger: Logger): CallToolResult | Promise<CallToolResult> {
    const { name, arguments: args } = request.params;
    const compiled = this.byName.get(name);
    if (compiled === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
    const { tool, input } = compiled;
    if (input === undefined) return callThroughNet(tool, {}, ctx, logger);
    const proceed = (parsed: ReturnType<z.ZodObject["safeParse"]>): CallToolResult | Promise<CallToolResult> =>
      parsed.success ? callThroughNet(tool, parsed.data, ctx, logger) : invalidArguments(name, parsed.error);
    try {
      return proceed(input.safeParse(args ?? {}));
    } catch (error) {
      if (!isAsyncParseError(error)) return thrownAnswer(name, error, logger);
    }
    return input.safeParseAsync(args ?? {}).then(proceed, (error: unknown) => thrownAnswer(name, error, logger));
  }
}

/** The error result of arguments that do not match the input schema; capped like every error text. */
function invalidArguments(name: string, error: z.ZodError): CallToolResult {
  const problems = describeProblems(error).map((line) => `- ${line}`).join("\n");
  return {
    content: [{ type: "text", text: capText(`Input validation error: Invalid arguments for tool ${name}:\n${problems}`, ERROR_TEXT_LIMIT, "not shown") }],
    isError: true,
  };
}

/** zod's "async refinement in a synchronous parse", from this zod or the copy the tool's schema came from. */
function isAsyncParseError(error: unknown): boolean {
  try {
    return error instanceof z.core.$ZodAsyncError || (error instanceof Error && error.constructor.name === "$ZodAsyncError");
  } catch {
    return false; // a thrown proxy or a throwing getter: a throw like any other
  }
}

/**
 * A zod object, whichever copy of zod made it: an ES module project's zod and the CommonJS zod
 * this build loads are two module instances, so `instanceof` would tell them apart.
 */
function isZodObject(value: z.ZodRawShape | z.ZodObject): value is z.ZodObject {
  const def = (value as { _zod?: { def?: { type?: unknown } } })._zod?.def;
  return def?.type === "object";
}

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): Tool["inputSchema"] {
  const json = z.toJSONSchema(schema, { target: JSON_SCHEMA_TARGET, io }) as Record<string, unknown>;
  return { ...json, type: "object" };
}

/** How long a client may keep the tools/list answer. */
const TOOLS_LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: "public" } as const;

export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
}

/**
 * The one place a registry's SDK server is built — for each stdio connection, each HTTP request,
 * and each `registry.createServer()`. It registers nothing per tool: `tools/list` and `tools/call`
 * are answered from the table. Anything else a server offers (resources, prompts) is registered
 * here too, on the returned `McpServer`, through the SDK's own `register*` methods.
 */
export function buildServer(identity: ServerIdentity, tools: TableSource, logger: Logger): McpServer {
  // The list is the same for every caller and fixed once served: a 2026-07-28 client may keep it
  // (it reads each tool's outputSchema from it), instead of asking again before every tools/call.
  const server = new McpServer({ name: identity.name, version: identity.version }, { cacheHints: { "tools/list": TOOLS_LIST_CACHE } });
  const lowLevel = server.server;
  lowLevel.registerCapabilities({ tools: { listChanged: false } });
  lowLevel.setRequestHandler("tools/list", () => withTable(tools.table(), (table) => table.list));
  lowLevel.setRequestHandler("tools/call", (request, ctx) => withTable(tools.table(), (table) => table.call(request, ctx, logger)));
  tools.view?.serve(server);
  return server;
}

/**
 * Where a server finds its tools: the table at once, or, while the start-up check judges, a
 * promise of it (only requests that need the tools wait); and the data view, when a tool declares it.
 */
export interface TableSource {
  table(): ToolTable | Promise<ToolTable>;
  readonly view: GatewayView | undefined;
}

function withTable<T>(table: ToolTable | Promise<ToolTable>, use: (table: ToolTable) => T | Promise<T>): T | Promise<T> {
  return table instanceof ToolTable ? use(table) : table.then(use);
}
