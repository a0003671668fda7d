import type { Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { describeProblems, type Issue } from "./problems.js";

/*
 * A tool's input, as the SDK's `registerTool` takes it: a zod raw shape (wrapped in `z.object()`),
 * a zod object, or any Standard Schema that converts itself to JSON Schema. Each input is checked
 * and converted once, when the first tool using it is registered: a schema the registry cannot
 * serve (zod 3, zod before 4.2, a library without JSON Schema, a schema that is no object) is
 * refused there, naming what to install, instead of failing every request later.
 */

/** The JSON Schema dialect the SDK converts Standard Schemas to; tools/list carries it. */
export const JSON_SCHEMA_TARGET = "draft-2020-12";

/** The oldest zod whose schemas convert themselves to JSON Schema (`~standard.jsonSchema`): the SDK's own floor. */
const ZOD_FLOOR = { major: 4, minor: 2 };
const INSTALL_ZOD = `install zod ${ZOD_FLOOR.major}.${ZOD_FLOOR.minor} or later (npm install zod@^${ZOD_FLOOR.major}.${ZOD_FLOOR.minor}.0) and import z from "zod"`;

/** The outcome of parsing a call's arguments. */
export type ParsedArguments = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problems: readonly string[] };

/** A tool's input, ready to serve. */
export interface CompiledInput {
  /** The `inputSchema` of `tools/list`. */
  readonly json: Tool["inputSchema"];
  /**
   * Parses a call's arguments: at once when the schema is synchronous, else a promise. Throws (or
   * rejects) when the schema's own code does: a refinement or a transform is the tool author's code.
   */
  parse(args: unknown): ParsedArguments | Promise<ParsedArguments>;
}

/** Why an input was refused: the text follows "registry.tool() at <site>: ". */
export class InputRefusal extends Error {}

/**
 * Which option a schema is: a tool's `input` (its arguments) or its `output` (the keys its
 * `structuredContent` carries beside the contract's, published from the schema's output side).
 */
export type SchemaRole = "input" | "output";

/** Schemas already compiled, per role: tools often share one input object. */
const compiled = { input: new WeakMap<object, CompiledInput>(), output: new WeakMap<object, CompiledInput>() };

/** The input (or output) ready to serve; throws an {@link InputRefusal} that says what is wrong and what to write. */
export function compileInput(input: unknown, role: SchemaRole = "input"): CompiledInput {
  if ((typeof input !== "object" && typeof input !== "function") || input === null) {
    throw new InputRefusal(`${role} is ${describeValue(input)}; ${whatItTakes(role)}.`);
  }
  let known = compiled[role].get(input);
  if (known === undefined) {
    known = compile(input, role);
    compiled[role].set(input, known);
  }
  return known;
}

const whatItTakes = (role: SchemaRole): string =>
  role === "input"
    ? "it takes a zod raw shape ({ city: z.string() }), a zod object (z.object({ city: z.string() })) or another Standard Schema that converts itself to JSON Schema"
    : "it takes a zod raw shape ({ entities: z.array(Entity) }), a zod object (z.object({ entities: z.array(Entity) })) or another Standard Schema that converts itself to JSON Schema";

interface StandardProps {
  readonly vendor?: unknown;
  readonly validate?: unknown;
  readonly jsonSchema?: { readonly input?: unknown; readonly output?: unknown };
}

interface ZodLike {
  readonly _zod?: { readonly version?: { readonly major?: unknown; readonly minor?: unknown; readonly patch?: unknown } };
  readonly _def?: { readonly typeName?: unknown };
  readonly "~standard"?: StandardProps;
}

function compile(input: object, role: SchemaRole): CompiledInput {
  const standard = (input as ZodLike)["~standard"];
  if (standard === undefined && !isZod3(input)) return compileShape(input, role);
  const problem = unusableSchema(input, role, role);
  if (problem !== undefined) throw new InputRefusal(problem);
  const json = jsonSchemaOf(input, role);
  if (isZod(input)) {
    const parse = zodParser(input as z.ZodType, role);
    return { json, parse };
  }
  const validate = standard!.validate as (value: unknown) => StandardResult | PromiseLike<StandardResult>;
  return {
    json,
    parse(args) {
      const result = validate.call(standard!, args);
      const read = (outcome: StandardResult) => fromStandard(outcome, role);
      return isThenable(result) ? new Promise<StandardResult>((resolve, reject) => void result.then(resolve, reject)).then(read) : read(result);
    },
  };
}

