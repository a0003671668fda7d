import * as fs from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import * as path from "node:path";
import { FINDING_KINDS } from "@sourced/analysis";
import { beforeAll, describe, expect, test } from "vitest";
import { bundle, CITIES, listTools, refusedTools, SERVE_ENTRY, tspcBuild, writeCitiesServeEntry, type BuildReport, type BuildRequest, type Bundler } from "./support.js";

/*
 * The seed's example server (fixtures/projects/cities: list_cities and population comply,
 * forecast does not; its registry has requireVerified on) bundled by every bundler, each build
 * done once and shared by the tests below.
 */

const FORECAST = `src/tools/forecast.ts:9:24 SRC${FINDING_KINDS["not-data-tool-output"].code}`;
const COMPLIANT = ["list_cities", "population"];

const WITH_PLUGIN: Record<string, BuildRequest> = {
  "esbuild, CommonJS": { bundler: "esbuild", name: "esbuild-cjs", plugin: { severity: "warning" } },
  "esbuild, ES module": { bundler: "esbuild", name: "esbuild-esm", entry: SERVE_ENTRY, format: "esm", plugin: { severity: "warning" } },
  "esbuild, --minify": { bundler: "esbuild", name: "esbuild-min", minify: true, plugin: { severity: "warning" } },
  "Vite, library build": { bundler: "vite", name: "vite", plugin: { severity: "warning" } },
  Rollup: { bundler: "rollup", name: "rollup", plugin: { severity: "warning" } },
  Rolldown: { bundler: "rolldown", name: "rolldown", plugin: { severity: "warning" } },
  rspack: { bundler: "rspack", name: "rspack", entry: SERVE_ENTRY, plugin: { severity: "warning" } },
};

/** Bundled without the plugin from the transformer's output: what tspc pinned, stamped and stripped survives. */
const FROM_TSPC: Record<string, (tspcOut: string) => BuildRequest> = {
  "esbuild, CommonJS": (out) => ({ bundler: "esbuild", name: "tspc-esbuild", entry: path.join(out, "server.js"), plugin: false }),
  "esbuild, --minify": (out) => ({ bundler: "esbuild", name: "tspc-esbuild-min", entry: path.join(out, "server.js"), minify: true, plugin: false }),
  "Vite, library build": (out) => ({ bundler: "vite", name: "tspc-vite", entry: path.join(out, "server.js"), plugin: false }),
  // Rollup's CommonJS plugin gives each module a `module` of its own: `require.main === module` never holds.
  Rollup: (out) => ({ bundler: "rollup", name: "tspc-rollup", entry: writeCitiesServeEntry(out), commonjsInput: true, plugin: false }),
  Rolldown: (out) => ({ bundler: "rolldown", name: "tspc-rolldown", entry: path.join(out, "server.js"), plugin: false }),
  rspack: (out) => ({ bundler: "rspack", name: "tspc-rspack", entry: path.join(out, "server.js"), plugin: false }),
};

const BUNDLERS: readonly Bundler[] = ["esbuild", "vite", "rollup", "rolldown", "rspack"];

const built = new Map<string, BuildReport>();
const failing = new Map<Bundler, BuildReport>();
const fromTspc = new Map<string, BuildReport>();
let withoutPlugin: BuildReport;
let minifiedWithoutPlugin: BuildReport;

beforeAll(async () => {
  for (const [title, request] of Object.entries(WITH_PLUGIN)) built.set(title, await bundle(request));
  for (const bundler of BUNDLERS) {
    failing.set(bundler, await bundle({ bundler, name: `${bundler}-default`, entry: bundler === "rspack" ? SERVE_ENTRY : undefined, plugin: {} }));
  }
  const tspcOut = tspcBuild();
  for (const [title, request] of Object.entries(FROM_TSPC)) fromTspc.set(title, await bundle(request(tspcOut)));
  withoutPlugin = await bundle({ bundler: "esbuild", name: "esbuild-bare", plugin: false });
  minifiedWithoutPlugin = await bundle({ bundler: "esbuild", name: "esbuild-bare-min", minify: true, plugin: false });
}, 600_000);

