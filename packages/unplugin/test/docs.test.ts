import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { CITIES, copyExample, listTools, refusedTools, ROOT } from "./support.js";

/*
 * The recipes of docs/bundlers.md, run as written on a copy of the example (tsup and tsdown, whose
 * recipes are the esbuild and Rolldown plugins passed through, and webpack/rspack, which need a
 * CLI the workspace does not install, are not run here; bundles.test.ts builds rspack through its
 * API). The only change: `severity: "warning"`, so the example's deliberately non-compliant tool
 * is reported and the build still writes the bundle to serve.
 */

const DOC = fs.readFileSync(path.join(ROOT, "docs", "bundlers.md"), "utf8");

/** The code block whose first line is `// <file>`. */
function recipe(file: string): string {
  const block = [...DOC.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.startsWith(`// ${file}\n`));
  if (block === undefined) throw new Error(`docs/bundlers.md has no recipe starting with // ${file}`);
  return block;
}

const bin = (name: string, file: string) => path.join(CITIES, "node_modules", name, file);

const RECIPES = [
  { bundler: "esbuild", file: "build.mjs", command: (config: string) => [config] },
  { bundler: "Vite", file: "vite.config.ts", command: () => [bin("vite", "bin/vite.js"), "build"] },
  { bundler: "Rollup", file: "rollup.config.mjs", command: (config: string) => [bin("rollup", "dist/bin/rollup"), "-c", config] },
  { bundler: "Rolldown", file: "rolldown.config.mjs", command: (config: string) => [bin("rolldown", "bin/cli.mjs"), "-c", config] },
] as const;

describe.each(RECIPES)("docs/bundlers.md, the $bundler recipe", ({ bundler, file, command }) => {
  test("reports the non-compliant tool at its source line, and its bundle serves exactly the compliant tools", async () => {
    const directory = copyExample(`docs-${bundler.toLowerCase()}`);
    const text = recipe(file);
    expect(text).toContain("sourced()");
    fs.writeFileSync(path.join(directory, file), text.replace("sourced()", 'sourced({ severity: "warning" })'));
    const run = spawnSync(process.execPath, command(file), { cwd: directory, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/forecast\.ts:9:\d+/);
    expect(output).toContain("SRC92002");
    const { tools, stderr } = await listTools(path.join(directory, "dist", "server.cjs"));
    expect([tools, refusedTools(stderr)], stderr).toEqual([["list_cities", "population"], []]);
  });
});
