import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertMatchesReferences, REFERENCES_DIR, relativeToCases } from "../../../fixtures/harness";
import { NODE_LINES, nodeBinary } from "../../../scripts/node-lines";
import { PACKAGE_DIR } from "./helpers.js";

/*
 * The seed's start-up check where no build ran: fixtures/startup, a server with compliant and
 * non-compliant tools, copied into a fresh project outside the workspace whose node_modules links
 * what its developer installs (the registry, zod; as development dependencies TypeScript, the
 * project layer, tsx), then run as its developer runs it — `node src/server.ts` on Node 22, 24 and 26,
 * tsx, `node --import tsx`, plain tsc's output — and listed by the SDK's own Client over stdio.
 * What it serves and warns is compared with what `sourced check` finds in the same project.
 */

const require = createRequire(__filename);
const ROOT = join(PACKAGE_DIR, "..", "..");
const FIXTURE = join(ROOT, "fixtures", "startup");
const SOURCED = join(ROOT, "packages", "cli", "bin", "sourced.js");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const TSX_CLI = require.resolve("tsx/cli");

const COMPLIANT = ["capital", "capital_of", "list_cities", "lookup_city", "population", "wrapped"];
const REFUSED = ["bound_city", "greet", "no_annotation", "typed_cities", "wrapped_loose"];

/** Two tools named `twice`: the registry refuses the second in its own words (the analysis only warns of it). Six lines. */
const REGISTERED_TWICE = [
  'export const first = registry.tool({ name: "twice" })(function first(): DataToolOutput {',
  '  return answer("first");',
  "});",
  'export const second = registry.tool({ name: "twice" })(function second(): DataToolOutput {',
  '  return answer("second");',
  "});",
];

const made: string[] = [];
afterAll(() => {
  for (const directory of made) rmSync(directory, { recursive: true, force: true });
});


type TypeScriptInstall = "typescript 6" | "typescript 7" | "none";

/** A copy of fixtures/startup in a fresh directory, its node_modules linked as a developer's install is. */
function serverProject(typescript: TypeScriptInstall = "typescript 6", { layer = true }: { layer?: boolean } = {}): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "sourced-startup-")));
  made.push(directory);
  cpSync(FIXTURE, directory, { recursive: true });
  const links: Record<string, string> = {
    "@sourced/registry": PACKAGE_DIR,
    zod: join(PACKAGE_DIR, "node_modules", "zod"),
    "@types/node": join(ROOT, "node_modules", "@types", "node"),
    tsx: join(PACKAGE_DIR, "node_modules", "tsx"),
  };
  if (layer) links["@sourced/project"] = join(ROOT, "packages", "project");
  if (typescript === "typescript 6") links["typescript"] = join(ROOT, "node_modules", "typescript");
  if (typescript === "typescript 7") links["typescript"] = join(ROOT, "fixtures", "ts7", "node_modules", "typescript");
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(dirname(join(directory, "node_modules", name)), { recursive: true });
    symlinkSync(realpathSync(target), join(directory, "node_modules", name), "dir");
  }
  if (typescript === "typescript 7") {
    // The project's `tsc` is TypeScript 7, so the check (as `sourced check`) runs the native backend.
    mkdirSync(join(directory, "node_modules", ".bin"));
    symlinkSync(join(directory, "node_modules", "typescript", "bin", "tsc"), join(directory, "node_modules", ".bin", "tsc"));
  }
  return directory;
}

interface Served {
  readonly tools: string[];
  /** The registry's warnings, `[sourced] warning: ` taken off. */
  readonly warnings: string[];
  readonly stderr: string;
}

