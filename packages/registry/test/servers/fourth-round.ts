// What the fourth run-time round (issue 44) holds the registry to: prompts through the net, a
// client's mistake answered as one, a call in flight when stdin closes, the smaller holes. Served
// over stdio by fourth-round-server.ts and over HTTP in-process by the tests.
// The start-up check is off: these tools are unannotated on purpose, and the net is what is tested.
import { createRegistry, inputRequired, ToolError, UrlElicitationRequiredError, type Logger, type Registry, type ToolCallExtra } from "@sourced/registry";
import { z } from "zod";

const text = (value: string) => ({ type: "text" as const, text: value });
const message = (value: string) => ({ role: "user" as const, content: text(value) });

/** How often the toJSON of a `to_json_once` prompt's answer ran (in this process): once per answer. */
export const toJsonCalls = { count: 0 };

function cycle(): Record<string, unknown> {
  const answer: Record<string, unknown> = { messages: [message("loop")] };
  (answer.messages as unknown[]).push(answer);
  return answer;
}

/** A `ToolError` whose `message` cannot be read: its getter throws. */
function unreadableToolError(): ToolError {
  const error = new ToolError("never read");
  Object.defineProperty(error, "message", {
    get() {
      throw new Error("the message getter threw");
    },
  });
  return error;
}

/**
 * The prompts, by name: what each answers, and what a client must receive (`answer`: the exact
 * result; else an error whose message has every `includes`).
 */
export const PROMPTS = {
  bigint: {
    get: () => ({ messages: [message("hi")], _meta: { "example.org/n": 1n } }),
    includes: ['Prompt "bigint" answered with a result that cannot be sent as JSON, so it was not sent', "BigInt"],
  },
  cycle: { get: cycle, includes: ['Prompt "cycle" answered with a result that cannot be sent as JSON, so it was not sent', "a cycle"] },
  wrong_role: {
    get: () => ({ messages: [{ role: "system", content: text("x") }] }),
    includes: ['Prompt "wrong_role" answered with a result that breaks the GetPromptResult contract, so it was not sent', "messages[0].role"],
  },
  extra_key: {
    get: () => ({ messages: [message("hi")], secret: "y" }),
    includes: ['Prompt "extra_key" answered with a result that breaks the GetPromptResult contract', '"secret" is not a key'],
  },
  to_json: {
    get: () => ({ toJSON: () => ({ messages: "all of them" }) }),
    includes: ['Prompt "to_json" answered with a result that breaks the GetPromptResult contract', "messages: must be a list"],
  },
  to_json_once: {
    // Checked the first time; what a second toJSON would give is never sent.
    get: () => {
      let calls = 0;
      return {
        toJSON: () => {
          toJsonCalls.count++;
          return ++calls === 1 ? { messages: [message("checked")] } : { messages: [message("swapped")], leak: true };
        },
      };
    },
    answer: { messages: [message("checked")] },
  },
  throws: {
    get: () => {
      throw new Error("the template is gone");
    },
    includes: ['Prompt "throws" failed: the template is gone'],
  },
  javascript_link: {
    get: () => ({ messages: [{ role: "user", content: { type: "resource_link", uri: "javascript:alert(1)", name: "x" } }] }),
    includes: ['Prompt "javascript_link" answered with a result that breaks the GetPromptResult contract', "messages[0].content.uri"],
  },
} as const satisfies Record<string, { get: () => unknown; includes?: readonly string[]; answer?: unknown }>;

/** An elicitation a tool asks the client for, `throw inputRequired({ inputRequests: { confirm: … } })`, with `params` of its own beside. */
const elicit = (params: Record<string, unknown> = {}) => ({
  method: "elicitation/create",
  params: { mode: "form", message: "Proceed?", requestedSchema: { type: "object", properties: {} }, ...params },
});

/**
 * Requests for input a hostile tool throws, each an object the SDK takes for one
 * (`resultType: "input_required"`) that the net's copy must stop before the SDK sees it, by name:
 * what the error result a client receives must say.
 */