describe.each(BUNDLERS)("%s with the plugin, default options", (bundler) => {
  test("the build fails with the non-compliant tool's finding at its source position", () => {
    const report = failing.get(bundler)!;
    expect([report.failed, report.errors], report.texts.join("\n")).toEqual([true, [FORECAST]]);
    expect(report.texts.join("\n")).toContain("Tool 'forecast' is declared to return 'CallToolResult', which is not DataToolOutput");
  });
});

describe.each(Object.keys(WITH_PLUGIN))("%s with the plugin", (title) => {
  test("reports the finding at its source position; the bundle serves exactly the compliant tools, verified, under their source names", async () => {
    const report = built.get(title)!;
    expect([report.failed, report.warnings], report.texts.join("\n")).toEqual([false, [FORECAST]]);
    const { tools, stderr } = await listTools(report.bundle);
    // requireVerified is on: a tool is served only with the plugin's stamp; forecast was stripped, so never even refused.
    expect([tools, refusedTools(stderr)], stderr).toEqual([COMPLIANT, []]);
  });
});

describe.each(Object.keys(FROM_TSPC))("%s without the plugin, from tspc output", (title) => {
  test("the names, stamps and strips of the transformer survive bundling", async () => {
    const report = fromTspc.get(title)!;
    expect(report.failed, report.texts.join("\n")).toBe(false);
    const { tools, stderr } = await listTools(report.bundle);
    expect([tools, refusedTools(stderr)], stderr).toEqual([COMPLIANT, []]);
  });
});

// Without the plugin nothing is stamped, but the bundle's source maps lead back to the sources
// (run with --enable-source-maps), so the registry's start-up check judges them as the plugin would.
test("without the plugin, the start-up check judges the bundle through its source maps: requireVerified serves the compliant tools and refuses forecast with the build's finding", async () => {
  const { tools, stderr } = await listTools(withoutPlugin.bundle);
  // esbuild renames two functions whose names collide; only the plugin pins the source's names.
  expect(tools).toEqual(["list_cities", "population2"]);
  expect(refusedTools(stderr)).toEqual([]);
  expect(stderr).toMatch(/tool "forecast2" \(\.\.\/\.\.\/src\/tools\/forecast\.ts:\d+:\d+\) was not registered: Tool 'forecast' is declared to return 'CallToolResult', which is not DataToolOutput/);
});

test("without the plugin, a minified bundle cannot name its tools: none is served, and each warning says why and what to do", async () => {
  const { tools, stderr } = await listTools(minifiedWithoutPlugin.bundle);
  expect(tools).toEqual([]);
  expect(stderr).toContain("cannot name the tool: the function is anonymous");
  expect(stderr).toContain("a minifier probably removed the name: build with @sourced/unplugin or @sourced/transformer");
});

describe.each(["esbuild, CommonJS", "Vite, library build", "Rollup", "Rolldown"])("%s: source maps", (title) => {
  test("the bundle maps the edited registration back to its line and column in the source", () => {
    const report = built.get(title)!;
    const code = fs.readFileSync(report.bundle, "utf8");
    const map = new SourceMap(JSON.parse(fs.readFileSync(`${report.bundle}.map`, "utf8")) as SourceMapPayload);
    // Bundlers rename it (population2) when names collide: the pinned name is what is served.
    const offset = code.search(/async function population\d*\(/);
    expect(offset).toBeGreaterThan(0);
    const line = code.slice(0, offset).split("\n").length - 1;
    const column = offset - (code.lastIndexOf("\n", offset - 1) + 1);
    const entry = map.findEntry(line, column) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    const source = fs.readFileSync(path.join(CITIES, "src/tools/population.ts"), "utf8").split("\n");
    const generated = "async function population(";
    const sourceLine = source.findIndex((text) => text.includes(generated));
    expect([path.basename(entry.originalSource ?? ""), entry.originalLine, entry.originalColumn]).toEqual([
      "population.ts",
      sourceLine,
      source[sourceLine]!.indexOf(generated),
    ]);
  });
});