/** Starts the server as `command args` in `directory`, lists its tools with the SDK's Client over stdio, calls one, and stops it. */
async function serve(directory: string, command: string, args: readonly string[], env: Record<string, string> = {}, { legacy = false } = {}): Promise<Served> {
  const childEnv = { ...cleanEnv(), ...env };
  const chunks: string[] = [];
  let tools: string[];
  if (legacy) {
    const transport = new LegacyStdioClientTransport({ command, args: [...args], cwd: directory, env: childEnv, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
    const ended = new Promise((resolve) => transport.stderr?.on("end", resolve));
    const client = new LegacyClient({ name: "startup-test", version: "1.0.0" });
    await client.connect(transport);
    tools = (await client.listTools()).tools.map((tool) => tool.name);
    await client.close();
    await ended;
  } else {
    const transport = new StdioClientTransport({ command, args: [...args], cwd: directory, env: childEnv, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
    const ended = new Promise((resolve) => transport.stderr?.on("end", resolve));
    const client = new Client({ name: "startup-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(transport);
    tools = (await client.listTools()).tools.map((tool) => tool.name);
    if (tools.includes("list_cities")) {
      const result = await client.callTool({ name: "list_cities" });
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual({ sources: ["https://example.org/cities"] });
    }
    // A refused tool is not there to call.
    if (!tools.includes("greet")) await expect(client.callTool({ name: "greet" })).rejects.toThrow(/Tool greet not found/);
    await client.close();
    await ended;
  }
  const stderr = chunks.join("");
  const warnings = stderr
    .split("\n")
    .filter((line) => line.startsWith("[sourced] warning: "))
    .map((line) => line.slice("[sourced] warning: ".length));
  return { tools: tools.sort(), warnings: warnings.sort(), stderr };
}

/**
 * The environment a developer's shell gives the server: no test runner's loader hooks, and no
 * NODE_PATH (pnpm points it at the workspace's packages, which would resolve what the project
 * did not install).
 */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== "NODE_OPTIONS" && key !== "NODE_PATH" && !key.startsWith("VITEST")) env[key] = value;
  }
  return env;
}

interface CheckFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly tool: string;
  readonly message: string;
}

/** What `sourced check` reports on the project, as the refusal each finding of a served tool becomes: the build's message at the build's place. */
function refusals(directory: string, tools: readonly string[]): string[] {
  const run = spawnSync(process.execPath, [SOURCED, "check", "--format", "json"], { cwd: directory, encoding: "utf8" });
  const findings = JSON.parse(run.stdout) as CheckFinding[];
  return findings
    .filter((finding) => tools.includes(finding.tool))
    .map((finding) => `tool "${finding.tool}" (${finding.file}:${finding.line}:${finding.column}) was not registered: ${finding.message}`)
    .sort();
}

/** The one record the check keeps for the project's tsconfig. */
function recordOf(directory: string, config = "tsconfig.json"): { file: string; record: { config: string; stamp: string; analysis?: unknown } } {
  const cache = join(directory, "node_modules", ".cache", "sourced");
  for (const name of readdirSync(cache)) {
    const record = JSON.parse(readFileSync(join(cache, name), "utf8")) as { config: string; stamp: string; analysis?: unknown };
    if (record.config === join(directory, config)) return { file: join(cache, name), record };
  }
  throw new Error(`no record for ${config} in ${cache}`);
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, "utf8");
  expect(text, `${file} holds ${from}`).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

/**
 * fixtures/startup-workspace in a fresh directory: a server package that registers through the
 * `makeTool(options, handler)` of a helper package beside it, linked as a workspace links it.
 */
function workspaceProject(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "sourced-workspace-")));
  made.push(directory);
  cpSync(join(ROOT, "fixtures", "startup-workspace"), directory, { recursive: true });
  const links: Record<string, string> = {
    "@sourced/registry": PACKAGE_DIR,
    "@sourced/project": join(ROOT, "packages", "project"),
    "@ws/helpers": join(directory, "helpers"),
    zod: join(PACKAGE_DIR, "node_modules", "zod"),
    "@types/node": join(ROOT, "node_modules", "@types", "node"),
    tsx: join(PACKAGE_DIR, "node_modules", "tsx"),
    typescript: join(ROOT, "node_modules", "typescript"),
  };
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(dirname(join(directory, "node_modules", name)), { recursive: true });
    symlinkSync(realpathSync(target), join(directory, "node_modules", name), "dir");
  }
  return directory;
}

describe("a registration in another package's helper, run from source: tsx refuses what Node's type stripping refuses", () => {
  let server: string;
  /** What `sourced check` reports in the helper's package, as the refusal of each tool registered through it. */
  let expected: string[];
  beforeAll(() => {
    const workspace = workspaceProject();
    server = join(workspace, "server");
    const run = spawnSync(process.execPath, [SOURCED, "check", "--format", "json"], { cwd: join(workspace, "helpers"), encoding: "utf8" });
    const findings = JSON.parse(run.stdout) as CheckFinding[];
    expect(findings.map((finding) => `${finding.file}:${finding.line}`)).toEqual(["src/define.ts:9"]);
    expected = ["cities", "lakes"].map((tool) => `tool "${tool}" (../helpers/${findings[0]!.file}:${findings[0]!.line}:${findings[0]!.column}) was not registered: ${findings[0]!.message}`);
  });
  // The helper registers whatever each caller passes: refused at its own line, for both tools, with the build's finding.
  const refusedInHelper = (warnings: readonly string[]): void => {
    expect(warnings).toEqual(expected);
    expect(warnings[0]).toContain("Each caller of 'makeTool' decides what 'handler' registers");
  };

  test("node src/server.ts (type stripping keeps positions)", async () => {
    const run = await serve(server, process.execPath, ["src/server.ts"]);
    expect(run.tools, run.stderr).toEqual([]);
    refusedInHelper(run.warnings);
  });

  test("tsx src/server.ts, whose one-line output a library's own stack formatting leaves unmapped (define.ts:1:…): mapped through the source map tsx gave Node", async () => {
    const run = await serve(server, process.execPath, [TSX_CLI, "src/server.ts"]);
    expect(run.stderr).not.toContain("served unchecked");
    expect(run.tools, run.stderr).toEqual([]);
    refusedInHelper(run.warnings);
  });

  test("node --import tsx src/server.ts", async () => {
    const run = await serve(server, process.execPath, ["--import", "tsx", "src/server.ts"]);
    expect(run.tools, run.stderr).toEqual([]);
    refusedInHelper(run.warnings);
  });
});

