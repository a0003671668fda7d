import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { HttpServing } from "../dist/index.js";
import type { AnyClient } from "./both-clients.js";
import { compileServers, recordingLogger } from "./helpers.js";
import { ASKS, buildCodesAndUrls, buildSdkCodes, dataReads, HOSTILE, INTERNAL, OWNED, OWNED_MESSAGE, OWNED_OTHER, PASSED, URL_MESSAGE } from "./servers/codes-and-urls.js";

/*
 * A prompt's, a resource read's and a tool's coded errors (a thrown ProtocolError,
 * ResourceNotFoundError), side by side with a plain SDK McpServer running the same callbacks; and
 * every way a callback can ask the client to open a URL (inputRequired.elicitUrl, a thrown
 * UrlElicitationRequiredError, ctx.mcpReq.elicitInput and send with mode "url"), held to the URL
 * rule of sources. Over the real transports — stdio (compiled servers) and Streamable HTTP on
 * 127.0.0.1 — with the v2 Client (2025-11-25 over stdio, 2026-07-28 pinned over stdio and HTTP) and
 * the legacy v1 Client.
 */

let outDir: string;
const logger = recordingLogger();
let serving: HttpServing;
let sdkHttp: { server: Server; url: URL };

/** The plain SDK server over Streamable HTTP, as an SDK author serves it: createMcpHandler on Node's http. */
async function serveSdkHttp(): Promise<{ server: Server; url: URL }> {
  const handle = toNodeHandler(createMcpHandler(() => buildSdkCodes()));
  const server = createHttpServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`) };
}

beforeAll(async () => {
  outDir = await compileServers("codes-and-urls");
  serving = await buildCodesAndUrls(logger).serveHttp();
  sdkHttp = await serveSdkHttp();
});
afterAll(async () => {
  await serving.close();
  await new Promise((resolve) => sdkHttp.server.close(resolve));
});

/** The URL elicitations the clients' users were asked to open. */
const opened: string[] = [];
const elicit = (request: { params: { mode?: unknown; url?: unknown; message?: unknown } }) => {
  opened.push(String(request.params.mode === "url" ? request.params.url : request.params.message));
  return { action: "accept" as const };
};
/** Each client can open a page (URL elicitation) and fill a form: the SDK would ask it either way. */
const CAPABILITIES = { capabilities: { elicitation: { form: {}, url: {} } } };

type Which = "registry" | "sdk";
const LABELS = ["v2 Client over stdio", "v2 Client over stdio (2026-07-28)", "v1 Client over stdio", "v2 Client over HTTP (2026-07-28)", "v1 Client over HTTP"] as const;
type Label = (typeof LABELS)[number];

/** A connected client of each kind, to the registry's server or the SDK's, over stdio (a compiled server) or HTTP (an in-process one). */
async function eachClient(which: Which, check: (client: AnyClient, label: Label) => Promise<void>): Promise<void> {
  const stdio = { command: process.execPath, args: [`${outDir}/${which === "registry" ? "codes-and-urls-server.js" : "sdk-codes-server.js"}`], stderr: "pipe" as const };
  const url = which === "registry" ? serving.url : sdkHttp.url;
  const modern = (options: ConstructorParameters<typeof Client>[1] = {}) => {
    const client = new Client({ name: "codes-and-urls", version: "1.0.0" }, { ...CAPABILITIES, ...options });
    client.setRequestHandler("elicitation/create", elicit);
    return client;
  };
  const legacy = () => {
    const client = new LegacyClient({ name: "codes-and-urls", version: "1.0.0" }, CAPABILITIES);
    client.setRequestHandler(ElicitRequestSchema, elicit);
    return client;
  };
  const pinned = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;
  const connect: Record<Label, () => Promise<{ client: AnyClient; close(): Promise<void> }>> = {
    "v2 Client over stdio": async () => {
      const client = modern();
      await client.connect(new StdioClientTransport(stdio));
      return { client, close: () => client.close() };
    },
    "v2 Client over stdio (2026-07-28)": async () => {
      const client = modern(pinned);
      await client.connect(new StdioClientTransport(stdio));
      return { client, close: () => client.close() };
    },
    "v1 Client over stdio": async () => {
      const client = legacy();
      await client.connect(new LegacyStdioClientTransport(stdio));
      return { client: client as unknown as AnyClient, close: () => client.close() };
    },
    "v2 Client over HTTP (2026-07-28)": async () => {
      const client = modern(pinned);
      await client.connect(new StreamableHTTPClientTransport(url));
      return { client, close: () => client.close() };
    },
    "v1 Client over HTTP": async () => {
      const client = legacy();
      await client.connect(new LegacyStreamableHTTPClientTransport(url));
      return { client: client as unknown as AnyClient, close: () => client.close() };
    },
  };
  for (const label of LABELS) {
    const { client, close } = await connect[label]();
    try {
      await check(client, label);
    } finally {
      await close();
    }
  }
}

/** Bounded: an answer a server could not send fails here instead of waiting out the client's 60 s. */
const BOUNDED = { timeout: 10_000 };

/** A tool call bounded by BOUNDED: the v1 Client takes its options third (after a result schema), the v2 Client second. */
function call(client: AnyClient, label: string, name: string): ReturnType<AnyClient["callTool"]> {
  if (label.startsWith("v1 ")) return (client as unknown as LegacyClient).callTool({ name, arguments: {} }, undefined, BOUNDED) as unknown as ReturnType<AnyClient["callTool"]>;
  return client.callTool({ name, arguments: {} }, BOUNDED);
}

/** How a request ended: its result, or the JSON-RPC error's code, message and data. */
async function outcome(request: Promise<unknown>): Promise<{ result: unknown } | { code: unknown; message: string; data?: unknown }> {
  try {
    return { result: await request };
  } catch (error) {
    const { code, data } = error as { code?: unknown; data?: unknown };
    return { code, message: String((error as Error).message), ...(data === undefined ? {} : { data }) };
  }
}

/** What a request failed with; fails the test if it succeeded. */
async function failure(request: Promise<unknown>): Promise<{ code: unknown; message: string; data?: unknown }> {
  const ended = await outcome(request);
  if ("result" in ended) throw new Error(`the request succeeded: ${JSON.stringify(ended.result)}`);
  return ended;
}

/** The text of a tool result's first block. */
const textOf = (result: unknown): string | undefined => ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

/** A prompt, a fixed resource and a template's instance asked for what `name` throws, by what names them. */
const offered = (client: AnyClient, name: string) =>
  [
    ["Prompt", () => client.getPrompt({ name }, BOUNDED)],
    ["Resource", () => client.readResource({ uri: `memory://codes/${name}` }, BOUNDED)],
  ] as const;

