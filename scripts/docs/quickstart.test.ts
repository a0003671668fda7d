import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, packWorkspace, removePackedTarballs, REPO, type Run, type Tarballs } from "../install";
import { describeNode, envWithNode, NODE_LINES, nodeBinary, type NodeBinary } from "../node-lines";

/*
 * The README's quick start, followed as a user would on Node 24: each path in a fresh project
 * outside the workspace, the README's own commands run in a shell whose `node` is Node 24, its own
 * files written as shown. The packages come from the packed tarballs (until they are published,
 * the `@sourced/*` names of an install line become the tarballs' paths, and the project's
 * `overrides` send our packages' dependencies on each other to the tarballs too); everything else
 * comes from the registry, as the README's lines name it.
 */

const NODE = nodeBinary(24);
const README = fs.readFileSync(path.join(REPO, "README.md"), "utf8");

interface Step {
  readonly language: string;
  readonly body: string;
}

/** The quick start's `###` parts (the part before the first one under ""), each a list of its fenced blocks. */
function quickStart(): Map<string, Step[]> {
  const start = README.indexOf("\n## Quick start\n");
  const end = README.indexOf("\n## ", start + 1);
  if (start < 0 || end < 0) throw new Error("README.md has no '## Quick start' section");
  const parts = new Map<string, Step[]>();
  for (const [index, part] of README.slice(start, end).split(/\n### /).entries()) {
    const title = index === 0 ? "" : part.slice(0, part.indexOf("\n"));
    parts.set(title, [...part.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ language: match[1]!, body: match[2]! })));
  }
  return parts;
}

const PARTS = quickStart();

function part(title: string): Step[] {
  const steps = PARTS.get(title);
  if (steps === undefined) throw new Error(`the README's quick start has no '### ${title}'; it has: ${[...PARTS.keys()].join(", ")}`);
  return steps;
}

/** The files a part shows: blocks whose first line is `// <path>`. */
function filesOf(steps: readonly Step[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const { body } of steps) {
    const header = /^\/\/ (\S+)\n/.exec(body);
    if (header) files[header[1]!] = body.slice(header[0].length);
  }
  return files;
}