describe("the project-references case (fixtures/transformer/references), run from its sources", () => {
  // tspc -b reads lib through its emitted .d.ts; the start-up check judges lib's source, as every
  // build-time front-end does. tsx only: the app imports lib's sources as `.js`, which Node's type
  // stripping does not map to `.ts`, and its tsc -b output imports a path only the sources have.
  test("tsx app/src/server.ts: serves exactly the compliant tool, refuses the rest with sourced check's findings, as the case expects", async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), "sourced-references-")));
    made.push(project);
    cpSync(REFERENCES_DIR, project, { recursive: true, filter: (source) => !/(^|\/)out$/.test(source) });
    const links: Record<string, string> = {
      "@sourced/registry": PACKAGE_DIR,
      "@sourced/project": join(ROOT, "packages", "project"),
      typescript: join(ROOT, "node_modules", "typescript"),
    };
    for (const [name, target] of Object.entries(links)) {
      mkdirSync(dirname(join(project, "node_modules", name)), { recursive: true });
      symlinkSync(realpathSync(target), join(project, "node_modules", name), "dir");
    }
    const check = spawnSync(process.execPath, [SOURCED, "check", "--format", "json"], { cwd: project, encoding: "utf8" });
    const findings = JSON.parse(check.stdout) as Array<CheckFinding & { readonly id: string }>;
    assertMatchesReferences(findings.map((finding) => ({ ...finding, file: relativeToCases(join(REFERENCES_DIR, finding.file)) })));
    const run = await serve(project, process.execPath, [TSX_CLI, "app/src/server.ts"]);
    expect(run.tools, run.stderr).toEqual(["forecast"]);
    expect(run.warnings, run.stderr).toEqual(findings.map((finding) => `tool "${finding.tool}" (${finding.file}:${finding.line}:${finding.column}) was not registered: ${finding.message}`).sort());
  });
});

describe("run from source, a server serves exactly its compliant tools and warns once for each other, at the build's file:line:col", () => {
  let project: string;
  let expected: string[];
  let expectedWithDecorators: string[];

  beforeAll(() => {
    project = serverProject();
    expected = refusals(project, REFUSED);
    expectedWithDecorators = refusals(project, [...REFUSED, "temperature", "humidity", "pressure", "visibility"]);
    expect(expected).toHaveLength(5);
    expect(expectedWithDecorators).toHaveLength(9);
    // A tool with output is told the annotation that fits it (DataToolOutput alone would not).
    expect(expected.find((warning) => warning.startsWith('tool "typed_cities"'))).toContain("write ': DataResult<{ cities: string[]; }>' after the parameter list");
  });

  for (const line of NODE_LINES) {
    test(`node src/server.ts on Node ${line} (type stripping)`, async () => {
      const run = await serve(project, nodeBinary(line).path, ["src/server.ts"]);
      expect(run.tools).toEqual(COMPLIANT);
      expect(run.warnings, run.stderr).toEqual(expected);
    });
  }

  test("tsx src/server-decorators.ts: decorators too (with type arguments too), positions mapped through tsx's source maps; an instance method refused, not thrown", async () => {
    const run = await serve(project, process.execPath, [TSX_CLI, "src/server-decorators.ts"]);
    expect(run.tools).toEqual([...COMPLIANT, "forecast", "wind"].sort());
    expect(run.warnings, run.stderr).toEqual(expectedWithDecorators);
  });

  test("node --import tsx src/server-decorators.ts", async () => {
    const run = await serve(project, process.execPath, ["--import", "tsx", "src/server-decorators.ts"]);
    expect(run.tools).toEqual([...COMPLIANT, "forecast", "wind"].sort());
    expect(run.warnings, run.stderr).toEqual(expectedWithDecorators);
  });

  test("with requireVerified, the check's verdict counts as verified: exactly the compliant tools", async () => {
    const run = await serve(project, process.execPath, ["src/server.ts"], { SERVER_REQUIRE_VERIFIED: "1" });
    expect(run.tools).toEqual(COMPLIANT);
    expect(run.warnings, run.stderr).toEqual(expected);
  });

  test("the 2025-era v1 Client lists the same tools", async () => {
    const run = await serve(project, process.execPath, ["src/server.ts"], {}, { legacy: true });
    expect(run.tools).toEqual(COMPLIANT);
    expect(run.warnings, run.stderr).toEqual(expected);
  });

  test("a registration in a file the tsconfig does not include: one warning saying so; served unchecked, or refused under requireVerified", async () => {
    const unchecked = await serve(project, process.execPath, ["scripts/extra.ts"]);
    expect(unchecked.tools).toEqual(["extra"]);
    expect(unchecked.warnings).toEqual([
      expect.stringMatching(
        /^the start-up check could not judge tool "extra" \(\/.*\/scripts\/extra\.ts:6:16\): no tsconfig includes scripts\/extra\.ts \(looked in tsconfig\.json\)\. Served unchecked \(the net still checks every result\)\. Or build with @sourced\/transformer /,
      ),
    ]);
    const required = await serve(project, process.execPath, ["scripts/extra.ts"], { SERVER_REQUIRE_VERIFIED: "1" });
    expect(required.tools).toEqual([]);
    expect(required.warnings).toEqual([expect.stringMatching(/^the start-up check could not judge tool "extra" .*: no tsconfig includes scripts\/extra\.ts .*\. Not registered: the check is required\./)]);
  });

  // A registration the analysis cannot see is blamed on the last place before it where a registry
  // escapes; a finding of another kind between the two (a name registered twice) is no such place.
  test("a registration the analysis cannot see is blamed on the registry that escaped before it, not on a name registered twice in between, which keeps its own refusal", async () => {
    const project = serverProject();
    const source = writeApplied(project, [
      'import type { DataToolOutput } from "@sourced/registry";',
      'import { answer } from "./answer.ts";',
      'import { registry } from "./registry.ts";',
      "",
      "// The registry's type is lost here: what is registered after it may go through it.",
      "export const untyped: any = registry;",
      ...REGISTERED_TWICE,
      "// Through the untyped registry: the analysis sees no registration here.",
      "export const applied = untyped.tool()(function applied(): DataToolOutput {",
      '  return answer("applied");',
      "});",
      "",
    ]);
    const twice = `tool "twice" was not registered: tool "twice" is registered twice: first by function first at ${source}:7:54, then by function second at ${source}:10:55. Give one of them another name with { name: "…" }.`;
    const cause = "it is registered through a registry value the analysis cannot follow, probably the one at src/applied.ts:6:29 (A registry (of type 'Registry') becomes 'any' here: ";
    for (const [env, tools, outcome] of [
      [{}, ["applied", "twice"], "is served unchecked"],
      [{ SERVER_REQUIRE_VERIFIED: "1" }, ["twice"], "was not registered"],
    ] as const) {
      const run = await serve(project, process.execPath, ["src/applied-server.ts"], env);
      expect(run.tools, run.stderr).toEqual(tools);
      expect(run.warnings, run.stderr).toHaveLength(2);
      expect(run.warnings[0]!.startsWith(`tool "applied" (${source}:14:38) ${outcome}: the start-up check cannot verify it: ${cause}`), run.warnings[0]).toBe(true);
      expect(run.warnings[1]).toBe(twice);
    }
  }, 120_000);

  // V8 places the frame of a decorator applied by Reflect.apply at `apply`, before the decorator
  // passed to it: the reason names that escape, which the analysis reports, not "no registration".
  test("a decorator applied through Reflect.apply is blamed on its own escape, though its frame lies before it: served unchecked, or refused under requireVerified", async () => {
    const project = serverProject();
    const source = writeApplied(project, [
      'import type { DataToolOutput } from "@sourced/registry";',
      'import { answer } from "./answer.ts";',
      'import { registry } from "./registry.ts";',
      "",
      "// The decorator is passed as an argument: the analysis cannot see which function it registers.",
      "export const applied = Reflect.apply(registry.tool(), undefined, [",
      "  function applied(): DataToolOutput {",
      '    return answer("applied");',
      "  },",
      "]);",
      "",
    ]);
    const cause = "it is registered through a tool decorator the analysis cannot follow (src/applied.ts:6:38: A tool decorator (of type ";
    for (const [env, tools, outcome] of [
      [{}, ["applied"], "is served unchecked"],
      [{ SERVER_REQUIRE_VERIFIED: "1" }, [], "was not registered"],
    ] as const) {
      const run = await serve(project, process.execPath, ["src/applied-server.ts"], env);
      expect(run.tools, run.stderr).toEqual(tools);
      expect(run.warnings, run.stderr).toHaveLength(1);
      expect(run.warnings[0]!.startsWith(`tool "applied" (${source}:6:32) ${outcome}: the start-up check cannot verify it: ${cause}`), run.warnings[0]).toBe(true);
      expect(run.warnings[0]).toContain(") is passed as an argument here, so the analysis cannot see which function it registers.");
    }
  }, 120_000);
});

