import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { closestMatch } from "@sourced/contract-rules";
import { quoteText } from "./problems.js";
import { formatSite, type LazySite } from "./site.js";
import type { RegistryOptions, ToolOptions } from "./types.js";

/*
 * The options of createRegistry() and registry.tool(), checked when they are given. A misspelt key
 * would otherwise be ignored without a word (`requireVerifed: true` serving unchecked tools in
 * production), and only a type check catches it: a build without one (tsx, a bare bundler, plain
 * JavaScript) must hear it too. Each options type has one table, typed against its interface, so a
 * new option does not compile until its rule is added here. The keys are string keys of object
 * literals: minifiers keep them, so a bundle checks them alike.
 */

/** How one option's value is checked. */
interface OptionRule {
  /** What the option takes, for messages: "a string", "true or false". */
  readonly takes: string;
  readonly accepts: (value: unknown) => boolean;
  /** A value must be given (not `undefined`). */
  readonly required?: boolean;
}

type OptionTable<T> = { readonly [K in keyof Required<T>]: OptionRule };

const isString = (value: unknown): boolean => typeof value === "string";
const isBoolean = (value: unknown): boolean => typeof value === "boolean";
const isPlainObject = (value: unknown): boolean => {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

const STRING: OptionRule = { takes: "a string", accepts: isString };
const BOOLEAN: OptionRule = { takes: "true or false", accepts: isBoolean };
/** MCP icons: a list of `{ src, mimeType?, sizes?, theme? }`, each `src` a string (a URL or a data: URI). */
const ICONS: OptionRule = {
  takes: 'a list of icons ({ src: "https://…/icon.png", mimeType?, sizes?, theme? })',
  accepts: (value) => Array.isArray(value) && value.every((icon) => isPlainObject(icon) && typeof (icon as { src?: unknown }).src === "string"),
};
/** A call's deadline: milliseconds, `Infinity` for none. */
const DEADLINE: OptionRule = {
  takes: "a positive number of milliseconds, or Infinity for no deadline",
  accepts: (value) => typeof value === "number" && value > 0,
};

export const REGISTRY_OPTIONS: OptionTable<RegistryOptions> = {
  name: { takes: 'a string, the server\'s name ("cities")', accepts: (value) => typeof value === "string" && value !== "", required: true },
  version: { takes: 'a string, the server\'s version ("1.0.0")', accepts: (value) => typeof value === "string" && value !== "", required: true },
  logger: {
    takes: "an object with a warn(message) method (console fits)",
    accepts: (value) => typeof value === "object" && value !== null && typeof (value as { warn?: unknown }).warn === "function",
  },
  requireVerified: BOOLEAN,
  startupCheck: { takes: '"auto", "require" or false', accepts: (value) => value === "auto" || value === "require" || value === false },
  startupCheckTimeoutMs: DEADLINE,
  ui: BOOLEAN,
  callTimeoutMs: DEADLINE,
  title: STRING,
  instructions: STRING,
  icons: ICONS,
  websiteUrl: STRING,
  listChanged: BOOLEAN,
};

export const TOOL_OPTIONS: OptionTable<ToolOptions> = {
  name: STRING,
  title: STRING,
  description: STRING,
  // What a schema is, and which ones the registry can serve, is checked by compileInput (input.ts).
  input: { takes: "a zod raw shape, a zod object or a Standard Schema", accepts: (value) => (typeof value === "object" || typeof value === "function") && value !== null },
  // As `input`: what a schema is is checked by compileInput (input.ts); the keys it may declare, by registry.tool().
  output: { takes: "a zod raw shape, a zod object or a Standard Schema", accepts: (value) => (typeof value === "object" || typeof value === "function") && value !== null },
  annotations: { takes: "an object ({ readOnlyHint: true })", accepts: isPlainObject },
  ui: BOOLEAN,
  timeoutMs: DEADLINE,
  icons: ICONS,
  _meta: { takes: 'an object ({ "example.com/key": value })', accepts: isPlainObject },
};

/** The MCP tool annotations: the SDK strips any other key, so a misspelt hint would vanish. */
export const TOOL_ANNOTATIONS: OptionTable<ToolAnnotations> = {
  title: STRING,
  readOnlyHint: BOOLEAN,
  destructiveHint: BOOLEAN,
  idempotentHint: BOOLEAN,
  openWorldHint: BOOLEAN,
};

/**
 * What is wrong with `options` by `table`, one sentence each (empty when nothing is): unknown keys
 * with the nearest known one, values of the wrong type, required values left out. `what` names
 * the options in messages: "option", "annotation".
 */
export function optionProblems(options: object, table: OptionTable<object>, what: string): string[] {
  const problems: string[] = [];
  const known = Object.keys(table);
  for (const key of Object.keys(options)) {
    const rule = Object.hasOwn(table, key) ? (table as Record<string, OptionRule>)[key] : undefined;
    if (rule === undefined) {
      const nearest = closestMatch(key, known);
      problems.push(`unknown ${what} ${JSON.stringify(key)}${nearest === undefined ? "" : `: did you mean ${JSON.stringify(nearest)}?`}`);
      continue;
    }
    const value: unknown = (options as Record<string, unknown>)[key];
    if (value !== undefined && !rule.accepts(value)) problems.push(`${what} ${JSON.stringify(key)} takes ${rule.takes}, not ${describeGiven(value)}`);
  }
  for (const key of known) {
    const rule = (table as Record<string, OptionRule>)[key]!;
    if (rule.required && (options as Record<string, unknown>)[key] === undefined) problems.push(`${what} ${JSON.stringify(key)} is missing: it takes ${rule.takes}`);
  }
  return problems;
}

/** "name, title and ui": the keys a table knows, for messages. */
export function listKeys(table: OptionTable<object>): string {
  const keys = Object.keys(table);
  return keys.length === 1 ? keys[0]! : `${keys.slice(0, -1).join(", ")} and ${keys.at(-1)!}`;
}

/** A given value as a message quotes it: `a string ("yes")`, `a number (1)`, `null`. */
export function describeGiven(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `a string (${quoteText(value)})`;
    case "number":
    case "boolean":
    case "bigint":
      return `a ${typeof value} (${String(value)})`;
    case "object": {
      const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
      return typeof name === "string" && name !== "" && name !== "Object" ? `an instance of ${name}` : "an object";
    }
    default:
      return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
  }
}