export const THROWN_REQUESTS = {
  ask_bigint: {
    make: () => ({ resultType: "input_required", inputRequests: { confirm: elicit({ _meta: { "example.org/n": 1n } }) } }),
    includes: ['Tool "ask_bigint" asked for input with a request that cannot be sent as JSON, so it was not sent', "inputRequests.confirm.params._meta", "BigInt"],
  },
  ask_cycle: {
    make: () => {
      const request: Record<string, unknown> = { resultType: "input_required", requestState: "state" };
      request["inputRequests"] = { confirm: elicit({ _meta: { back: request } }) };
      return request;
    },
    includes: ['Tool "ask_cycle" asked for input with a request that cannot be sent as JSON, so it was not sent', "a cycle"],
  },
  // Says it asks for input the first time it is read, and throws every time after.
  ask_rereads: {
    make: () => {
      let reads = 0;
      return {
        get resultType() {
          if (++reads > 1) throw new Error("read twice");
          return "input_required";
        },
        inputRequests: { confirm: elicit() },
      };
    },
    includes: ['Tool "ask_rereads" asked for input with a request that cannot be sent as JSON, so it was not sent', "resultType: reading it threw: read twice"],
  },
  // Says it asks for input the first time it is read, and is a finished answer after: unchecked, unsourced.
  ask_swaps: {
    make: () => {
      let reads = 0;
      return {
        get resultType() {
          return ++reads === 1 ? "input_required" : "complete";
        },
        requestState: "state",
        content: [text("Unchecked, unsourced.")],
      };
    },
    includes: ['Tool "ask_swaps" asked for input with a request that changed when it was read again, so it was not sent', 'resultType: "input_required", then "complete"'],
  },
} as const satisfies Record<string, { make: () => unknown; includes: readonly string[] }>;

/** The page a URL elicitation asks the user to open, as a tool, a prompt and a read throw it (`UrlElicitationRequiredError`, -32042). */
export const URL_ELICITATION = { mode: "url", message: "Sign in to read the graph.", url: "https://example.org/login", elicitationId: "login-1" } as const;
/** The message of the error they throw. */
export const URL_ELICITATION_MESSAGE = "Sign in first: open the link.";

/**
 * The URL elicitations a tool, a prompt and a read of the same name throw, by name: `passed`, what
 * the client receives as the error's data on a 2025-era request; else `includes`, what the refusal
 * naming it says.
 */
export const URL_ELICITATIONS = {
  url_elicitation: {
    make: () => new UrlElicitationRequiredError([{ ...URL_ELICITATION }], URL_ELICITATION_MESSAGE),
    passed: { elicitations: [URL_ELICITATION] },
  },
  // Its data holds what JSON cannot carry: the transport could not write it, and the client would wait.
  url_bigint: {
    make: () => new UrlElicitationRequiredError([{ ...URL_ELICITATION, _meta: { "example.org/n": 1n } }], URL_ELICITATION_MESSAGE),
    includes: ['"url_bigint" asked for input with a URL elicitation that cannot be sent as JSON, so it was not sent', 'data.elicitations[0]._meta["example.org/n"]: a BigInt'],
  },
} as const satisfies Record<string, { make: () => unknown; passed?: unknown; includes?: readonly string[] }>;

/** What a tool, a prompt and a read ask the client's user pushed, the SDK's 2025-era way (`ctx.mcpReq.elicitInput(…)`). */
export const PUSHED = "Pushed from the server?";

/** The user's answer to `PUSHED`: its action. */
const pushed = async (ctx: Pick<ToolCallExtra, "mcpReq">): Promise<string> =>
  (await ctx.mcpReq.elicitInput({ mode: "form", message: PUSHED, requestedSchema: { type: "object", properties: {} } })).action;

/** How often the `inputRequests` of the request `ask_read_once` last threw were read. */
let requestReads = 0;

/** How often the `inputRequests` of the request the prompt `ask_confirm` last threw were read. */
let promptRequestReads = 0;

/** What a prompt or a read asking for a confirmation answers once it has it: the client's action. */
const confirmed = (inputResponses: unknown): string | undefined => {
  const answer = (inputResponses as Record<string, { action?: unknown } | undefined> | undefined)?.["confirm"];
  return answer === undefined ? undefined : String(answer.action);
};

export const GOOD_RESULT = { content: [text("Tokyo has 37,400,068 inhabitants.")], structuredContent: { sources: ["https://example.org/cities-data"] } };