describe("the verdicts are cached in node_modules/.cache/sourced/", () => {
  test("a restart with unchanged sources reuses them; an edit in a tool file, in a file it imports, or in the tsconfig judges again", async () => {
    const project = serverProject();
    const node = process.execPath;
    const first = await serve(project, node, ["src/server.ts"]);
    expect(first.tools).toEqual(COMPLIANT);
    const { file, record } = recordOf(project);
    expect(record.analysis).toBeDefined();
    const written = statSync(file);

    // Unchanged: answered from the record, which is not written again.
    const second = await serve(project, node, ["src/server.ts"]);
    expect(second).toEqual(first);
    expect(statSync(file).ino).toBe(written.ino);

    // The tool file: greet now declares DataToolOutput.
    edit(join(project, "src/tools.ts"), 'function greet(): string {\n  return "Hello!";', 'function greet(): DataToolOutput {\n  return answer("Hello!");');
    const fixed = await serve(project, node, ["src/server.ts"]);
    expect(fixed.tools).toEqual([...COMPLIANT, "greet"].sort());
    expect(fixed.warnings).toEqual(refusals(project, REFUSED));
    expect(statSync(file).ino).not.toBe(written.ino);

    // A file the tool file imports: `Answer`, capital's annotation, is no longer DataToolOutput.
    edit(join(project, "src/answer.ts"), "export type Answer = DataToolOutput;", "export type Answer = string;");
    const broken = await serve(project, node, ["src/server.ts"]);
    expect(broken.tools).toEqual(["capital_of", "greet", "list_cities", "lookup_city", "population", "wrapped"]);
    expect(broken.warnings).toEqual(refusals(project, [...REFUSED, "capital"]));
    expect(broken.warnings.some((warning) => warning.startsWith('tool "capital" (src/tools.ts:'))).toBe(true);

    // The tsconfig: judged again (same verdicts), the record rewritten.
    const before = statSync(file).ino;
    edit(join(project, "tsconfig.json"), '"strict": true,', '"strict": true,\n    "noUnusedLocals": false,');
    const reconfigured = await serve(project, node, ["src/server.ts"]);
    expect(reconfigured).toEqual(broken);
    expect(statSync(file).ino).not.toBe(before);
  }, 600_000);
});

