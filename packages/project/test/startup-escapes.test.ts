import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, describe, expect, it } from "vitest";
import { REGISTRY, REPO, removeTrees, tree, TYPESCRIPT_6 } from "./helpers";

/*
 * Which escape the start-up check blames for a registration the analysis never saw, as a server
 * run from its sources shows it: `node src/server.ts` with the registry's start-up check, this
 * package built, the real TypeScript 6.0.3, listed by the SDK's own Client over stdio.
 */

afterAll(removeTrees);

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: "es2022", module: "nodenext", strict: true, skipLibCheck: true, allowImportingTsExtensions: true, rewriteRelativeImportExtensions: true, noEmit: true },
  include: ["src"],
});

/** A project whose server imports `src/applied.ts` (`files` adds to it), with the installs a developer's would have. */
function project(files: Record<string, string>): string {
  return tree(
    {
      "tsconfig.json": TSCONFIG,
      "package.json": '{ "type": "module" }',
      "src/registry.ts": 'import { createRegistry } from "@sourced/registry";\n\nexport const registry = createRegistry({ name: "escapes", version: "1.0.0" });\n',
      "src/server.ts": 'import { registry } from "./registry.ts";\nimport "./applied.ts";\n\nvoid registry.serveStdio();\n',
      ...files,
    },
    { "node_modules/@sourced/registry": REGISTRY, "node_modules/@sourced/project": path.join(REPO, "packages/project"), "node_modules/typescript": TYPESCRIPT_6 },
  );
}

/** The tools the server lists, and the registry's warnings (`[sourced] warning: ` taken off), sorted. */
async function serve(directory: string): Promise<{ tools: string[]; warnings: string[]; stderr: string }> {
  // A developer's shell: no test runner's loader hooks, no NODE_PATH into the workspace.
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== "NODE_OPTIONS" && key !== "NODE_PATH" && !key.startsWith("VITEST")) env[key] = value;
  const transport = new StdioClientTransport({ command: process.execPath, args: ["src/server.ts"], cwd: directory, env, stderr: "pipe" });
  const chunks: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  const ended = new Promise((resolve) => transport.stderr?.on("end", resolve));
  const client = new Client({ name: "startup-escapes-test", version: "1.0.0" });
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  await client.close();
  await ended;
  const stderr = chunks.join("");
  const prefix = "[sourced] warning: ";
  return { tools, warnings: stderr.split("\n").filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length)).sort(), stderr };
}

/** `install(decorator, fn, then)`: plain JavaScript, which the check does not judge, applying the decorator and then running the callback. */
const APPLYING_INSTALL = {
  "src/install.js": "export function install(decorator, fn, then) {\n  decorator(fn);\n  then();\n}\n",
  "src/install.d.ts": "export declare function install(decorator: unknown, fn: unknown, then: () => void): void;\n",
};

/** Lines 1–7 of `src/applied.ts` beside it: an untyped registry at 6:29, so that what the tests write starts at line 8, where their positions say. */
const APPLIED_HEAD = [
  'import type { DataToolOutput } from "@sourced/registry";',
  'import { install } from "./install.js";',
  'import { registry } from "./registry.ts";',
  "",
  "// The registry's type is lost here: what is registered after it may go through it.",
  "export const untyped: any = registry;",
  "const answer = (text: string): DataToolOutput => ({ content: [{ type: 'text', text }] });",
];

describe("a registration inside a function passed in an escape's statement is not that escape's", () => {
  // The statement `install(registry.tool(), …)` holds the callback's body, but the body runs when
  // `install` calls it, not with the decorator: a tool the untyped registry registers there is
  // blamed on the untyped registry before it, not on the decorator passed alongside.
  // The decorator's own tool is named where the plain JavaScript applying it ran, and blamed on the
  // decorator through the frame at `install(` further out.
  it("the callback's tool names the untyped registry, probably; the decorator's own tool still names the decorator", async () => {
    const directory = project({
      ...APPLYING_INSTALL,
      "src/applied.ts": [
        ...APPLIED_HEAD,
        "install(registry.tool(), function outer(): DataToolOutput { return answer('outer'); }, () => {",
        "  untyped.tool()(function inner(): DataToolOutput {",
        "    return answer('inner');",
        "  });",
        "});",
        "",
      ].join("\n"),
    });
    const source = path.join(directory, "src", "applied.ts");
    const run = await serve(directory);
    expect(run.tools, run.stderr).toEqual(["inner", "outer"]);
    expect(run.warnings, run.stderr).toHaveLength(2);
    const [inner, outer] = run.warnings as [string, string];
    expect(inner, run.stderr).toMatch(
      new RegExp(
        `^tool "inner" \\(${escaped(source)}:9:17\\) is served unchecked: the start-up check cannot verify it: it is registered through a registry value the analysis cannot follow, probably the one at src/applied\\.ts:6:29 \\(A registry \\(of type 'Registry'\\) becomes 'any' here: `,
      ),
    );
    expect(outer, run.stderr).toMatch(outerBlamedOnItsDecorator(directory));

    // A restart answers from the record, which keeps the callback's body out of the escape and what escaped.
    expect(recordedEscapes(directory)).toEqual([
      ["registry", { start: [6, 1], end: [6, 38] }, undefined],
      [
        "decorator",
        { start: [8, 1], end: [12, 4] },
        [
          { start: [8, 59], end: [8, 86] },
          { start: [8, 94], end: [12, 2] },
        ],
      ],
    ]);
    const again = await serve(directory);
    expect(again.tools).toEqual(run.tools);
    expect(again.warnings).toEqual(run.warnings);
  }, 120_000);

  // With no escape before it, the one whose statement holds the callback is still the likeliest:
  // named as probable, no longer as the value the frame ran with.
  it("a callback's tool with only the decorator passed beside it names that decorator, probably", async () => {
    const directory = project({
      "src/install.js": "export function install(decorator, then) {\n  then(decorator);\n}\n",
      "src/install.d.ts": "export declare function install(decorator: unknown, then: (decorator: unknown) => void): void;\n",
      "src/applied.ts": [
        'import type { DataToolOutput } from "@sourced/registry";',
        'import { install } from "./install.js";',
        'import { registry } from "./registry.ts";',
        "",
        "const answer = (text: string): DataToolOutput => ({ content: [{ type: 'text', text }] });",
        "install(registry.tool(), (tool: any) => {",
        "  tool(function inner(): DataToolOutput {",
        "    return answer('inner');",
        "  });",
        "});",
        "",
      ].join("\n"),
    });
    const source = path.join(directory, "src", "applied.ts");
    const run = await serve(directory);
    expect(run.tools, run.stderr).toEqual(["inner"]);
    expect(run.warnings, run.stderr).toHaveLength(1);
    expect(run.warnings[0], run.stderr).toMatch(
      new RegExp(
        `^tool "inner" \\(${escaped(source)}:7:3\\) is served unchecked: the start-up check cannot verify it: it is registered through a tool decorator the analysis cannot follow, probably the one at src/applied\\.ts:6:9 \\(A tool decorator \\(of type `,
      ),
    );
  }, 120_000);
});

