import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeNode, NODE_LINES, nodeBinary, type NodeBinary } from "../node-lines";
import { cleanEnv, installProject, MANAGERS, MCP_CLIENT, packWorkspace, PACKED, removeInstalledProjects, removePackedTarballs, REPO, SOURCED, TOOLCHAINS, type InstalledProject, type Manager, type ProjectRunner, type Run } from "./index";

/*
 * The packed tarballs, installed into a fresh project outside the workspace with npm and with pnpm,
 * and every front-end run there on fixtures/install, as an ES module package and as CommonJS, on
 * every supported Node line: one install per manager and toolchain serves the three lines.
 */

const TEMPLATE = path.join(REPO, "fixtures", "install");
const FROM_SOURCE = path.join(TEMPLATE, "from-source");
const RULE = "sourced/require-data-tool-output";

interface Expected {
  readonly file: string;
  readonly line: number;
  readonly id: string;
}

/** The `// expect: <id>` markers of the template's sources. */
const EXPECTED: readonly Expected[] = fs
  .readdirSync(path.join(TEMPLATE, "src"))
  .sort()
  .flatMap((name) =>
    fs
      .readFileSync(path.join(TEMPLATE, "src", name), "utf8")
      .split("\n")
      .flatMap((text, index) => {
        const marker = /\/\/ expect: ([a-z-]+)/.exec(text);
        return marker ? [{ file: `src/${name}`, line: index + 1, id: marker[1]! }] : [];
      }),
  );

function templateFiles(type: PackageType): Record<string, string> {
  const files: Record<string, string> = { "package.json": `${JSON.stringify({ type }, null, 2)}\n` };
  const eslintConfig = type === "module" ? "eslint.config.mjs" : "eslint.config.cjs";
  for (const name of ["tsconfig.json", "client.mjs", eslintConfig]) files[name] = fs.readFileSync(path.join(TEMPLATE, name), "utf8");
  for (const name of fs.readdirSync(path.join(TEMPLATE, "src"))) files[`src/${name}`] = fs.readFileSync(path.join(TEMPLATE, "src", name), "utf8");
  return files;
}

/** fixtures/install/from-source: an ES module server whose sources import each other as `.ts`, run by `node src/server.ts`. */
function fromSourceFiles(): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ type: "module" }, null, 2)}\n`,
    "client.mjs": fs.readFileSync(path.join(TEMPLATE, "client.mjs"), "utf8"),
    "tsconfig.json": fs.readFileSync(path.join(FROM_SOURCE, "tsconfig.json"), "utf8"),
  };
  for (const name of fs.readdirSync(path.join(FROM_SOURCE, "src"))) files[`src/${name}`] = fs.readFileSync(path.join(FROM_SOURCE, "src", name), "utf8");
  return files;
}

interface ServerCall {
  readonly node: string;
  readonly tools: string[];
  readonly result: { isError?: boolean; structuredContent?: { sources: string[] } };
}

/** `client.mjs` on `runner`'s Node: it starts `server` on the same Node, lists the tools and calls `tool`. */
function callServer(runner: ProjectRunner, directory: string, server: string, tool: string): ServerCall {
  const call = runner.node(["client.mjs", server, tool], directory);
  expect(call.status, describeRun(call)).toBe(0);
  return JSON.parse(call.stdout) as ServerCall;
}

/** The first fenced block of `language` in a document of the repository. */
function readmeBlock(document: string, language: string): string {
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)```\\n").exec(fs.readFileSync(path.join(REPO, document), "utf8"));
  if (!match) throw new Error(`${document} has no \`\`\`${language} block`);
  return match[1]!;
}

const { FINDING_KINDS } = createRequire(__filename)(path.join(REPO, "packages/analysis/dist/index.js")) as typeof import("../../packages/analysis/src/index");
const ID_OF_CODE = new Map<number, string>(Object.values(FINDING_KINDS).map((kind) => [kind.code, kind.id]));

/** The tsc-style error lines of an output (`src/tools.ts(11,52): error SRC92001: …`), as expectations. */
function reportedLines(output: string, prefix: "SRC" | "TS"): Expected[] {
  return [...output.matchAll(new RegExp(`^(src/[^(]+)\\((\\d+),\\d+\\): error ${prefix}(\\d+):`, "gm"))].map((match) => ({
    file: match[1]!,
    line: Number(match[2]),
    id: ID_OF_CODE.get(Number(match[3])) ?? `${prefix}${match[3]}`,
  }));
}