describe("every way a project can be set up", () => {
  test("a TypeScript-7-only project: judged on TypeScript 7's own checker (the native backend), with the same verdicts", async () => {
    const project = serverProject("typescript 7");
    const run = await serve(project, process.execPath, ["src/server.ts"]);
    expect(run.tools).toEqual(COMPLIANT);
    expect(run.warnings, run.stderr).toEqual(refusals(project, REFUSED));
    expect(recordOf(project).record.stamp).toMatch(/\|native:7\.0\.2:/);
  });

  test("a solution-style tsconfig.json whose reference holds the sources: found through the reference", async () => {
    const project = serverProject();
    cpSync(join(project, "tsconfig.json"), join(project, "tsconfig.app.json"));
    edit(join(project, "tsconfig.app.json"), '"strict": true,', '"strict": true,\n    "composite": true,');
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ files: [], references: [{ path: "./tsconfig.app.json" }] }, null, 2));
    const run = await serve(project, process.execPath, ["src/server.ts"]);
    expect(run.tools).toEqual(COMPLIANT);
    expect(run.warnings, run.stderr).toEqual(refusals(project, REFUSED).map((warning) => warning));
    expect(recordOf(project, "tsconfig.app.json").record.analysis).toBeDefined();
    expect(recordOf(project, "tsconfig.json").record.analysis).toBeUndefined();
    // A restart finds it through the records alone.
    expect(await serve(project, process.execPath, ["src/server.ts"])).toEqual(run);
  });

  test('without @sourced/project and TypeScript: one warning saying what to install and the ways out; served unchecked, or refused with startupCheck: "require"', async () => {
    const project = serverProject("none", { layer: false });
    const run = await serve(project, process.execPath, ["src/server.ts"]);
    expect(run.tools).toEqual([...COMPLIANT, ...REFUSED].sort());
    expect(run.warnings).toEqual([
      expect.stringMatching(
        /^the start-up check could not judge 11 tools: "list_cities" \(\/.*\/src\/tools\.ts:8:\d+\), .* and 6 more: @sourced\/project, which runs it, is not installed\. Served unchecked \(the net still checks every result\)\. To check them: install @sourced\/project beside the server as a development dependency \('npm install --save-dev @sourced\/project'\), with the TypeScript the project builds with \(5\.0 to 6\.0, or 7\), .*; or build with @sourced\/transformer \(tspc\) or `sourced build` \(plain tsc\), or bundle with @sourced\/unplugin, .*; or turn the start-up check off with createRegistry\(\{ startupCheck: false \}\)\.$/,
      ),
    ]);
    const required = await serve(project, process.execPath, ["src/server.ts"], { SERVER_STARTUP_CHECK: "require" });
    expect(required.tools).toEqual([]);
    expect(required.warnings).toEqual([expect.stringMatching(/is not installed\. Not registered: the check is required\./)]);
    const off = await serve(project, process.execPath, ["src/server.ts"], { SERVER_STARTUP_CHECK: "false" });
    expect(off).toEqual({ ...run, warnings: [], stderr: "" });
  });
});

