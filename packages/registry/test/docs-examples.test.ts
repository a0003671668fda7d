import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, describe, expect, test } from "vitest";
import { compileExamples, consumerProjects, docExamples, PACKAGE_DIR } from "./helpers.js";

/*
 * Every complete example of docs/registry.md (a `ts` or `js` block not marked `fragment`), as a
 * user would run it: written into a fresh project outside the workspace whose node_modules holds
 * the registry, compiled by the repository's tsc (TypeScript blocks, once as an ES module project
 * and once as a CommonJS one), started with node, and used by the SDK's v2 Client. Plain tsc
 * stamps nothing: the registry's start-up check judges the sources through the source maps, and
 * finds nothing to say.
 */

const ROOT = join(PACKAGE_DIR, "..", "..");
const DOC = join(ROOT, "docs", "registry.md");
const TOKEN = "docs-example-token";

/** Starts `file` as the example's server and checks what a client sees. */
async function exercise(code: string, dir: string, file: string): Promise<void> {
  const client = new Client({ name: "docs", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  const env = { ...process.env, MCP_TOKEN: TOKEN } as Record<string, string>;
  if (code.includes("serveHttp")) {
    const child = spawn(process.execPath, [file], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
      const url = new URL(String(first.value));
      if (code.includes("authenticate")) expect((await fetch(url, { method: "POST", body: "{}" })).status).toBe(401);
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      await check(client);
    } finally {
      await client.close().catch(() => {});
      child.kill();
    }
  } else {
    const stderr: string[] = [];
    const transport = new StdioClientTransport({ command: process.execPath, args: [file], cwd: dir, env, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    try {
      await client.connect(transport);
      await check(client);
      expect(stderr.join("")).toBe("");
    } finally {
      await client.close();
    }
  }
}

async function check(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain("list_cities");
  const result = await client.callTool({ name: "list_cities" });
  expect(result.isError).toBeUndefined();
  expect(result.structuredContent).toMatchObject({ sources: [expect.stringMatching(/^https:\/\//)] });
}

const all = docExamples(DOC);
const { project, removeAll } = consumerProjects("docs");
afterAll(removeAll);

describe("docs/registry.md examples", () => {
  test("the page has complete examples: TypeScript, an ES module and a CommonJS server", () => {
    expect(all.filter((example) => example.lang === "ts").length).toBeGreaterThanOrEqual(2);
    expect(all.map((example) => example.file)).toEqual(expect.arrayContaining(["server.mjs", "server.cjs"]));
  });

  for (const type of ["module", "commonjs"] as const) {
    test(`every TypeScript example compiles and runs in a "type": "${type}" project`, async () => {
      const dir = project(type);
      const typescript = all.filter((example) => example.lang === "ts");
      mkdirSync(join(dir, "src"));
      typescript.forEach((example) => writeFileSync(join(dir, "src", `line-${example.line}.ts`), example.code));
      await compileExamples(dir);
      for (const example of typescript) await exercise(example.code, dir, join(dir, "out", `line-${example.line}.js`));
    }, 120_000);
  }

  test("every JavaScript example runs as written, under the file name it gives", async () => {
    for (const example of all.filter((candidate) => candidate.lang === "js")) {
      expect(example.file, `the js block at docs/registry.md:${example.line} names its file (server.mjs, server.cjs)`).toBeDefined();
      const dir = project("commonjs");
      writeFileSync(join(dir, example.file ?? "server.js"), example.code);
      await exercise(example.code, dir, join(dir, example.file ?? "server.js"));
    }
  }, 60_000);
});
