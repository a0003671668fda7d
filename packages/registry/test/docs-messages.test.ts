import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, test } from "vitest";
import { createRegistry, inputRequired, ProtocolError, ResourceTemplate, type DataToolOutput, type Registry } from "../dist/index.js";
import { connectInMemory, firstText, PACKAGE_DIR, recordingLogger } from "./helpers.js";

/*
 * The docs quote the net's refusals word for word in plain fenced blocks, and a user compares them
 * with what their client shows: a quote the registry no longer sends misleads them. Each such block
 * carries `<!-- message: <name> -->` on the line above it, and each name here builds the registry
 * its prose describes, serves it to the SDK's v2 Client in memory, and holds the block to exactly
 * what the client receives (or, for a warning, what the logger is told).
 */

const DOCS = join(PACKAGE_DIR, "..", "..", "docs");

/** A plain fenced block of a docs page (no info string), as its reader sees it: the fence's indentation taken off. */
interface PlainBlock {
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The name of `<!-- message: name -->` on the line above, if any. */
  readonly message: string | undefined;
  readonly text: string;
}

function plainBlocks(page: string): PlainBlock[] {
  const lines = readFileSync(join(DOCS, page), "utf8").split("\n");
  const found: PlainBlock[] = [];
  for (let at = 0; at < lines.length; at++) {
    const fence = /^([ \t]*)```(.*)$/u.exec(lines[at]!);
    if (fence === null) continue;
    const [, indent = "", info = ""] = fence;
    const close = lines.findIndex((line, index) => index > at && line.trimEnd() === `${indent}\`\`\``);
    if (close < 0) break;
    if (info.trim() === "") {
      const text = lines
        .slice(at + 1, close)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join("\n");
      const message = /^\s*<!-- message: ([\w-]+) -->\s*$/u.exec(lines[at - 1] ?? "")?.[1];
      found.push({ page, line: at + 1, message, text });
    }
    at = close;
  }
  return found;
}

/** What the block shows: the whole text, or only the problems listed under its first line (`- path: …`). */
type Shown = "whole" | "problems";

interface Scenario {
  readonly shows: Shown;
  /** The text a real client (or the logger) receives. */
  received(): Promise<string>;
  /** Whether the text names a registration site, `(registered at /abs/file.ts:6:1)`, which is this test's own. */
  readonly site?: boolean;
}

const text = (value: string) => ({ type: "text" as const, text: value });

function citing(...sources: string[]): DataToolOutput {
  return { content: [text("The 3 most populated cities are Tokyo, Delhi and Shanghai.")], structuredContent: { sources } };
}

/** A registry of one tool, `list_cities`, citing `sources`. */
function citingRegistry(logger = recordingLogger(), ...sources: string[]): Registry {
  const registry = createRegistry({ name: "cities", version: "1.0.0", startupCheck: false, logger });
  registry.tool()(function list_cities(): DataToolOutput {
    return citing(...sources);
  });
  return registry;
}

/** The text of what `ask` gets back from `registry`, to the SDK's v2 Client in memory: a result's first text, or an error's message. */
async function receive(registry: Registry, ask: (client: Client) => Promise<object>): Promise<string> {
  const { client, close } = await connectInMemory(registry);
  try {
    return firstText(await ask(client));
  } catch (error) {
    return (error as Error).message;
  } finally {
    await close();
  }
}

const callTool = (name: string) => (client: Client) => client.callTool({ name, arguments: {} });

