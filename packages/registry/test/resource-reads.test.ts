import { ResourceTemplate } from "@modelcontextprotocol/server";
import { describe, expect, test } from "vitest";
import { createRegistry, ToolError, type Registry } from "../dist/index.js";
import { checkInMemory, checkOverHttp, refusalsOf, type AnyClient } from "./both-clients.js";
import { recordingLogger } from "./helpers.js";

/*
 * A resource's reads through the net: what its read function answers leaves only when it is a
 * ReadResourceResult, checked on its plain-JSON copy; anything else — a result that breaks it, a
 * throw, an expected failure — is answered with an error naming the resource, and one warning.
 */

const logger = recordingLogger();

function readsRegistry(): Registry {
  const registry = createRegistry({ name: "reads", version: "1.0.0", startupCheck: false, logger });
  registry.resource("graph", "memory://graph", { mimeType: "application/json" }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: "{}" }] }));
  registry.resource("entity", new ResourceTemplate("memory://entities/{name}", { list: undefined }), {}, (uri, { name }) => ({ contents: [{ uri: uri.href, text: String(name) }] }));
  registry.resource("numbers", "memory://numbers", {}, (uri) => ({ contents: [{ uri: uri.href, text: 42 }] }) as never);
  registry.resource("bigint", "memory://bigint", {}, (uri) => ({ contents: [{ uri: uri.href, text: "x" }], _meta: { "example.org/n": 1n } }));
  registry.resource("extra", "memory://extra", {}, (uri) => ({ contents: [{ uri: uri.href, text: "x", secret: "y" }] }));
  registry.resource("extra-blob", "memory://extra-blob", {}, (uri) => ({ contents: [{ uri: uri.href, blob: "aGk=", secret: "y" }] }));
  registry.resource("no-contents", "memory://no-contents", {}, () => ({}) as never);
  registry.resource("next-page", "memory://next-page", {}, (uri) => ({ contents: [{ uri: uri.href, text: "x" }], next: 2 }));
  registry.resource("broken", "memory://broken", {}, () => {
    throw new Error("the file is gone");
  });
  registry.resource("locked", "memory://locked", {}, () => Promise.reject(new ToolError("The graph is locked; try again in a minute.")));
  return registry;
}

async function expectCheckedReads(client: AnyClient): Promise<void> {
  expect((await client.readResource({ uri: "memory://graph" })).contents).toEqual([{ uri: "memory://graph", mimeType: "application/json", text: "{}" }]);
  expect((await client.readResource({ uri: "memory://entities/alice" })).contents).toEqual([{ uri: "memory://entities/alice", text: "alice" }]);
  const refusals: Record<string, string> = {
    "memory://numbers": 'Resource "numbers" answered with a result that breaks the ReadResourceResult contract, so it was not sent:\n- contents[0].text: must be a string, not a number',
    "memory://bigint": 'Resource "bigint" answered with a result that cannot be sent as JSON, so it was not sent:',
    "memory://extra": "\"secret\" is not a key of a resource's contents, which has uri, mimeType, _meta and text or blob only",
    "memory://extra-blob": "- contents[0]: \"secret\" is not a key of a resource's contents, which has uri, mimeType, _meta and text or blob only",
    "memory://no-contents": "- contents: is missing: a read answers with its contents, [{ uri, text }]",
    "memory://next-page": "\"next\" is not a key of a resource read result, which has contents and _meta only",
    "memory://broken": 'Resource "broken" failed: the file is gone',
    "memory://locked": "The graph is locked; try again in a minute.",
  };
  for (const [uri, message] of Object.entries(refusals)) {
    await expect(client.readResource({ uri }), uri).rejects.toThrow(message);
  }
}

describe("a resource's reads through the net", () => {
  test("with the v2 and the v1 Client: only a checked ReadResourceResult leaves, else an error naming the resource", async () => {
    logger.warnings.length = 0;
    await checkInMemory(readsRegistry, expectCheckedReads);
    // One warning per refused read; an expected failure is one line, without a stack.
    expect(logger.warnings).toHaveLength(16);
    const locked = logger.warnings.filter((warning) => warning.includes("locked"));
    expect(locked).toEqual(['Resource "locked" answered with an error: The graph is locked; try again in a minute.', 'Resource "locked" answered with an error: The graph is locked; try again in a minute.']);
    expect(logger.warnings.find((warning) => warning.startsWith('Resource "broken" threw: Error: the file is gone\n    at '))).toBeDefined();
  });
});

