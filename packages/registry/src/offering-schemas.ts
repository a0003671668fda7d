import { z } from "zod";
import { contentsUriProblem, isContentsUri } from "@sourced/contract-rules";
import { annotations, base64, contentBlockFor, meta, missing, onlyKeys, textBlockOf } from "./mcp-schemas.js";
import { describeReturned, isScalar, quotedTextOf, type Scalar } from "./problems.js";

/*
 * What a resource, a resource template and a prompt may answer — a read's contents, a prompt's
 * messages, a template's listed resources (their icons among them), the values a `complete`
 * callback gives — which the SDK sends unchecked, so the net checks each as it checks a tool's
 * result (resource-net.ts): against the plain-JSON wire copy, strict, with MCP's parts held to the
 * tool result's rules (mcp-schemas.ts). What differs is what a URI may be: any absolute URI but a
 * browser's own, where a tool's result names http(s) URLs and the resources its registry serves.
 */

/** The URI a read's contents (and a prompt's resources) name: any absolute URI but a browser's own (url-rule.ts). */
const contentsUri = z.string({ error: (issue) => contentsUriProblem(issue.input) }).refine(isContentsUri, { error: (issue) => contentsUriProblem(issue.input) });

const CONTENTS_KEYS = onlyKeys("a resource's contents", "uri, mimeType, _meta and text or blob");

/**
 * A read's text put where the contents go, as its refusals write it: with the read's URI, the text
 * quoted as messages quote a value (a number's or true or false's as JSON writes it, null's left to
 * write); a blob's keys named, not quoted.
 */
function contentsFor(uri: string | undefined, given: unknown): string {
  const where = uri === undefined ? "uri" : `uri: ${JSON.stringify(uri)}`;
  const inner = typeof given === "object" && given !== null ? (given as { text?: unknown }).text : undefined;
  const text = isScalar(given) ? quotedTextOf(given) : typeof inner === "string" ? quotedTextOf(inner) : undefined;
  if (text !== undefined) return `{ ${where}, text: ${text} }`;
  return typeof given === "object" && given !== null && "blob" in given ? `{ ${where}, mimeType, blob }` : `{ ${where}, text }`;
}

/**
 * What a resource of the registry's (`registry.resource()`) may answer a `resources/read` with:
 * its contents, each with its URI and text or base64 blob, as MCP defines them; `_meta`; nothing
 * else. Checked against the plain-JSON wire copy, as a tool's result is. `uri`: the read's, which
 * the words for the text given where the contents go name (a read is checked against the schema
 * without it, and a refused one described by the schema with it, built then).
 */
export function readResourceResultFor(uri?: string) {
  // The text (a number, true or false, null) given as one of the contents: zod's "must be an object" says nothing of what to write.
  const contentsKeys = (issue: { code?: string; input?: unknown; keys?: string[] }) =>
    CONTENTS_KEYS(issue) ?? (isScalar(issue.input) ? `must be one of the contents, not ${describeReturned(issue.input)}: ${contentsFor(uri, issue.input)}` : undefined);
  // The text (or another scalar) given as the contents, or one of the contents as the whole list: the list to write, around it.
  const listed = (issue: { input?: unknown }) =>
    issue.input === undefined
      ? "is missing: a read answers with its contents, [{ uri, text }]"
      : isScalar(issue.input)
        ? `must be a list of contents, not ${describeReturned(issue.input)}: [${contentsFor(uri, issue.input)}]`
        : typeof issue.input === "object" && issue.input !== null && !Array.isArray(issue.input)
          ? `must be a list of contents, not one: [${contentsFor(uri, issue.input)}]`
          : undefined;
  return z.strictObject(
    {
      contents: z.array(
        z.union([
          z.strictObject({ uri: contentsUri, mimeType: z.string().optional(), _meta: meta.optional(), text: z.string() }, { error: contentsKeys }),
          z.strictObject({ uri: contentsUri, mimeType: z.string().optional(), _meta: meta.optional(), blob: base64 }, { error: contentsKeys }),
        ]),
        { error: listed },
      ),
      _meta: meta.optional(),
    },
    {
      // The text (or another scalar) returned as the answer itself: the result to write, around it.
      error: (issue) =>
        onlyKeys("a resource read result", "contents and _meta")(issue) ??
        (isScalar(issue.input) ? `must be a read result, not ${describeReturned(issue.input)}: { contents: [${contentsFor(uri, issue.input)}] }` : undefined),
    },
  );
}