const SCENARIOS: Record<string, Scenario> = {
  // The URL rule's section: a space in an http(s) URL, on a registry that serves no resource.
  "url-rule-space": {
    shows: "problems",
    received: () => receive(citingRegistry(undefined, "https://example.org/a b"), callTool("list_cities")),
  },
  // "Local data": the knowledge-graph server serving memory://graph and the template
  // memory://entities/{name}; one result cites a slip of a served URI and a path to the file.
  "sources-on-served-registry": {
    shows: "problems",
    received: () => {
      const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
      registry.resource("graph", "memory://graph", { mimeType: "application/jsonl" }, (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/jsonl", text: "" }] }));
      registry.resource("entity", new ResourceTemplate("memory://entities/{name}", { list: undefined }), {}, (uri) => ({ contents: [{ uri: uri.href, text: "" }] }));
      registry.tool()(function count_entities(): DataToolOutput {
        return citing("memory://grahp", "./memory.jsonl");
      });
      return receive(registry, callTool("count_entities"));
    },
  },
  // "Error results", the net's: what the client receives…
  "net-error-result": {
    shows: "whole",
    received: () => receive(citingRegistry(undefined, "javascript:alert(1)"), callTool("list_cities")),
  },
  // …and the warning the logger is told, which names the tool's registration site: an absolute
  // path of the machine it runs on, so the block's own site (the user's file) stands in for this file's.
  "net-error-warning": {
    shows: "whole",
    received: async () => {
      const logger = recordingLogger();
      await receive(citingRegistry(logger, "javascript:alert(1)"), callTool("list_cities"));
      expect(logger.warnings).toHaveLength(1);
      return logger.warnings[0]!;
    },
    site: true,
  },
  // "Error results": a tool's content holding a number where its text block goes.
  "tool-number-content": {
    shows: "whole",
    received: () => {
      const registry = createRegistry({ name: "cities", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
      registry.tool()(function count_cities() {
        return { ...citing("https://example.org/cities"), content: [3] } as never;
      });
      return receive(registry, callTool("count_cities"));
    },
  },
  // "A page to open that breaks the URL rule": a tool asking the client to open a javascript: URL.
  "url-elicitation": {
    shows: "whole",
    received: () => {
      const registry = createRegistry({ name: "sign-in", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
      registry.tool({ name: "sign_in" })(() => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- thrown as the docs write it: what the SDK reads as a request for input is no Error
        throw inputRequired({ inputRequests: { login: inputRequired.elicitUrl({ message: "Sign in to read the graph.", url: "javascript:alert(1)" }) } });
      });
      return receive(registry, callTool("sign_in"));
    },
  },
  // A prompt's answers through the net: a message's content written as its bare text.
  "prompt-string-content": {
    shows: "whole",
    received: () => {
      const registry = createRegistry({ name: "compare", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
      registry.prompt("compare", {}, () => ({ messages: [{ role: "user", content: "Compare the two cities." }] }) as never);
      return receive(registry, (client) => client.getPrompt({ name: "compare" }));
    },
  },
  // A resource's reads through the net: the contents written as the read's bare text.
  "read-string-contents": {
    shows: "whole",
    received: () => {
      const registry = createRegistry({ name: "memory", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
      registry.resource("graph", "memory://graph", {}, () => ({ contents: "The graph holds 2 entities." }) as never);
      return receive(registry, (client) => client.readResource({ uri: "memory://graph" }));
    },
  },
  // "A coded error": a prompt throwing the dispatcher's -32601.
  "reserved-code": {
    shows: "whole",
    received: () => {
      const registry = createRegistry({ name: "compare", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
      registry.prompt("compare", {}, () => {
        throw new ProtocolError(-32_601, "No such comparison.");
      });
      return receive(registry, (client) => client.getPrompt({ name: "compare" }));
    },
  },
};

/** A problem the net lists (`- structuredContent.sources[0]: …`), or its lead: a block quoting the net's words. */
const QUOTES_THE_NET = /so it was not sent|^- [\w.[\]]+: /mu;

const PAGES = readdirSync(DOCS).filter((page) => page.endsWith(".md"));
const BLOCKS = PAGES.flatMap(plainBlocks);
const KEYED = BLOCKS.filter((block) => block.message !== undefined);
const SITE = /\(registered at (\S+:\d+:\d+)\)/u;

describe("the net's words the docs quote", () => {
  test("every plain block quoting the net names the scenario that holds it, and every scenario holds a block", () => {
    const unkeyed = BLOCKS.filter((block) => block.message === undefined && QUOTES_THE_NET.test(block.text)).map(({ page, line }) => `${page}:${line}`);
    expect(unkeyed).toEqual([]);
    expect(KEYED.map(({ message }) => message).filter((message) => !(message! in SCENARIOS))).toEqual([]);
    expect(Object.keys(SCENARIOS).filter((name) => !KEYED.some(({ message }) => message === name))).toEqual([]);
  });

  test.each(KEYED.map((block) => [`${block.page}:${block.line} (${block.message})`, block] as const))("%s is what the registry sends", async (_, block) => {
    const scenario = SCENARIOS[block.message!]!;
    let received = await scenario.received();
    if (scenario.site === true) {
      const shown = SITE.exec(block.text)?.[1];
      expect(shown, "the block names a registration site, absolute as the registry writes it").toMatch(/^\//u);
      expect(received).toMatch(SITE);
      received = received.replace(SITE, `(registered at ${shown})`);
    }
    // A block of problems leaves out the lead line naming the tool.
    const expected = scenario.shows === "whole" ? received : received.slice(received.indexOf("\n") + 1);
    expect(block.text).toBe(expected);
  });
});
