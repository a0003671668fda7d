import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, describe, expect, test } from "vitest";
import { createRegistry, type RegistryOptions, type ToolOptions } from "../dist/index.js";
import { consumerProjects, seedResult } from "./helpers.js";

/*
 * The options of createRegistry() and registry.tool(), checked when they are given: a misspelt
 * key used to be ignored without a word (`requireVerifed: true` served unstamped tools), and only
 * a type check caught it. Every build must hear it: plain JavaScript and a minified bundle too.
 */

const SITE = String.raw`options\.test\.ts:\d+:\d+`;
const registry = () => createRegistry({ name: "options", version: "1.0.0" });

describe("createRegistry() options", () => {
  test("an unknown key throws at once, naming the nearest option and the call's site", () => {
    const options = { name: "cities", version: "1.0.0", requireVerifed: true } as RegistryOptions;
    expect(() => createRegistry(options)).toThrow(
      new RegExp(
        `^createRegistry\\(\\) at .*${SITE}: unknown option "requireVerifed": did you mean "requireVerified"\\? ` +
          "createRegistry\\(\\) takes name, version, logger, requireVerified, startupCheck, startupCheckTimeoutMs, ui, callTimeoutMs, title, instructions, icons, websiteUrl and listChanged\\.$",
        "u",
      ),
    );
  });

  test("a key near no option says so without a guess", () => {
    expect(() => createRegistry({ name: "cities", version: "1.0.0", port: 3000 } as RegistryOptions)).toThrow(/: unknown option "port"\. createRegistry\(\) takes /u);
  });

  test("a value of the wrong type throws, saying what the option takes", () => {
    expect(() => createRegistry({ name: "cities", version: "1.0.0", requireVerified: "yes" as never })).toThrow(
      new RegExp(`^createRegistry\\(\\) at .*${SITE}: option "requireVerified" takes true or false, not a string \\("yes"\\)\\.$`, "u"),
    );
    expect(() => createRegistry({ name: "cities", version: "1.0.0", logger: console.log as never })).toThrow(
      /option "logger" takes an object with a warn\(message\) method \(console fits\), not a function/u,
    );
  });

  test("name and version are required; several problems are listed together", () => {
    expect(() => createRegistry({ version: 1, ui: "no" } as never)).toThrow(
      new RegExp(
        `^createRegistry\\(\\) at .*${SITE}:\\n` +
          '- option "version" takes a string, the server\'s version \\("1\\.0\\.0"\\), not a number \\(1\\)\\n' +
          '- option "ui" takes true or false, not a string \\("no"\\)\\n' +
          '- option "name" is missing: it takes a string, the server\'s name \\("cities"\\)\\n$',
        "u",
      ),
    );
    expect(() => createRegistry(undefined as never)).toThrow(/createRegistry\(\) at .*: expects an options object, not undefined; write createRegistry\(\{ name: "cities", version: "1\.0\.0" \}\)/u);
  });

  test("undefined for an optional key is no value: accepted, as the types accept it", () => {
    expect(() => createRegistry({ name: "cities", version: "1.0.0", logger: undefined, requireVerified: undefined, ui: undefined })).not.toThrow();
  });
});

describe("registry.tool() options", () => {
  test("an unknown key throws when the options are given, before any function is registered", () => {
    const cities = registry();
    expect(() => cities.tool({ descripton: "Population of one city." } as ToolOptions)).toThrow(
      new RegExp(
        `^registry\\.tool\\(\\) at .*${SITE}: unknown option "descripton": did you mean "description"\\? ` +
          "registry\\.tool\\(\\) takes name, title, description, input, output, annotations, ui, timeoutMs, icons and _meta\\.$",
        "u",
      ),
    );
    expect(cities.tools).toEqual([]);
  });

  test("values of the wrong type, and misspelt annotations (the SDK would drop them), throw", () => {
    const cities = registry();
    expect(() => cities.tool({ description: ["Population"] as never })).toThrow(/option "description" takes a string, not an array\./u);
    expect(() => cities.tool({ annotations: { readonlyHint: true } as never })).toThrow(/unknown annotation "readonlyHint": did you mean "readOnlyHint"\?/u);
    expect(() => cities.tool({ annotations: { readOnlyHint: "yes" as never } })).toThrow(/annotation "readOnlyHint" takes true or false, not a string \("yes"\)\./u);
    expect(() => cities.tool("population" as never)).toThrow(/registry\.tool\(\) at .*: expects an options object, not a string \("population"\); write registry\.tool\(\{ name: "population"/u);
  });

  test("good options register as before", () => {
    const cities = registry();
    const fn = cities.tool({ name: "top", title: "Top", description: "d", annotations: { readOnlyHint: true, title: "T" }, ui: false })(function list_cities() {
      return seedResult();
    });
    expect(cities.tools.map((tool) => tool.name)).toEqual(["top"]);
    expect(cities.tools[0]!.fn).toBe(fn);
  });
});

describe("every build hears it", () => {
  const { project, removeAll } = consumerProjects("options");
  afterAll(removeAll);

  /** A server module with a misspelt option, as a user writes it (line 3). */
  const app = (load: string) => `${load}
const registry = createRegistry({ name: "cities", version: "1.0.0" });
registry.tool({ descripton: "Population of one city." })(function population() { return {}; });
registry.serveStdio();
`;

  async function failure(dir: string, file: string): Promise<{ code: number; stderr: string }> {
    try {
      await promisify(execFile)(process.execPath, [file], { cwd: dir });
    } catch (error) {
      const { code, stderr } = error as { code: number; stderr: string };
      return { code, stderr };
    }
    throw new Error(`${file} ran without the error`);
  }

  test("plain Node, ES module: the process stops with the error before serving", async () => {
    const dir = project("module");
    writeFileSync(join(dir, "app.js"), app('import { createRegistry } from "@sourced/registry";'));
    const { code, stderr } = await failure(dir, "app.js");
    expect(code).toBe(1);
    expect(stderr).toContain(`TypeError: registry.tool() at ${join(dir, "app.js")}:3:10: unknown option "descripton": did you mean "description"?`);
  });

  test("a minified esbuild bundle keeps the keys, and the check", async () => {
    const dir = project("commonjs");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "app.js"), app('const { createRegistry } = require("@sourced/registry");'));
    await build({ entryPoints: [join(dir, "src", "app.js")], outfile: join(dir, "out", "app.js"), bundle: true, minify: true, platform: "node", format: "cjs", logLevel: "silent" });
    const { code, stderr } = await failure(dir, "out/app.js");
    expect(code).toBe(1);
    expect(stderr).toMatch(/TypeError: registry\.tool\(\) at .*app\.js:\d+:\d+: unknown option "descripton": did you mean "description"\?/u);
  }, 60_000);
});