/** What every read is checked against; only a refused one is described again, by the schema naming its URI. */
export const readResourceResultSchema = readResourceResultFor();

// On the role and the content themselves: a key left out is an issue of its own schema, never of the message's.
const MESSAGE_KEY_MISSING = 'is missing: a message has a role ("user" or "assistant") and one content block';
// A tool result's `content` is a list, a message's one block: the list is the habit, so the words say what to write.
const MESSAGE_CONTENT_LISTED = 'must be one content block, not a list: { type: "text", text }';
// The bare text is the other slip (or a number, true or false, null): the words put it in its block,
// quoted as messages quote a value, null's text left to write.
const messageContentScalar = (given: Scalar) => `must be one content block, not ${describeReturned(given)}: ${textBlockOf(given)}`;

/**
 * What a prompt of the registry's (`registry.prompt()`) may answer a `prompts/get` with: its
 * messages, each a role (`user` or `assistant`) and one content block as MCP defines them (a
 * resource's URI any but a browser's own), an optional description, `_meta`; nothing else. Checked
 * against the plain-JSON wire copy, as a tool's result and a resource's read are.
 */
export const getPromptResultSchema = z.strictObject(
  {
    description: z.string().optional(),
    messages: z.array(
      z.strictObject(
        { role: z.enum(["user", "assistant"], { error: missing(MESSAGE_KEY_MISSING) }), content: contentBlockFor(contentsUri, { absent: MESSAGE_KEY_MISSING, listed: MESSAGE_CONTENT_LISTED, scalar: messageContentScalar }) },
        { error: onlyKeys("a prompt message", "role and content") },
      ),
      { error: missing('is missing: a prompt answers with its messages, [{ role: "user", content: { type: "text", text } }]') },
    ),
    _meta: meta.optional(),
  },
  { error: onlyKeys("a prompt result", "description, messages and _meta") },
);

/** An icon, as MCP defines it. */
const icon = z.strictObject(
  { src: z.string(), mimeType: z.string().optional(), sizes: z.array(z.string()).optional(), theme: z.enum(["light", "dark"]).optional() },
  { error: onlyKeys("an icon", "src, mimeType, sizes and theme") },
);

/**
 * What a resource template's `list` callback may answer, which the SDK sends in `resources/list`
 * (each resource after the template's metadata): its resources, each a URI (any absolute URI but a
 * browser's own, as a read's contents name) and a name, with MCP's optional keys; `nextCursor` and
 * `_meta`, which the SDK reads no further; nothing else. Checked against the wire copy, as a read is.
 */
export const listedResourcesSchema = z.strictObject(
  {
    resources: z.array(
      z.strictObject(
        {
          uri: contentsUri,
          name: z.string(),
          title: z.string().optional(),
          description: z.string().optional(),
          mimeType: z.string().optional(),
          size: z.number().int().nonnegative().optional(),
          annotations: annotations.optional(),
          icons: z.array(icon).optional(),
          _meta: meta.optional(),
        },
        { error: onlyKeys("a listed resource", "uri, name, title, description, mimeType, size, annotations, icons and _meta") },
      ),
      { error: missing('is missing: a template\'s list answers with its resources, { resources: [{ uri, name }] }') },
    ),
    nextCursor: z.string().optional(),
    _meta: meta.optional(),
  },
  { error: onlyKeys("a resource list result", "resources, nextCursor and _meta") },
);

/** What a `complete` callback may answer, which the SDK sends in `completion/complete`: the values, as text. */
export const completionValuesSchema = z.array(z.string(), { error: "must be a list of strings, the values completed" });