describe("plain tsc's output, traced back to its sources through the tsconfig that emitted it", () => {
  const TSC7 = join(ROOT, "fixtures", "ts7", "node_modules", "typescript", "bin", "tsc");
  for (const [typescript, version, tsc] of [["typescript 6", "6.0.3", TSC], ["typescript 7", "7.0.2", TSC7]] as const) {
    for (const sourceMap of [true, false]) {
      test(`TypeScript ${version}'s tsc, ${sourceMap ? "with" : "without"} source maps: node dist/server.js serves exactly the compliant tools and warns as sourced check does; with requireVerified too`, async () => {
        const project = serverProject(typescript);
        execFileSync(process.execPath, [tsc, "-p", ".", "--sourceMap", String(sourceMap)], { cwd: project });
        expect(readdirSync(join(project, "dist")).some((name) => name.endsWith(".map"))).toBe(sourceMap);
        const expected = refusals(project, REFUSED);
        expect(expected).toHaveLength(5);
        const run = await serve(project, process.execPath, ["dist/server.js"]);
        expect(run.tools).toEqual(COMPLIANT);
        expect(run.warnings, run.stderr).toEqual(expected);
        if (typescript === "typescript 7") expect(recordOf(project).record.stamp).toMatch(/\|native:7\.0\.2:/);
        // A restart answers from the record, traced output included.
        const required = await serve(project, process.execPath, ["dist/server.js"], { SERVER_REQUIRE_VERIFIED: "1" });
        expect(required.tools).toEqual(COMPLIANT);
        expect(required.warnings, required.stderr).toEqual(expected);
      }, 120_000);
    }
  }

  // A tool the check cannot verify is named where the check traced its frame in the sources: the
  // place to edit, as a run from source names it, not the JavaScript that ran.
  for (const [typescript, version, tsc] of [["typescript 6", "6.0.3", TSC], ["typescript 7", "7.0.2", TSC7]] as const) {
    test(`TypeScript ${version}'s tsc without source maps: a tool registered through an untyped registry, served unchecked or refused under requireVerified, is named at its source, as node src/… names it`, async () => {
      const project = serverProject(typescript);
      writeFileSync(
        join(project, "src", "loose.ts"),
        [
          'import type { DataToolOutput } from "@sourced/registry";',
          'import { answer } from "./answer.ts";',
          'import { registry } from "./registry.ts";',
          "",
          "// The registry's type is lost: what is registered through it is never judged.",
          "const untyped: any = registry;",
          'export const viaAny = untyped.tool()(function via_any(): DataToolOutput {\n  return answer("through any");\n});',
          "",
        ].join("\n"),
      );
      writeFileSync(join(project, "src", "loose-server.ts"), 'import { registry } from "./registry.ts";\nimport "./loose.ts";\n\nvoid registry.serveStdio();\n');
      execFileSync(process.execPath, [tsc, "-p", ".", "--sourceMap", "false"], { cwd: project });
      for (const [env, tools, outcome] of [
        [{}, ["via_any"], "is served unchecked"],
        [{ SERVER_REQUIRE_VERIFIED: "1" }, [], "was not registered"],
      ] as const) {
        const fromSource = await serve(project, process.execPath, ["src/loose-server.ts"], env);
        const run = await serve(project, process.execPath, ["dist/loose-server.js"], env);
        expect(run.tools).toEqual(tools);
        expect(run.warnings, run.stderr).toEqual(fromSource.warnings);
        expect(run.warnings).toEqual([expect.stringMatching(new RegExp(`^tool "via_any" \\(${join(project, "src", "loose.ts")}:7:37\\) ${outcome}: the start-up check cannot verify it: `))]);
      }
    }, 120_000);
  }

  // A registration the registry refuses in its own words (the analysis refuses neither: it only
  // warns of the name registered twice) is named where the check traced its site in the sources,
  // as the analysis' refusals are; where the check cannot trace it (the sources changed after the
  // build), at the JavaScript that ran.
  for (const [typescript, version, tsc] of [["typescript 6", "6.0.3", TSC], ["typescript 7", "7.0.2", TSC7]] as const) {
    test(`TypeScript ${version}'s tsc without source maps: an anonymous function and a name registered twice are named at their sources, as node src/… names them; at dist/… once the sources changed`, async () => {
      const project = serverProject(typescript);
      const source = join(project, "src", "unnamed.ts");
      writeFileSync(
        source,
        [
          'import type { DataToolOutput } from "@sourced/registry";',
          'import { answer } from "./answer.ts";',
          'import { registry } from "./registry.ts";',
          "",
          "// Registrations the analysis does not refuse, which the registry refuses in its own words.",
          "export const unnamed = registry.tool()(function (): DataToolOutput {",
          '  return answer("anonymous");',
          "});",
          ...REGISTERED_TWICE,
          "",
        ].join("\n"),
      );
      writeFileSync(join(project, "src", "unnamed-server.ts"), 'import { registry } from "./registry.ts";\nimport "./unnamed.ts";\n\nvoid registry.serveStdio();\n');
      execFileSync(process.execPath, [tsc, "-p", ".", "--sourceMap", "false"], { cwd: project });
      const fromSource = await serve(project, process.execPath, ["src/unnamed-server.ts"]);
      const run = await serve(project, process.execPath, ["dist/unnamed-server.js"]);
      expect(run.tools).toEqual(["twice"]);
      expect(run.warnings, run.stderr).toEqual(fromSource.warnings);
      expect(run.warnings).toEqual([
        expect.stringMatching(new RegExp(`^tool "\\(anonymous\\)" was not registered: registry\\.tool\\(\\) at ${source}:6:39 cannot name the tool: the function is anonymous\\. `)),
        `tool "twice" was not registered: tool "twice" is registered twice: first by function first at ${source}:9:54, then by function second at ${source}:12:55. Give one of them another name with { name: "…" }.`,
      ]);

      // Edited after the build: the check does not trace the running code to sources it did not come from.
      edit(source, "// Registrations", "// Edited after the build.\n// Registrations");
      const stale = await serve(project, process.execPath, ["dist/unnamed-server.js"]);
      const output = join(project, "dist", "unnamed.js");
      const refusals = stale.warnings.filter((warning) => warning.startsWith('tool "'));
      expect(refusals, stale.stderr).toEqual([
        expect.stringMatching(new RegExp(`^tool "\\(anonymous\\)" was not registered: registry\\.tool\\(\\) at ${output}:\\d+:\\d+ cannot name the tool`)),
        expect.stringMatching(new RegExp(`^tool "twice" was not registered: tool "twice" is registered twice: first by function first at ${output}:\\d+:\\d+, then by function second at ${output}:\\d+:\\d+\\. `)),
      ]);
      expect(stale.stderr).not.toContain(source);
    }, 120_000);
  }

  // A registration the analysis does not find at the frame judged is said to be missing there, and
  // where the frame that ran was, in the words of what led from it to the source: a source map only
  // when the running file names one, not plain tsc's output traced through the check's own emit,
  // nor a loader's position traced through the map it gave Node (each is a real frame here, asked
  // of the layer directly: no registration the analysis misses is known to make one).
  for (const [typescript, version, tsc] of [["typescript 6", "6.0.3", TSC], ["typescript 7", "7.0.2", TSC7]] as const) {
    test(`TypeScript ${version}'s tsc: "finds no registration at" names the emit the check made again for output without source maps, the source map for output with one that holds its sources`, async () => {
      const project = serverProject(typescript);
      const { checkRegistrations } = require(join(ROOT, "packages", "project", "dist", "startup", "index.js")) as typeof import("@sourced/project/startup");
      const output = join(project, "dist", "answer.js");
      /** The verdict on a frame at `return {` of answer(), which registers nothing. */
      const verdictInAnswer = async (): Promise<{ readonly verdict: unknown; readonly at: string }> => {
        const lines = readFileSync(output, "utf8").split("\n");
        const line = lines.findIndex((text) => text.includes("return {"));
        const frame = { file: output, line: line + 1, column: lines[line]!.indexOf("return {") + 1 };
        const [verdict] = (await checkRegistrations([{ tool: "answer", frames: [frame] }], { cwd: project, cache: false })).verdicts;
        return { verdict, at: `dist/answer.js:${frame.line}:${frame.column}` };
      };
      const traced = { file: join(project, "src", "answer.ts"), line: 7, column: 3 };

      execFileSync(process.execPath, [tsc, "-p", ".", "--sourceMap", "false"], { cwd: project });
      const emitted = await verdictInAnswer();
      expect(emitted.verdict).toEqual({ kind: "unverified", reason: `the analysis of tsconfig.json finds no registration at src/answer.ts:7:3 (${emitted.at} through the check's own emit of it)`, source: traced });

      // A map that holds its sources' text is read, not the emit made again.
      execFileSync(process.execPath, [tsc, "-p", ".", "--sourceMap", "true", "--inlineSources", "true"], { cwd: project });
      const mapped = await verdictInAnswer();
      expect(mapped.verdict).toEqual({ kind: "unverified", reason: `the analysis of tsconfig.json finds no registration at src/answer.ts:7:3 (${mapped.at} through its source map)`, source: traced });
    }, 120_000);
  }

  test('tsx, a position a library\'s own stack formatting leaves unmapped: "finds no registration at" names the loader\'s transpile, not a source map', () => {
    const project = serverProject();
    writeFileSync(
      join(project, "src", "probe.ts"),
      [
        'import { fileURLToPath } from "node:url";',
        'import { checkRegistrations } from "@sourced/project/startup";',
        "",
        "// This call's frame as V8 holds it, in tsx's transpile, as a library's own Error.prepareStackTrace sees it.",
        "function rawFrame(): { file: string; line: number; column: number } {",
        "  const saved = Error.prepareStackTrace;",
        "  Error.prepareStackTrace = (_error, sites) => sites;",
        "  const [site] = new Error().stack as unknown as NodeJS.CallSite[];",
        "  Error.prepareStackTrace = saved;",
        "  return { file: fileURLToPath(site!.getFileName()!), line: site!.getLineNumber()!, column: site!.getColumnNumber()! };",
        "}",
        "",
        "const frame = rawFrame();",
        'const outcome = await checkRegistrations([{ tool: "probe", frames: [frame] }], { cache: false });',
        "process.stdout.write(JSON.stringify({ frame, verdicts: outcome.verdicts }));",
        "",
      ].join("\n"),
    );
    const { frame, verdicts } = JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "src/probe.ts"], { cwd: project, encoding: "utf8", env: cleanEnv() })) as { frame: { line: number; column: number }; verdicts: unknown[] };
    // tsx's transpile is one line: the position is not one of the source's.
    expect(frame.line).toBe(1);
    expect(verdicts).toEqual([
      {
        kind: "unverified",
        reason: `the analysis of tsconfig.json finds no registration at src/probe.ts:8:18 (src/probe.ts:1:${frame.column} in the loader's transpile of it)`,
        source: { file: join(project, "src", "probe.ts"), line: 8, column: 18 },
      },
    ]);
  });

  test("one emit traces every file the build wrote: a registry in another output file answers from the record, as a fresh check does", async () => {
    const project = serverProject();
    execFileSync(process.execPath, [TSC, "-p", ".", "--sourceMap", "false"], { cwd: project });
    const { checkRegistrations } = require(join(ROOT, "packages", "project", "dist", "startup", "index.js")) as typeof import("@sourced/project/startup");
    // Each `registry.tool(` of an output file, as the registry's stack would name it.
    const sites = (file: string) =>
      readFileSync(join(project, "dist", file), "utf8")
        .split("\n")
        .flatMap((text, index) => (text.includes("registry.tool(") ? [{ tool: `${file}:${index + 1}`, frames: [{ file: join(project, "dist", file), line: index + 1, column: text.indexOf("registry.tool(") + 1 }] }] : []));
    const [tools, platform] = [sites("tools.js"), sites("platform.js")];
    expect(tools.length).toBeGreaterThan(3);
    expect(platform.length).toBeGreaterThan(0);
    const fresh = await checkRegistrations([...tools, ...platform], { cwd: project, cache: false });
    expect(fresh.source).toBe("analysis");
    expect(fresh.verdicts.map((verdict) => verdict.kind)).toEqual(expect.arrayContaining(["verified", "refused"]));
    const first = await checkRegistrations(tools, { cwd: project });
    expect(first.source).toBe("analysis");
    expect(first.verdicts).toEqual(fresh.verdicts.slice(0, tools.length));
    // Before, only the files asked about were traced, and each other output file emitted the project again.
    const second = await checkRegistrations(platform, { cwd: project });
    expect(second.source).toBe("cache");
    expect(second.verdicts).toEqual(fresh.verdicts.slice(tools.length));
  });

  test("sources changed after the build are not judged for the running code: one warning saying why, served unchecked or refused under requireVerified; a rebuild judges again", async () => {
    const project = serverProject();
    execFileSync(process.execPath, [TSC, "-p", ".", "--sourceMap", "false"], { cwd: project });
    // greet is fixed in the sources only: the running JavaScript still registers the old greet.
    edit(join(project, "src/tools.ts"), 'function greet(): string {\n  return "Hello!";', 'function greet(): DataToolOutput {\n  return answer("Hello!");');
    const stale = await serve(project, process.execPath, ["dist/server.js"]);
    // results.js is still what its source emits: judged as ever (bound_city and typed_cities refused).
    expect(stale.tools).toEqual([...COMPLIANT, ...REFUSED].filter((tool) => tool !== "bound_city" && tool !== "typed_cities").sort());
    expect(stale.warnings).toEqual([
      expect.stringMatching(
        /^the start-up check could not judge 7 tools: .*: dist\/tools\.js is not what tsconfig\.json emits from src\/tools\.ts now: the sources changed after the build \(or it was built with other options\), so they are not what runs; rebuild and restart\. Served unchecked \(the net still checks every result\)\. Or build with @sourced\/transformer/,
      ),
      ...refusals(project, ["bound_city", "typed_cities"]),
    ]);
    expect(stale.warnings[0]).not.toContain("npm install");
    const required = await serve(project, process.execPath, ["dist/server.js"], { SERVER_REQUIRE_VERIFIED: "1" });
    expect(required.tools).toEqual(["capital_of", "lookup_city"]);
    execFileSync(process.execPath, [TSC, "-p", ".", "--sourceMap", "false"], { cwd: project });
    const rebuilt = await serve(project, process.execPath, ["dist/server.js"]);
    expect(rebuilt.tools).toEqual([...COMPLIANT, "greet"].sort());
    expect(rebuilt.warnings).toEqual(refusals(project, REFUSED.filter((tool) => tool !== "greet")));
  }, 120_000);

  test("a production image of the output alone (no sources, no TypeScript, no project layer): one warning saying what to install; served unchecked", async () => {
    const project = serverProject("none", { layer: false });
    execFileSync(process.execPath, [TSC, "-p", "."], { cwd: project });
    rmSync(join(project, "src"), { recursive: true });
    const run = await serve(project, process.execPath, ["dist/server.js"]);
    expect(run.tools).toEqual([...COMPLIANT, ...REFUSED].sort());
    expect(run.warnings).toEqual([expect.stringMatching(/^the start-up check could not judge 11 tools: .*: @sourced\/project, which runs it, is not installed\. Served unchecked .* To check them: install @sourced\/project beside the server as a development dependency/)]);
  });
});