function describeRun(run: Run): string {
  return `exit ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

beforeAll(() => {
  expect(EXPECTED.length).toBeGreaterThan(0);
});
afterAll(() => {
  removeInstalledProjects();
  removePackedTarballs();
});

type Toolchain = keyof typeof TOOLCHAINS;
type PackageType = "module" | "commonjs";

/** Every manager on the main toolchain in both module systems; the other toolchain's install line once. */
const MATRIX: ReadonlyArray<readonly [Manager, Toolchain, readonly PackageType[]]> = [
  ...MANAGERS.map((manager) => [manager, "ts6", ["module", "commonjs"]] as const),
  ["npm", "ts5", ["commonjs"]],
];

/** Each supported line's binary, named in the test titles (found or installed at collection). */
const LINES: ReadonlyArray<readonly [string, NodeBinary]> = NODE_LINES.map((line) => {
  const binary = nodeBinary(line);
  return [describeNode(binary), binary] as const;
});

describe.each(MATRIX)("the packed packages installed with %s next to %s", (manager, toolchain, types) => {
  let project: InstalledProject;
  const typescriptVersion = TOOLCHAINS[toolchain].typescript;
  beforeAll(() => {
    project = installProject({
      manager,
      tarballs: packWorkspace(),
      dependencies: SOURCED.dependencies,
      devDependencies: { ...SOURCED.devDependencies, ...TOOLCHAINS[toolchain], ...MCP_CLIENT },
    });
  });

  it("installs every package from its tarball, outside the workspace", () => {
    expect(path.relative(REPO, project.directory).startsWith("..")).toBe(true);
    for (const name of [...Object.keys(SOURCED.dependencies), ...Object.keys(SOURCED.devDependencies)]) {
      const manifest = JSON.parse(fs.readFileSync(path.join(project.directory, "node_modules", name, "package.json"), "utf8")) as { name: string };
      expect(manifest.name).toBe(name);
      expect(fs.realpathSync(path.join(project.directory, "node_modules", name)).startsWith(REPO)).toBe(false);
    }
  });

  if (toolchain === "ts6") {
    it("type-checks the sources a server runs from, `.ts` specifiers and all, with the README quick start's tsconfig", () => {
      expect(readmeBlock("README.md", "jsonc")).toBe(`// tsconfig.json\n${fs.readFileSync(path.join(FROM_SOURCE, "tsconfig.json"), "utf8")}`);
      const directory = project.caseDirectory("from-source-types", fromSourceFiles());
      const check = project.bin("tsc", ["--noEmit", "-p", "tsconfig.json"], directory);
      expect(check.status, describeRun(check)).toBe(0);
    });
  }

  describe.each(LINES)("on %s", (_title, binary) => {
    let runner: ProjectRunner;
    beforeAll(() => {
      runner = project.on(binary);
    });

    if (toolchain === "ts6") {
      it("runs the server from source (`node src/server.ts`): the SDK's client lists and calls its tools", () => {
        const directory = project.caseDirectory(`from-source-${binary.line}`, fromSourceFiles());
        const call = callServer(runner, directory, "src/server.ts", "population");
        expect(call.node).toBe(binary.version);
        expect(call.tools).toEqual(["list_cities", "population"]);
        expect(call.result.isError).toBeUndefined();
        expect(call.result.structuredContent?.sources).toEqual(["https://example.org/cities-data"]);
      });
    }

    describe.each(types)("in a %s package", (type) => {
      let directory: string;
      beforeAll(() => {
        directory = project.caseDirectory(`${type}-${binary.line}`, templateFiles(type));
      });

      it("ESLint with the plugin's recommended config reports the tool without DataToolOutput", () => {
        // The ES module config is the one the plugin's README shows.
        expect(readmeBlock("packages/eslint-plugin/README.md", "js")).toBe(`// eslint.config.mjs\n${fs.readFileSync(path.join(TEMPLATE, "eslint.config.mjs"), "utf8")}`);
        const run = runner.bin("eslint", ["--format", "json", "src"], directory);
        expect(run.status, describeRun(run)).toBe(1);
        const results = JSON.parse(run.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string | null; messageId?: string; line: number; message: string }> }>;
        const reported = results.flatMap((result) =>
          result.messages.map((message) => ({ file: path.relative(directory, result.filePath), line: message.line, id: message.ruleId === RULE ? message.messageId : message.message })),
        );
        expect(reported).toEqual(EXPECTED);
      });

      it("sourced check reports it, with the project's TypeScript", () => {
        const text = runner.bin("sourced", ["check", "-p", "tsconfig.json"], directory);
        expect(text.status, describeRun(text)).toBe(1);
        expect(reportedLines(text.stdout, "SRC")).toEqual(EXPECTED);
        expect(text.stdout.endsWith(` with TypeScript ${typescriptVersion} (classic).\n`), text.stdout).toBe(true);
        // The example of the CLI's README is this very run.
        if (toolchain === "ts6") expect(readmeBlock("packages/cli/README.md", "text")).toBe(text.stdout);
      });

      // sourced-tspc, the transformer's bin, is ts-patch's tspc after a TypeScript version check:
      // on TypeScript 5, with ts-patch 3.3.0, it must build exactly as tspc does on 6.
      const tspc = toolchain === "ts5" ? "sourced-tspc" : "tspc";
      it(`${tspc} with the transformer reports it and strips it; the built server answers a call over stdio`, () => {
        const build = runner.bin(tspc, ["-p", "tsconfig.json"], directory);
        expect(reportedLines(build.stdout, "TS"), describeRun(build)).toEqual(EXPECTED);
        expect(build.status).not.toBe(0);

        // requireVerified: the server starts only with the registrations the transformer stamped.
        const call = callServer(runner, directory, "dist/server.js", "list_cities");
        expect(call.node).toBe(binary.version);
        expect(call.tools).toEqual(["list_cities"]);
        expect(call.result.isError).toBeUndefined();
        expect(call.result.structuredContent?.sources).toEqual(["https://example.org/cities-data"]);
      });

      // Once per line (npm, TypeScript 6, ES module): each run judges a project cold and builds it twice.
      it.runIf(manager === "npm" && toolchain === "ts6" && type === "module")("plain tsc: the start-up check traces its output to the sources and refuses the tool without DataToolOutput; sourced build strips and stamps it", { timeout: 300_000 }, () => {
        const plain = runner.bin("tsc", ["-p", "tsconfig.json"], directory);
        expect(plain.status, describeRun(plain)).toBe(0);
        const judged = callServer(runner, directory, "dist/server.js", "list_cities");
        expect(judged.tools).toEqual(["list_cities"]);

        const build = runner.bin("sourced", ["build"], directory);
        expect(build.status, describeRun(build)).toBe(1);
        expect(reportedLines(build.stdout, "SRC")).toEqual(EXPECTED);
        const stamped = callServer(runner, directory, "dist/server.js", "list_cities");
        expect(stamped.tools).toEqual(["list_cities"]);
        expect(stamped.result.structuredContent?.sources).toEqual(["https://example.org/cities-data"]);
      });
    });
  });
});

