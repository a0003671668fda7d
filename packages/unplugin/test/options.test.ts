import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as esbuild from "esbuild";
import sourced from "@sourced/unplugin/esbuild";
import type { SourcedPluginOptions } from "@sourced/unplugin";
import { expect, test } from "vitest";
import { CITIES, CITIES_TSCONFIG, ROOT } from "./support.js";

/** The texts of the errors an esbuild build of the example reports with these options. */
async function errorsWith(options: unknown): Promise<string[]> {
  try {
    await esbuild.build({
      absWorkingDir: CITIES,
      entryPoints: ["src/server.ts"],
      bundle: true,
      platform: "node",
      packages: "external",
      write: false,
      logLevel: "silent",
      plugins: [sourced(options as SourcedPluginOptions)],
    });
    return [];
  } catch (error) {
    return (error as esbuild.BuildFailure).errors.map((message) => message.text);
  }
}

test("a wrong option is one error saying what to write, as the transformer says it; the build still checks every tool", async () => {
  const errors = await errorsWith({ tsconfig: CITIES_TSCONFIG, strp: true, severity: "fatal" });
  expect(errors).toEqual([
    expect.stringContaining('@sourced/unplugin: unknown option "strp" (did you mean "strip"?). The options are "severity", "strip", "stamp", "tsconfig" and "backend".'),
    expect.stringContaining('@sourced/unplugin: option "severity" must be "error" or "warning", got "fatal"; write "severity": "error" (the default)'),
    // The wrong severity fell back to its default: the finding is an error.
    expect.stringContaining("SRC92002: Tool 'forecast' is declared to return 'CallToolResult'"),
  ]);
});

test("the tsconfig is found from esbuild's working directory by default; a missing one is one error saying what to pass", async () => {
  expect(await errorsWith(undefined)).toEqual([expect.stringContaining("SRC92002: Tool 'forecast'")]);
  const missing = await errorsWith({ tsconfig: "tsconfig.missing.json" });
  expect(missing).toEqual([expect.stringMatching(/^SRC92000: @sourced\/unplugin: cannot find \S*tsconfig\.missing\.json\. Pass the project's tsconfig as the plugin's "tsconfig" option/)]);
});

test("a newer TypeScript 6 than sourced supports judges the build, and the build says so once, as a warning", async () => {
  // A `typescript` 6.1.0 whose JavaScript API is the repository's 6.0.3: used, with the project layer's warning.
  const directory = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-unplugin-ts61-")));
  try {
    const typescript6 = fs.realpathSync(path.join(ROOT, "node_modules/typescript"));
    fs.mkdirSync(path.join(directory, "node_modules/typescript/lib"), { recursive: true });
    fs.writeFileSync(path.join(directory, "node_modules/typescript/package.json"), JSON.stringify({ name: "typescript", version: "6.1.0", main: "./lib/api.js" }));
    fs.writeFileSync(path.join(directory, "node_modules/typescript/lib/api.js"), `"use strict";\nmodule.exports = { ...require(${JSON.stringify(typescript6)}), version: "6.1.0" };\n`);
    fs.writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext" }, files: ["a.ts"] }));
    fs.writeFileSync(path.join(directory, "a.ts"), "export const a = 1;\n");
    const built = await esbuild.build({ absWorkingDir: directory, entryPoints: ["a.ts"], bundle: true, platform: "node", write: false, logLevel: "silent", plugins: [sourced({ tsconfig: "tsconfig.json" })] });
    expect(built.errors).toEqual([]);
    expect(built.warnings.map((message) => message.text)).toEqual([expect.stringMatching(/^SRC92000: @sourced\/unplugin: typescript 6\.1\.0 at \S+ is newer than the classic backend supports \(typescript >=5\.0 <6\.1\); checking with it anyway/)]);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
});