describe("a prompt or a resource read that throws a ProtocolError of a code a server may send", () => {
  test("leaves with the same code, message and data as the SDK's own server sends — a template's ResourceNotFoundError, an invalid-params, -32002 as -32602, an application's code — and nothing is logged (v2 and v1 Client, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    const seen: Record<Which, Record<string, unknown>> = { registry: {}, sdk: {} };
    for (const which of ["registry", "sdk"] as const) {
      await eachClient(which, async (client, label) => {
        for (const name of Object.keys(PASSED)) {
          for (const [kind, request] of offered(client, name)) seen[which][`${label}: ${kind} ${name}`] = await outcome(request());
        }
        for (const city of ["Atlantis", "Tokyo"]) seen[which][`${label}: template cities://${city}`] = await outcome(client.readResource({ uri: `cities://${city}` }, BOUNDED));
      });
    }
    // The plain SDK's answers are what the fixtures say they are: each error as thrown (-32002 sent as -32602).
    expect(seen.sdk["v2 Client over HTTP (2026-07-28): Prompt invalid_params"]).toEqual({ code: -32_602, message: "No city named Atlantis.", data: { city: "Atlantis" } });
    expect(seen.sdk["v2 Client over stdio: template cities://Atlantis"]).toEqual({ code: -32_602, message: "Resource not found: cities://Atlantis", data: { uri: "cities://Atlantis" } });
    expect(seen.sdk["v1 Client over stdio: Resource app_code"]).toEqual({ code: 4_290, message: "MCP error 4290: Quota reached: try again in a minute.", data: { retryAfterMs: 60_000 } });
    expect(seen.sdk["v2 Client over stdio: Resource legacy_not_found"]).toMatchObject({ code: -32_602 });
    // The v1 line's McpError and a plain Error given a code: the SDK sends their code, message and data too.
    expect(seen.sdk["v2 Client over stdio: Prompt v1_invalid_params"]).toEqual({ code: -32_602, message: "MCP error -32602: No city named Atlantis.", data: { city: "Atlantis" } });
    expect(seen.sdk["v2 Client over HTTP (2026-07-28): Resource coded_error"]).toEqual({ code: 4_291, message: "Quota reached: try again in a minute.", data: { retryAfterMs: 60_000 } });
    expect(seen.sdk["v1 Client over stdio: Prompt coded_error_no_data"]).toEqual({ code: 1_205, message: "MCP error 1205: Row locked." });
    // The registry's, the same, request for request.
    expect(seen.registry).toEqual(seen.sdk);
    // An answer to the client's request, as the author meant it: nothing worth a warning.
    expect(logger.warnings).toEqual([]);
  });

  test("a ProtocolError whose data cannot be sent as JSON, or whose message is no text, is refused: -32603 naming what threw it, and one warning; its data is copied once (both clients, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    dataReads.count = 0;
    await eachClient("registry", async (client, label) => {
      for (const [name, entry] of Object.entries(HOSTILE)) {
        for (const [kind, request] of offered(client, name)) {
          const ended = await outcome(request());
          if ("passed" in entry) {
            // What leaves is the data's first toJSON answer, read once by the copy.
            expect.soft(ended, `${label}: ${kind} ${name}`).toMatchObject(entry.passed);
            continue;
          }
          expect.soft(ended, `${label}: ${kind} ${name}`).toMatchObject({ code: -32_603 });
          for (const part of [`${kind} "${name}" `, ...entry.includes]) expect.soft((ended as { message?: string }).message, `${label}: ${kind} ${name}`).toContain(part);
        }
      }
    });
    // The HTTP server's toJSON ran once for each prompt and each read of its two clients.
    expect(dataReads.count).toBe(4);
    for (const name of Object.keys(HOSTILE).filter((key) => !("passed" in HOSTILE[key as keyof typeof HOSTILE]))) {
      for (const kind of ["Prompt", "Resource"]) expect(logger.warnings.filter((warning) => warning.startsWith(`${kind} "${name}" answered with the error -32602, wh`)), `${kind} ${name}`).toHaveLength(2);
    }
    expect(logger.warnings).toHaveLength(8);
  });
});

