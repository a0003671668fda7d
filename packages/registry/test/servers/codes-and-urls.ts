// What a tool, a prompt and a resource read hold the registry to when they throw a coded error (a
// ProtocolError, ResourceNotFoundError) or ask the client to open a URL — and, for the coded errors,
// a plain SDK McpServer with the same callbacks, so the tests compare the two side by side. Served
// over stdio by codes-and-urls-server.ts (the SDK's by sdk-codes-server.ts) and over HTTP in-process.
// The start-up check is off: these tools are unannotated on purpose, and the net is what is tested.
import { McpServer } from "@modelcontextprotocol/server";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { createRegistry, inputRequired, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate, UrlElicitationRequiredError, type Logger, type Registry, type ToolCallExtra } from "@sourced/registry";

const text = (value: string) => ({ type: "text" as const, text: value });
const message = (value: string) => ({ role: "user" as const, content: text(value) });

/** A tool's good result: what a callback that does not throw answers. */
const GOOD_RESULT = { content: [text("Tokyo has 37,400,068 inhabitants.")], structuredContent: { sources: ["https://example.org/cities-data"] } };

/**
 * ProtocolErrors of codes a server may answer a request with, by name: thrown by a tool, a prompt
 * and a read of that name, on the registry's server and on the SDK's alike. A prompt's and a read's
 * leave with their code, message and data, as the SDK's own server sends them.
 */
export const PASSED = {
  invalid_params: () => new ProtocolError(ProtocolErrorCode.InvalidParams, "No city named Atlantis.", { city: "Atlantis" }),
  not_found: () => new ResourceNotFoundError("cities://Atlantis"),
  // The code of earlier revisions: the SDK sends it as -32602, on every revision.
  legacy_not_found: () => new ProtocolError(ProtocolErrorCode.ResourceNotFound, "Resource cities://Atlantis not found", { uri: "cities://Atlantis" }),
  // A code of the application's own, outside JSON-RPC's reserved -32768 to -32000.
  app_code: () => new ProtocolError(4_290, "Quota reached: try again in a minute.", { retryAfterMs: 60_000 }),
  no_data: () => new ProtocolError(ProtocolErrorCode.InvalidParams, "The city is missing."),
  // The v1 line's McpError (its message starts "MCP error <code>: "), as a server moved from it throws.
  v1_invalid_params: () => new McpError(-32_602, "No city named Atlantis.", { city: "Atlantis" }),
  v1_app_code: () => new McpError(4_290, "Quota reached: try again in a minute.", { retryAfterMs: 60_000 }),
  // A plain Error given an integer code (and data), which the SDK sends on as it sends a ProtocolError.
  coded_error: () => Object.assign(new Error("Quota reached: try again in a minute."), { code: 4_291, data: { retryAfterMs: 60_000 } }),
  coded_error_no_data: () => Object.assign(new Error("Row locked."), { code: 1_205 }),
} as const satisfies Record<string, () => Error>;

/**
 * Codes only the layers beneath a callback may send (the transport, the JSON-RPC layer, the
 * dispatcher, the SDK's session and version negotiation), or that JSON-RPC reserves: a ProtocolError
 * of one, thrown by a prompt or a read, is refused by the registry; the SDK's server sends it on.
 */
export const OWNED = {
  parse_error: -32_700,
  invalid_request: -32_600,
  method_not_found: -32_601,
  server_error: -32_000,
  session_not_found: -32_001,
  header_mismatch: -32_020,
  missing_capability: -32_021,
  unsupported_version: -32_022,
  reserved: -32_050,
  reserved_future: -32_500,
} as const satisfies Record<string, number>;

/** Errors of such codes that are no ProtocolError — the v1 line's McpError, a plain Error given a code: refused alike. */
export const OWNED_OTHER = {
  v1_method_not_found: { code: -32_601, make: () => new McpError(-32_601, "Not what it seems.", { name: "v1_method_not_found" }) },
  coded_error_session: { code: -32_001, make: () => Object.assign(new Error("Not what it seems."), { code: -32_001 }) },
} as const;

