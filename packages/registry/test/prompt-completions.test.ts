import type { Client } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { completable, createRegistry, type Registry } from "../dist/index.js";
import { answersInMemory, answersOverHttp } from "./both-clients.js";
import { recordingLogger } from "./helpers.js";

/*
 * A prompt argument wrapped in `completable(schema, complete)` answers `completion/complete`
 * (`ref/prompt`): what its `complete` answers reaches the client, so it passes the net as a
 * template's completions do. It leaves as its checked plain-JSON copy, made once; a throw, a value
 * JSON cannot carry, or an answer that is no list of strings is answered with an MCP error naming
 * the prompt and the argument, and one warning; one that does not settle, at the calls' deadline.
 * Well-behaved ones answer as the SDK's own McpServer does — and the prompt's arguments are listed
 * and parsed as there: the schema the SDK is given is the author's, but for where it finds the
 * completers.
 */

type Complete = (value: string, context?: { arguments?: Record<string, string> }) => unknown;
const LANGUAGES = ["typescript", "javascript", "python", "rust"];
const startingWith: Complete = (value) => LANGUAGES.filter((language) => language.startsWith(value));
/** The optional argument's completer reads the other arguments, as the SDK passes them. */
const styles: Complete = (value, context) => [`${context?.arguments?.language ?? "any"}-${value}strict`];

/** A prompt's arguments: `language` completed by `complete`, an optional `style` completed well; as a zod object or a raw shape. */
function argsSchema(complete: Complete, raw = false) {
  const shape = {
    language: completable(z.string().describe("Programming language"), complete as (value: string) => string[]),
    style: completable(z.string().describe("Review style"), styles as (value: string) => string[]).optional(),
    focus: z.string().optional(),
  };
  return raw ? shape : z.object(shape);
}

const get = ({ language, style }: { language: string; style?: string | undefined }) => ({ messages: [{ role: "user" as const, content: { type: "text" as const, text: `Review this ${language} code (${style ?? "any"}).` } }] });

function registryWith(complete: Complete, logger = recordingLogger(), callTimeoutMs?: number, raw = false): Registry {
  const registry = createRegistry({ name: "review", version: "1.0.0", startupCheck: false, ui: false, logger, ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }) });
  registry.prompt("review", { description: "Review code", argsSchema: argsSchema(complete, raw) as z.ZodObject<z.ZodRawShape> }, get as never);
  return registry;
}

function sdkWith(complete: Complete, raw = false): McpServer {
  const server = new McpServer({ name: "review", version: "1.0.0" });
  server.registerPrompt("review", { description: "Review code", argsSchema: argsSchema(complete, raw) as z.ZodObject<z.ZodRawShape> }, get as never);
  return server;
}

type Either = Pick<Client, "listPrompts" | "complete" | "getPrompt">;

/**
 * What a client gets of prompts/list, of completing "language" with "t" and "style" with "s" (given
 * the language), and of prompts/get: each answer, or its error's code and message.
 */
async function answers(client: Either): Promise<string[]> {
  const settle = (pending: Promise<unknown>) =>
    pending.then(
      (value) => JSON.stringify(value),
      // The v1 Client prefixes the server's message with its code.
      (error: { code?: unknown; message?: unknown }) => `${String(error.code)} ${String(error.message).replace(/^MCP error -?\d+: /u, "")}`,
    );
  const ref = { type: "ref/prompt" as const, name: "review" };
  // What the SDK answers alone: a 2026-07-28 answer carries cache hints and the server's identity beside it.
  return [
    await settle(client.listPrompts().then(({ prompts }) => ({ prompts }))),
    await settle(client.complete({ ref, argument: { name: "language", value: "t" } }).then(({ completion }) => ({ completion }))),
    await settle(client.complete({ ref, argument: { name: "style", value: "s" }, context: { arguments: { language: "rust" } } }).then(({ completion }) => ({ completion }))),
    await settle(client.getPrompt({ name: "review", arguments: { language: "rust", style: "terse" } }).then(({ messages }) => ({ messages }))),
  ];
}

/** The v2 and the v1 Client on `server`, in memory. */
const inMemory = (server: () => McpServer): Promise<string[][]> => answersInMemory(server, answers);

/** The v2 Client (2026-07-28) and the v1 Client over Streamable HTTP. */
const overHttp = (registry: Registry): Promise<string[][]> => answersOverHttp(registry, answers);

