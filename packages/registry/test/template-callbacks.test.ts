import type { Client } from "@modelcontextprotocol/client";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { describe, expect, test } from "vitest";
import { createRegistry, type Registry } from "../dist/index.js";
import { answersInMemory, answersOverHttp } from "./both-clients.js";
import { recordingLogger } from "./helpers.js";

/*
 * A resource template's `list` callback answers `resources/list` (the SDK sends each resource it
 * lists), and its `complete` callbacks answer `completion/complete`: both reach the client, so both
 * pass the net as a read does. What they answer leaves as its checked plain-JSON copy, made once; a
 * throw, a value JSON cannot carry, a listed URI a browser runs, or a completion that is no list of
 * strings is answered with an MCP error naming the template, and one warning. Well-behaved ones
 * answer as the SDK's own McpServer does, byte for byte.
 */

type Callbacks = ConstructorParameters<typeof ResourceTemplate>[1];
const read = (uri: URL) => ({ contents: [{ uri: uri.href, text: uri.href }] });
const NAMES = ["Tokyo", "Delhi", "Shanghai"];
const startingWith = (value: string) => NAMES.filter((name) => name.startsWith(value));
// Icons of both themes, with every key MCP gives an icon: the net must let them all through, as the SDK sends them.
const ICONS = [
  { src: "https://example.org/city-light.png", mimeType: "image/png", sizes: ["48x48"], theme: "light" as const },
  { src: "https://example.org/city-dark.png", theme: "dark" as const },
];
const GOOD: Callbacks = { list: () => ({ resources: NAMES.map((name) => ({ uri: `cities://${name}`, name, mimeType: "application/json", icons: ICONS })) }), complete: { name: startingWith } };

function registryWith(callbacks: Callbacks, logger = recordingLogger(), callTimeoutMs?: number): Registry {
  const registry = createRegistry({ name: "cities", version: "1.0.0", startupCheck: false, ui: false, logger, ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }) });
  registry.resource("graph", "cities://all", {}, read);
  registry.resource("city", new ResourceTemplate("cities://{name}", callbacks), { description: "A city" }, read);
  return registry;
}

function sdkWith(callbacks: Callbacks): McpServer {
  const server = new McpServer({ name: "cities", version: "1.0.0" });
  server.registerResource("graph", "cities://all", {}, read);
  server.registerResource("city", new ResourceTemplate("cities://{name}", callbacks), { description: "A city" }, read);
  return server;
}

type Either = Pick<Client, "listResources" | "complete">;

/** What a client gets of resources/list and of completing "name" with "S": each answer, or its error's code and message. */
async function answers(client: Either): Promise<string[]> {
  const settle = (pending: Promise<unknown>) =>
    pending.then(
      (value) => JSON.stringify(value),
      // The v1 Client prefixes the server's message with its code.
      (error: { code?: unknown; message?: unknown }) => `${String(error.code)} ${String(error.message).replace(/^MCP error -?\d+: /u, "")}`,
    );
  // The resources alone: a 2026-07-28 answer carries cache hints and the server's identity beside them.
  return [await settle(client.listResources().then(({ resources }) => ({ resources }))), await settle(client.complete({ ref: { type: "ref/resource", uri: "cities://{name}" }, argument: { name: "name", value: "S" } }))];
}

/** The v2 and the v1 Client on `server`, in memory. */
const inMemory = (server: () => McpServer): Promise<string[][]> => answersInMemory(server, answers);

/** The v2 Client (2026-07-28) and the v1 Client over Streamable HTTP. */
const overHttp = (registry: Registry): Promise<string[][]> => answersOverHttp(registry, answers);