describe("a ProtocolError of a code a callback may not send", () => {
  test("one the transport, the JSON-RPC layer, the dispatcher, the SDK's sessions or its version negotiation own, or JSON-RPC reserves, is refused: -32603 naming what threw it and the code, saying what to throw instead, and one warning — where the SDK's own server sends it as thrown (both clients, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    await eachClient("registry", async (client, label) => {
      for (const [name, code] of Object.entries(OWNED)) {
        for (const [kind, request] of offered(client, name)) {
          const { code: answered, message, data } = await failure(request());
          expect.soft(answered, `${label}: ${kind} ${name}`).toBe(-32_603);
          expect.soft(data, `${label}: ${kind} ${name}`).toBeUndefined();
          expect.soft(message, `${label}: ${kind} ${name}`).toContain(`${kind} "${name}" threw a ProtocolError of code ${code}`);
          expect.soft(message, `${label}: ${kind} ${name}`).toContain(`so it was not sent: ${JSON.stringify(OWNED_MESSAGE)}`);
          expect.soft(message, `${label}: ${kind} ${name}`).toContain("Throw ResourceNotFoundError for a URI nothing serves, a ProtocolError of code -32602");
        }
      }
    });
    for (const name of Object.keys(OWNED)) {
      for (const kind of ["Prompt", "Resource"]) expect(logger.warnings.filter((warning) => warning.startsWith(`${kind} "${name}" threw a ProtocolError of code`)), `${kind} ${name}`).toHaveLength(2);
    }
    expect(logger.warnings).toHaveLength(2 * 2 * Object.keys(OWNED).length);
    // The v1 line's McpError and a plain Error given such a code: refused alike, named as what they are.
    logger.warnings.length = 0;
    await eachClient("registry", async (client, label) => {
      for (const [name, { code }] of Object.entries(OWNED_OTHER)) {
        for (const [kind, request] of offered(client, name)) {
          const { code: answered, message } = await failure(request());
          expect.soft(answered, `${label}: ${kind} ${name}`).toBe(-32_603);
          expect.soft(message, `${label}: ${kind} ${name}`).toContain(`${kind} "${name}" threw an error of code ${code} (`);
        }
      }
    });
    expect(logger.warnings).toHaveLength(2 * 2 * Object.keys(OWNED_OTHER).length);
    // The SDK's own server sends each as thrown (over stdio: nothing between it and the client).
    await eachClient("sdk", async (client, label) => {
      if (!label.includes("stdio")) return;
      for (const [name, code] of [...Object.entries(OWNED), ...Object.entries(OWNED_OTHER).map(([name, { code }]) => [name, code] as const)]) {
        expect.soft((await failure(client.getPrompt({ name }, BOUNDED))).code, `${label}: ${name}`).toBe(code);
      }
    });
  });

  test("-32603 is the server's own failure: answered as any throw is, naming the prompt or the resource, with one warning and its stack, and with its data as the SDK sends it (both clients, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    await eachClient("registry", async (client, label) => {
      for (const [kind, request] of offered(client, "internal_error")) {
        expect(await failure(request()), `${label}: ${kind}`).toMatchObject({ code: -32_603, message: expect.stringContaining(`${kind} "internal_error" failed: The database is down.`) as unknown, data: { retry: true } });
      }
    });
    await eachClient("sdk", async (client, label) => {
      expect(await failure(client.getPrompt({ name: "internal_error" }, BOUNDED)), label).toMatchObject({ code: -32_603, data: { retry: true } });
    });
    expect(Object.keys(INTERNAL)).toEqual(["internal_error"]);
    expect(logger.warnings.filter((warning) => /^(Prompt|Resource) "internal_error" threw: ProtocolError: The database is down\.\n\s+at /u.test(warning))).toHaveLength(4);
  });
});

