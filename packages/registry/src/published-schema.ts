import { PUBLISHED_SOURCE_URL_PATTERN, SOURCE_URL_REGEX } from "@sourced/contract-rules";

/*
 * The contract's `structuredContent` schema as `tools/list` publishes it in every tool's
 * `outputSchema`: generated from the one zod schema (contract.ts), then made smaller, never
 * stricter. A client may accept more than the server sends, never less — the net checks every
 * result before it leaves — so what only the net needs to check is left out of what every tool
 * repeats, and a list of 1,000 tools is what a client parses and keeps (0.7 MB, not 2 MB):
 *
 * - the URL rule (600 characters) is published as its superset, PUBLISHED_SOURCE_URL_PATTERN;
 * - an open object (a Chart.js configuration, its `data`, its `options`: any keys beside those
 *   named) is published as an object with its required keys;
 * - descriptions are left out, but the title and those of `sources` and its items (what a host
 *   shows of the links, and that a served resource's URI may be one);
 * - `$schema` is left out: the schema is in MCP's default dialect, JSON Schema 2020-12.
 *
 * What stays: every key and its type, `sources` required with at least one, the table's rows and
 * cells, no key beside those the tool declares. The contract's whole schema stays what
 * `structuredContentSchema` generates, with the rule itself.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** `json` (the contract's generated schema), smaller and never stricter: see above. */
export function publishedContract(json: Json): Json {
  const properties = isObject(json["properties"]) ? json["properties"] : {};
  // MCP's default dialect (2020-12, the one generated): saying so in every tool says nothing.
  const { $schema: _dialect, ...rest } = json;
  return {
    ...rest,
    properties: Object.fromEntries(
      Object.entries(properties).map(([key, schema]) => {
        if (!isObject(schema)) return [key, schema];
        return [key, slimmed(schema, key === "sources")];
      }),
    ),
  };
}

/** One schema node, smaller and never stricter; `described`: its descriptions kept. */
function slimmed(node: Json, described = false): Json {
  // An open object: its type and required keys (dropping constraints only ever accepts more).
  if (node["type"] === "object" && isObject(node["additionalProperties"]) && Object.keys(node["additionalProperties"]).length === 0) {
    const { required } = node;
    return { type: "object", ...(Array.isArray(required) && required.length > 0 ? { required } : {}) };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "description" && !described) continue;
    if (key === "pattern" && typeof value === "string" && isUrlRule(value)) out[key] = PUBLISHED_SOURCE_URL_PATTERN;
    else if (key === "items" && isObject(value)) out[key] = slimmed(value, described);
    else if (key === "properties" && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, isObject(schema) ? slimmed(schema, described) : schema]));
    else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value)) out[key] = (value as unknown[]).map((schema) => (isObject(schema) ? slimmed(schema, described) : schema));
    else out[key] = value;
  }
  return out;
}

/** Whether a `pattern` is the URL rule (as zod writes it, or as written: the same expression). */
function isUrlRule(pattern: string): boolean {
  try {
    return new RegExp(pattern, "u").source === SOURCE_URL_REGEX.source;
  } catch {
    return false;
  }
}
