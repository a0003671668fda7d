import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { ESLint } from "eslint";
import * as ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

/*
 * The docs' examples, re-run: the rule page's code is linted and its lint output compared with
 * what ESLint prints; `sourced check`'s outputs are compared with what the CLI prints on the
 * fixtures they were taken from. A change of wording or position fails here until the docs say it.
 */

const REPO = path.resolve(__dirname, "..", "..");
const SCRATCH = path.join(REPO, "fixtures", "out", `docs-${process.pid}`);
const nodeRequire = createRequire(__filename);
const plugin = nodeRequire(path.join(REPO, "packages/eslint-plugin/dist/index.js")) as typeof import("../../packages/eslint-plugin/src/index");

afterAll(() => fs.rmSync(SCRATCH, { recursive: true, force: true }));

interface Fence {
  readonly language: string;
  readonly body: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

/** Every fenced code block of a document, in order. */
function fences(document: string): Fence[] {
  const lines = fs.readFileSync(path.join(REPO, document), "utf8").split("\n");
  const blocks: Fence[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)$/.exec(lines[index]!);
    if (!open) continue;
    const end = lines.indexOf("```", index + 1);
    blocks.push({ language: open[1]!, body: `${lines.slice(index + 1, end).join("\n")}\n`, line: index + 1 });
    index = end;
  }
  return blocks;
}

function only<T>(items: readonly T[], what: string): T {
  if (items.length !== 1) throw new Error(`expected one ${what}, found ${items.length}`);
  return items[0]!;
}

/** Lints `code` as a file of a typed scratch project with the plugin's recommended config; the `stylish` lines of the rule's reports. */
async function lintExample(name: string, code: string): Promise<string> {
  const directory = path.join(SCRATCH, name);
  fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ["*.ts"] }));
  fs.writeFileSync(path.join(directory, "example.ts"), code);
  const eslint = new ESLint({
    cwd: directory,
    overrideConfigFile: true,
    overrideConfig: [plugin.configs.recommended, { languageOptions: { parserOptions: { tsconfigRootDir: directory } } }],
  });
  const results = await eslint.lintFiles(["example.ts"]);
  const formatter = await eslint.loadFormatter("stylish");
  const output = stripVTControlCharacters(await formatter.format(results));
  // stylish: a header line with the file, the reports, a blank line and the summary.
  return output
    .split("\n")
    .filter((line) => /^\s+\d+:\d+\s/.test(line))
    // stylish pads every message to the longest; the page does not.
    .map((line) => line.trimEnd().replace(/ {2,}(?=\S+$)/, "  "))
    .join("\n");
}

function sourced(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(REPO, "packages/cli/bin/sourced.js"), ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("docs/rules/require-data-tool-output.md", () => {
  const blocks = fences("docs/rules/require-data-tool-output.md");
  const [incorrect, correct] = blocks.filter((block) => block.language === "ts");

  it("the incorrect example reports exactly the lint output shown below it", async () => {
    const shown = only(blocks.filter((block) => block.language === "text"), "```text block").body.trimEnd();
    expect(await lintExample("incorrect", incorrect!.body)).toBe(shown.split("\n").map((line) => line.trimEnd()).join("\n"));
  });

  it("the correct example reports nothing", async () => {
    expect(await lintExample("correct", correct!.body)).toBe("");
  });

  it("the config example is the plugin's README config", () => {
    const config = blocks.find((block) => block.language === "js" && block.body.startsWith("// eslint.config.mjs"));
    const readme = fences("packages/eslint-plugin/README.md").find((block) => block.language === "js");
    expect(config?.body).toBe(readme?.body);
  });
});

describe("docs/cli.md", () => {
  const blocks = fences("docs/cli.md");
  const findings = path.join(REPO, "fixtures/cli/findings");

  it("the text output is what sourced check prints on fixtures/cli/findings", () => {
    const shown = only(blocks.filter((block) => block.language === "" && block.body.startsWith("src/tools.ts(")), "text output block");
    const run = sourced(["check"], findings);
    expect(run.status).toBe(1);
    expect(shown.body).toBe(run.stdout);
  });

  it("the JSON output is the first finding sourced check reports there, its message abridged", () => {
    const shown = JSON.parse(only(blocks.filter((block) => block.language === "json"), "```json block").body) as Array<Record<string, unknown>>;
    const run = JSON.parse(sourced(["check", "--format", "json"], findings).stdout) as Array<Record<string, unknown>>;
    expect(shown).toHaveLength(1);
    const { message, ...rest } = shown[0]!;
    const { message: actual, ...actualRest } = run[0]!;
    expect(rest).toEqual(actualRest);
    expect(String(actual).startsWith(String(message).replace(/…$/, ""))).toBe(true);
  });

  it("the error examples are what sourced check prints for them", () => {
    const shown = only(blocks.filter((block) => block.body.startsWith("$ sourced check --formt")), "errors block").body;
    const transcripts = shown.trimEnd().split("\n\n");
    expect(transcripts).toHaveLength(2);
    const typo = sourced(["check", "--formt", "json"], REPO);
    expect(transcripts[0]).toBe(`$ sourced check --formt json\n${typo.stderr.trimEnd()}`);
    // The page calls the project packages/api; it is fixtures/cli/bad-option here.
    const badOption = sourced(["check", "-p", "fixtures/cli/bad-option"], REPO);
    expect(transcripts[1]).toBe(`$ sourced check -p packages/api\n${badOption.stderr.trimEnd().replaceAll("fixtures/cli/bad-option", "packages/api")}`);
  });

  it("the usage line is the one --help prints", () => {
    const usage = only(blocks.filter((block) => block.body.startsWith("sourced check [-p")), "usage block").body.trimEnd();
    // --help indents the usage by two spaces.
    expect(sourced(["--help"], REPO).stdout).toContain(`${usage.split("\n").map((line) => `  ${line}`).join("\n")}\n`);
  });
});

describe("docs/analysis.md", () => {
  it("the message example is what the analysis says of that tool", () => {
    const shown = only(fences("docs/analysis.md").filter((block) => block.body.startsWith("Tool 'greet'")), "message block").body;
    const directory = path.join(SCRATCH, "analysis");
    fs.mkdirSync(directory, { recursive: true });
    const file = path.join(directory, "tools.ts");
    fs.writeFileSync(
      file,
      `import { createRegistry } from "@sourced/registry";\nconst registry = createRegistry({ name: "x", version: "1.0.0" });\n` +
        `export const greet = registry.tool()(async function greet(): Promise<string> { return "hello"; });\n`,
    );
    const analysis = nodeRequire(path.join(REPO, "packages/analysis/dist/index.js")) as typeof import("../../packages/analysis/src/index");
    const program = ts.createProgram([file], { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [], noEmit: true });
    const [finding] = analysis.analyzeProgram(ts, program).findings;
    // The page wraps the message at 100 columns.
    expect(shown.replace(/\s+/g, " ").trim()).toBe(finding?.message);
  });
});