/** Resources whose reads answer with their text (or a value no contents are written as) in the wrong place, one slip each. */
function slipsRegistry(): Registry {
  const registry = createRegistry({ name: "slips", version: "1.0.0", startupCheck: false, ui: false, logger: recordingLogger() });
  const answers: Record<string, (uri: string) => unknown> = {
    "string-contents": () => ({ contents: "The graph holds 2 entities." }),
    "long-string-contents": () => ({ contents: "The graph holds 2 entities and 3 relations between them." }),
    "one-contents": (uri) => ({ contents: { uri, text: "The graph holds 2 entities." } }),
    "one-blob-contents": (uri) => ({ contents: { uri, mimeType: "image/png", blob: "aGk=" } }),
    "bare-text": () => "The graph holds 2 entities.",
    "string-item": () => ({ contents: ["The graph holds 2 entities."] }),
    "text-key": () => ({ text: "The graph holds 2 entities." }),
    // A value no contents are written as (a number, true or false, null), in each place the text was.
    "number-item": () => ({ contents: [42] }),
    "boolean-item": () => ({ contents: [true] }),
    "null-item": () => ({ contents: [null] }),
    "number-contents": () => ({ contents: 7 }),
    "null-contents": () => ({ contents: null }),
    "null-answer": () => null,
    "number-answer": () => 42,
  };
  for (const [name, answer] of Object.entries(answers)) registry.resource(name, `memory://${name}`, {}, (uri) => answer(uri.href) as never);
  return registry;
}

async function expectSlipRefusals(client: AnyClient): Promise<void> {
  const refused = (name: string, problems: string) => `Resource "${name}" answered with a result that breaks the ReadResourceResult contract, so it was not sent:\n- ${problems}`;
  const refusals: Record<string, string> = {
    // The text given as the contents, or as the answer itself: the list to write, with the read's own URI and the text quoted.
    "string-contents": refused("string-contents", 'contents: must be a list of contents, not a string: [{ uri: "memory://string-contents", text: "The graph holds 2 entities." }]'),
    "long-string-contents": refused("long-string-contents", 'contents: must be a list of contents, not a string: [{ uri: "memory://long-string-contents", text: "The graph holds 2 entities and 3 relatio…" }]'),
    "bare-text": refused("bare-text", 'the result: must be a read result, not a string: { contents: [{ uri: "memory://bare-text", text: "The graph holds 2 entities." }] }'),
    "string-item": refused("string-item", 'contents[0]: must be one of the contents, not a string: { uri: "memory://string-item", text: "The graph holds 2 entities." }'),
    // One of the contents given as the whole list: the same, in a list.
    "one-contents": refused("one-contents", 'contents: must be a list of contents, not one: [{ uri: "memory://one-contents", text: "The graph holds 2 entities." }]'),
    "one-blob-contents": refused("one-blob-contents", 'contents: must be a list of contents, not one: [{ uri: "memory://one-blob-contents", mimeType, blob }]'),
    // Already words that say what to write: unchanged.
    "text-key": refused("text-key", 'contents: is missing: a read answers with its contents, [{ uri, text }]\n- the result: "text" is not a key of a resource read result, which has contents and _meta only'),
    // A number, true or false, or null: the same contents to write, a number's or true or false's text quoted, null's left to write.
    "number-item": refused("number-item", 'contents[0]: must be one of the contents, not a number: { uri: "memory://number-item", text: "42" }'),
    "boolean-item": refused("boolean-item", 'contents[0]: must be one of the contents, not a boolean: { uri: "memory://boolean-item", text: "true" }'),
    "null-item": refused("null-item", 'contents[0]: must be one of the contents, not null: { uri: "memory://null-item", text }'),
    "number-contents": refused("number-contents", 'contents: must be a list of contents, not a number: [{ uri: "memory://number-contents", text: "7" }]'),
    "null-contents": refused("null-contents", 'contents: must be a list of contents, not null: [{ uri: "memory://null-contents", text }]'),
    "null-answer": refused("null-answer", 'the result: must be a read result, not null: { contents: [{ uri: "memory://null-answer", text }] }'),
    "number-answer": refused("number-answer", 'the result: must be a read result, not a number: { contents: [{ uri: "memory://number-answer", text: "42" }] }'),
  };
  expect(await refusalsOf(Object.keys(refusals), (name) => client.readResource({ uri: `memory://${name}` }))).toEqual(refusals);
}

describe("a read's text in the wrong place, refused with what to write", () => {
  test("the text (or a number, true or false, null) as the contents, as the answer or as one of the contents, or one of the contents as the list: the v2 and the v1 Client, in memory", async () => {
    await checkInMemory(slipsRegistry, expectSlipRefusals);
  });
  test("the same over Streamable HTTP, the v2 Client (2026-07-28) and the v1 Client", async () => {
    await checkOverHttp(slipsRegistry, expectSlipRefusals);
  });
});
