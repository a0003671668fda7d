import { ResourceTemplate } from "@modelcontextprotocol/server";
import { describe, expect, test } from "vitest";
import { createRegistry, ToolError, type Registry } from "../dist/index.js";
import { checkInMemory, type AnyClient } from "./both-clients.js";
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