/** The message of the errors of `OWNED`. */
export const OWNED_MESSAGE = "Not what it seems.";

/** How often the `toJSON` of the `data_once` error's data ran (in this process): once per answer. */
export const dataReads = { count: 0 };

/** ProtocolErrors of a passed code that may not leave as they are, or that are read once: thrown by a prompt and a read of that name. */
export const HOSTILE = {
  // Its data holds what JSON cannot carry: the transport could not write it, and the client would wait.
  coded_bigint: {
    make: () => new ProtocolError(ProtocolErrorCode.InvalidParams, "Bad city.", { n: 1n }),
    includes: ["answered with the error -32602, which cannot be sent as JSON, so it was not sent", "- data.n: a BigInt"],
  },
  // Its message is an object: no client could read the error.
  coded_message_object: {
    make: () => {
      const error = new ProtocolError(ProtocolErrorCode.InvalidParams, "never read");
      Object.defineProperty(error, "message", { get: () => ({ text: "an object" }) });
      return error;
    },
    includes: ["answered with the error -32602, whose message is no text, so it was not sent", "- message: an object"],
  },
  // Its data's toJSON answers differently the second time: what leaves is the first answer.
  data_once: {
    make: () => {
      let calls = 0;
      return new ProtocolError(ProtocolErrorCode.InvalidParams, "Read once.", {
        toJSON: () => {
          dataReads.count++;
          return ++calls === 1 ? { checked: true } : { swapped: true };
        },
      });
    },
    passed: { code: -32_602, data: { checked: true } },
  },
} as const satisfies Record<string, { make: () => ProtocolError; includes?: readonly string[]; passed?: unknown }>;

/** A -32603 thrown: the server's own failure, answered as any throw is. */
export const INTERNAL = { internal_error: () => new ProtocolError(ProtocolErrorCode.InternalError, "The database is down.", { retry: true }) };

/** The cities the template `cities://{city}` knows; any other is not found. */
const CITIES = new Set(["Tokyo", "Delhi"]);

/** A template's read, as an SDK server writes it: a city it does not know is `ResourceNotFoundError`. */
const readCity = (uri: URL, variables: Record<string, string | string[]>) => {
  if (!CITIES.has(String(variables["city"]))) throw new ResourceNotFoundError(uri.href);
  return { contents: [{ uri: uri.href, mimeType: "text/plain", text: `${String(variables["city"])} is a city.` }] };
};

/** Every coded error, by name, as each server's callbacks throw it. */
const THROWN: Record<string, () => unknown> = {
  ...PASSED,
  ...Object.fromEntries(Object.entries(OWNED).map(([name, code]) => [name, () => new ProtocolError(code, OWNED_MESSAGE, { name })])),
  ...Object.fromEntries(Object.entries(OWNED_OTHER).map(([name, { make }]) => [name, make])),
  ...Object.fromEntries(Object.entries(HOSTILE).map(([name, { make }]) => [name, make])),
  ...INTERNAL,
};

/** URLs no source may be, and so no page a client is asked to open: by name. */
export const BAD_URLS = {
  script: { url: "javascript:alert(1)", says: 'must be an absolute http: or https: URL (its scheme is "javascript")' },
  data: { url: "data:text/html,<script>alert(1)</script>", says: 'must be an absolute http: or https: URL (its scheme is "data")' },
  userinfo: { url: "https://example.org@evil.example/login", says: "it has user information before the host (user@host), which disguises the host" },
} as const;

/** A page the rule accepts, for the requests that must still reach the client. */
export const GOOD_URL = "https://example.org/login";

/** What each kind of URL elicitation asks the user, by the way it is asked. */
export const URL_MESSAGE = "Sign in to read the graph.";

