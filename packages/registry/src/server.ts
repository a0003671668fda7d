import { isInputRequiredResult, McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { CallToolRequest, CallToolResult, Icon, ListToolsResult, ServerContext, Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { statelessRefusal, type Audience } from "./audience.js";
import { callbackContext, isCopiedUrlElicitation, STATELESS_INPUT_REFUSAL } from "./client-requests.js";
import { answerClientMistakes } from "./client-mistakes.js";
import { contractFor, type ResultContract } from "./contract.js";
import type { GatewayView } from "./gateway.js";
import type { OfferingTables } from "./offering-tables.js";
import { JSON_SCHEMA_TARGET, type CompiledInput, type ParsedArguments } from "./input.js";
import type { Logger } from "./logger.js";
import { capText, ERROR_TEXT_LIMIT, STOPPED } from "./answers.js";
import { callWithinBounds } from "./bounds.js";
import { callThroughNet, thrownAnswer, thrownUnlessUnanswered, type NetTool } from "./net.js";
import { publishedContract } from "./published-schema.js";
import type { ServedResources } from "./resource-sources.js";
import type { SerialisedLists } from "./tools-list.js";
import type { ToolOptions } from "./types.js";

/** What the server needs of a registered tool: the net's view of it, its options, and its input compiled at registration. */
export interface ServedTool extends NetTool {
  readonly options: Readonly<ToolOptions>;
  readonly input: CompiledInput | undefined;
  /** The keys its `structuredContent` declares beside the contract's (`ToolOptions.output`). */
  readonly output: CompiledInput | undefined;
}

/** One tool ready to be called: the tool (with the contract its results are checked against) and its deadline. */
interface CallableTool {
  readonly tool: ServedTool;
  readonly timeoutMs: number;
  readonly contract: ResultContract;
}

/** What a serving layer (stdio, Streamable HTTP) asks of the servers it builds. */
export interface ServingContext {
  /** Aborted when the serving shuts down past its grace: calls still running are answered then. */
  readonly shutdown?: AbortSignal;
  /**
   * The serving layer writes each `tools/list` answer itself (tools-list.ts): the server answers
   * with a placeholder these lists hold, and the serving layer sends the tools as serialised once.
   */
  readonly lists?: SerialisedLists;
  /**
   * A stateless 2025-era HTTP request: its server lives for that request alone, so what needs a
   * session (requests to the client, subscriptions, change notifications) is refused with the reason.
   */
  readonly stateless?: boolean;
  /** The era the SDK's entry serves the server in (`serveStdio`, `createMcpHandler`). */
  readonly era?: "legacy" | "modern";
  /**
   * The server stays connected to its client (a stdio connection, a session of the sessionful
   * HTTP mode): it joins the registry's audience, and is told of resource updates and list changes.
   */
  readonly stays?: boolean;
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
  private readonly byName = new Map<string, CallableTool>();
  private serialised: Buffer | undefined;

  /**
   * `callTimeoutMs`: the deadline of a tool that sets no `timeoutMs` of its own. `resources`: the
   * resources the registry serves, whose URIs its tools may cite as sources.
   */
  constructor(tools: Iterable<ServedTool>, view: GatewayView | undefined, callTimeoutMs: number, resources?: ServedResources) {
    const definitions: Tool[] = [];
    // One contract (and its JSON Schema) per output: most tools declare none, and share the first.
    const contracts = new Map<CompiledInput | undefined, { contract: ResultContract; outputSchema: Tool["outputSchema"] }>();
    for (const tool of tools) {
      let known = contracts.get(tool.output);
      if (known === undefined) {
        const contract = contractFor(resources, tool.output);
        known = { contract, outputSchema: publishedOutputSchema(contract) };
        contracts.set(tool.output, known);
      }
      const { contract, outputSchema } = known;
      const { title, description, annotations, icons } = tool.options;
      this.byName.set(tool.name, { tool, timeoutMs: tool.options.timeoutMs ?? callTimeoutMs, contract });
      const viewMeta = view?.toolMeta(tool.options.ui);
      if (viewMeta !== undefined) this.view = view;
      // The tool's own _meta keys, then the view's: the view's resource is what the registry serves.
      const _meta = viewMeta === undefined ? tool.options._meta : { ...tool.options._meta, ...viewMeta };
      definitions.push({
        name: tool.name,
        ...defined({ title, description }),
        inputSchema: tool.input === undefined ? { type: "object", properties: {} } : tool.input.json,
        outputSchema,
        ...defined({ annotations, icons, _meta }),
      });
    }
    this.list = { tools: definitions };
  }

  /** The list's tools as JSON, serialised once per table (the first time a serving layer sends them). */
  get serialisedTools(): Buffer {
    return (this.serialised ??= Buffer.from(JSON.stringify(this.list.tools)));
  }

  /**
   * Answers one `tools/call`: the arguments checked against the tool's input (an invalid call is an
   * error result, as the SDK's own tools answer it), then the call through the net, within the
   * tool's deadline (and the serving's `shutdown`). The input schema is the tool author's code
   * too: a refinement or transform that throws is answered as a throwing tool is (named, capped,
   * logged), and one that is async is awaited.
   */
  call(request: CallToolRequest, ctx: ServerContext, logger: Logger, shutdown?: AbortSignal, stateless = false): CallToolResult | Promise<CallToolResult> {
    const { name, arguments: args } = request.params;
    const callable = this.byName.get(name);
    if (callable === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
    const { tool, timeoutMs, contract } = callable;
    const { input } = tool;
    const answer = callWithinBounds(tool, ctx.mcpReq.signal, { timeoutMs, shutdown }, logger, (signal) => {
      // A stateless 2025-era request cannot reach its client: what would is refused with the reason;
      // elsewhere, an elicitation the tool pushes leaves as its copy, a page to open held to the URL rule.
      const extra = callbackContext(ctx, signal, stateless);
      // `signal` is also what says the answer will not be sent: the call was stopped (its deadline,
      // a shutdown), or the client cancelled it or went away, and the SDK sends nothing for it then.
      if (input === undefined) return callThroughNet(tool, {}, extra, logger, signal, contract);
      // Arguments checked asynchronously after the call was cancelled (or stopped) start no tool.
      const proceed = (parsed: ParsedArguments): CallToolResult | Promise<CallToolResult> =>
        signal.aborted ? STOPPED : parsed.ok ? callThroughNet(tool, parsed.value, extra, logger, signal, contract) : invalidArguments(name, parsed.problems);
      let parsed: ParsedArguments | Promise<ParsedArguments>;
      try {
        parsed = input.parse(args ?? {});
      } catch (error) {
        return thrownAnswer(tool, error, logger);
      }
      // An async refinement may settle after the call was cancelled (or stopped): not logged then.
      return parsed instanceof Promise ? parsed.then(proceed, (error: unknown) => thrownUnlessUnanswered(tool, error, logger, signal)) : proceed(parsed);
    });
    const answered = (result: CallToolResult): CallToolResult => {
      // A URL elicitation the tool threw (-32042), as the net copied it: an error of the request, as
      // the SDK's own tools/call throws it — the SDK sends it on a 2025-era request, and refuses it on
      // 2026-07-28, which has no such error. It needs no session: the client answers by calling again.
      if (isCopiedUrlElicitation(result)) throw result;
      // `throw inputRequired(…)` on a stateless 2025-era request: no later request could bring the answers to it.
      return stateless && isInputRequiredResult(result) ? thrownAnswer(tool, new Error(STATELESS_INPUT_REFUSAL), logger) : result;
    };
    return answer instanceof Promise ? answer.then(answered) : answered(answer);
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

/**
 * A tool's `outputSchema`: the contract's `structuredContent`, and beside its keys those the tool's
 * `output` declares, as that schema states them (its properties, its required keys, its `$defs`).
 */
function publishedOutputSchema(contract: ResultContract): Tool["outputSchema"] {
  // Smaller than the contract's whole schema, never stricter (published-schema.ts).
  const json = publishedContract(toJsonSchema(contract.structuredContent, "output")) as Record<string, unknown> & { properties: Record<string, unknown>; required?: string[] };
  if (contract.output === undefined) return json;
  const declared = contract.output.json as { properties?: Record<string, unknown>; required?: unknown; $defs?: Record<string, unknown> };
  const required = Array.isArray(declared.required) ? (declared.required as string[]) : [];
  return {
    ...json,
    properties: { ...json.properties, ...declared.properties },
    required: [...(json.required ?? []), ...required],
    ...(declared.$defs === undefined ? {} : { $defs: { ...(json.$defs as object | undefined), ...declared.$defs } }),
  };
}

/**
 * How long a client may keep a list (2026-07-28 cache hints): the tools and the resources a
 * registry serves are the same for every caller and fixed once served.
 */
const LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: "public" } as const;

/** What a server says of itself: `serverInfo` (name, version, title, icons, websiteUrl) and its instructions. */
export interface ServerIdentity {
  readonly name: string;
  readonly version: string;
  readonly title?: string | undefined;
  readonly instructions?: string | undefined;
  readonly icons?: Icon[] | undefined;
  readonly websiteUrl?: string | undefined;
}

/**
 * The one place a registry's SDK server is built — for each stdio connection, each HTTP request,
 * and each `registry.createServer()`. It registers nothing per tool: `tools/list` and `tools/call`
 * are answered from the table. Nor per resource or prompt: `resources/*`, `prompts/*` and
 * `completion/complete` are answered from the tables of `offerings` (offering-tables.ts), with
 * the SDK's own handlers.
 */
export function buildServer(
  identity: ServerIdentity,
  tools: TableSource,
  logger: Logger,
  serving: ServingContext,
  offerings: OfferingTables,
  changes?: { readonly audience: Audience; readonly listChanged: boolean },
): McpServer {
  // The lists are the same for every caller and fixed once served: a 2026-07-28 client may keep
  // them (it reads each tool's outputSchema from the list) instead of asking before every call.
  // Strict capabilities: a tool's request the client did not declare it can answer (sampling,
  // elicitation, roots) fails in the tool, with the SDK's error naming the capability, and is
  // never sent.
  const { name, version, title, instructions, icons, websiteUrl } = identity;
  const server = new McpServer(
    { name, version, ...defined({ title, icons, websiteUrl }) },
    { ...defined({ instructions }), cacheHints: { "tools/list": LIST_CACHE, "resources/list": LIST_CACHE }, enforceStrictCapabilities: true },
  );
  // A request whose params break the method's schema is the client's mistake: -32602 in plain words.
  answerClientMistakes(server);
  const lowLevel = server.server;
  const stateless = serving.stateless === true;
  // list_changed only where the registry says its lists change (`listChanged`) and a client can be
  // told (not a stateless request): a v2 host opens a subscriptions/listen stream for each list
  // announced, and holds it open.
  const listChanged = changes?.listChanged === true && !stateless;
  // Logging as the SDK's servers offer it: logging/setLevel, and `ctx.mcpReq.log` at the client's level.
  lowLevel.registerCapabilities({ logging: {}, tools: { listChanged } });
  lowLevel.setRequestHandler("tools/list", () => withTable(tools.table(), (table) => (serving.lists === undefined ? table.list : serving.lists.placeholder(table))));
  lowLevel.setRequestHandler("tools/call", (request, ctx) => withTable(tools.table(), (table) => table.call(request, ctx, logger, serving.shutdown, stateless)));
  const view = tools.view;
  const offered = offerings.kinds;
  const resources = view !== undefined || offered.resources;
  // Subscriptions wherever a later notification can reach the client.
  if (resources) lowLevel.registerCapabilities({ resources: { listChanged, subscribe: !stateless } });
  if (offered.prompts) lowLevel.registerCapabilities({ prompts: { listChanged } });
  // As the SDK declares it when a template or a prompt it registers completes.
  if (offered.completions) lowLevel.registerCapabilities({ completions: {} });
  offerings.serve(server, serving, view, { ...offered, resources }, serving.stays === true);
  if (resources && stateless) {
    const refuse = (): never => {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, statelessRefusal("A resource subscription"));
    };
    lowLevel.setRequestHandler("resources/subscribe", refuse);
    lowLevel.setRequestHandler("resources/unsubscribe", refuse);
  }
  if (changes !== undefined && serving.stays === true) changes.audience.join(server, serving.era === "modern");
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

/** `object` without its `undefined` values: what is not given is left out, not sent as absent. */
function defined<T extends object>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function withTable<T>(table: ToolTable | Promise<ToolTable>, use: (table: ToolTable) => T | Promise<T>): T | Promise<T> {
  return table instanceof ToolTable ? use(table) : table.then(use);
}
