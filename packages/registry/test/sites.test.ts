import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, describe, expect, test } from "vitest";
import { consumerProjects } from "./helpers.js";

/*
 * Where a warning says a registration happened, as a user of each packaging meets it: the ES
 * module build, the CommonJS build, and an ES module bundle (esbuild) of the user's code with the
 * registry and the SDK inside it, run with and without source maps.
 */

const { project, removeAll } = consumerProjects("sites");
afterAll(removeAll);

/**
 * Registers one unstamped tool with requireVerified on (line 5) and prints the warnings. The
 * start-up check is off: it would judge the bundle's registration at serving, through its source
 * map, instead of refusing it at once; what is tested here is the site the refusal names.
 */
const app = (load: string) => `${load}
const warnings = [];
const registry = createRegistry({ name: "sites", version: "1.0.0", requireVerified: true, startupCheck: false, logger: { warn: (message) => warnings.push(message) } });

registry.tool()(function list_cities() { return {}; });
console.log(JSON.stringify(warnings));
`;

async function run(dir: string, file: string, flags: string[] = []): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, file], { cwd: dir });
  return JSON.parse(stdout) as string[];
}

/** The `(file:line:col)` a requireVerified warning names. */
function siteIn(warning: string | undefined): string {
  return /^tool "list_cities" \((.+?)\) was not registered/.exec(warning ?? "")?.[1] ?? `no site in ${JSON.stringify(warning)}`;
}

describe("the site in a warning is the user's frame", () => {
  test("plain Node, ES module build", async () => {
    const dir = project("module");
    writeFileSync(join(dir, "app.js"), app('import { createRegistry } from "@sourced/registry";'));
    expect(siteIn((await run(dir, "app.js"))[0])).toBe(`${join(dir, "app.js")}:5:16`);
  });

  test("plain Node, CommonJS build", async () => {
    const dir = project("commonjs");
    writeFileSync(join(dir, "app.js"), app('const { createRegistry } = require("@sourced/registry");'));
    expect(siteIn((await run(dir, "app.js"))[0])).toBe(`${join(dir, "app.js")}:5:16`);
  });

  test("an esbuild ES module bundle holding the registry and the SDK: the source with --enable-source-maps, the bundle's line without", async () => {
    const dir = project("module");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "app.ts"), app('import { createRegistry } from "@sourced/registry";'));
    await build({
      entryPoints: [join(dir, "src", "app.ts")],
      outfile: join(dir, "out", "app.js"),
      bundle: true,
      platform: "node",
      format: "esm",
      sourcemap: true,
      logLevel: "silent",
    });
    const mapped = siteIn((await run(dir, "out/app.js", ["--enable-source-maps"]))[0]);
    expect(mapped).toMatch(new RegExp(`^${join(dir, "src", "app.ts").replace(/[.\\/]/g, "\\$&")}:5:\\d+$`));
    // Without source maps: a line of the bundle that is the user's registration, not the registry's code.
    const [file, line] = siteIn((await run(dir, "out/app.js"))[0]).split(":");
    expect(file).toBe(join(dir, "out", "app.js"));
    expect(readFileSync(join(dir, "out", "app.js"), "utf8").split("\n")[Number(line) - 1]).toContain("function list_cities()");
  }, 60_000);
});