/** The ways a callback asks the client to open a URL, by name: what it does with `url`. */
const ASKING = {
  // 2026-07-28's way, thrown (on a 2025-era connection the SDK asks the client itself).
  asked: (url: string, ctx: ToolCallExtra): string => {
    const answer = (ctx.mcpReq.inputResponses as Record<string, { action?: unknown } | undefined> | undefined)?.["login"];
    if (answer !== undefined) return `signed in: ${String(answer.action)}`;
    throw inputRequired({ inputRequests: { login: inputRequired.elicitUrl({ message: URL_MESSAGE, url }) } });
  },
  // 2025's error, -32042.
  thrown: (url: string): never => {
    throw new UrlElicitationRequiredError([{ mode: "url", message: URL_MESSAGE, url, elicitationId: "login-1" }], "Sign in first.");
  },
  // 2025's request, pushed over the connection.
  pushed: async (url: string, ctx: ToolCallExtra): Promise<string> => `pushed: ${(await ctx.mcpReq.elicitInput({ mode: "url", message: URL_MESSAGE, url, elicitationId: "login-2" })).action}`,
  // The same request, sent by its method.
  sent: async (url: string, ctx: ToolCallExtra): Promise<string> =>
    `sent: ${(await ctx.mcpReq.send({ method: "elicitation/create", params: { mode: "url", message: URL_MESSAGE, url, elicitationId: "login-3" } })).action}`,
} as const;

/** Every way of asking with every bad URL (`asked_script`, `pushed_userinfo`, …), and each way with the good one (`asked_good`, …). */
export const ASKS = [
  ...Object.keys(ASKING).flatMap((how) => Object.entries(BAD_URLS).map(([bad, { url, says }]) => ({ name: `${how}_${bad}`, how: how as keyof typeof ASKING, url, says }))),
  ...Object.keys(ASKING).map((how) => ({ name: `${how}_good`, how: how as keyof typeof ASKING, url: GOOD_URL, says: undefined })),
];

export function buildCodesAndUrls(logger: Logger): Registry {
  const registry = createRegistry({ name: "codes-and-urls", version: "1.0.0", logger, startupCheck: false });
  for (const [name, make] of Object.entries(THROWN)) {
    registry.tool({ name })(() => {
      throw make();
    });
    registry.prompt(name, {}, () => {
      throw make();
    });
    registry.resource(name, `memory://codes/${name}`, {}, () => {
      throw make();
    });
  }
  registry.resource("city", new ResourceTemplate("cities://{city}", { list: undefined }), { mimeType: "text/plain" }, readCity);
  for (const { name, how, url } of ASKS) {
    const ask = ASKING[how];
    registry.tool({ name })(async (_args: unknown, extra: ToolCallExtra) => ({ ...GOOD_RESULT, content: [text(await ask(url, extra))] }));
    registry.prompt(name, {}, async (ctx) => ({ messages: [message(await ask(url, ctx))] }));
    registry.resource(name, `memory://asks/${name}`, {}, async (uri, ctx) => ({ contents: [{ uri: uri.href, text: await ask(url, ctx) }] }));
  }
  return registry;
}

/** A plain SDK server with the same coded errors, and the same name (2026-07-28 results carry it): what a server moved from the SDK did before. */
export function buildSdkCodes(): McpServer {
  const server = new McpServer({ name: "codes-and-urls", version: "1.0.0" });
  for (const [name, make] of Object.entries(THROWN)) {
    server.registerTool(name, {}, () => {
      throw make();
    });
    server.registerPrompt(name, {}, () => {
      throw make();
    });
    server.registerResource(name, `memory://codes/${name}`, {}, () => {
      throw make();
    });
  }
  server.registerResource("city", new ResourceTemplate("cities://{city}", { list: undefined }), { mimeType: "text/plain" }, readCity);
  return server;
}

/** One JSON string per line on stderr: what the tests read back. */
export const jsonLinesLogger: Logger = { warn: (text) => void process.stderr.write(`${JSON.stringify(text)}\n`) };
