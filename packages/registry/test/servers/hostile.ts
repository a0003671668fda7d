// Results a careless or hostile tool author can return, each with what a client must receive.
// The start-up check is off: these tools are unannotated on purpose, and the net is what is tested.
import { createRegistry, type Logger } from "@sourced/registry";
import { z } from "zod";

const text = (value: string) => [{ type: "text" as const, text: value }];
const sources = ["https://example.org/cities-data"];
const good = () => ({ content: text("Tokyo has 37,400,068 inhabitants."), structuredContent: { sources } });
const chart = () => ({ type: "bar", data: { labels: ["Tokyo"], datasets: [{ data: [37400068] as unknown[] }] } });

/** What the client must receive: an error result whose text has `includes`, or exactly `result`. */
export type Expected =
  | { error: true; includes: string[]; warnings: 1 | 0 }
  | { error: false; result: unknown; warnings: 0 };

interface Case {
  make: () => unknown;
  expected: Expected;
}

const refused = (...includes: string[]): Expected => ({ error: true, includes, warnings: 1 });
const contract = (tool: string, ...includes: string[]) =>
  refused(`Tool "${tool}" returned a result that breaks the DataToolOutput contract, so it was not sent:`, ...includes);
const notJson = (tool: string, ...includes: string[]) =>
  refused(`Tool "${tool}" returned a result that cannot be sent as JSON, so it was not sent:`, ...includes);

function cycle(): Record<string, unknown> {
  const node: Record<string, unknown> = { label: "loop" };
  node.self = node;
  return node;
}

function deep(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let level = 0; level < levels; level++) node = node.next = {} as Record<string, unknown>;
  return root;
}

/** A toJSON that answers a checked value the first time and an unsourced one after. */
function changingToJSON(): unknown {
  let calls = 0;
  return {
    ...good(),
    toJSON: () => (++calls === 1 ? good() : { content: text("unsourced"), structuredContent: { sources: ["javascript:alert(1)"] } }),
  };
}

const withSource = (source: string) => ({ content: text("x"), structuredContent: { sources: [source] } });