export function buildFourthRound(logger: Logger): Registry {
  const registry = createRegistry({ name: "fourth-round", version: "1.0.0", logger, startupCheck: false });
  registry.tool({ name: "fine" })(() => GOOD_RESULT);
  // Never settles; says on stderr when its signal is aborted (a tool stuck on an upstream that
  // never answers, holding nothing that keeps the process alive).
  registry.tool({ name: "wait_for_abort" })(
    (_args: unknown, extra: { mcpReq: { signal: AbortSignal } }) =>
      new Promise(() => {
        const { signal } = extra.mcpReq;
        signal.addEventListener("abort", () => void process.stderr.write(`${JSON.stringify("signal aborted")}\n`));
      }),
  );
  registry.tool({ name: "ansi" })(() => {
    throw new ToolError("\u001b[31mThe upstream is down\u001b[0m\u0007 \u009b2J");
  });
  registry.tool({ name: "ansi_thrown" })(() => {
    throw new Error("\u001b]0;owned\u0007broken");
  });
  registry.tool({ name: "unreadable" })(() => {
    throw unreadableToolError();
  });
  for (const [name, { make }] of Object.entries(THROWN_REQUESTS)) {
    registry.tool({ name })(() => {
      throw make();
    });
  }
  // Asks for a confirmation, its request's inputRequests a getter that counts its reads; called
  // again with the answer, says how often they were read: once, by the net's copy.
  registry.tool({ name: "ask_read_once" })((_args: unknown, extra: { mcpReq: { inputResponses?: unknown } }) => {
    if (extra.mcpReq.inputResponses !== undefined) return { ...GOOD_RESULT, content: [text(`inputRequests read ${requestReads} time(s)`)] };
    requestReads = 0;
    throw {
      resultType: "input_required",
      get inputRequests() {
        requestReads++;
        return { confirm: elicit() };
      },
    };
  });
  // A prompt and a read that ask the client for a confirmation, the way a tool does; asked again
  // with the answer, they say what it was (the prompt: and how often its request's inputRequests
  // were read — once, by the net's copy).
  registry.prompt("ask_confirm", { description: "Asks before answering" }, (ctx) => {
    const action = confirmed(ctx.mcpReq.inputResponses);
    if (action !== undefined) return { messages: [message(`answered ${action}; inputRequests read ${promptRequestReads} time(s)`)] };
    promptRequestReads = 0;
    throw {
      resultType: "input_required",
      get inputRequests() {
        promptRequestReads++;
        return { confirm: elicit({ message: "Answer the prompt?" }) };
      },
    };
  });
  registry.resource("ask_confirm", "memory://asks/confirm", { mimeType: "text/plain" }, (uri, ctx) => {
    const action = confirmed(ctx.mcpReq.inputResponses);
    if (action === undefined) throw inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Read the resource?", requestedSchema: { type: "object", properties: {} } }) } });
    return { contents: [{ uri: uri.href, mimeType: "text/plain", text: `read ${action}` }] };
  });
  // The hostile requests a tool throws, thrown by a prompt and by a read of the same names.
  for (const [name, { make }] of Object.entries(THROWN_REQUESTS)) {
    registry.prompt(name, {}, () => {
      throw make();
    });
    registry.resource(name, `memory://asks/${name}`, {}, () => {
      throw make();
    });
  }
  // A tool, a prompt and a read that ask the user pushed, as the SDK's 2025-era servers do.
  registry.tool({ name: "push_elicit" })(async (_args: unknown, extra: ToolCallExtra) => ({ ...GOOD_RESULT, content: [text(`pushed ${await pushed(extra)}`)] }));
  registry.prompt("push_elicit", {}, async (ctx) => ({ messages: [message(`pushed ${await pushed(ctx)}`)] }));
  registry.resource("push_elicit", "memory://asks/push_elicit", {}, async (uri, ctx) => ({ contents: [{ uri: uri.href, text: `pushed ${await pushed(ctx)}` }] }));
  // A URL elicitation thrown, the 2025-era way, by a tool, a prompt and a read of each name.
  for (const [name, { make }] of Object.entries(URL_ELICITATIONS)) {
    registry.tool({ name })(() => {
      throw make();
    });
    registry.prompt(name, {}, () => {
      throw make();
    });
    registry.resource(name, `memory://asks/${name}`, {}, () => {
      throw make();
    });
  }
  // A request for input returned, as the SDK's own callbacks may: refused as a tool's is.
  const asked = () => inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Returned?", requestedSchema: { type: "object", properties: {} } }) } });
  registry.tool({ name: "returns_request" })(asked);
  registry.prompt("returns_request", {}, asked);
  registry.resource("returns_request", "memory://asks/returns_request", {}, asked);
  registry.resource("graph", "memory://graph", { mimeType: "application/json" }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: "{}" }] }));
  registry.resource("script", "memory://script", {}, () => ({ contents: [{ uri: "javascript:alert(1)", text: "x" }] }));
  registry.resource("data_uri", "memory://data-uri", {}, () => ({ contents: [{ uri: "data:text/html,<script>alert(1)</script>", text: "x" }] }));
  registry.prompt("greet", { description: "Greets someone", argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({ messages: [message(`Hello ${who}`)] }));
  for (const [name, { get }] of Object.entries(PROMPTS)) registry.prompt(name, {}, get as () => never);
  return registry;
}

/** One JSON string per line on stderr: what the tests read back. */
export const jsonLinesLogger: Logger = { warn: (text) => void process.stderr.write(`${JSON.stringify(text)}\n`) };
