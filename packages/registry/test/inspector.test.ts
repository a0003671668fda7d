import { execFile, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PACKAGE_DIR } from "./helpers.js";

/*
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`), a client nobody here wrote,
 * against the seed's example server (fixtures/projects/cities) built with the transformer, over
 * stdio and over Streamable HTTP.
 */

const CITIES = join(PACKAGE_DIR, "..", "..", "fixtures", "projects", "cities");
const OUT = join(CITIES, "out", "inspector");
const INSPECTOR = join(PACKAGE_DIR, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");

async function inspector(args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR, "--cli", ...args], { cwd: CITIES, timeout: 60_000 });
  return JSON.parse(stdout) as unknown;
}

beforeAll(async () => {
  rmSync(OUT, { recursive: true, force: true });
  // tspc exits 2 for the fixture's deliberate finding (forecast) and still emits the server.
  await promisify(execFile)(process.execPath, [join(CITIES, "node_modules/ts-patch/bin/tspc.js"), "-p", ".", "--outDir", OUT], { cwd: CITIES }).catch(
    (error: { code?: number; stdout?: string }) => {
      if (error.code !== 2) throw new Error(`tspc failed: ${error.stdout ?? ""}`);
    },
  );
}, 120_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

function expectCities(listed: unknown, called: unknown): void {
  expect((listed as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort()).toEqual(["list_cities", "population"]);
  expect(called).toMatchObject({
    content: [{ type: "text", text: "The 3 most populated cities are Tokyo (37,400,068), Delhi (30,290,936) and Shanghai (27,058,479)." }],
    structuredContent: { sources: ["https://example.org/cities-data"] },
  });
}

describe("the MCP Inspector CLI", () => {
  test("over stdio: lists the tools and calls list_cities", async () => {
    const server = ["node", join(OUT, "server.js")];
    expectCities(await inspector([...server, "--method", "tools/list"]), await inspector([...server, "--method", "tools/call", "--tool-name", "list_cities"]));
  }, 120_000);

  test("over Streamable HTTP: lists the tools and calls list_cities", async () => {
    const serve = `require(${JSON.stringify(join(OUT, "server.js"))}).registry.serveHttp().then((s) => console.log(s.url.href))`;
    const child = spawn(process.execPath, ["-e", serve], { cwd: CITIES, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = String((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
      const target = [url, "--transport", "http"];
      expectCities(await inspector([...target, "--method", "tools/list"]), await inspector([...target, "--method", "tools/call", "--tool-name", "list_cities"]));
    } finally {
      child.kill();
    }
  }, 120_000);
});