describe("a prompt's completable arguments pass the net", () => {
  test("well-behaved: the SDK's own McpServer's answers (arguments listed, completed, parsed), a zod object or a raw shape, the v2 and the v1 Client; nothing logged", async () => {
    const logger = recordingLogger();
    for (const raw of [false, true]) {
      const expected = await inMemory(() => sdkWith(startingWith, raw));
      expect(expected[0]![0]).toContain('{"name":"language","description":"Programming language","required":true}');
      expect(expected[0]![1]).toBe('{"completion":{"values":["typescript"],"total":1,"hasMore":false}}');
      expect(expected[0]![2]).toBe('{"completion":{"values":["rust-sstrict"],"total":1,"hasMore":false}}');
      expect(await inMemory(() => registryWith(startingWith, logger, undefined, raw).createServer())).toEqual(expected);
    }
    expect(logger.warnings).toEqual([]);
  });

  const COMPLETED = 'The completion of "language" of prompt "review"';
  const cases: Array<[string, Complete, string, string]> = [
    ["a completion that throws", () => { throw new Error("no index"); }, `-32603 ${COMPLETED} failed: no index`, `${COMPLETED} threw: Error: no index`],
    ["a completion that rejects", () => Promise.reject(new Error("no index")), `-32603 ${COMPLETED} failed: no index`, `${COMPLETED} threw: Error: no index`],
    // The SDK's own server answers these two with the values made text ("1", "[object Object]").
    ["a completion of values that are no text", () => ["typescript", 1], `-32603 ${COMPLETED} answered with a result that breaks the CompleteResult contract, so it was not sent:\n- `, "CompleteResult"],
    ["a completion of objects", () => [{ name: "typescript" }], `-32603 ${COMPLETED} answered with a result that breaks the CompleteResult contract`, "CompleteResult"],
    ["a completion that is no list", () => "typescript", `-32603 ${COMPLETED} answered with a result that breaks the CompleteResult contract, so it was not sent:\n- `, "CompleteResult"],
    ["a completion of nothing", () => undefined, `-32603 ${COMPLETED} answered with a result that breaks the CompleteResult contract`, "CompleteResult"],
    ["a completion JSON cannot carry", () => ["typescript", 1n], `-32603 ${COMPLETED} answered with a result that cannot be sent as JSON, so it was not sent: `, "cannot be sent as JSON"],
  ];

  for (const [label, complete, answer, warning] of cases) {
    test(`${label}: an MCP error naming the prompt and the argument, one warning; the v2 and the v1 Client; the rest unharmed`, async () => {
      const logger = recordingLogger();
      const expected = await inMemory(() => sdkWith(startingWith));
      const seen = await inMemory(() => registryWith(complete, logger).createServer());
      for (const [index, each] of seen.entries()) {
        expect(each[1]!.startsWith(answer), each[1]).toBe(true);
        // The listing, the other argument's completion and the prompt itself are the SDK's own.
        expect([each[0], each[2], each[3]]).toEqual([expected[index]![0], expected[index]![2], expected[index]![3]]);
      }
      expect(logger.warnings).toHaveLength(2);
      for (const each of logger.warnings) expect(each).toContain(warning);
    });
  }

  test("an optional argument's completion is named so", async () => {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "review", version: "1.0.0", startupCheck: false, ui: false, logger });
    const shape = { language: z.string(), style: completable(z.string(), (() => [Symbol("terse")]) as unknown as (value: string) => string[]).optional() };
    registry.prompt("review", { argsSchema: z.object(shape) }, get as never);
    const [modern, legacy] = await inMemory(() => registry.createServer());
    for (const each of [modern!, legacy!]) expect(each[2]).toMatch(/^-32603 The completion of "style" of prompt "review" answered with a result that cannot be sent as JSON/u);
    expect(logger.warnings).toHaveLength(2);
  });

  test("a schema whose shape is a frozen value completes through the net too", async () => {
    const logger = recordingLogger();
    const registry = createRegistry({ name: "review", version: "1.0.0", startupCheck: false, ui: false, logger });
    const schema = argsSchema(() => ["typescript", 1]) as z.ZodObject<z.ZodRawShape>;
    Object.defineProperty(schema, "shape", { value: schema.shape, writable: false, configurable: false });
    registry.prompt("review", { argsSchema: schema }, get as never);
    const [modern] = await inMemory(() => registry.createServer());
    expect(modern![1]).toMatch(/^-32603 The completion of "language" of prompt "review" answered with a result that breaks the CompleteResult contract/u);
    expect(modern![3]).not.toMatch(/^-32/u);
  });

  test("over Streamable HTTP too, both clients: a completion that throws is an error naming the prompt and the argument; a good one the SDK's answer", async () => {
    const logger = recordingLogger();
    const [expected] = await inMemory(() => sdkWith(startingWith));
    const seen = await overHttp(registryWith(() => { throw new Error("no index"); }, logger));
    for (const each of seen) {
      expect(each[1]).toBe(`-32603 ${COMPLETED} failed: no index`);
      expect([each[0], each[2], each[3]]).toEqual([expected![0], expected![2], expected![3]]);
    }
    expect(logger.warnings).toHaveLength(2);
  }, 30_000);

  test("what is sent is the copy, made once: a toJSON that changes its answer runs once", async () => {
    /** How often each answer's value was made JSON. */
    const calls: number[] = [];
    const logger = recordingLogger();
    const complete: Complete = () => {
      const answer = calls.push(0) - 1;
      return [{ toJSON: () => (++calls[answer]! === 1 ? "typescript" : { not: "text" }) }];
    };
    for (const each of await inMemory(() => registryWith(complete, logger).createServer())) expect(each[1]).toBe('{"completion":{"values":["typescript"],"total":1,"hasMore":false}}');
    // One answer for each client's request, each made JSON once.
    expect(calls).toEqual([1, 1]);
    expect(logger.warnings).toEqual([]);
  });

  test("a completion that does not settle is answered at the calls' deadline, naming the prompt and the argument", async () => {
    const logger = recordingLogger();
    const [modern] = await inMemory(() => registryWith(() => new Promise<string[]>(() => undefined), logger, 200).createServer());
    expect(modern![1]).toBe(`-32603 ${COMPLETED} did not answer within 200 ms, so the completion was stopped.`);
    expect(modern![3]).not.toMatch(/^-32/u);
    expect(logger.warnings[0]).toContain('the completion of "language" of prompt "review" did not answer within 200 ms');
  });
});
