import { McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { CallToolRequest, CallToolResult, ListToolsResult, ServerContext, Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { structuredContentSchema } from "./contract.js";
import type { GatewayView } from "./gateway.js";
import { JSON_SCHEMA_TARGET, type CompiledInput, type ParsedArguments } from "./input.js";
import type { Logger } from "./logger.js";
import { callThroughNet, capText, ERROR_TEXT_LIMIT, thrownAnswer, type NetTool } from "./net.js";
import type { ToolOptions } from "./types.js";

/** What the server needs of a registered tool: the net's view of it, its options, and its input compiled at registration. */
export interface ServedTool extends NetTool {
  readonly options: Readonly<ToolOptions>;
  readonly input: CompiledInput | undefined;
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
  private readonly byName = new Map<string, ServedTool>();

  constructor(tools: Iterable<ServedTool>, view?: GatewayView) {
    const definitions: Tool[] = [];
    const outputSchema = toJsonSchema(structuredContentSchema, "output");
    for (const tool of tools) {
      const { title, description, annotations } = tool.options;
      this.byName.set(tool.name, tool);
      const _meta = view?.toolMeta(tool.options.ui);
      if (_meta !== undefined) this.view = view;
      definitions.push({
        name: tool.name,
        ...(title === undefined ? {} : { title }),
        ...(description === undefined ? {} : { description }),
        inputSchema: tool.input === undefined ? { type: "object", properties: {} } : tool.input.json,
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
    const tool = this.byName.get(name);
    if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
    const { input } = tool;
    if (input === undefined) return callThroughNet(tool, {}, ctx, logger);
    const proceed = (parsed: ParsedArguments): CallToolResult | Promise<CallToolResult> =>
      parsed.ok ? callThroughNet(tool, parsed.value, ctx, logger) : invalidArguments(name, parsed.problems);
    let parsed: ParsedArguments | Promise<ParsedArguments>;
    try {
      parsed = input.parse(args ?? {});
    } catch (error) {
      return thrownAnswer(tool, error, logger);
    }
    return parsed instanceof Promise ? parsed.then(proceed, (error: unknown) => thrownAnswer(tool, error, logger)) : proceed(parsed);
  }
}

/** The error result of arguments that do not match the input schema; capped like every error text. */
function invalidArguments(name: string, problems: readonly string[]): CallToolResult {
  const list = problems.map((line) => `- ${line}`).join("\n");
  return {
    content: [{ type: "text", text: capText(`Input validation error: Invalid arguments for tool ${name}:\n${list}`, ERROR_TEXT_LIMIT, "not shown") }],
    isError: true,
  };
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
export function buildServer(identity: ServerIdentity, table: ToolTable, logger: Logger): McpServer {
  // The list is the same for every caller and fixed once served: a 2026-07-28 client may keep it
  // (it reads each tool's outputSchema from it), instead of asking again before every tools/call.
  const server = new McpServer({ name: identity.name, version: identity.version }, { cacheHints: { "tools/list": TOOLS_LIST_CACHE } });
  const lowLevel = server.server;
  lowLevel.registerCapabilities({ tools: { listChanged: false } });
  lowLevel.setRequestHandler("tools/list", () => table.list);
  lowLevel.setRequestHandler("tools/call", (request, ctx) => table.call(request, ctx, logger));
  table.view?.serve(server);
  return server;
}