/** The shell commands a part shows, in order. */
function commandsOf(steps: readonly Step[]): string[] {
  return steps.filter((step) => step.language === "sh").flatMap((step) => step.body.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#")));
}

/** A command that starts the server: run by the SDK's client over stdio, not by the shell. */
const SERVER_COMMAND = /^(node|npx tsx) (src\/server\.ts|dist\/server\.js)$/;

let tarballs: Tarballs;
const projects: string[] = [];
beforeAll(() => {
  tarballs = packWorkspace();
});
afterAll(() => {
  for (const directory of projects) fs.rmSync(directory, { recursive: true, force: true });
  removePackedTarballs();
});

/** The Node the commands and servers run on: Node 24, or the line a test sets for itself. */
let current: NodeBinary = NODE;
const env = (): NodeJS.ProcessEnv => envWithNode(current, cleanEnv({ npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" }));

/** A fresh ES module package outside the workspace, as the quick start begins: `"type": "module"`. */
function freshProject(name: string): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `sourced-quickstart-${name}-`));
  projects.push(directory);
  const overrides = Object.fromEntries(Object.entries(tarballs).map(([pkg, tarball]) => [pkg, `file:${path.relative(directory, tarball)}`]));
  fs.writeFileSync(path.join(directory, "package.json"), `${JSON.stringify({ name: `quickstart-${name}`, private: true, type: "module", overrides }, null, 2)}\n`);
  return directory;
}

function describeRun(command: string, run: Run): string {
  return `$ ${command}\nexit ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

/** Runs one of the README's shell commands, its `@sourced/*` install names pointed at the tarballs. */
function shell(directory: string, command: string): Run {
  const words = command.split(" ").map((word) => {
    const tarball = /^npm install\b/.test(command) ? tarballs[word] : undefined;
    return tarball === undefined ? word : path.relative(directory, tarball);
  });
  const result = spawnSync("sh", ["-c", words.join(" ")], { cwd: directory, encoding: "utf8", env: env(), timeout: 300_000 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function writeFiles(directory: string, files: Readonly<Record<string, string>>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
    fs.writeFileSync(path.join(directory, file), text);
  }
}

interface Served {
  readonly tools: string[];
  readonly sources: unknown;
}

/** Starts the server with `command` (a README line) in `directory`, lists its tools and calls the quick start's one. */
async function serve(directory: string, command: string, stderr: string[] = []): Promise<Served> {
  const [program, ...args] = command.split(" ");
  const client = new Client({ name: "quickstart", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: program!, args, cwd: directory, env: env() as Record<string, string>, stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: "largest_city" });
    expect(result.isError, stderr.join("")).toBeUndefined();
    return { tools: tools.map((tool) => tool.name), sources: (result.structuredContent as { sources?: unknown } | undefined)?.sources };
  } catch (error) {
    throw new Error(`${command} in ${directory}: ${String(error)}\nserver stderr:\n${stderr.join("")}`);
  } finally {
    await client.close();
  }
}

/** Runs a part's commands in order: the shell's must succeed, each server command must serve the quick start's tool. */
async function follow(directory: string, commands: readonly string[]): Promise<void> {
  for (const command of commands) {
    if (SERVER_COMMAND.test(command)) {
      expect(await serve(directory, command), command).toEqual({ tools: ["largest_city"], sources: ["https://population.un.org/wup/"] });
    } else {
      const run = shell(directory, command);
      expect(run.status, describeRun(command, run)).toBe(0);
    }
  }
}

/** The quick start's first steps in a fresh project: the registry installed, the sources and the tsconfig written. */
function startProject(name: string): string {
  const directory = freshProject(name);
  const intro = part("");
  for (const command of commandsOf(intro)) {
    const run = shell(directory, command);
    expect(run.status, describeRun(command, run)).toBe(0);
  }
  writeFiles(directory, filesOf(intro));
  return directory;
}

/** A second tool that does not declare `DataToolOutput`, appended to the quick start's tools file: every check must catch it. */
const UNDECLARED = `
export const population = registry.tool()(function population() {
  return { content: [{ type: "text" as const, text: "Tokyo has 37,400,068 inhabitants." }] };
});
`;
function addUndeclaredTool(directory: string): number {
  const file = path.join(directory, "src/tools.ts");
  const text = fs.readFileSync(file, "utf8");
  fs.writeFileSync(file, text + UNDECLARED);
  return text.split("\n").length + 1; // the line of `export const population`
}

// Each path installs a fresh project from the registry: minutes on a loaded machine, not a test's usual two.
describe(`the README's quick start, in fresh projects on ${describeNode(NODE)} (run from source: on every supported line)`, { timeout: 600_000 }, () => {
  it("shows the sources, the tsconfig and the registry's install line", () => {
    expect(Object.keys(filesOf(part("")))).toEqual(["src/tools.ts", "src/server.ts", "tsconfig.json"]);
    expect(commandsOf(part(""))).toEqual(["npm install @sourced/registry", "npm install --save-dev @sourced/project typescript@6.0"]);
  });

  // The quick start to the letter, then its start-up check's refusal, on every supported line.
  it.each(NODE_LINES)("runs from source on Node %s: `node src/server.ts`, and tsx; a tool without DataToolOutput is not served", async (line) => {
    current = nodeBinary(line);
    try {
      await fromSource(line);
    } finally {
      current = NODE;
    }
  });

  async function fromSource(line: number): Promise<void> {
    const directory = startProject(`from-source-${line}`);
    const commands = commandsOf(part("Run it from source"));
    expect(commands.filter((command) => SERVER_COMMAND.test(command))).toEqual(["node src/server.ts", "npx tsx src/server.ts"]);
    await follow(directory, commands);

    // What the quick start installed runs the start-up check: a tool without DataToolOutput is not served.
    const undeclared = addUndeclaredTool(directory);
    const stderr: string[] = [];
    expect(await serve(directory, "node src/server.ts", stderr)).toEqual({ tools: ["largest_city"], sources: ["https://population.un.org/wup/"] });
    expect(stderr.join("")).toMatch(new RegExp(`\\[sourced\\] warning: tool "population" \\(src/tools\\.ts:${undeclared}:\\d+\\) was not registered: Tool 'population' has no return type annotation`));
  }

  it("editor and ESLint: the rule passes the quick start's tool and reports one without DataToolOutput", () => {
    const directory = startProject("eslint");
    const steps = part("Editor and ESLint");
    writeFiles(directory, filesOf(steps));
    const commands = commandsOf(steps);
    const lint = commands.pop()!;
    expect(lint).toBe("npx eslint src");
    for (const command of commands) expect(shell(directory, command).status, command).toBe(0);
    const clean = shell(directory, lint);
    expect(clean.status, describeRun(lint, clean)).toBe(0);

    const line = addUndeclaredTool(directory);
    const finding = shell(directory, lint);
    expect(finding.status, describeRun(lint, finding)).toBe(1);
    expect(finding.stdout).toMatch(new RegExp(`\\n\\s+${line}:\\d+\\s+error\\s+Tool 'population' has no return type annotation.*sourced/require-data-tool-output`));
  });

  it("build with tspc: the build serves the tool; one without DataToolOutput fails the build and is left out", async () => {
    const directory = startProject("tspc");
    const steps = part("Build with tspc");
    const fragment = steps.find((step) => step.language === "json" && !step.body.startsWith("//"));
    expect(fragment?.body).toMatch(/^"plugins": /);
    const tsconfig = JSON.parse(fs.readFileSync(path.join(directory, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
    Object.assign(tsconfig.compilerOptions, JSON.parse(`{${fragment!.body}}`));
    fs.writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
    const commands = commandsOf(steps);
    expect(commands.slice(-2)).toEqual(["npx sourced-tspc", "node dist/server.js"]);
    await follow(directory, commands);

    const line = addUndeclaredTool(directory);
    const build = shell(directory, "npx sourced-tspc");
    expect(build.status, describeRun("npx sourced-tspc", build)).not.toBe(0);
    expect(build.stdout).toMatch(new RegExp(`^src/tools\\.ts\\(${line},\\d+\\): error TS92001: Tool 'population' `, "m"));
    // Stripped: the built server still serves only the declared tool.
    expect(await serve(directory, "node dist/server.js")).toEqual({ tools: ["largest_city"], sources: ["https://population.un.org/wup/"] });
  });

  it("bundle with esbuild: the bundle serves the tool; one without DataToolOutput fails the build", async () => {
    const directory = startProject("esbuild");
    const steps = part("Bundle with esbuild");
    writeFiles(directory, filesOf(steps));
    const commands = commandsOf(steps);
    expect(commands.slice(-2)).toEqual(["node build.mjs", "node dist/server.js"]);
    await follow(directory, commands);

    const line = addUndeclaredTool(directory);
    const build = shell(directory, "node build.mjs");
    expect(build.status, describeRun("node build.mjs", build)).toBe(1);
    expect(build.stderr).toContain("SRC92001");
    expect(build.stderr).toContain(`src/tools.ts:${line}:`);
  });

  it("TypeScript 7: sourced check passes the tool and reports one without DataToolOutput; tsc 7 builds the server, whose start-up check refuses it on Node 22, 24 and 26", async () => {
    const directory = startProject("typescript-7");
    const commands = commandsOf(part("TypeScript 7"));
    expect(commands).toEqual(["npm install --save-dev @sourced/cli typescript@7.0", "npx sourced check", "npx tsc", "node dist/server.js"]);
    await follow(directory, commands);
    const check = shell(directory, "npx sourced check");
    expect(check.stdout).toMatch(/ with TypeScript 7\.\d+\.\d+ \(native\)\.\n$/);

    const line = addUndeclaredTool(directory);
    const finding = shell(directory, "npx sourced check");
    expect(finding.status, describeRun("npx sourced check", finding)).toBe(1);
    expect(finding.stdout).toMatch(new RegExp(`^src/tools\\.ts\\(${line},\\d+\\): error SRC92001: Tool 'population' `, "m"));
    // Built by plain tsc 7 anyway: the start-up check traces dist/ back to the sources, on TypeScript 7's checker, and refuses it too.
    expect(shell(directory, "npx tsc").status).toBe(0);
    const stderr: string[] = [];
    expect(await serve(directory, "node dist/server.js", stderr)).toEqual({ tools: ["largest_city"], sources: ["https://population.un.org/wup/"] });
    expect(stderr.join("")).toMatch(new RegExp(`\\[sourced\\] warning: tool "population" \\(src/tools\\.ts:${line}:\\d+\\) was not registered: Tool 'population' has no return type annotation`));
    expect(stderr.join("")).not.toMatch(/typescript@[56]/);

    // The same build on the other supported lines: only `node dist/server.js` runs again (one install
    // serves every line), each line's start-up check judging afresh (the record of the last run removed).
    for (const other of NODE_LINES.filter((candidate) => candidate !== NODE.line)) {
      current = nodeBinary(other);
      try {
        fs.rmSync(path.join(directory, "node_modules/.cache/sourced"), { recursive: true, force: true });
        const onLine: string[] = [];
        expect(await serve(directory, "node dist/server.js", onLine), `Node ${other}`).toEqual({ tools: ["largest_city"], sources: ["https://population.un.org/wup/"] });
        expect(onLine.join(""), `Node ${other}`).toMatch(new RegExp(`\\[sourced\\] warning: tool "population" \\(src/tools\\.ts:${line}:\\d+\\) was not registered: Tool 'population' has no return type annotation`));
      } finally {
        current = NODE;
      }
    }
  });
});