describe("Node's limits, said plainly", () => {
  test("a decorator under Node's type stripping: the SyntaxError gets a hint naming the file and the ways to run it", () => {
    const project = serverProject();
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "startup-cjs", private: true, type: "commonjs" }));
    writeFileSync(
      join(project, "src", "main.cts"),
      'const { createRegistry } = require("@sourced/registry");\ncreateRegistry({ name: "hint", version: "1.0.0" });\nrequire("./decorated.cts");\n',
    );
    writeFileSync(join(project, "src", "decorated.cts"), "class Weather {\n  @tool()\n  static forecast() {}\n}\nfunction tool() {\n  return (method: unknown) => method;\n}\nmodule.exports = { Weather };\n");
    const run = spawnSync(process.execPath, ["src/main.cts"], { cwd: project, encoding: "utf8", env: cleanEnv() });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `[sourced] hint: ${join(project, "src", "decorated.cts")}:2 is a decorator, which Node's type stripping does not parse (node src/server.ts). Run the server with tsx (tsx src/server.ts, or node --import tsx src/server.ts), build it (tspc, or a bundler with @sourced/unplugin), or register the tool in the call form: registry.tool()(function my_tool(): DataToolOutput {…}).`,
    );
    expect(run.stderr).toContain("SyntaxError: Invalid or unexpected token");
  });
});

/** Writes `src/applied.ts` of `project` with `lines`, and a server that imports it; the source's path. */
function writeApplied(project: string, lines: readonly string[]): string {
  const source = join(project, "src", "applied.ts");
  writeFileSync(source, lines.join("\n"));
  writeFileSync(join(project, "src", "applied-server.ts"), 'import { registry } from "./registry.ts";\nimport "./applied.ts";\n\nvoid registry.serveStdio();\n');
  return source;
}
