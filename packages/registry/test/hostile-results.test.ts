import { AjvJsonSchemaValidator as AjvV2 } from "@modelcontextprotocol/client/validators/ajv";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator as AjvV1 } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createRegistry, dataToolOutputSchema, type HttpServing } from "../dist/index.js";
import { firstText, recordingLogger } from "./helpers.js";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

/*
 * Generated hostile results — toJSON, getters (changing, throwing), proxies (transparent, lying,
 * throwing), BigInt, cycles, symbols, functions, huge strings, deep nesting, random keys — served
 * over Streamable HTTP to the SDK's real Client. For every one the client receives, within a
 * bound, either a result that validates against the published outputSchema with the SDK clients'
 * own validators, or an error result naming the tool; a result the net refuses logs exactly one
 * warning, any other none. A fixed seed and 1,000 cases here; `pnpm soak` runs more with a random
 * seed (SOURCED_NET_CASES, SOURCED_NET_SEED).
 */

const CASES = Number(process.env.SOURCED_NET_CASES ?? 1_000);
const SEED = Number(process.env.SOURCED_NET_SEED ?? 20_261_201);
const CALL_TIMEOUT_MS = 10_000;
const OWN_ERROR = "The upstream API is down.";

type Json = unknown;
type Poison =
  | { kind: "tojson"; returns: Json }
  | { kind: "tojson-throws" | "getter-throws" | "bigint" | "cycle" | "symbol" | "function" | "nan" | "undefined" | "map" | "class" | "date" | "symbol-key" }
  | { kind: "getter"; value: Json }
  | { kind: "getter-changing"; later: Json }
  | { kind: "proxy" | "proxy-lying" }
  | { kind: "proxy-throws"; trap: "get" | "ownKeys" | "getPrototypeOf" | "getOwnPropertyDescriptor" }
  | { kind: "huge-string"; length: number; char: string }
  | { kind: "deep"; levels: number }
  | { kind: "json"; value: Json };

/** Where a poison goes: a path from the result; `*` is a random key there. */
const SPOTS = [
  [],
  ["*"],
  ["content"],
  ["content", 0],
  ["content", 0, "text"],
  ["structuredContent"],
  ["structuredContent", "sources"],
  ["structuredContent", "sources", 0],
  ["structuredContent", "table"],
  ["structuredContent", "table", 1, 0],
  ["structuredContent", "charts", 0],
  ["structuredContent", "charts", 0, "data", "datasets", 0, "data", 0],
  ["structuredContent", "charts", 0, "options"],
  ["structuredContent", "force"],
  ["_meta"],
  ["_meta", "example.org/value"],
  ["content", 0, "*"],
  ["structuredContent", "*"],
  ["structuredContent", "charts", 0, "*"],
  ["_meta", "*"],
] as const satisfies ReadonlyArray<ReadonlyArray<string | number>>;

interface Plan {
  base: { table: boolean; chart: boolean; force: boolean; meta: boolean; ownError: boolean };
  injections: Array<{ spot: number; key: string; poison: Poison }>;
}

/** Kinds no result can carry, wherever they stand: a plan with one of them alone must be refused. */
const ALWAYS_REFUSED = new Set(["tojson-throws", "getter-throws", "bigint", "cycle", "symbol", "function", "nan", "map", "class"]);

const json = fc.jsonValue({ maxDepth: 3 });
const poison: fc.Arbitrary<Poison> = fc.oneof(
  json.map((returns) => ({ kind: "tojson", returns }) as const),
  fc.constantFrom(
    ...(["tojson-throws", "getter-throws", "bigint", "cycle", "symbol", "function", "nan", "undefined", "map", "class", "date", "symbol-key", "proxy", "proxy-lying"] as const),
  ).map((kind): Poison => ({ kind })),
  json.map((value) => ({ kind: "getter", value }) as const),
  json.map((later) => ({ kind: "getter-changing", later }) as const),
  fc.constantFrom("get", "ownKeys", "getPrototypeOf", "getOwnPropertyDescriptor").map((trap) => ({ kind: "proxy-throws", trap }) as const),
  fc.record({ length: fc.oneof(fc.integer({ min: 10_000, max: 200_000 }), fc.constant(1_000_000)), char: fc.constantFrom("x", "\u200B", " ", "é", "\u{1F600}") }).map((huge) => ({ kind: "huge-string", ...huge }) as const),
  fc.oneof(fc.integer({ min: 1, max: 80 }), fc.constant(100_000)).map((levels) => ({ kind: "deep", levels }) as const),
  json.map((value) => ({ kind: "json", value }) as const),
);
const randomKey = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("__proto__", "constructor", "toJSON", "html", "summary", "_meta", "isError")).filter((key) => key !== "then");
const plan: fc.Arbitrary<Plan> = fc.record({
  base: fc.record({ table: fc.boolean(), chart: fc.boolean(), force: fc.boolean(), meta: fc.boolean(), ownError: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) }),
  injections: fc.array(fc.record({ spot: fc.nat({ max: SPOTS.length - 1 }), key: randomKey, poison }), { minLength: 1, maxLength: 3 }),
});