/** A raw shape: every field a zod schema the registry's `z.object()` can wrap. */
function compileShape(shape: object, role: SchemaRole): CompiledInput {
  const prototype: unknown = Object.getPrototypeOf(shape);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new InputRefusal(`${role} is ${describeValue(shape)}, which is neither a schema nor a plain object of zod fields; ${whatItTakes(role)}.`);
  }
  for (const [key, field] of Object.entries(shape) as [string, unknown][]) {
    const where = `${role}${/^[A-Za-z_$][\w$]*$/u.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`;
    const isObject = (typeof field === "object" || typeof field === "function") && field !== null;
    if (!isObject || (!isZod(field) && !isZod3(field))) {
      throw new InputRefusal(
        isObject && (field as ZodLike)["~standard"] !== undefined
          ? `${where} is ${withArticle(vendorOf(field as ZodLike))} schema: the fields of a raw shape are zod schemas, which the registry wraps in z.object(). ` +
              `Pass one schema of that library for the whole ${role} instead.`
          : `${where} is ${describeValue(field)}, not a zod schema; the fields of a raw shape are zod schemas ({ city: z.string() }).`,
      );
    }
    const problem = unusableSchema(field as ZodLike, where, role);
    if (problem !== undefined) throw new InputRefusal(problem);
  }
  const schema = z.object(shape as z.ZodRawShape);
  return { json: jsonSchemaOf(schema as ZodLike, role), parse: zodParser(schema, role) };
}

/** Why the SDK could not use `schema` (zod 3, zod before 4.2, no JSON Schema), or `undefined`. */
function unusableSchema(schema: ZodLike, where: string, role: SchemaRole): string | undefined {
  const standard = schema["~standard"];
  if (isZod3(schema)) return `${where} is a zod 3 schema, which the MCP SDK cannot use: ${INSTALL_ZOD}.`;
  const version = schema._zod?.version;
  if (isZod(schema) && version !== undefined && (version.major !== ZOD_FLOOR.major || Number(version.minor) < ZOD_FLOOR.minor)) {
    return `${where} is a zod ${String(version.major)}.${String(version.minor)}.${String(version.patch)} schema, which cannot state its JSON Schema: ${INSTALL_ZOD}.`;
  }
  if (typeof standard?.validate !== "function") return `${where} is ${describeValue(schema)}, not a Standard Schema; ${whatItTakes(role)}.`;
  if (typeof standard.jsonSchema?.[role] !== "function") {
    return (
      `${where} is ${withArticle(vendorOf(schema))} schema without JSON Schema (StandardJSONSchemaV1, \`~standard.jsonSchema\`), so its tool cannot publish an ${role}Schema. ` +
      `Upgrade ${vendorOf(schema)} to a version that provides it${vendorOf(schema) === "zod" ? ` (${INSTALL_ZOD})` : ""}.`
    );
  }
  return undefined;
}

function isZod(value: object): boolean {
  return (value as ZodLike)._zod !== undefined;
}

/** A zod 3 schema (`z` of zod 3.x, or `zod/v3`): its definition names its type, and it has no `_zod`. */
function isZod3(value: object): boolean {
  return (value as ZodLike)._zod === undefined && typeof (value as ZodLike)._def?.typeName === "string";
}

function vendorOf(schema: ZodLike): string {
  const vendor = schema["~standard"]?.vendor;
  return typeof vendor === "string" && vendor !== "" ? vendor : "Standard Schema";
}

/** The schema's own JSON Schema for its input, as the SDK publishes it: an object at the root. */
function jsonSchemaOf(schema: ZodLike, role: SchemaRole): Tool["inputSchema"] {
  const convert = schema["~standard"]!.jsonSchema![role] as (options: { target: string }) => Record<string, unknown>;
  let json: Record<string, unknown>;
  try {
    json = convert({ target: JSON_SCHEMA_TARGET });
  } catch (error) {
    throw new InputRefusal(`${role} cannot be published as JSON Schema (${error instanceof Error ? error.message : String(error)}). Describe it with types JSON Schema has.`);
  }
  if (json.type !== undefined && json.type !== "object") {
    throw new InputRefusal(
      role === "input"
        ? `input describes ${JSON.stringify(json.type)}, not an object: a tool's arguments are an object. Wrap it: z.object({ value: … }).`
        : `output describes ${JSON.stringify(json.type)}, not an object: it declares the keys structuredContent carries beside sources. Wrap it: z.object({ entities: … }).`,
    );
  }
  return { ...json, type: "object" };
}

/** What a message calls the value a schema checks. */
const CHECKED = { input: "the arguments", output: "structuredContent" } as const;

/**
 * How a zod schema's arguments are parsed. zod's synchronous parse, meeting a refinement or a
 * transform that answers with a promise, throws and drops that promise: were it to reject, its
 * rejection would go unhandled and end the process (Node's default), and the asynchronous parse
 * after it would run the author's code a second time. So a schema that may run the author's code
 * (`mayRunAuthorsCode`) is parsed asynchronously, once; any other synchronously, at once.
 */
function zodParser(schema: z.ZodType, role: SchemaRole): CompiledInput["parse"] {
  if (mayRunAuthorsCode(schema)) return role === "input" ? (args) => schema.safeParseAsync(args).then((parsed) => fromZod(parsed, role)) : outputParser(schema);
  return (args) => {
    try {
      return fromZod(schema.safeParse(args), role);
    } catch (error) {
      // What the walk did not foresee (a zod newer than it): parsed asynchronously after all.
      if (!isAsyncParseError(error)) throw error;
    }
    return schema.safeParseAsync(args).then((parsed) => fromZod(parsed, role));
  };
}