describe("a template's list and complete callbacks pass the net", () => {
  test("well-behaved: the SDK's own McpServer's answers, the v2 and the v1 Client, in memory and over Streamable HTTP; nothing logged", async () => {
    const logger = recordingLogger();
    const expected = await inMemory(() => sdkWith(GOOD));
    expect(expected[0]![1]).toBe('{"completion":{"values":["Shanghai"],"total":1,"hasMore":false}}');
    expect(await inMemory(() => registryWith(GOOD, logger).createServer())).toEqual(expected);
    expect((await overHttp(registryWith(GOOD, logger))).map(([list]) => list)).toEqual(expected.map(([list]) => list));
    expect(logger.warnings).toEqual([]);
  });

  const LISTED = 'The list of resource template "city"';
  const COMPLETED = 'The completion of "name" of resource template "city"';
  const cases: Array<[string, Callbacks, string, string]> = [
    [
      "a list that throws",
      { ...GOOD, list: () => { throw new Error("the index is gone"); } },
      `-32603 ${LISTED} failed: the index is gone`,
      `${LISTED} threw: Error: the index is gone`,
    ],
    [
      "a listed URI a browser runs",
      { ...GOOD, list: () => ({ resources: [{ uri: "javascript:alert(1)", name: "Tokyo" }] }) },
      `-32603 ${LISTED} answered with a result that breaks the ListResourcesResult contract, so it was not sent:\n- resources[0].uri: is a URI a browser runs or renders itself (javascript:), which no contents may name: name what was read, e.g. "memory://graph"`,
      `${LISTED} answered with a result that breaks the ListResourcesResult contract`,
    ],
    [
      "a listed resource with a key MCP does not define",
      { ...GOOD, list: () => ({ resources: [{ uri: "cities://Tokyo", name: "Tokyo", secret: "x" }] }) },
      `-32603 ${LISTED} answered with a result that breaks the ListResourcesResult contract, so it was not sent:\n- resources[0]: "secret" is not a key of a listed resource, which has uri, name, title, description, mimeType, size, annotations, icons and _meta only`,
      "ListResourcesResult",
    ],
    [
      "a listed URI that is no string",
      { ...GOOD, list: () => ({ resources: [{ uri: 42, name: "Tokyo" }] }) as never },
      `-32603 ${LISTED} answered with a result that breaks the ListResourcesResult contract, so it was not sent:\n- resources[0].uri: must be a string, not number`,
      "ListResourcesResult",
    ],
    [
      "an icon with a key MCP does not define",
      { ...GOOD, list: () => ({ resources: [{ uri: "cities://Tokyo", name: "Tokyo", icons: [{ src: "https://example.org/tokyo.png", alt: "Tokyo" }] }] }) },
      `-32603 ${LISTED} answered with a result that breaks the ListResourcesResult contract, so it was not sent:\n- resources[0].icons[0]: "alt" is not a key of an icon, which has src, mimeType, sizes and theme only`,
      "ListResourcesResult",
    ],
    [
      "a list without its resources",
      { ...GOOD, list: () => ({}) as never },
      `-32603 ${LISTED} answered with a result that breaks the ListResourcesResult contract, so it was not sent:\n- resources: is missing: a template's list answers with its resources, { resources: [{ uri, name }] }`,
      "ListResourcesResult",
    ],
    [
      "a list with a key MCP does not define",
      { ...GOOD, list: () => ({ resources: [], next: 2 }) },
      `-32603 ${LISTED} answered with a result that breaks the ListResourcesResult contract, so it was not sent:\n- the result: "next" is not a key of a resource list result, which has resources, nextCursor and _meta only`,
      "ListResourcesResult",
    ],
    [
      "a list JSON cannot carry",
      { ...GOOD, list: () => ({ resources: [{ uri: "cities://Tokyo", name: "Tokyo", _meta: { "example.org/n": 1n } }] }) },
      `-32603 ${LISTED} answered with a result that cannot be sent as JSON, so it was not sent: `,
      "cannot be sent as JSON",
    ],
    [
      "a list that is no result",
      { ...GOOD, list: (() => "Tokyo") as unknown as NonNullable<Callbacks["list"]> },
      `-32603 ${LISTED} answered with a result that breaks the ListResourcesResult contract`,
      "ListResourcesResult",
    ],
    [
      "a completion that throws",
      { ...GOOD, complete: { name: () => { throw new Error("no index"); } } },
      `-32603 ${COMPLETED} failed: no index`,
      `${COMPLETED} threw: Error: no index`,
    ],
    [
      "a completion that is no list",
      { ...GOOD, complete: { name: (() => "Shanghai") as unknown as (value: string) => string[] } },
      `-32603 ${COMPLETED} answered with a result that breaks the CompleteResult contract, so it was not sent:\n- the result: must be a list of strings, the values completed`,
      "CompleteResult",
    ],
    [
      "a completion of values that are no text",
      { ...GOOD, complete: { name: (() => [{ name: "Shanghai" }]) as unknown as (value: string) => string[] } },
      `-32603 ${COMPLETED} answered with a result that breaks the CompleteResult contract`,
      "CompleteResult",
    ],
    [
      "a completion JSON cannot carry",
      { ...GOOD, complete: { name: (() => [1n]) as unknown as (value: string) => string[] } },
      `-32603 ${COMPLETED} answered with a result that cannot be sent as JSON, so it was not sent: `,
      "cannot be sent as JSON",
    ],
  ];

  for (const [label, callbacks, answer, warning] of cases) {
    test(`${label}: an MCP error naming the template, one warning; the v2 and the v1 Client`, async () => {
      const logger = recordingLogger();
      const seen = await inMemory(() => registryWith(callbacks, logger).createServer());
      const which = label.includes("completion") ? 1 : 0;
      for (const each of seen) {
        expect(each[which]!.startsWith(answer), each[which]).toBe(true);
        // The other answer is unharmed.
        expect(each[1 - which]!).not.toMatch(/^-32/u);
      }
      expect(logger.warnings).toHaveLength(2);
      for (const each of logger.warnings) expect(each).toContain(warning);
    });
  }

  test("over Streamable HTTP too, both clients: a list that throws and a completion that is no list are errors naming the template", async () => {
    const logger = recordingLogger();
    const seen = await overHttp(registryWith({ list: () => { throw new Error("the index is gone"); }, complete: { name: (() => "Shanghai") as unknown as (value: string) => string[] } }, logger));
    for (const [list, completion] of seen) {
      expect(list).toBe(`-32603 ${LISTED} failed: the index is gone`);
      expect(completion).toContain(`-32603 ${COMPLETED} answered with a result that breaks the CompleteResult contract`);
    }
    expect(logger.warnings).toHaveLength(4);
  }, 30_000);

  test("what is sent is the copy, made once: a getter that changes its answer is read once", async () => {
    /** How often each answer's `resources` was read. */
    const reads: number[] = [];
    const logger = recordingLogger();
    const list = () => {
      const answer = reads.push(0) - 1;
      return {
        get resources() {
          reads[answer]!++;
          return reads[answer] === 1 ? [{ uri: "cities://Tokyo", name: "Tokyo" }] : [{ uri: "javascript:alert(1)", name: "Tokyo" }];
        },
      };
    };
    const [modern] = await inMemory(() => registryWith({ ...GOOD, list }, logger).createServer());
    expect((JSON.parse(modern![0]!) as { resources: unknown[] }).resources.at(-1)).toEqual({ description: "A city", uri: "cities://Tokyo", name: "Tokyo" });
    expect(reads).toEqual([1, 1]);
    expect(logger.warnings).toEqual([]);
  });

  test("a completion that does not settle is answered at the calls' deadline, naming the template", async () => {
    const logger = recordingLogger();
    const [modern] = await inMemory(() => registryWith({ ...GOOD, complete: { name: () => new Promise<string[]>(() => undefined) } }, logger, 200).createServer());
    expect(modern![1]).toBe(`-32603 ${COMPLETED} did not answer within 200 ms, so the completion was stopped.`);
    expect(logger.warnings[0]).toContain('the completion of "name" of resource template "city" did not answer within 200 ms');
  });
});