describe("a registration in a default of a function passed in an escape's statement is not that escape's", () => {
  // A parameter's default, and a default in its binding pattern, run when the function is called,
  // as its body does: a tool the untyped registry registers there is blamed on the untyped registry
  // before it, not on the decorator passed alongside. A decorator that is itself a parameter's
  // default runs with that default, so what it registers is still blamed on it.
  it("the defaults' tools name the untyped registry, probably; a decorator in a default still names itself", async () => {
    const directory = project({
      ...APPLYING_INSTALL,
      "src/applied.ts": [
        ...APPLIED_HEAD,
        "install(registry.tool(), function outer(): DataToolOutput { return answer('outer'); }, (",
        "  one = untyped.tool()(function first(): DataToolOutput { return answer('first'); }),",
        "  { two = untyped.tool()(function second(): DataToolOutput { return answer('second'); }) } = {},",
        ") => [one, two]);",
        "function deferred(done: unknown = Reflect.apply(registry.tool(), undefined, [function late(): DataToolOutput { return answer('late'); }])): unknown {",
        "  return done;",
        "}",
        "deferred();",
        "",
      ].join("\n"),
    });
    const source = path.join(directory, "src", "applied.ts");
    const run = await serve(directory);
    expect(run.tools, run.stderr).toEqual(["first", "late", "outer", "second"]);
    expect(run.warnings, run.stderr).toHaveLength(4);
    const [first, late, outer, second] = run.warnings as [string, string, string, string];
    const untypedRegistry = "is served unchecked: the start-up check cannot verify it: it is registered through a registry value the analysis cannot follow, probably the one at src/applied\\.ts:6:29 \\(A registry \\(of type 'Registry'\\) becomes 'any' here: ";
    expect(first, run.stderr).toMatch(new RegExp(`^tool "first" \\(${escaped(source)}:9:23\\) ${untypedRegistry}`));
    expect(second, run.stderr).toMatch(new RegExp(`^tool "second" \\(${escaped(source)}:10:25\\) ${untypedRegistry}`));
    expect(late, run.stderr).toMatch(
      new RegExp(`^tool "late" \\(${escaped(source)}:12:43\\) is served unchecked: the start-up check cannot verify it: it is registered through a tool decorator the analysis cannot follow \\(src/applied\\.ts:12:49: A tool decorator \\(of type `),
    );
    expect(outer, run.stderr).toMatch(outerBlamedOnItsDecorator(directory));

    // A restart answers from the record, which keeps the defaults out of the escape they are written in.
    expect(recordedEscapes(directory)).toEqual([
      ["registry", { start: [6, 1], end: [6, 38] }, undefined],
      [
        "decorator",
        { start: [8, 1], end: [11, 18] },
        [
          { start: [8, 59], end: [8, 86] },
          { start: [9, 3], end: [9, 85] },
          { start: [10, 3], end: [10, 96] },
          { start: [11, 6], end: [11, 16] },
        ],
      ],
      // The default holding the decorator is its statement: only the function written in it is left out.
      ["decorator", { start: [12, 19], end: [12, 138] }, [{ start: [12, 110], end: [12, 136] }]],
    ]);
    const again = await serve(directory);
    expect(again.tools).toEqual(run.tools);
    expect(again.warnings).toEqual(run.warnings);
  }, 120_000);
});

/** The warning of `outer`, which `install` registers through the decorator at 8:9: named where the plain JavaScript applying it ran. */
function outerBlamedOnItsDecorator(directory: string): RegExp {
  return new RegExp(
    `^tool "outer" \\(${escaped(path.join(directory, "src", "install.js"))}:2:3\\) is served unchecked: the start-up check cannot verify it: it is registered through a tool decorator the analysis cannot follow \\(src/applied\\.ts:8:9: A tool decorator \\(of type `,
  );
}

/** The escapes the project's record holds, as [what escaped, its span, what of it does not run with it]: what a restart answers from. */
function recordedEscapes(directory: string): unknown[] {
  const cache = path.join(directory, "node_modules", ".cache", "sourced");
  const [record] = fs.readdirSync(cache).map((name) => JSON.parse(fs.readFileSync(path.join(cache, name), "utf8")) as { analysis: { escapes: { escaped: string; span: unknown; excluded?: unknown }[] } });
  return record!.analysis.escapes.map((escape) => [escape.escaped, escape.span, escape.excluded]);
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