function baseResult(base: Plan["base"]): Record<string, unknown> {
  const structuredContent: Record<string, unknown> = { sources: ["https://example.org/cities-data"] };
  if (base.table) structuredContent.table = [["City", "Population"], ["Tokyo", 37400068]];
  if (base.chart) structuredContent.charts = [{ type: "bar", data: { labels: ["Tokyo"], datasets: [{ data: [37400068] }] } }];
  if (base.force) structuredContent.force = "Data as of 2024";
  const result: Record<string, unknown> = base.ownError
    ? { content: [{ type: "text", text: OWN_ERROR }], isError: true }
    : { content: [{ type: "text", text: "Tokyo has 37,400,068 inhabitants." }], structuredContent };
  if (base.meta) result._meta = { "example.org/value": { requestId: "r-1" } };
  return result;
}

function deepValue(levels: number): unknown {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let level = 1; level < levels; level++) node = node.next = {} as Record<string, unknown>;
  return root;
}

const clone = (value: Json): Json => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as Json));

/** Puts `poison` at `parent[key]`, as a value or as an accessor. */
function install(parent: Record<string | number, unknown>, key: string | number, poison: Poison): void {
  const current = parent[key];
  const set = (value: unknown) => Object.defineProperty(parent, key, { value, enumerable: true, configurable: true, writable: true });
  const trapped = (handler: ProxyHandler<object>) => set(new Proxy(typeof current === "object" && current !== null ? current : {}, handler));
  const boom = () => {
    throw new Error("trap exploded");
  };
  switch (poison.kind) {
    case "tojson":
      return void set({ toJSON: () => clone(poison.returns) });
    case "tojson-throws":
      return void set({ toJSON: boom });
    case "getter":
      return void Object.defineProperty(parent, key, { enumerable: true, configurable: true, get: () => clone(poison.value) });
    case "getter-changing": {
      let reads = 0;
      return void Object.defineProperty(parent, key, { enumerable: true, configurable: true, get: () => (++reads === 1 ? current : clone(poison.later)) });
    }
    case "getter-throws":
      return void Object.defineProperty(parent, key, { enumerable: true, configurable: true, get: boom });
    case "proxy":
      return void trapped({});
    case "proxy-lying": {
      let reads = 0;
      return void trapped({ get: (target, property, receiver) => (++reads % 2 === 0 ? "a lie" : (Reflect.get(target, property, receiver) as unknown)) });
    }
    case "proxy-throws":
      return void trapped({ [poison.trap]: boom });
    case "bigint":
      return void set(12345678901234567890n);
    case "cycle": {
      const node: Record<string, unknown> = { label: "loop" };
      node.self = node;
      return void set(node);
    }
    case "symbol":
      return void set(Symbol("data"));
    case "function":
      return void set(() => "data");
    case "nan":
      return void set(Number.NaN);
    case "undefined":
      return void set(undefined);
    case "map":
      return void set(new Map([["Tokyo", 37400068]]));
    case "class":
      return void set(new (class Row {
        city = "Tokyo";
      })());
    case "date":
      return void set(new Date(0));
    case "symbol-key":
      return void (typeof current === "object" && current !== null ? Object.assign(current, { [Symbol("hidden")]: "x" }) : set(current));
    case "huge-string":
      return void set(poison.char.repeat(poison.length));
    case "deep":
      return void set(deepValue(poison.levels));
    case "json":
      return void set(clone(poison.value));
  }
}

