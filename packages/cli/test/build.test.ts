import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { SourceMap } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, REPO } from "./helpers";

/*
 * `sourced build`: plain tsc (TypeScript 6.0.3 and 7.0.2), then the edit plan applied to its
 * output. fixtures/startup (compliant tools, refused ones, a platform's wrapper, decorators, some
 * with type arguments) in a fresh project outside the workspace: the built server, under
 * requireVerified, serves exactly what the tspc build of the same sources serves; the build fails
 * with `sourced check`'s findings; the source maps lead the edited code back to the sources, and the
 * declarations are tsc's own.
 */

const FIXTURE = path.join(REPO, "fixtures", "startup");
const REGISTRY = path.join(REPO, "packages", "registry");
const TS6 = path.join(REPO, "node_modules", "typescript");
const TS7 = path.join(REPO, "fixtures", "ts7", "node_modules", "typescript");
const TRANSFORMER = path.join(REPO, "packages", "transformer");
const TSPC = path.join(TRANSFORMER, "node_modules", "ts-patch", "bin", "tspc.js");

const made: string[] = [];
afterAll(() => {
  for (const directory of made) fs.rmSync(directory, { recursive: true, force: true });
});

function project(typescript: "6" | "7"): string {
  const directory = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sourced-build-${typescript}-`)));
  made.push(directory);
  fs.cpSync(FIXTURE, directory, { recursive: true });
  const links: Record<string, string> = {
    "@sourced/registry": REGISTRY,
    "@sourced/transformer": TRANSFORMER,
    zod: path.join(REGISTRY, "node_modules", "zod"),
    "@types/node": path.join(REPO, "node_modules", "@types", "node"),
    typescript: typescript === "6" ? TS6 : TS7,
  };
  for (const [name, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(directory, "node_modules", name)), { recursive: true });
    fs.symlinkSync(fs.realpathSync(target), path.join(directory, "node_modules", name), "dir");
  }
  return directory;
}

function run(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The tools `node <entry>` serves with requireVerified (and the start-up check off: only stamps count). */
async function served(directory: string, entry: string): Promise<string[]> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== "NODE_OPTIONS" && key !== "NODE_PATH" && !key.startsWith("VITEST")) env[key] = value;
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry], cwd: directory, env: { ...env, SERVER_REQUIRE_VERIFIED: "1", SERVER_STARTUP_CHECK: "false" }, stderr: "pipe" });
  const client = new Client({ name: "build-test", version: "1.0.0" });
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  await client.close();
  return tools;
}

/** `file(line,col): error SRC…` lines of `sourced check`. */
function checkFindings(directory: string): string[] {
  return run([BIN, "check"], directory).stdout.split("\n").filter((line) => / error SRC\d+: /.test(line));
}

describe("sourced build: plain tsc, then the transformer's edits on its output", () => {
  let tspcServed: { server: string[]; decorators: string[] };
  /** tspc's output of fixtures/startup's tsconfig.esnext.json (decorators kept as they are), by file. */
  let tspcEsnext: Record<string, string>;

  beforeAll(async () => {
    const directory = project("6");
    fs.writeFileSync(
      path.join(directory, "tsconfig.tspc.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { outDir: "dist-tspc", plugins: [{ transform: "@sourced/transformer", transformProgram: true }] } }),
    );
    run([TSPC, "-p", "tsconfig.tspc.json"], directory);
    fs.writeFileSync(
      path.join(directory, "tsconfig.tspc-esnext.json"),
      JSON.stringify({ extends: "./tsconfig.esnext.json", compilerOptions: { outDir: "dist-tspc-esnext", plugins: [{ transform: "@sourced/transformer", transformProgram: true }] } }),
    );
    run([TSPC, "-p", "tsconfig.tspc-esnext.json"], directory);
    tspcEsnext = Object.fromEntries(["weather.js", "weather-typed.js"].map((file) => [file, fs.readFileSync(path.join(directory, "dist-tspc-esnext", file), "utf8")]));
    tspcServed = { server: await served(directory, "dist-tspc/server.js"), decorators: await served(directory, "dist-tspc/server-decorators.js") };
    expect(tspcServed.server).toEqual(["capital", "capital_of", "list_cities", "lookup_city", "population", "wrapped"]);
    expect(tspcServed.decorators).toEqual(["capital", "capital_of", "forecast", "list_cities", "lookup_city", "population", "wind", "wrapped"]);
  }, 120_000);

  for (const typescript of ["6", "7"] as const) {
    test(`TypeScript ${typescript === "6" ? "6.0.3" : "7.0.2"}: fails on sourced check's findings; under requireVerified the output serves exactly what tspc's does; the source map leads edited code to its source; declarations as tsc writes them`, async () => {
      const directory = project(typescript);
      const built = run([BIN, "build", "--", "--declaration"], directory);
      expect(built.status, built.stdout + built.stderr).toBe(1);
      const findings = built.stdout.split("\n").filter((line) => / error SRC\d+: /.test(line));
      expect(findings.sort()).toEqual(checkFindings(directory).sort());
      expect(findings).toHaveLength(10);
      expect(built.stdout).toMatch(/sourced build: 10 findings \(rejected tools stripped\); 4 emitted files stamped or stripped, by @sourced\/cli@/);
      expect(await served(directory, "dist/server.js")).toEqual(tspcServed.server);
      expect(await served(directory, "dist/server-decorators.js")).toEqual(tspcServed.decorators);

      // The map of an edited file: `function capital` (after the inserted `Object.defineProperties(`) leads to its source line.
      const code = fs.readFileSync(path.join(directory, "dist/tools.js"), "utf8");
      expect(code).toMatch(/\/\/# sourceMappingURL=tools\.js\.map$/);
      const map = new SourceMap(JSON.parse(fs.readFileSync(path.join(directory, "dist/tools.js.map"), "utf8")) as never);
      const lines = code.split("\n");
      const line = lines.findIndex((text) => text.includes("Object.defineProperties(function capital("));
      const entry = map.findEntry(line, lines[line]!.indexOf("function capital(")) as { originalLine?: number; originalSource?: string };
      const source = fs.readFileSync(path.join(directory, "src/tools.ts"), "utf8").split("\n");
      expect(source[entry.originalLine!]).toContain("function capital(");
      expect(entry.originalSource).toMatch(/src\/tools\.ts$/);
      expect(fs.readFileSync(path.join(directory, "dist/tools.d.ts"), "utf8")).toContain("export declare const capital");
    }, 180_000);
  }

  test("target ESNext, where tsc keeps decorators as they are: each decorator stripped or stamped in place, the code tspc emits; one holding TypeScript (type arguments, which tsc drops on output) read from the output by the decorator's grammar", () => {
    const directory = project("6");
    const built = run([BIN, "build", "-p", "tsconfig.esnext.json"], directory);
    // Before, a decorator tsc had rewritten (weather-typed.ts) stayed in the text the JavaScript parser read: exit 2.
    expect(built.status, built.stdout + built.stderr).toBe(1);
    expect(built.stderr).toBe("");
    const plain = (text: string) => text.replace(/\/\/# sourceMappingURL=.*$/, "").replace(/"@sourced\/(?:cli|transformer)@[^"]*"/g, '"(stamp)"').split("\n").filter((line) => line.trim() !== "").join("\n");
    for (const file of ["weather.js", "weather-typed.js"]) {
      const code = fs.readFileSync(path.join(directory, "dist-esnext", file), "utf8");
      expect(code, file).toContain('@((d => (m, ...r) => d(Object.defineProperties(m, { [Symbol.for("@sourced/registry:verified")]: { value: "@sourced/cli@');
      // As tspc writes it, but for the stamp's name, the map's comment, and the line a removed decorator leaves.
      expect(plain(code), file).toBe(plain(tspcEsnext[file]!));
      expect(tspcEsnext[file], file).toContain("@sourced/transformer@");
      // One decorator kept (the compliant static method's), the two refused tools' gone, their methods kept.
      expect(code.match(/^\s*@/gm), file).toHaveLength(1);
    }
    const typed = fs.readFileSync(path.join(directory, "dist-esnext/weather-typed.js"), "utf8");
    expect(typed).toContain(`))(registry.tool({ description: "Tomorrow's wind.", input: { city: z.string() } })))`);
    expect(typed).not.toContain("@registry.tool(");
    expect(typed).toMatch(/\n\s*static pressure\(\) \{/);
    expect(typed).toMatch(/\n\s*visibility\(\) \{/);
    // The map leads the stamped decorator back to its source line.
    const code = fs.readFileSync(path.join(directory, "dist-esnext/weather.js"), "utf8");
    const map = new SourceMap(JSON.parse(fs.readFileSync(path.join(directory, "dist-esnext/weather.js.map"), "utf8")) as never);
    const lines = code.split("\n");
    const line = lines.findIndex((text) => text.includes("registry.tool({ description"));
    const entry = map.findEntry(line, lines[line]!.indexOf("registry.tool({ description")) as { originalLine?: number };
    expect(fs.readFileSync(path.join(directory, "src/weather.ts"), "utf8").split("\n")[entry.originalLine!]).toContain("@registry.tool({ description");
  }, 120_000);

  test("without source maps in the tsconfig: none written, the code still stamped and stripped", async () => {
    const directory = project("7");
    const built = run([BIN, "build", "--", "--sourceMap", "false"], directory);
    expect(built.status, built.stdout + built.stderr).toBe(1);
    expect(fs.readdirSync(path.join(directory, "dist")).filter((name) => name.endsWith(".map"))).toEqual([]);
    expect(fs.readFileSync(path.join(directory, "dist/tools.js"), "utf8")).not.toContain("sourceMappingURL");
    expect(await served(directory, "dist/server.js")).toEqual(tspcServed.server);
  }, 120_000);
});
