import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as esbuild from "esbuild";
import sourcedEsbuild from "@sourced/unplugin/esbuild";
import type { SourcedPluginOptions } from "@sourced/unplugin";
import { afterAll, expect, test } from "vitest";
import { CITIES, listTools, ROOT } from "./support.js";

/*
 * The plugin on a project whose `tsc` is TypeScript 7.0.2 (fixtures/ts7) and that has no
 * TypeScript 5/6 at all: the findings come from the native backend, as `sourced check`'s do, and
 * the edit plan is applied from them.
 */

const TSC7 = path.join(ROOT, "fixtures/ts7/node_modules/typescript/bin/tsc");
const BIN = path.join(ROOT, "packages/cli/bin/sourced.js");
const FORECAST_BROKEN = "function forecast(): CallToolResult {\n    return { content: [{ type: \"text\", text: \"Tomorrow will be sunny.\" }] };";
const FORECAST_FIXED =
  'function forecast(): DataToolOutput {\n    return { content: [{ type: "text", text: "Tomorrow will be sunny." }], structuredContent: { sources: ["https://example.org/weather"] } };';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

/** A copy of the example outside the repository: TypeScript 7 as its `tsc`, no `typescript` package to resolve. */
function typeScript7Example(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-unplugin-ts7-"));
  directories.push(directory);
  fs.cpSync(path.join(CITIES, "src"), path.join(directory, "src"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "tsconfig.base.json"), path.join(directory, "tsconfig.base.json"));
  fs.writeFileSync(
    path.join(directory, "tsconfig.json"),
    JSON.stringify({ extends: "./tsconfig.base.json", compilerOptions: { composite: false, declaration: false, declarationMap: false, rootDir: "src", noEmit: true }, include: ["src"] }),
  );
  fs.appendFileSync(path.join(directory, "src/tools/forecast.ts"), `import type { DataToolOutput } from "@sourced/registry";\n`);
  fs.mkdirSync(path.join(directory, "node_modules/.bin"), { recursive: true });
  fs.symlinkSync(TSC7, path.join(directory, "node_modules/.bin/tsc"));
  for (const name of ["@sourced", "@modelcontextprotocol", "zod"]) fs.symlinkSync(path.join(CITIES, "node_modules", name), path.join(directory, "node_modules", name));
  fs.symlinkSync(path.join(ROOT, "node_modules/@types"), path.join(directory, "node_modules/@types"));
  return directory;
}

/** `file:line:column id tool` of each finding `sourced check --format json` reports. */
function checkFindings(directory: string, backendArgs: readonly string[] = []): { findings: string[]; summary: string } {
  const json = spawnSync(process.execPath, [BIN, "check", "--format", "json", ...backendArgs], { cwd: directory, encoding: "utf8" });
  const text = spawnSync(process.execPath, [BIN, "check", ...backendArgs], { cwd: directory, encoding: "utf8" });
  const findings = (JSON.parse(json.stdout) as { file: string; line: number; column: number; id: string; tool: string | null }[]).map(
    ({ file, line, column, id, tool }) => `${file}:${line}:${column} ${id} ${tool}`,
  );
  return { findings, summary: text.stdout };
}

function options(directory: string, extra: SourcedPluginOptions = {}) {
  return {
    absWorkingDir: directory,
    entryPoints: ["src/server.ts"],
    bundle: true,
    platform: "node" as const,
    target: "node22",
    format: "cjs" as const,
    packages: "external" as const,
    outfile: path.join(directory, "dist/server.cjs"),
    logLevel: "silent" as const,
    // Warnings: the build writes its bundle, and every finding is still reported.
    plugins: [sourcedEsbuild({ severity: "warning", ...extra })],
  };
}

/** Where esbuild located a message (the plugin prints paths from the working directory), relative to `directory`. */
function where(directory: string, message: esbuild.Message): string {
  if (message.location === null) return "";
  return `${path.relative(directory, path.resolve(message.location.file)).split(path.sep).join("/")}:${message.location.line}:${message.location.column + 1}`;
}

/** The plugin's findings, as `file:line:column tool` (the tool read from the message). */
function pluginFindings(directory: string, messages: readonly esbuild.Message[]): string[] {
  return messages.filter((message) => /\bSRC\d{5}\b/.test(message.text)).map((message) => `${where(directory, message)} ${/Tool '([^']+)'/.exec(message.text)?.[1] ?? "null"}`);
}