/** What this test uses of the SDK's v2 client packages, which the root of the workspace does not depend on. */
interface ClientModule {
  Client: new (info: { name: string; version: string }) => {
    connect(transport: unknown): Promise<void>;
    listTools(): Promise<{ tools: Array<{ name: string }> }>;
    close(): Promise<void>;
  };
}
interface StdioModule {
  StdioClientTransport: new (options: { command: string; args: string[]; cwd: string; env: Record<string, string>; stderr: "pipe" }) => { readonly stderr: NodeJS.ReadableStream | null };
}

describe("a production install of the registry alone, with npm, without TypeScript or development dependencies", () => {
  let project: InstalledProject;
  beforeAll(() => {
    project = installProject({ manager: "npm", tarballs: packWorkspace(), dependencies: { "@sourced/registry": PACKED, zod: "4.6.7" }, installArgs: ["--omit=dev"] });
  });

  it("installs nothing of the start-up check: no @sourced/project, no analysis, no TypeScript (optional peers); the contract's rules, which depend on nothing", () => {
    const installed = (name: string) => fs.existsSync(path.join(project.directory, "node_modules", name, "package.json"));
    expect(installed("@sourced/registry")).toBe(true);
    expect(installed("@sourced/contract-rules")).toBe(true);
    expect(fs.readdirSync(path.join(project.directory, "node_modules", "@sourced")).sort()).toEqual(["contract-rules", "registry"]);
    for (const name of ["@sourced/project", "@sourced/analysis", "typescript"]) expect(installed(name), name).toBe(false);
    expect(project.installOutput).not.toMatch(/peer|ERESOLVE/i);
  });

  it("a server run from its TypeScript sources warns once that the check cannot run, and serves its tools unchecked", async () => {
    const directory = project.caseDirectory("from-source", {
      "package.json": `${JSON.stringify({ type: "module" }, null, 2)}\n`,
      "server.ts": [
        'import { createRegistry, type DataToolOutput } from "@sourced/registry";',
        "",
        'const registry = createRegistry({ name: "production", version: "1.0.0" });',
        "",
        "registry.tool()(function list_cities(): DataToolOutput {",
        '  return { content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: ["https://example.org/cities"] } };',
        "});",
        'registry.tool()(function greet(): string { return "hello"; });',
        "",
        "void registry.serveStdio();",
        "",
      ].join("\n"),
    });
    // The SDK's v2 Client, from the workspace (the production install has none).
    const fromRegistry = createRequire(path.join(REPO, "packages/registry/package.json"));
    const { Client } = fromRegistry("@modelcontextprotocol/client") as ClientModule;
    const { StdioClientTransport } = fromRegistry("@modelcontextprotocol/client/stdio") as StdioModule;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(cleanEnv())) if (value !== undefined && key !== "NODE_PATH") env[key] = value;
    const transport = new StdioClientTransport({ command: process.execPath, args: ["server.ts"], cwd: directory, env, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise((resolve) => transport.stderr?.on("end", resolve));
    const client = new Client({ name: "production", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    await client.close();
    await ended;
    expect(tools.map((tool) => tool.name)).toEqual(["list_cities", "greet"]);
    const warnings = stderr.split("\n").filter((line) => line.startsWith("[sourced] "));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^\[sourced\] warning: the start-up check could not judge 2 tools: "list_cities" \(.*server\.ts:5:16\), "greet" \(.*server\.ts:8:16\): @sourced\/project, which runs it, is not installed\. Served unchecked \(the net still checks every result\)\. To check them: install @sourced\/project beside the server as a development dependency/,
      ),
    ]);
  });
});
