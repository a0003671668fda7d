import { spawn } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compileExamples, consumerProjects, docExamples, PACKAGE_DIR, type DocExample } from "./helpers.js";

/*
 * docs/migrating.md, run: every complete example (a `ts` block not marked `fragment`) is written
 * into one fresh ES module project outside the workspace, compiled by the repository's tsc, and
 * started with node; the SDK's v2 Client lists its tools and makes the call the comment above the
 * block names (`<!-- call: population {"city":"Tokyo"} -->`, `error` when an error result is the
 * point), or calls each tool without arguments. The blocks marked `sdk-v1` and `sdk-v2` are the
 * "before" servers, on the SDK alone; every other is a sourced server, whose results passed the net
 * and whose start-up check had nothing to say.
 */

const DOC = join(PACKAGE_DIR, "..", "..", "docs", "migrating.md");
const all = docExamples(DOC);
const { project, removeAll } = consumerProjects("migrating");
let dir: string;
/** What each example answered, for the comparison at the end. */
const outcomes = new Map<DocExample, Outcome>();

const isSdkOnly = (example: DocExample) => example.info.includes("sdk-v1") || example.info.includes("sdk-v2");

interface Call {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly error: boolean;
}

/** The call the comment above an example asks for. */
function callOf(example: DocExample): Call | undefined {
  const match = /^<!-- call: ([\w.-]+) (\{.*\})( error)? -->$/.exec(example.above);
  return match === null ? undefined : { name: match[1]!, arguments: JSON.parse(match[2]!) as Record<string, unknown>, error: match[3] !== undefined };
}

interface Outcome {
  readonly tools: string[];
  /** The URIs of the resources it serves (none asked of an SDK-only server). */
  readonly resources: string[];
  readonly results: Array<{ content: unknown; structuredContent?: unknown; isError?: boolean }>;
  readonly stderr: string;
}

async function run(example: DocExample): Promise<Outcome> {
  const file = join(dir, "out", `line-${example.line}.js`);
  const client = new Client({ name: "docs-migrating", version: "1.0.0" });
  let stderr = "";
  let stop: () => void;
  if (example.code.includes("serveHttp")) {
    const child = spawn(process.execPath, [file], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    stop = () => child.kill();
    const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
    await client.connect(new StreamableHTTPClientTransport(new URL(String(first.value))));
  } else {
    const transport = new StdioClientTransport({ command: process.execPath, args: [file], cwd: dir, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    stop = () => {};
    await client.connect(transport);
  }
  try {
    const { tools } = await client.listTools();
    const asked = callOf(example);
    const calls = asked !== undefined ? [asked] : tools.map((tool) => ({ name: tool.name, arguments: {}, error: false }));
    const results: Outcome["results"] = [];
    for (const call of calls) results.push(await client.callTool({ name: call.name, arguments: call.arguments }));
    const resources = isSdkOnly(example) ? [] : (await client.listResources()).resources.map((resource) => resource.uri);
    return { tools: tools.map((tool) => tool.name), resources, results, stderr };
  } finally {
    await client.close().catch(() => {});
    stop();
  }
}

beforeAll(async () => {
  dir = project("module");
  // A project being migrated still has the SDK's v1 line.
  mkdirSync(join(dir, "node_modules", "@modelcontextprotocol", "sdk", ".."), { recursive: true });
  symlinkSync(realpathSync(join(PACKAGE_DIR, "node_modules", "@modelcontextprotocol", "sdk")), join(dir, "node_modules", "@modelcontextprotocol", "sdk"), "dir");
  mkdirSync(join(dir, "src"));
  for (const example of all) writeFileSync(join(dir, "src", `line-${example.line}.ts`), example.code);
  await compileExamples(dir);
}, 120_000);
afterAll(removeAll);

describe("docs/migrating.md examples", () => {
  test("the page has a v1 and a v2 'before' server, and a sourced server for each topic", () => {
    expect(all.filter((example) => example.info.includes("sdk-v1"))).toHaveLength(1);
    expect(all.filter((example) => example.info.includes("sdk-v2"))).toHaveLength(1);
    expect(all.filter((example) => !isSdkOnly(example)).length).toBeGreaterThanOrEqual(9);
  });

  test.each(all.map((example) => [`line ${example.line}${isSdkOnly(example) ? ` (${example.info.join(" ")})` : ""}`, example] as const))(
    "%s compiles, starts and answers its call",
    async (_title, example) => {
      const outcome = await run(example);
      outcomes.set(example, outcome);
      expect(outcome.tools.length, outcome.stderr).toBeGreaterThan(0);
      const expectError = callOf(example)?.error ?? false;
      for (const result of outcome.results) {
        expect(result.isError === true, `${JSON.stringify(result)}\n${outcome.stderr}`).toBe(expectError);
        if (isSdkOnly(example) || expectError) continue;
        // Each source a web page, or a resource the server serves.
        const { sources } = result.structuredContent as { sources: unknown[] };
        expect(sources.length).toBeGreaterThan(0);
        for (const source of sources) expect(outcome.resources.includes(String(source)) || /^https:\/\//.test(String(source)), String(source)).toBe(true);
      }
      // A sourced server: the start-up check judged every tool compliant, and the net refused nothing.
      if (!isSdkOnly(example) && !expectError) expect(outcome.stderr).toBe("");
    },
  );

  test("a call shown before and after migrating gets the same text: the port changes what the result says of its origin, not what it says", () => {
    const shown = all.filter((example) => callOf(example)?.name === "population" && callOf(example)?.arguments.city === "Tokyo");
    expect(shown.map((example) => example.info[0] ?? "sourced")).toEqual(["sdk-v1", "sdk-v2", "sourced"]);
    const contents = shown.map((example) => outcomes.get(example)?.results[0]?.content);
    expect(contents[0]).toEqual([{ type: "text", text: "Tokyo has 37400068 inhabitants." }]);
    expect(contents).toEqual([contents[0], contents[0], contents[0]]);
  });
});
