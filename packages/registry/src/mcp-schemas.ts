import { z } from "zod";
import { isScalar, quotedTextOf, type Scalar } from "./problems.js";

/*
 * The parts MCP defines for every answer a server sends — content blocks, `_meta`, annotations,
 * base64 — as strict zod schemas, with the words of their refusals: a tool's result (contract.ts)
 * and what a resource, a template or a prompt answers (offering-schemas.ts) are held to the same
 * rules for them. A leaf: it knows nothing of what a URI may be, which each caller passes.
 */

/** Replaces zod's "expected object, received undefined" for a field left out. */
export const missing = (message: string) => (issue: { input: unknown }) => (issue.input === undefined ? message : undefined);

/**
 * A `_meta` object: keys in the MCP specification's `_meta` key format (an optional
 * `reverse.dns/` prefix, then a name that starts and ends with a letter or digit), none with a
 * prefix reserved for MCP (a label `modelcontextprotocol` or `mcp`), and not `progressToken`,
 * which the protocol gives a meaning of its own. Values are any JSON.
 */
const META_KEY = /^(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/u;
const RESERVED_META_PREFIX = /^(?:[^/]*\.)?(?:modelcontextprotocol|mcp)(?:\.[^/]*)?\//iu;

export const meta = z.record(z.string(), z.unknown()).superRefine((record, ctx) => {
  for (const key of Object.keys(record)) {
    const problem = !META_KEY.test(key)
      ? "is not a _meta key in the MCP format (an optional reverse-DNS prefix and a slash, then a name of letters, digits, '.', '_', '-')"
      : RESERVED_META_PREFIX.test(key)
        ? "has a prefix MCP reserves for itself"
        : key === "progressToken"
          ? "is the protocol's own progressToken, which a result does not carry"
          : undefined;
    if (problem !== undefined) ctx.addIssue({ code: "custom", path: [key], message: `the key ${JSON.stringify(key.slice(0, 80))} ${problem}` });
  }
});

/** Names the keys an object may carry when it carries another. */
export const onlyKeys = (what: string, keys: string) => (issue: { code?: string; input?: unknown; keys?: string[] }) =>
  issue.code === "unrecognized_keys" && issue.keys
    ? `${issue.keys.map((key) => JSON.stringify(key.slice(0, 80))).join(", ")} ${issue.keys.length === 1 ? "is not a key" : "are not keys"} of ${what}, which has ${keys} only`
    : undefined;

/** A block's or a listed resource's annotations, as MCP defines them. */
export const annotations = z.strictObject(
  {
    audience: z.array(z.enum(["user", "assistant"])).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.iso.datetime({ offset: true }).optional(),
  },
  { error: onlyKeys("annotations", "audience, priority and lastModified") },
);

/** Canonical base64, a subset of what every SDK's check (`atob`) accepts. */
export const base64 = z.string().regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/u, "must be base64");

const common = { annotations: annotations.optional(), _meta: meta.optional() };
const blockKeys = (type: string, keys: string) => onlyKeys(`a ${type} block`, `${keys}, annotations and _meta`);

const textBlock = z.strictObject({ type: z.literal("text"), text: z.string(), ...common }, { error: blockKeys("text", "type, text") });
const mediaBlock = (type: "image" | "audio") =>
  z.strictObject({ type: z.literal(type), data: base64, mimeType: z.string().min(1), ...common }, { error: blockKeys(type, "type, data, mimeType") });

/**
 * The words for a block's place given no block: left out, a list of blocks, or a scalar — the bare
 * text a block carries, a number, true or false, null (`undefined` for zod's own words).
 */
export interface BlockWords {
  readonly absent?: string;
  readonly listed?: string;
  readonly scalar?: (given: Scalar) => string | undefined;
}

function blockWords(words: BlockWords, input: unknown): string | undefined {
  if (input === undefined) return words.absent;
  if (Array.isArray(input)) return words.listed;
  return isScalar(input) ? words.scalar?.(input) : undefined;
}

/** The text block a scalar given in a block's place is written as: `{ type: "text", text: "42" }`; null's text left to write. */
export function textBlockOf(given: Scalar): string {
  const text = quotedTextOf(given);
  return text === undefined ? '{ type: "text", text }' : `{ type: "text", text: ${text} }`;
}

/**
 * A content block, as MCP defines them; strict, so what passes is a block every client reads. `uri`:
 * what a resource link's or an embedded resource's URI may be — in a tool's result an accepted
 * http(s) URL, or on a registry that serves resources the URI of one of them (a link to the stock
 * the tool read); in a prompt's message any absolute URI but a browser's own. `words`: for a value
 * given in the block's place — where one block is a key's whole value (a prompt message's content,
 * which an author used to a tool result's list writes as one, or writes as its bare text), or an
 * item of a tool result's list that is no object (its bare text, a number, true or false, null);
 * zod asks the block's own schema, not the object holding it, for them. Without them zod's words
 * stand.
 */
export function contentBlockFor(uri: z.ZodType<string>, words: BlockWords = {}) {
  const resourceLinkBlock = z.strictObject(
    {
      type: z.literal("resource_link"),
      uri,
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      mimeType: z.string().optional(),
      size: z.number().int().nonnegative().optional(),
      ...common,
    },
    { error: blockKeys("resource_link", "type, uri, name, title, description, mimeType, size") },
  );
  const resourceContents = { uri, mimeType: z.string().optional(), _meta: meta.optional() };
  const embeddedResourceBlock = z.strictObject(
    {
      type: z.literal("resource"),
      resource: z.union([
        z.strictObject({ ...resourceContents, text: z.string() }, { error: onlyKeys("a resource", "uri, mimeType, _meta and text or blob") }),
        z.strictObject({ ...resourceContents, blob: base64 }, { error: onlyKeys("a resource", "uri, mimeType, _meta and text or blob") }),
      ]),
      ...common,
    },
    { error: blockKeys("resource", "type, resource") },
  );
  return z.discriminatedUnion(
    "type",
    [textBlock, mediaBlock("image"), mediaBlock("audio"), resourceLinkBlock, embeddedResourceBlock],
    { error: (issue) => (issue.code === "invalid_union" ? 'needs "type": one of "text", "image", "audio", "resource_link", "resource"' : blockWords(words, issue.input)) },
  );
}