/** A fresh hostile result for `plan`: the base result with each poison put in its spot (if it has that spot). */
function build(plan: Plan): { result: unknown; installed: number } {
  const holder: Record<string, unknown> = { result: baseResult(plan.base) };
  let installed = 0;
  for (const { spot, key, poison } of plan.injections) {
    const path = SPOTS[spot]!.map((step) => (step === "*" ? key : step));
    let parent: Record<string | number, unknown> = holder;
    let at: string | number = "result";
    let reachable = true;
    for (const step of path) {
      const next = parent[at];
      if (typeof next !== "object" || next === null) {
        reachable = false;
        break;
      }
      parent = next as Record<string | number, unknown>;
      at = step;
    }
    if (reachable) {
      install(parent, at, poison);
      installed++;
    }
  }
  return { result: holder.result, installed };
}

const mustRefuse = (plan: Plan) =>
  plan.injections.length === 1 &&
  build(plan).installed === 1 &&
  (ALWAYS_REFUSED.has(plan.injections[0]!.poison.kind) ||
    (plan.injections[0]!.poison.kind === "proxy-throws" && (plan.injections[0]!.poison as { trap: string }).trap === "get") ||
    (plan.injections[0]!.poison.kind === "deep" && (plan.injections[0]!.poison as { levels: number }).levels > 70));

describe(`${CASES} generated hostile results over Streamable HTTP (seed ${SEED})`, () => {
  const plans = fc.sample(plan, { numRuns: CASES, seed: SEED });
  const logger = recordingLogger();
  let serving: HttpServing;
  let client: Client;
  let validators: Array<(value: unknown) => { valid: boolean }>;

  beforeAll(async () => {
    const registry = createRegistry({ name: "hostile", version: "1.0.0", startupCheck: false, logger });
    registry.tool({ name: "hostile", input: { index: z.number().int() } })(function hostile({ index }: { index: number }) {
      return build(plans[index]!).result;
    });
    serving = await registry.serveHttp();
    client = new Client({ name: "hostile-results", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(serving.url));
    const published = (await client.listTools()).tools[0]!.outputSchema as never;
    validators = [new AjvV1().getValidator(published), new AjvV2().getValidator(published)];
  });
  afterAll(async () => {
    await client?.close();
    await serving?.close();
  });

  test("each is answered in time with a valid result or an error result naming the tool; one warning per refusal", async () => {
    const failures: string[] = [];
    const outcomes = { sent: 0, ownError: 0, refused: 0 };
    for (const [index, plan] of plans.entries()) {
      const describe = () => `case ${index} (seed ${SEED}): ${JSON.stringify(plan, (_key, value: unknown) => (typeof value === "string" && value.length > 60 ? `${value.slice(0, 60)}…` : value))}`;
      const before = logger.warnings.length;
      let result: Awaited<ReturnType<Client["callTool"]>>;
      try {
        result = await client.callTool({ name: "hostile", arguments: { index } }, undefined, { timeout: CALL_TIMEOUT_MS });
      } catch (error) {
        failures.push(`${describe()}: the call failed: ${String(error)}`);
        continue;
      }
      const warnings = logger.warnings.length - before;
      const text = firstText(result);
      if (result.isError === true && text.startsWith('Tool "hostile" ')) {
        outcomes.refused++;
        if (warnings !== 1) failures.push(`${describe()}: refused with ${warnings} warnings`);
        if (result.structuredContent !== undefined) failures.push(`${describe()}: a refusal carried structuredContent`);
        continue;
      }
      if (mustRefuse(plan)) failures.push(`${describe()}: sent, but it must be refused: ${JSON.stringify(result).slice(0, 300)}`);
      if (warnings !== 0) failures.push(`${describe()}: sent with ${warnings} warnings`);
      if (!dataToolOutputSchema.safeParse(result).success) failures.push(`${describe()}: sent a result that breaks the contract: ${JSON.stringify(result).slice(0, 300)}`);
      if (result.isError === true) {
        outcomes.ownError++;
        if (text !== OWN_ERROR && !plan.injections.length) failures.push(`${describe()}: the tool's own error text was lost`);
      } else {
        outcomes.sent++;
        for (const validate of validators) if (!validate(result.structuredContent).valid) failures.push(`${describe()}: the client's validator rejects it`);
      }
    }
    console.log(`${plans.length} hostile results: ${outcomes.sent} sent, ${outcomes.ownError} the tool's own error results, ${outcomes.refused} refused; ${logger.warnings.length} warnings`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(outcomes.refused).toBe(logger.warnings.length);
    // The generator reaches both outcomes, not only refusals.
    expect(outcomes.sent).toBeGreaterThan(plans.length / 10);
    expect(outcomes.refused).toBeGreaterThan(plans.length / 10);
  }, Math.max(600_000, CASES * 100));
});