/**
 * The error for options that break their table (options.ts), naming the call and its site:
 * `createRegistry() at src/registry.ts:3:25: unknown option "requireVerifed": did you mean …`.
 */
export function optionsError(call: string, site: LazySite, problems: readonly string[], known: string): TypeError {
  const where = `${call} at ${formatSite(site.get())}`;
  const sentence = (problem: string): string => (problem.endsWith("?") ? problem : `${problem}.`);
  const list = problems.length === 1 ? `: ${sentence(problems[0]!)}` : `:\n${problems.map((problem) => `- ${problem}`).join("\n")}\n`;
  const unknown = problems.some((problem) => problem.startsWith("unknown "));
  return new TypeError(`${where}${list}${unknown ? `${problems.length === 1 ? " " : ""}${call} takes ${known}.` : ""}`);
}

/** The problems of `registry.tool()` options, its annotations' keys included. */
export function toolOptionProblems(options: unknown): string[] {
  if (typeof options !== "object" || options === null) {
    return [`expects an options object, not ${describeGiven(options)}; write registry.tool({ name: "population", description: "…" })`];
  }
  const problems = optionProblems(options, TOOL_OPTIONS, "option");
  const annotations = (options as ToolOptions).annotations;
  if (typeof annotations === "object" && annotations !== null) problems.push(...optionProblems(annotations, TOOL_ANNOTATIONS, "annotation"));
  return problems;
}