test("an esbuild build of a TypeScript-7-only project: the native backend's findings, the check's; the compliant tools served under their source names", async () => {
  const directory = typeScript7Example();
  const check = checkFindings(directory);
  expect(check.summary).toContain("with TypeScript 7.0.2 (native)");
  expect(check.findings).toEqual(["src/tools/forecast.ts:9:24 not-data-tool-output forecast"]);

  const result = await esbuild.build(options(directory));
  expect(result.errors).toEqual([]);
  expect(pluginFindings(directory, result.warnings)).toEqual(check.findings.map((finding) => finding.replace(/ [a-z-]+ (\S+)$/, " $1")));
  expect(result.warnings.map((warning) => warning.text).join("\n")).toContain("SRC92002: Tool 'forecast' is declared to return 'CallToolResult', which is not DataToolOutput");

  // Stripped, stamped, names pinned (esbuild renames `population` to `population2`): requireVerified serves exactly the compliant tools.
  const { tools, stderr } = await listTools(path.join(directory, "dist/server.cjs"));
  expect(tools).toEqual(["list_cities", "population"]);
  expect(stderr).not.toContain("was not registered");
});

test("esbuild's rebuilds on the native backend: the fix is seen, the break again, never stale", async () => {
  const directory = typeScript7Example();
  const forecast = path.join(directory, "src/tools/forecast.ts");
  const context = await esbuild.context(options(directory, { severity: "error" }));
  const errorsOf = async () => {
    try {
      await context.rebuild();
      return [];
    } catch (error) {
      return (error as esbuild.BuildFailure).errors.map((message) => `${where(directory, message)} ${/SRC\d{5}/.exec(message.text)?.[0]}`);
    }
  };
  try {
    expect(await errorsOf()).toEqual(["src/tools/forecast.ts:9:24 SRC92002"]);
    fs.writeFileSync(forecast, fs.readFileSync(forecast, "utf8").replace(FORECAST_BROKEN, FORECAST_FIXED));
    expect(await errorsOf()).toEqual([]);
    expect((await listTools(path.join(directory, "dist/server.cjs"))).tools).toEqual(["forecast", "list_cities", "population"]);
    fs.writeFileSync(forecast, fs.readFileSync(forecast, "utf8").replace(FORECAST_FIXED, FORECAST_BROKEN));
    expect(await errorsOf()).toEqual(["src/tools/forecast.ts:9:24 SRC92002"]);
  } finally {
    await context.dispose();
  }
});

test("backend: \"classic\" forces the classic API (here the plugin's own TypeScript 6, none being installed beside 7): the same finding; a wrong value is reported", async () => {
  const directory = typeScript7Example();
  const classic = await esbuild.build({ ...options(directory, { backend: "classic" }), write: false });
  expect(pluginFindings(directory, classic.warnings)).toEqual(["src/tools/forecast.ts:9:24 forecast"]);
  // The edit plan rendered as text from TypeScript 7's nodes is the one rendered from TypeScript 6's: the same bundle, byte for byte.
  const native = await esbuild.build({ ...options(directory, { backend: "native" }), write: false });
  const code = (result: esbuild.BuildResult) => result.outputFiles?.find((file) => file.path.endsWith(".cjs"))?.text;
  expect(code(native)).toContain('(Object.defineProperties(async function population2({ city }) {');
  expect(code(native)).toEqual(code(classic));
  const wrong = await esbuild.build(options(directory, { backend: "tsgo" as never, severity: "error" })).then(
    () => [],
    (error: esbuild.BuildFailure) => error.errors.map((message) => message.text),
  );
  expect(wrong).toEqual([
    expect.stringContaining('@sourced/unplugin: option "backend" must be "classic" or "native", got "tsgo"'),
    // The wrong value fell back to the default: chosen per project, native here, and still checked.
    expect.stringContaining("SRC92002: Tool 'forecast'"),
  ]);
});

test("the choice is the check's: a TypeScript 7 this backend cannot drive falls back to classic with a warning, or, forced, is one error", async () => {
  const directory = typeScript7Example();
  const unsupported = path.join(directory, "typescript-7.9");
  fs.mkdirSync(path.join(unsupported, "bin"), { recursive: true });
  fs.writeFileSync(path.join(unsupported, "package.json"), JSON.stringify({ name: "typescript", version: "7.9.0", bin: { tsc: "bin/tsc" } }));
  fs.writeFileSync(path.join(unsupported, "bin/tsc"), "#!/usr/bin/env node\n");
  fs.rmSync(path.join(directory, "node_modules/.bin/tsc"));
  fs.symlinkSync(path.join(unsupported, "bin/tsc"), path.join(directory, "node_modules/.bin/tsc"));
  const chosen = await esbuild.build(options(directory));
  expect(chosen.warnings.map((warning) => warning.text)).toEqual([
    expect.stringMatching(/^SRC92000: @sourced\/unplugin: .*7\.9\.0.*; checked with the classic backend\.$/),
    expect.stringContaining("SRC92002: Tool 'forecast'"),
  ]);
  const forced = await esbuild.build(options(directory, { backend: "native", severity: "error" })).then(
    () => [],
    (error: esbuild.BuildFailure) => error.errors.map((message) => message.text),
  );
  expect(forced).toEqual([expect.stringMatching(/^SRC92000: @sourced\/unplugin: cannot analyse \S*tsconfig\.json with TypeScript 7: .*7\.9\.0/)]);
});
