import * as esbuild from "esbuild";
import sourced from "@sourced/unplugin/esbuild";
import type { SourcedPluginOptions } from "@sourced/unplugin";
import { expect, test } from "vitest";
import { CITIES, CITIES_TSCONFIG } from "./support.js";

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