/**
 * An output schema that may run the author's code: the net checks every result at once, so it
 * must parse synchronously, yet must not drop a promise. zod's own run, allowed to go
 * asynchronous, answers a payload or the promise of one: a promise is handled here (the net then
 * refuses the schema as asynchronous); a payload without issues is the value; one with issues is
 * parsed again by `safeParse` for its messages (a failing result only, so a passing one runs the
 * refinements once).
 */
function outputParser(schema: z.ZodType): CompiledInput["parse"] {
  const internals = (schema as unknown as { _zod: { run(payload: { value: unknown; issues: unknown[] }, ctx: object): { value: unknown; issues: unknown[] } | Promise<unknown> } })._zod;
  return (args) => {
    const payload = internals.run({ value: args, issues: [] }, {});
    if (payload instanceof Promise) {
      // A rejection is left to the net, which attaches its own handler to this promise at once.
      return payload.then((): ParsedArguments => ({ ok: false, problems: ["is checked asynchronously"] }));
    }
    if (payload.issues.length === 0) return { ok: true, value: payload.value };
    return fromZod(schema.safeParse(args), "output");
  };
}

/** A zod schema's definition, as far as the walk below reads it. */
interface ZodDefinition {
  readonly type?: unknown;
  readonly checks?: readonly { readonly _zod?: { readonly def?: { readonly check?: unknown } } }[];
  readonly [key: string]: unknown;
}

/** Schema types whose parse calls a function of the author's (besides refinements, which are checks). */
const AUTHORS_CODE_TYPES = new Set(["transform", "custom", "promise", "lazy", "function"]);

/**
 * Whether parsing `schema` may call a function of the author's that could answer with a promise:
 * a refinement (`refine`, `superRefine`, `check`), a transform (`transform`, `preprocess`), a codec,
 * `z.custom`, `z.promise`, or a lazy schema (not followed). The walk follows every schema the
 * definition holds (fields, items, options, inner types); anything it cannot read counts as yes,
 * so at worst a pure schema is parsed asynchronously.
 */
function mayRunAuthorsCode(schema: unknown, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = (schema as { _zod?: { def?: ZodDefinition } })._zod?.def;
  if (def === undefined || typeof def.type !== "string") return true;
  if (AUTHORS_CODE_TYPES.has(def.type)) return true;
  if (def.checks?.some((check) => check._zod?.def?.check === "custom")) return true;
  for (const [key, value] of Object.entries(def)) {
    if (key === "checks") continue;
    // A codec's decode and encode, or any other function the definition carries but a default's or a catch's value.
    if (typeof value === "function" && key !== "defaultValue" && key !== "catchValue") return true;
    for (const inner of schemasIn(value)) if (mayRunAuthorsCode(inner, seen)) return true;
  }
  return false;
}

/** The schemas a definition's value holds: itself, the items of a list (options, a tuple's items), the values of an object's shape. */
function schemasIn(value: unknown): unknown[] {
  if (typeof value !== "object" || value === null) return [];
  if ("_zod" in value) return [value];
  const values: unknown[] = Array.isArray(value) ? value : Object.getPrototypeOf(value) === Object.prototype ? Object.values(value) : [];
  return values.filter((item) => typeof item === "object" && item !== null && "_zod" in item);
}

function fromZod(parsed: ReturnType<z.ZodType["safeParse"]>, role: SchemaRole): ParsedArguments {
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problems: describeProblems(parsed.error.issues, undefined, CHECKED[role]) };
}

interface StandardResult {
  readonly value?: unknown;
  readonly issues?: readonly Issue[];
}

function fromStandard(result: StandardResult, role: SchemaRole): ParsedArguments {
  return result.issues === undefined ? { ok: true, value: result.value } : { ok: false, problems: describeProblems(result.issues, undefined, CHECKED[role]) };
}

function isThenable(value: unknown): value is PromiseLike<StandardResult> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** zod's "async refinement in a synchronous parse", from this zod or the copy the tool's schema came from. */
function isAsyncParseError(error: unknown): boolean {
  try {
    return error instanceof z.core.$ZodAsyncError || (error instanceof Error && error.constructor.name === "$ZodAsyncError");
  } catch {
    return false; // a thrown proxy or a throwing getter: a throw like any other
  }
}

/** "an arktype", "a valibot": a vendor's name with its article. */
function withArticle(word: string): string {
  return `${/^[aeiou]/iu.test(word) ? "an" : "a"} ${word}`;
}

/** A value as a message names it: `a string`, `null`, `an instance of Date`. */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === "string" && name !== "" && name !== "Object" ? `an instance of ${name}` : "an object";
  }
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}