describe("a tool that throws a ProtocolError", () => {
  test("is answered with an error result, as the SDK's own tools answer it, whatever its code: the SDK's text, named as every failure of a tool is (v2 and v1 Client, stdio and HTTP)", async () => {
    const names = [...Object.keys(PASSED), ...Object.keys(OWNED), ...Object.keys(OWNED_OTHER), ...Object.keys(INTERNAL)];
    const seen: Record<Which, Record<string, unknown>> = { registry: {}, sdk: {} };
    for (const which of ["registry", "sdk"] as const) {
      await eachClient(which, async (client, label) => {
        for (const name of names) seen[which][`${label}: ${name}`] = await outcome(call(client, label, name));
      });
    }
    for (const [key, sdk] of Object.entries(seen.sdk)) {
      const name = key.slice(key.indexOf(": ") + 2);
      // Never a JSON-RPC error: an error result, whose text the SDK takes from the error's message.
      expect(sdk, key).toMatchObject({ result: { isError: true } });
      expect(seen.registry[key], key).toMatchObject({ result: { isError: true } });
      expect(textOf((seen.registry[key] as { result: unknown }).result), key).toBe(`Tool "${name}" failed: ${textOf((sdk as { result: unknown }).result)}`);
    }
  });
});

describe("a URL the client is asked to open is held to the URL rule of sources", () => {
  test("inputRequired.elicitUrl(…), a thrown UrlElicitationRequiredError, ctx.mcpReq.elicitInput and send with mode \"url\" — from a tool, a prompt or a read — with a javascript:, a data: or a disguised URL are refused, naming where the URL is and what to write instead, and never reach the client; one warning each (both clients, stdio and HTTP)", async () => {
    logger.warnings.length = 0;
    opened.length = 0;
    await eachClient("registry", async (client, label) => {
      for (const { name, how, says } of ASKS) {
        if (says === undefined) continue;
        const where = { asked: "inputRequests.login.params.url", thrown: "data.elicitations[0].url", pushed: "params.url", sent: "params.url" }[how];
        const requests = [
          ["Tool", () => call(client, label, name)],
          ["Prompt", () => client.getPrompt({ name }, BOUNDED)],
          ["Resource", () => client.readResource({ uri: `memory://asks/${name}` }, BOUNDED)],
        ] as const;
        for (const [kind, request] of requests) {
          const ended = await outcome(request());
          const what = `${label}: ${kind} ${name}`;
          let words: string | undefined;
          if (kind === "Tool") {
            expect.soft(ended, what).toMatchObject({ result: { isError: true } });
            words = "result" in ended ? textOf(ended.result) : undefined;
          } else {
            expect.soft(ended, what).toMatchObject({ code: -32_603 });
            words = "message" in ended ? ended.message : undefined;
          }
          // A request pushed on a stateless 2025-era request is refused for that first, as ever.
          if (label === "v1 Client over HTTP" && (how === "pushed" || how === "sent")) {
            expect.soft(words, what).toContain("needs a session");
            continue;
          }
          const lead = how === "pushed" || how === "sent" ? `${kind} "${name}" failed: A URL elicitation (elicitation/create) asks the client to open a URL it may not be asked to open, so it was not sent:` : `${kind} "${name}" asked for input with a URL the client may not be asked to open, so it was not sent:`;
          for (const part of [lead, `- ${where}: `, says, 'give the page\'s absolute http: or https: URL, as a source is written (url: "https://example.org/login")']) expect.soft(words, what).toContain(part);
        }
      }
    });
    // No client was asked to open any of them.
    expect(opened).toEqual([]);
    // One warning per refusal, for each of the two HTTP clients; the stateless refusals included.
    const refused = ASKS.filter(({ says }) => says !== undefined).length;
    expect(logger.warnings).toHaveLength(2 * 3 * refused);
  });

  test("an http(s) page passes: the client is asked to open it, and the callback called again with the answer (both clients, where the era lets it ask)", async () => {
    opened.length = 0;
    const answers: Record<string, unknown> = {};
    await eachClient("registry", async (client, label) => {
      for (const { name, how, url, says } of ASKS) {
        if (says !== undefined || how === "thrown") continue;
        answers[`${label}: Tool ${name}`] = await outcome(call(client, label, name).then(textOf));
        answers[`${label}: Prompt ${name}`] = await outcome(client.getPrompt({ name }, BOUNDED).then((got) => (got.messages[0]?.content as { text?: string }).text));
        answers[`${label}: Resource ${name}`] = await outcome(client.readResource({ uri: `memory://asks/${name}` }, BOUNDED).then((got) => (got.contents[0] as { text?: string }).text));
        expect(url).toBe("https://example.org/login");
      }
    });
    for (const kind of ["Tool", "Prompt", "Resource"]) {
      // On a 2025-era connection the SDK asks the client (inputRequired) or the callback does (pushed, sent).
      for (const label of ["v2 Client over stdio", "v1 Client over stdio"]) {
        expect(answers[`${label}: ${kind} asked_good`], `${label} ${kind}`).toEqual({ result: "signed in: accept" });
        expect(answers[`${label}: ${kind} pushed_good`], `${label} ${kind}`).toEqual({ result: "pushed: accept" });
        expect(answers[`${label}: ${kind} sent_good`], `${label} ${kind}`).toEqual({ result: "sent: accept" });
      }
      // On 2026-07-28 the client answers inputRequired itself.
      for (const label of ["v2 Client over stdio (2026-07-28)", "v2 Client over HTTP (2026-07-28)"]) expect(answers[`${label}: ${kind} asked_good`], `${label} ${kind}`).toEqual({ result: "signed in: accept" });
    }
    expect(opened.length).toBeGreaterThan(0);
    expect(new Set(opened)).toEqual(new Set(["https://example.org/login"]));
    expect(URL_MESSAGE).toBe("Sign in to read the graph.");
  });
});