export const CASES: Record<string, Case> = {
  // toJSON: called once, and its answer is what is checked and sent.
  tojson_top: {
    make: () => ({ ...good(), toJSON: () => ({ content: text("Trust me."), structuredContent: { sources: [] } }) }),
    expected: contract("tojson_top", "structuredContent.sources: needs at least one source"),
  },
  tojson_sources: {
    make: () => ({ content: text("x"), structuredContent: { sources, toJSON: () => ({ sources: ["javascript:alert(1)"] }) } }),
    expected: contract("tojson_sources", 'structuredContent.sources[0]: must be an absolute http: or https: URL (its scheme is "javascript")'),
  },
  tojson_table: {
    make: () => ({ content: text("x"), structuredContent: { sources, table: Object.assign([["City"], ["Tokyo"]], { toJSON: () => [["City", "Population"], ["Tokyo"]] }) } }),
    expected: contract("tojson_table", "structuredContent.table[1]: row 1 has 1 cells, the header has 2"),
  },
  tojson_chart: {
    make: () => ({ content: text("x"), structuredContent: { sources, charts: [{ ...chart(), toJSON: () => ({ data: { datasets: [] } }) }] } }),
    expected: contract("tojson_chart", "structuredContent.charts[0].type:"),
  },
  tojson_meta: {
    make: () => ({ ...good(), _meta: { "example.org/trace": { toJSON: () => () => "a function" } } }),
    expected: notJson("tojson_meta", '_meta["example.org/trace"]: a function where data belongs'),
  },
  tojson_changing: {
    make: changingToJSON,
    expected: { error: false, result: good(), warnings: 0 },
  },
  tojson_date: {
    make: () => ({ ...good(), _meta: { "example.org/asOf": new Date(Date.UTC(2024, 0, 2)) } }),
    expected: { error: false, result: { ...good(), _meta: { "example.org/asOf": "2024-01-02T00:00:00.000Z" } }, warnings: 0 },
  },
  getter_changing: {
    make: () => {
      let reads = 0;
      return Object.defineProperty({ content: text("x") }, "structuredContent", {
        enumerable: true,
        get: () => (++reads === 1 ? { sources } : { sources: ["javascript:alert(1)"] }),
      });
    },
    expected: { error: false, result: { content: text("x"), structuredContent: { sources } }, warnings: 0 },
  },

  // What JSON cannot carry, in charts and _meta: refused with the path, answered at once.
  bigint_chart: {
    make: () => ({ ...good(), structuredContent: { sources, charts: [{ ...chart(), data: { datasets: [{ data: [12345678901234567890n] }] } }] } }),
    expected: notJson("bigint_chart", "structuredContent.charts[0].data.datasets[0].data[0]: a BigInt (12345678901234567890n)"),
  },
  bigint_meta: {
    make: () => ({ ...good(), _meta: { "example.org/rows": 10n } }),
    expected: notJson("bigint_meta", '_meta["example.org/rows"]: a BigInt (10n)'),
  },
  cycle_chart: {
    make: () => ({ ...good(), structuredContent: { sources, charts: [{ ...chart(), options: cycle() }] } }),
    expected: notJson("cycle_chart", "structuredContent.charts[0].options.self: a cycle"),
  },
  cycle_meta: {
    make: () => ({ ...good(), _meta: { loop: cycle() } }),
    expected: notJson("cycle_meta", "_meta.loop.self: a cycle"),
  },
  throwing_tojson: {
    make: () => ({ ...good(), structuredContent: { sources, charts: [{ ...chart(), options: { toJSON: () => { throw new Error("toJSON exploded"); } } }] } }),
    expected: notJson("throwing_tojson", "structuredContent.charts[0].options: reading it threw: toJSON exploded"),
  },
  deep_meta: {
    make: () => ({ ...good(), _meta: { deep: deep(100_000) } }),
    expected: notJson("deep_meta", "nested deeper than 64 levels"),
  },

  // Source URLs the SDK client's validator rejects: the server rejects them too.
  url_space: { make: () => withSource("https://example.org/a b"), expected: contract("url_space", "(it contains a space)", 'write "https://example.org/a%20b"') },
  url_unicode_host: {
    make: () => withSource("https://exämple.org/data"),
    expected: contract("url_unicode_host", "it contains U+00E4", 'write "https://xn--exmple-cua.org/data"'),
  },
  url_markup: { make: () => withSource('https://example.org/"><script>alert(1)</script>'), expected: contract("url_markup", 'it contains "\\""') },
  url_bad_escape: { make: () => withSource("https://example.org/%zz"), expected: contract("url_bad_escape", 'it contains a "%" not followed by two hex digits') },
  url_backslash: { make: () => withSource("https://evil.com\\@example.org"), expected: contract("url_backslash", 'it contains "\\\\"') },
  url_userinfo: { make: () => withSource("https://example.org@evil.com/"), expected: contract("url_userinfo", "user information before the host") },
  url_bidi: { make: () => withSource("https://example.org/\u202Egpj.exe"), expected: contract("url_bidi", "it contains U+202E") },

  // The whole result: keys, _meta, content URIs, visible text.
  extra_key: {
    make: () => ({ ...good(), html: "<b>unsourced</b>" }),
    expected: contract("extra_key", 'the result: "html" is not a key of a result, which has content, structuredContent, isError and _meta only'),
  },
  meta_reserved: {
    make: () => ({ ...good(), _meta: { "io.modelcontextprotocol/related-task": { taskId: "x" } } }),
    expected: contract("meta_reserved", "has a prefix MCP reserves for itself"),
  },
  meta_bad_key: { make: () => ({ ...good(), _meta: { "no spaces please": 1 } }), expected: contract("meta_bad_key", "is not a _meta key in the MCP format") },
  meta_ok: {
    make: () => ({ ...good(), _meta: { "example.org/trace": { id: "abc", spans: [1, 2] } } }),
    expected: { error: false, result: { ...good(), _meta: { "example.org/trace": { id: "abc", spans: [1, 2] } } }, warnings: 0 },
  },
  resource_link_js: {
    make: () => ({ ...good(), content: [...text("See the data."), { type: "resource_link", uri: "javascript:alert(1)", name: "data" }] }),
    expected: contract("resource_link_js", "content[1].uri: must be an absolute http: or https: URL"),
  },
  embedded_file: {
    make: () => ({ ...good(), content: [...text("See the data."), { type: "resource", resource: { uri: "file:///etc/passwd", text: "root" } }] }),
    expected: contract("embedded_file", "content[1].resource.uri: must be an absolute http: or https: URL"),
  },
  block_extra_key: {
    make: () => ({ ...good(), content: [{ type: "text", text: "x", html: "<b>unsourced</b>" }] }),
    expected: contract("block_extra_key", '"html" is not a key of a text block'),
  },
  invisible_text: {
    make: () => ({ ...good(), content: text("\u200B\u200D\u202E\u2066\u0000\uFEFF \u00AD") }),
    expected: contract("invisible_text", "content: needs at least one text block with visible text"),
  },

  // Error paths.
  own_error: {
    make: () => ({ content: text("No population known for Atlantis."), isError: true }),
    expected: { error: false, result: { content: text("No population known for Atlantis."), isError: true }, warnings: 0 },
  },
  own_error_invisible: {
    make: () => ({ content: text("\u200B"), isError: true }),
    expected: contract("own_error_invisible", "needs at least one text block with visible text"),
  },
  own_error_bad_structured: {
    make: () => ({ content: text("Failed."), isError: true, structuredContent: { sources: ["javascript:alert(1)"] } }),
    expected: contract("own_error_bad_structured", "structuredContent.sources[0]: must be an absolute http: or https: URL"),
  },
  huge_message: {
    make: () => {
      throw new Error("x".repeat(5_000_000));
    },
    expected: refused('Tool "huge_message" failed: xxx', "more characters in the server log]"),
  },
  throwing_tostring: {
    make: () => {
      throw { toString: () => { throw new Error("toString exploded"); } };
    },
    expected: refused('Tool "throwing_tostring" failed: a value that cannot be turned into text'),
  },
  null_prototype: {
    make: () => {
      throw Object.create(null);
    },
    expected: refused('Tool "null_prototype" failed: a value that cannot be turned into text'),
  },
  proxy_thrown: {
    make: () => {
      const boom = () => {
        throw new Error("trap exploded");
      };
      throw new Proxy({}, { get: boom, getPrototypeOf: boom, ownKeys: boom, has: boom, getOwnPropertyDescriptor: boom });
    },
    expected: refused('Tool "proxy_thrown" failed: a value that cannot be turned into text'),
  },
  // A real promise whose species builds what `then` returns: the net must not send that object.
  promise_species: {
    make: () => {
      const promise = Promise.resolve({ content: text("unsourced"), structuredContent: { sources: [] } });
      function Species(executor: (resolve: () => void, reject: () => void) => void) {
        executor(() => {}, () => {});
        return Promise.resolve({ content: text("Unsourced, and never checked.") });
      }
      void Object.defineProperty(promise, "constructor", { value: { [Symbol.species]: Species } });
      return promise;
    },
    expected: contract("promise_species", "structuredContent.sources: needs at least one source"),
  },
  proxy_result: {
    make: () =>
      new Proxy(good(), {
        get: () => {
          throw new Error("proxy exploded");
        },
      }),
    expected: refused('Tool "proxy_result" failed: proxy exploded'),
  },
};

