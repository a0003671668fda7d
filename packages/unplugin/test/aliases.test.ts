import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import * as esbuild from "esbuild";
import sourcedEsbuild from "@sourced/unplugin/esbuild";
import { describe, expect, test } from "vitest";
import { CASES_DIR } from "../../../fixtures/harness.js";

/*
 * One function registered under two names (fixtures/cases/144-aliases.ts), bundled by esbuild
 * with the plugin and run: the build pins a tool's name only where the registry takes it from the
 * function, so the user's function keeps its own name and every tool is served under its name,
 * minified or not.
 */

// Outside the corpus: every file under fixtures/cases is a case the corpus tests lint and judge.
const OUT = path.join(CASES_DIR, "..", "..", "test-artifacts", "aliases");
/** `file` (of the corpus) as an import specifier or a path from OUT. */
const fromOut = (file: string) => path.relative(OUT, path.join(CASES_DIR, file)).split(path.sep).join("/");
const requireHere = createRequire(import.meta.url);

interface AliasesModule {
  readonly registry: { createServer(): { connect(transport: unknown): Promise<void>; close(): Promise<void> } };
  readonly city_of_the_day: () => unknown;
  readonly capital: () => unknown;
}

async function build(minify: boolean): Promise<AliasesModule> {
  fs.mkdirSync(OUT, { recursive: true });
  const entry = path.join(OUT, "entry.ts");
  fs.writeFileSync(entry, `export { registry } from "${fromOut("lib/registry.js")}";\nexport * from "${fromOut("144-aliases.js")}";\n`);
  // The corpus's options, this case alone: the plugin reports on its whole program.
  const tsconfig = path.join(OUT, "tsconfig.json");
  fs.writeFileSync(tsconfig, JSON.stringify({ extends: fromOut("tsconfig.json"), files: [fromOut("144-aliases.ts")], include: [] }));
  const outfile = path.join(OUT, minify ? "aliases.min.cjs" : "aliases.cjs");
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    packages: "external",
    outfile,
    minify,
    logLevel: "silent",
    plugins: [sourcedEsbuild({ tsconfig })],
  });
  return requireHere(outfile) as AliasesModule;
}

async function servedTools(module: AliasesModule): Promise<string[]> {
  const server = module.registry.createServer();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "aliases", version: "1.0.0" });
  await client.connect(clientTransport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
    await server.close();
  }
}

describe("one function under two names, bundled with the plugin", () => {
  test("the function keeps its own name; each tool is served under its own", async () => {
    const bundled = await build(false);
    expect([bundled.city_of_the_day.name, bundled.capital.name]).toEqual(["city_of_the_day", "capital"]);
    expect(await servedTools(bundled)).toEqual(["capital", "capital_city", "city_of_the_day", "todays_city"]);
  });

  test("minified, the names taken from the functions are still pinned", async () => {
    const minified = await build(true);
    expect(await servedTools(minified)).toEqual(["capital", "capital_city", "city_of_the_day", "todays_city"]);
    expect([minified.city_of_the_day.name, minified.capital.name]).toEqual(["city_of_the_day", "capital"]);
  });
});