/** Input schemas are the tool author's code too: each is called with `args`. */
export const INPUT_CASES: Record<string, { input: z.ZodObject; args: Record<string, unknown>; expected: Expected }> = {
  input_refine_throws: {
    input: z.object({ city: z.string().refine(() => { throw new Error("y".repeat(100_000)); }) }),
    args: { city: "Tokyo" },
    expected: refused('Tool "input_refine_throws" failed: yyy', "more characters in the server log]"),
  },
  input_transform_throws: {
    input: z.object({ city: z.string().transform(() => { throw { toString: () => { throw new Error("again"); } }; }) }),
    args: { city: "Tokyo" },
    expected: refused('Tool "input_transform_throws" failed: a value that cannot be turned into text'),
  },
  input_proxy_thrown: {
    input: z.object({
      city: z.string().transform(() => {
        const boom = () => {
          throw new Error("trap exploded");
        };
        throw new Proxy({}, { get: boom, getPrototypeOf: boom, ownKeys: boom, has: boom, getOwnPropertyDescriptor: boom });
      }),
    }),
    args: { city: "Tokyo" },
    expected: refused('Tool "input_proxy_thrown" failed: a value that cannot be turned into text'),
  },
  input_async_refine: {
    input: z.object({ city: z.string().refine(async (city) => city === "Tokyo", "unknown city") }),
    args: { city: "Tokyo" },
    expected: { error: false, result: good(), warnings: 0 },
  },
  input_async_refine_fails: {
    input: z.object({ city: z.string().refine(async (city) => city === "Tokyo", "unknown city") }),
    args: { city: "Atlantis" },
    expected: { error: true, includes: ["Invalid arguments for tool input_async_refine_fails", "city: unknown city"], warnings: 0 },
  },
  input_huge_key: {
    input: z.strictObject({ city: z.string() }),
    args: { city: "Tokyo", ["k".repeat(100_000)]: 1 },
    expected: { error: true, includes: ["Invalid arguments for tool input_huge_key", "more characters not shown]"], warnings: 0 },
  },
};

/** The warnings' logger of a spawned server: one JSON string per line on stderr. */
export const jsonLinesLogger: Logger = { warn: (message) => void process.stderr.write(`${JSON.stringify(message)}\n`) };

export function buildHostileRegistry(logger: Logger) {
  const registry = createRegistry({ name: "hostile", version: "1.0.0", logger, startupCheck: false });
  for (const [name, { make }] of Object.entries(CASES)) registry.tool({ name })(() => make());
  for (const [name, { input }] of Object.entries(INPUT_CASES)) registry.tool({ name, input })(() => good());
  registry.tool({ name: "healthy" })(() => good());
  return registry;
}
