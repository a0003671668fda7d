import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { CASES_DIR, CASES_TSCONFIG, EXPECTED_IDS } from "../../../fixtures/harness";
import * as rules from "@sourced/contract-rules";
import { analyzeSourceFile, closestMatch, FINDING_KINDS, type AnalysisResult, type Finding } from "../src/index";
import { referenceFactsOf } from "../src/reference-scan";

const DIST = path.resolve(__dirname, "../dist");

/**
 * The files on disk `programWith`'s programs read (TypeScript's lib, the registry's and the SDK's
 * declarations, the corpus's helpers), parsed once, as a language service's document registry
 * shares them among its programs: a file's parse and binding depend only on its text and the
 * compiler options (part of the key); what the checker learns is kept per program. Parsing them
 * anew made most of this file's time, and a mutation run reruns it for every mutant.
 */
const filesOnDisk = new Map<string, ts.SourceFile>();

/**
 * A program over one in-memory file placed in the corpus's directory (so that `@sourced/registry`
 * resolves as in every case), with the corpus's compiler options.
 */
function programWith(
  text: string,
  name = "__unit__.ts",
  options: ts.CompilerOptions = {},
  besides: Readonly<Record<string, string>> = {},
): { program: ts.Program; sourceFile: ts.SourceFile } {
  const parsed = ts.getParsedCommandLineOfConfigFile(CASES_TSCONFIG, options, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const inCases = (file: string) => path.join(CASES_DIR, file).split(path.sep).join("/");
  const fileName = inCases(name);
  // The file, and any others it imports by name (`besides`), in memory.
  const texts = new Map([[fileName, text], ...Object.entries(besides).map(([file, content]) => [inCases(file), content] as const)]);
  const host = ts.createCompilerHost(parsed.options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, languageVersion, ...rest) => {
    if (texts.has(file)) return ts.createSourceFile(file, texts.get(file)!, languageVersion, true);
    const key = JSON.stringify([file, languageVersion, options]);
    const parsedBefore = filesOnDisk.get(key);
    if (parsedBefore !== undefined) return parsedBefore;
    const sourceFile = getSourceFile.call(host, file, languageVersion, ...rest);
    if (sourceFile !== undefined) filesOnDisk.set(key, sourceFile);
    return sourceFile;
  };
  host.fileExists = (file) => texts.has(file) || fileExists.call(host, file);
  host.readFile = (file) => texts.get(file) ?? readFile.call(host, file);
  const program = ts.createProgram({ rootNames: [fileName], options: parsed.options, host });
  return { program, sourceFile: program.getSourceFile(fileName)! };
}

function analyze(text: string): AnalysisResult & { sourceFile: ts.SourceFile; program: ts.Program } {
  const { program, sourceFile } = programWith(text);
  return { ...analyzeSourceFile(ts, program, sourceFile), sourceFile, program };
}

/** `text` with the fix of `finding` applied, as a front-end applies it. */
function applyEdits(text: string, finding: Finding): string {
  let result = text;
  for (const edit of [...finding.fix!.edits].sort((a, b) => b.position - a.position)) {
    result = result.slice(0, edit.position) + edit.text + result.slice(edit.position);
  }
  return result;
}

const HEADER = `import type { DataToolOutput } from "@sourced/registry";
import { registry } from "./lib/registry.js";
import { sample } from "./lib/sample.js";
`;

describe("FINDING_KINDS", () => {
  it("are exactly the ids a fixture case may expect, besides ok (the harness keeps its own list: it imports no package)", () => {
    expect([...EXPECTED_IDS].sort()).toEqual([...Object.keys(FINDING_KINDS), "ok"].sort());
  });
  it("gives every id its stable code", () => {
    expect(Object.fromEntries(Object.values(FINDING_KINDS).map((kind) => [kind.id, kind.code]))).toEqual({
      "internal-error": 92000,
      "missing-annotation": 92001,
      "not-data-tool-output": 92002,
      "unverifiable-registration": 92003,
      "invalid-option": 92004,
      "unnamed-tool": 92005,
      "duplicate-tool-name": 92006,
      "invalid-tool-name": 92007,
      "invalid-source": 92008,
      "strict-null-checks-off": 92009,
      "undeclared-output-key": 92010,
    });
    for (const [id, kind] of Object.entries(FINDING_KINDS)) expect(kind.id).toBe(id);
  });

  it("marks only the weaker guarantee a warning", () => {
    const warnings = Object.values(FINDING_KINDS).filter((kind) => kind.severity === "warning").map((kind) => kind.id);
    expect(warnings).toEqual(["strict-null-checks-off"]);
  });
});

describe("messages", () => {
  it("quotes a declared annotation as written, not the checker's expansion of it", () => {
    const { findings } = analyze(`${HEADER}
function plain() { return { content: [{ type: "text" as const, text: "hi" }] }; }
registry.tool()(function derived(): ReturnType<typeof plain> { return plain(); });
`);
    expect(findings.map((finding) => finding.id)).toEqual(["not-data-tool-output"]);
    expect(findings[0]!.message).toContain("is declared to return 'ReturnType<typeof plain>', which is not DataToolOutput");
  });

  it("says a required part of the contract is optional in the declared type", () => {
    const { findings } = analyze(`${HEADER}
interface Loose { content: { type: "text"; text: string }[]; structuredContent?: { sources: string[] } }
registry.tool()(function loose(): Loose { return { content: [{ type: "text", text: "hi" }] }; });
`);
    expect(findings[0]!.message).toContain(
      "is declared to return 'Loose', which is not DataToolOutput: its 'structuredContent' is optional, and DataToolOutput requires it.",
    );
  });

  it("locates a function declared elsewhere relative to the registering file, the same from any directory", () => {
    const beside = programWith(`${HEADER}import { importedText } from "./lib/tools.js";\nregistry.tool()(importedText);\n`);
    const below = programWith(
      `import { registry } from "../lib/registry.js";\nimport { importedText } from "../lib/tools.js";\nregistry.tool()(importedText);\n`,
      "nested/__unit__.ts",
    );
    const [besideFinding] = analyzeSourceFile(ts, beside.program, beside.sourceFile).findings;
    const [belowFinding] = analyzeSourceFile(ts, below.program, below.sourceFile).findings;
    expect(besideFinding!.message).toContain("Tool 'importedText' (declared at ./lib/tools.ts:14:1) is declared to return 'string'");
    expect(belowFinding!.message).toContain("Tool 'importedText' (declared at ../lib/tools.ts:14:1) is declared to return 'string'");
    // Underlined at the registration, in the registering file.
    expect(besideFinding!.sourceFile).toBe(beside.sourceFile);
  });

  it("missing-annotation: quotes the tool, prints the inferred type, says what to write", () => {
    const { findings } = analyze(`${HEADER}
registry.tool()(function list_cities() { return sample(); });
`);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toBe(
      "Tool 'list_cities' has no return type annotation; the registry accepts only a tool declared to return DataToolOutput, " +
        "and an inferred type does not count. Its inferred return type is 'DataResult'. It already fits: write ': DataToolOutput' after the parameter list.",
    );
  });

  it("not-data-tool-output: prints the declared type and the shape to return", () => {
    const { findings } = analyze(`${HEADER}
registry.tool({ name: "greet" })(async function hello(): Promise<string> { return "hi"; });
`);
    expect(findings[0]!.message).toBe(
      "Tool 'greet' is declared to return 'Promise<string>', which is not DataToolOutput. Declare ': Promise<DataToolOutput>' instead " +
        'and return { content: [{ type: "text", text }], structuredContent: { sources: [url] } }.',
    );
  });

  it("not-data-tool-output: names what is missing in the contract's terms", () => {
    const { findings } = analyze(`${HEADER}
registry.tool()(function plain(): { content: { type: "text"; text: string }[]; structuredContent: { force: string } } {
  return { content: [], structuredContent: { force: "" } };
});
`);
    expect(findings[0]!.message).toContain("which is not DataToolOutput: its 'structuredContent' has no 'sources'.");
  });

  it("undeclared-output-key: underlines a declared return type with keys the output does not declare, and names both", () => {
    const { findings } = analyze(`import type { DataResult } from "@sourced/registry";
import { z } from "zod";
import { registry } from "./lib/registry.js";
registry.tool()(function bare(): DataResult<{ entities: string[] }> { return { content: [], structuredContent: { sources: [], entities: [] } }; });
registry.tool({ output: { entities: z.array(z.string()) } })(function some(): DataResult<{ entities: string[]; relations: string[]; next: string }> {
  return { content: [], structuredContent: { sources: [], entities: [], relations: [], next: "" } };
});
`);
    expect(findings.map((finding) => [finding.id, finding.tool, finding.node.getText()])).toEqual([
      ["undeclared-output-key", "bare", "DataResult<{ entities: string[] }>"],
      ["undeclared-output-key", "some", "DataResult<{ entities: string[]; relations: string[]; next: string }>"],
    ]);
    expect(findings[0]!.message).toBe(
      "Tool 'bare' is declared to return structuredContent with the key 'entities', but its registration has no output: the registry accepts sources, table, charts, force " +
        "and the output's keys, and refuses it on every call. Declare it in the tool's output (registry.tool({ output: { entities: … } })), or drop it from the return type.",
    );
    expect(findings[1]!.message).toContain("with the keys 'relations', 'next', but its registration declares 'entities' only:");
  });

  it("unverifiable-registration: says how the decorator escapes", () => {
    const { findings } = analyze(`${HEADER}
declare function keep(value: unknown): void;
keep(registry.tool());
`);
    expect(findings[0]!.message).toBe(
      "A tool decorator (of type 'ToolDecorator<NoArguments, NoOutputKeys>') is passed as an argument here, so the analysis cannot see which function it registers. " +
        "Apply it directly — registry.tool()(fn) or @registry.tool() — or keep it in a const and apply that.",
    );
    expect(findings[0]!.node.getText()).toBe("registry.tool()");
  });

  it("invalid-option: names the nearest option, every option, the tool when it is known; underlines the key or the value", () => {
    const { findings } = analyze(`${HEADER}
import { createRegistry } from "@sourced/registry";
createRegistry({ name: "n", version: "1", requireVerifed: true });
registry.tool({ name: "population", ui: "no" })(function population(): DataToolOutput { return sample(); });
`);
    expect(findings.map((finding) => [finding.id, finding.tool, finding.node.getText(), finding.message])).toEqual([
      [
        "invalid-option",
        undefined,
        "requireVerifed",
        "createRegistry() has no option 'requireVerifed': did you mean 'requireVerified'? It takes 'name', 'version', 'logger', 'requireVerified', 'startupCheck', 'startupCheckTimeoutMs', 'ui', 'callTimeoutMs', 'title', 'instructions', 'icons', 'websiteUrl' and 'listChanged'; the registry refuses any other key when the server starts.",
      ],
      ["invalid-option", "population", '"no"', "Option 'ui' of registry.tool() for tool 'population' takes 'boolean', not '\"no\"'; the registry refuses it when the server starts."],
    ]);
  });
});

describe("messages of the precision classes", () => {
  it("names the part of the contract that is any", () => {
    const { findings } = analyze(`${HEADER}
registry.tool()(function fetched(): { content: DataToolOutput["content"]; structuredContent: any } { return sample(); });
`);
    expect(findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining("whose 'structuredContent' is 'any': it fits DataToolOutput only because 'any' turns the check off there"),
    ]);
  });

  it("names real members and the real mismatch, never a symbol's internal name", () => {
    const { findings } = analyze(`${HEADER}
function widened() {
  return { content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: ["https://example.org"] } };
}
registry.tool()(function cities(): ReturnType<typeof widened> { return widened(); });
`);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).not.toMatch(/__@/);
    expect(findings[0]!.message).toContain(`its 'content' holds an element whose 'type' is 'string', which is none of "text", "image"`);
  });

  it("says why a function in a mutable object cannot be verified, under its property's name", () => {
    const { findings } = analyze(`${HEADER}
const tools = { towns: (): DataToolOutput => sample() };
registry.tool()(tools.towns);
`);
    expect(findings.map((finding) => [finding.id, finding.tool])).toEqual([["unverifiable-registration", "towns"]]);
    expect(findings[0]!.message).toContain("'tools.towns' is a property of a mutable object, so it can be reassigned");
    expect(findings[0]!.message).not.toContain("not statically a function");
  });

  it("says where a registry loses its mark, and what it becomes", () => {
    const { findings, sourceFile } = analyze(`${HEADER}
interface Host { tool(): (fn: () => unknown) => unknown }
declare function install(host: Host): void;
install(registry);
`);
    expect(findings.map((finding) => [finding.id, sourceFile.text.slice(finding.start, finding.end)])).toEqual([["unverifiable-registration", "registry"]]);
    expect(findings[0]!.message).toContain("becomes 'Host' here, whose 'tool' does not return a marked decorator");
  });
});

describe("messages of the third precision round", () => {
  const TEXT = 'type Text = { type: "text"; text: string };\n';

  it("a readonly array in a part: says it is readonly, never 'string, which is not string'", () => {
    const { findings } = analyze(`${HEADER}${TEXT}
registry.tool()(function listed(): { content: Text[]; structuredContent: { sources: readonly string[] } } { throw new Error(); });
registry.tool()(function paired(): { content: Text[]; structuredContent: { sources: readonly [string, string] } } { throw new Error(); });
`);
    expect(findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining("its 'structuredContent.sources' is 'readonly string[]', a readonly array, where DataToolOutput has the mutable 'string[]'; declare it 'string[]'"),
      expect.stringContaining("its 'structuredContent.sources' is 'readonly [string, string]', a readonly array"),
    ]);
    for (const { message } of findings) expect(message).not.toContain("which is not 'string'");
  });

  it("names the differing part among the contract's optional ones too", () => {
    const { findings } = analyze(`${HEADER}${TEXT}
registry.tool()(function counted(): { content: Text[]; structuredContent: { sources: string[]; table: number } } { throw new Error(); });
registry.tool()(function flagged(): { content: Text[]; structuredContent: { sources: string[] }; isError: string } { throw new Error(); });
`);
    expect(findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining("which is not DataToolOutput: its 'structuredContent.table' is 'number', not '(string | number | boolean | null)[][]'."),
      expect.stringContaining("which is not DataToolOutput: its 'isError' is 'string', not 'boolean'."),
    ]);
  });

  it("a callback's parameter: which call passes it, without repeated words, quoted non-names or '..'", () => {
    const { findings } = analyze(`${HEADER}
export function all(list: readonly (() => DataToolOutput)[]): void {
  list.map((f) => registry.tool()(f));
  list.forEach(function each(fn) { registry.tool()(fn); });
}
export function install(fn: () => string): void {
  registry.tool()(fn);
}
`);
    expect(findings.map((finding) => finding.message)).toEqual([
      "The tool registered here cannot be verified: 'f' is a parameter of the callback passed to 'list.map', so the function registered is " +
        "whichever one that call passes it. Register each function by name where it is declared (registry.tool()(cities)), not through a callback or a loop.",
      expect.stringContaining("'fn' is a parameter of the callback passed to 'list.forEach'"),
      expect.stringContaining("is declared to return 'string', which is not DataToolOutput. Each caller of 'install' decides what 'fn' registers. Mark 'install' with RegistersTool<…>"),
    ]);
    for (const { message } of findings) {
      expect(message).not.toMatch(/\.\.|the enclosing function|is a parameter.*is a parameter/);
    }
  });

  it("a registry cast to any: says so where it is cast, and leaves a logger's parameter alone", () => {
    const { findings, sourceFile } = analyze(`${HEADER}
(registry as any).tool()(function loose() { return "x"; });
declare function debug(value: any): void;
debug(registry);
`);
    expect(findings.map((finding) => [finding.id, sourceFile.text.slice(finding.start, finding.end)])).toEqual([["unverifiable-registration", "registry"]]);
    expect(findings[0]!.message).toContain("A registry (of type 'Registry') becomes 'any' here: 'any' lets anything be called on it, 'tool' included");
  });

  it("a registry cast to a plugin's type and one stored in a binding typed any: each message says which loss it is", () => {
    const { findings, sourceFile } = analyze(`${HEADER}
interface Host { tool(): (fn: () => unknown) => unknown }
export const cast = registry as Host;
export const held: any = registry;
`);
    expect(findings.map((finding) => [finding.id, sourceFile.text.slice(finding.start, finding.end)])).toEqual([
      ["unverifiable-registration", "registry"],
      ["unverifiable-registration", "registry"],
    ]);
    expect(findings[0]!.message).toContain("A registry (of type 'Registry') becomes 'Host' here, whose 'tool' does not return a marked decorator");
    expect(findings[0]!.message).not.toContain("'any' lets anything");
    expect(findings[1]!.message).toContain("A registry (of type 'Registry') becomes 'any' here: 'any' lets anything be called on it, 'tool' included");
  });

  // A front-end blaming a registration it cannot see on an escape (the start-up check) words it
  // by what escaped, and tells escapes from other findings by it, without reading messages or ids.
  it("an escape says what escaped, a registry or a tool decorator; no other finding says anything", () => {
    const { findings, sourceFile } = analyze(`${HEADER}
declare function keep(value: unknown): void;
keep(registry.tool());
export const typedAway: unknown = registry.tool();
export const wrapped = registry.tool() as unknown;
export function made(): unknown { return registry.tool(); }
export const held: any = registry;
interface Host { tool(): (fn: () => unknown) => unknown }
export const cast = registry as Host;
registry.tool()();
registry.tool()(function loose() { return "x"; });
registry.tool({ name: "twice" })(function one(): DataToolOutput { return sample(); });
registry.tool({ name: "twice" })(function two(): DataToolOutput { return sample(); });
`);
    expect(findings.map((finding) => [finding.id, sourceFile.text.slice(finding.start, finding.end), finding.escaped])).toEqual([
      ["unverifiable-registration", "registry.tool()", "decorator"],
      ["unverifiable-registration", "registry.tool()", "decorator"],
      ["unverifiable-registration", "registry.tool()", "decorator"],
      ["unverifiable-registration", "registry.tool()", "decorator"],
      ["unverifiable-registration", "registry", "registry"],
      ["unverifiable-registration", "registry", "registry"],
      ["unverifiable-registration", "registry.tool()()", undefined],
      ["missing-annotation", "loose", undefined],
      ["duplicate-tool-name", expect.any(String), undefined],
    ]);
    // Absent, not `undefined`: a finding serialised whole is as it was before the field.
    for (const finding of findings) if (finding.escaped === undefined) expect(Object.keys(finding)).not.toContain("escaped");
    expect(findings.slice(0, 6).map((finding) => finding.message.slice(0, finding.message.indexOf(" here")))).toEqual([
      "A tool decorator (of type 'ToolDecorator<NoArguments, NoOutputKeys>') is passed as an argument",
      "A tool decorator (of type 'ToolDecorator<NoArguments, NoOutputKeys>') becomes 'unknown'",
      "A tool decorator (of type 'ToolDecorator<NoArguments, NoOutputKeys>') becomes 'unknown'",
      "A tool decorator (of type 'ToolDecorator<NoArguments, NoOutputKeys>') is returned as 'unknown'",
      "A registry (of type 'Registry') becomes 'any'",
      "A registry (of type 'Registry') becomes 'Host'",
    ]);
  });

  it("advises JavaScript's own spelling of 'as const' in a JavaScript file", () => {
    const { program, sourceFile } = programWith(
      `import { registry } from "./lib/registry.js";\nimport { sample } from "./lib/sample.js";\nconst tools = { towns: /** @returns {import("@sourced/registry").DataToolOutput} */ () => sample() };\nregistry.tool()(tools.towns);\n`,
      "__unit__.js",
    );
    const { findings } = analyzeSourceFile(ts, program, sourceFile);
    expect(findings[0]!.message).toContain("wrap the object in '/** @type {const} */ (…)' so that its function is fixed");
  });
});

describe("what the registry refuses at start-up, seen at the registration", () => {
  it("an anonymous function without a name in its options", () => {
    const { findings, sourceFile } = analyze(`${HEADER}
registry.tool()((): DataToolOutput => sample());
`);
    expect(findings.map((finding) => [finding.id, finding.tool, sourceFile.text.slice(finding.start, finding.end)])).toEqual([["unnamed-tool", undefined, "=>"]]);
    expect(findings[0]!.message).toBe(
      "The tool registered here has no name: the registry serves options.name, else the function's own name, and this anonymous arrow function " +
        'has none, so the registry throws at start-up. Name the function (function list_cities() {…}) or pass { name: "list_cities" }.',
    );
  });

  it("a name the MCP rule forbids: the registry's own words and its suggestion, at the name written", () => {
    const { findings, sourceFile } = analyze(`${HEADER}
registry.tool({ name: "top city" })(function topCity(): DataToolOutput { return sample(); });
`);
    expect(findings.map((finding) => [finding.id, finding.tool, sourceFile.text.slice(finding.start, finding.end)])).toEqual([["invalid-tool-name", "top city", '"top city"']]);
    expect(findings[0]!.message).toBe(
      "Tool 'top city' has a name the registry refuses at start-up: the tool name \"top city\" breaks the MCP tool-name rule (1 to 128 characters, " +
        'each A-Z, a-z, 0-9, "_", "-" or ".", not starting or ending with "-" or "."): it contains a space. Pass { name: "top_city" }.',
    );
  });

  it("a name taken twice on one registry: at the second, naming the first's place; another registry is another", () => {
    const { findings, sourceFile } = analyze(`${HEADER}import { createRegistry } from "@sourced/registry";
function cities(): DataToolOutput { return sample(); }
registry.tool()(cities);
createRegistry({ name: "other", version: "1" }).tool()(cities);
registry.tool({ name: "cities" })(function towns(): DataToolOutput { return sample(); });
`);
    expect(findings.map((finding) => [finding.id, finding.tool, sourceFile.text.slice(finding.start, finding.end)])).toEqual([["duplicate-tool-name", "cities", '"cities"']]);
    expect(findings[0]!.message).toBe(
      "Tool 'cities' is registered twice on 'registry': first at ./__unit__.ts:6:1, then here, and the registry throws at start-up. " +
        'Give one of them another name with { name: "…" }.',
    );
  });

  it("a source literal no rule accepts: the net's own words and fix; other schemes and computed sources are left to the net", () => {
    const { findings, sourceFile } = analyze(`${HEADER}
registry.tool()(function spaced(id: string): DataToolOutput {
  return { content: [{ type: "text", text: id }], structuredContent: { sources: ["https://example.org/top cities", "memory://graph", \`cities/\${id}\`] } };
});
`);
    expect(findings.map((finding) => [finding.id, finding.tool, sourceFile.text.slice(finding.start, finding.end)])).toEqual([
      ["invalid-source", "spaced", '"https://example.org/top cities"'],
    ]);
    expect(findings[0]!.message).toBe(
      "Tool 'spaced' returns the source \"https://example.org/top cities\", which the registry refuses on every call: a source must be an absolute " +
        'http: or https: URL (it contains a space); write "https://example.org/top%20cities". Cite where the data came from with an absolute http(s) URL, ' +
        "or the URI of a resource the registry serves (registry.resource()).",
    );
  });

  it("strictNullChecks off: one warning at the program's first registration, and a written '| undefined' still rejected", () => {
    const { program, sourceFile } = programWith(
      `${HEADER}
registry.tool()(function cities(): DataToolOutput { return sample(); });
registry.tool()(function maybe(): DataToolOutput | undefined { return undefined; });
`,
      "__unit__.ts",
      { strictNullChecks: false },
    );
    const { findings } = analyzeSourceFile(ts, program, sourceFile);
    expect(findings.map((finding) => [finding.id, finding.tool, sourceFile.text.slice(finding.start, finding.end)])).toEqual([
      ["strict-null-checks-off", undefined, "registry.tool()"],
      ["not-data-tool-output", "maybe", "DataToolOutput | undefined"],
    ]);
    expect(findings[0]!.message).toMatch(/^strictNullChecks is off in this project, so DataToolOutput admits undefined and null/);
    expect(findings[1]!.message).toContain("whose member 'undefined' is not DataToolOutput");
    // Under strict, no warning.
    expect(analyze(`${HEADER}registry.tool()(function cities(): DataToolOutput { return sample(); });\n`).findings).toEqual([]);
  });
});

describe("the contract's rules", () => {
  it("are @sourced/contract-rules' own, which the registry enforces too: written once", () => {
    // The words of invalid-tool-name and invalid-source are pinned above; here, that they are the package's.
    expect(closestMatch).toBe(rules.closestMatch);
    const { findings } = analyze(`${HEADER}
registry.tool({ name: "top city" })(function topCity(): DataToolOutput { return { content: [{ type: "text", text: "x" }], structuredContent: { sources: ["./cities.csv"] } }; });
`);
    expect(findings.map((finding) => finding.id)).toEqual(["invalid-tool-name", "invalid-source"]);
    expect(findings[0]!.message).toContain(rules.toolNameProblem("top city")!);
    expect(findings[1]!.message).toContain(rules.describeSourceUrlProblem("./cities.csv"));
  });
});

describe("the fix of missing-annotation", () => {
  it.each([
    ["a function expression", "registry.tool()(function list_cities() { return sample(); });", ": DataToolOutput"],
    ["an async function", "registry.tool()(async function population() { return sample(); });", ": Promise<DataToolOutput>"],
    ["an arrow returning a promise", "registry.tool({ name: 'p' })(() => Promise.resolve(sample()));", ": Promise<DataToolOutput>"],
    ["an arrow with a lone parameter", "registry.tool({ name: 'lone' })(city => sample(String(city)));", ": DataToolOutput"],
    ["a static method", "export class W { @registry.tool() static forecast() { return sample(); } }", ": DataToolOutput"],
  ])("on %s: applied, the registration verifies", (_name, registration, annotation) => {
    const text = `${HEADER}${registration}\n`;
    const { findings, sourceFile } = analyze(text);
    expect(findings.map((finding) => finding.id)).toEqual(["missing-annotation"]);
    const fix = findings[0]!.fix!;
    expect(fix).toMatchObject({
      inferredFits: true,
      typeText: annotation.slice(2),
      jsdoc: false,
      typeInScope: true,
      importName: "DataToolOutput",
      module: "@sourced/registry",
      importStatement: 'import type { DataToolOutput } from "@sourced/registry";',
      // Already imported: a second import would repeat it.
      importable: false,
    });
    const last = fix.edits[fix.edits.length - 1]!;
    expect(last.text.endsWith(annotation)).toBe(true);
    // The annotation goes right after the parameter list's `)` (or the lone parameter).
    expect(sourceFile.text.slice(last.position - 1, last.position)).toMatch(/[)a-z]/);
    const fixed = analyze(applyEdits(text, findings[0]!));
    expect(fixed.findings).toEqual([]);
    expect(fixed.registrations).toHaveLength(1);
    expect(fixed.registrations[0]!.finding).toBeUndefined();
  });

  it("says when the inferred type does not fit, and when DataToolOutput is not in scope", () => {
    const { findings } = analyze(`import { registry } from "./lib/registry.js";
registry.tool()(function greeting() { return "hello"; });
`);
    expect(findings[0]!.fix).toMatchObject({ inferredFits: false, typeText: "DataToolOutput", typeInScope: false, importable: true });
    expect(findings[0]!.message).toContain(`importing it with 'import type { DataToolOutput } from "@sourced/registry";'`);
  });

  it("does not count a local type of the same name as in scope, and does not import over it", () => {
    const { findings } = analyze(`import { registry } from "./lib/registry.js";
import { sample } from "./lib/sample.js";
type DataToolOutput = { content: string };
registry.tool()(function local() { return sample(); });
`);
    expect(findings[0]!.fix).toMatchObject({ typeInScope: false, importable: false });
  });

  // An import of the name would clash with any top-level declaration of it, in any meaning.
  it.each([
    ["a value of that name", "export const DataToolOutput = 1;", false],
    ["an import of that name from elsewhere", `import type { ToolResult as DataToolOutput } from "./lib/output.js";`, false],
    ["a destructured binding", "export const { DataToolOutput } = { DataToolOutput: 1 };", false],
    ["the second of two in an array pattern", "export const [first, DataToolOutput] = [1, 2];", false],
    ["the second of two declarations", "export const first = 1, DataToolOutput = 2;", false],
    ["a default import", `import DataToolOutput from "./lib/output.js";`, false],
    ["a namespace import", `import * as DataToolOutput from "./lib/output.js";`, false],
    ["the second of two named imports", `import { type ToolResult, type ToolResult as DataToolOutput } from "./lib/output.js";`, false],
    ["a function", "export function DataToolOutput(): void {}", false],
    ["a class", "export class DataToolOutput {}", false],
    ["an interface", "export interface DataToolOutput { content: string }", false],
    ["an enum", "export enum DataToolOutput { A }", false],
    ["a namespace", "export namespace DataToolOutput { export const a = 1; }", false],
    ["an import alias", "import DataToolOutput = Legacy.Output;\ndeclare namespace Legacy { type Output = string; }", false],
    ["an import for its side effects", `import "./lib/output.js";`, true],
    ["other names, a hole in an array pattern among them", "export const [, other] = [1, 2];\nexport const { more } = { more: 1 };", true],
    ["another named import, and a namespace import of another name", `import type { ToolResult } from "./lib/output.js";\nimport * as outputs from "./lib/output.js";`, true],
    ["a module named DataToolOutput", `declare module "DataToolOutput" { export const a: number; }`, true],
    ["a default export without a name", "export default function (): void {}", true],
  ])("beside %s at the file's top level: importable %s", (_name, declaration, importable) => {
    const { findings } = analyze(`import { registry } from "./lib/registry.js";
import { sample } from "./lib/sample.js";
${declaration}
registry.tool()(function local() { return sample(); });
`);
    expect(findings[0]!.fix).toMatchObject({ typeInScope: false, importable });
  });

  it("does not import a name that a declaration around the function would shadow", () => {
    const { findings } = analyze(`import { registry } from "./lib/registry.js";
import { sample } from "./lib/sample.js";
export namespace Local {
  type DataToolOutput = { content: string };
  export const local = registry.tool()(function local() { return sample(); });
}
export function install<DataToolOutput>(): void {
  registry.tool()(function generic() { return sample(); });
}
`);
    expect(findings.map((finding) => [finding.tool, finding.fix?.typeInScope, finding.fix?.importable])).toEqual([
      ["local", false, false],
      ["generic", false, false],
    ]);
  });

  it("imports a name that only a global declares: the import shadows it", () => {
    const { findings } = analyze(`import { registry } from "./lib/registry.js";
import { sample } from "./lib/sample.js";
declare global {
  interface DataToolOutput { legacy: true }
}
registry.tool()(function local() { return sample(); });
`);
    expect(findings[0]!.fix).toMatchObject({ typeInScope: false, importable: true });
  });
});

describe("the fix of missing-annotation in checked JavaScript", () => {
  const JS_HEADER = `/** @import { DataToolOutput } from "@sourced/registry" */
import { registry } from "./lib/registry.js";
import { sample } from "./lib/sample.js";
`;

  function analyzeJs(text: string): AnalysisResult & { sourceFile: ts.SourceFile } {
    const { program, sourceFile } = programWith(text, "__unit__.js");
    return { ...analyzeSourceFile(ts, program, sourceFile), sourceFile };
  }

  it.each([
    ["a function declaration", "function cities() {\n  return sample();\n}\nregistry.tool()(cities);\n", "/** @returns {DataToolOutput} */\nfunction cities() {"],
    ["a const arrow", "const towns = () => sample();\nregistry.tool()(towns);\n", "/** @returns {DataToolOutput} */\nconst towns = () => sample();"],
    ["an async arrow passed inline", "registry.tool({ name: 'p' })(async () => sample());\n", "(/** @returns {Promise<DataToolOutput>} */ async () => sample())"],
    [
      "a function with a multi-line JSDoc",
      "/**\n * Lists rivers.\n * @param {string} city\n */\nfunction rivers(city) {\n  return sample(city);\n}\nregistry.tool()(rivers);\n",
      " * @param {string} city\n * @returns {DataToolOutput}\n */",
    ],
    ["a function with a one-line JSDoc", "/** Lists lakes. */\nfunction lakes() {\n  return sample();\n}\nregistry.tool()(lakes);\n", "/** Lists lakes.\n * @returns {DataToolOutput}\n */"],
    ["a one-line JSDoc closed without a space", "/** Lists lakes.*/\nfunction lakes() {\n  return sample();\n}\nregistry.tool()(lakes);\n", "/** Lists lakes.\n * @returns {DataToolOutput}\n */\nfunction lakes"],
    [
      "an indented one-line JSDoc",
      "export function install() {\n  /** Lists lakes. */\n  function lakes() {\n    return sample();\n  }\n  registry.tool()(lakes);\n}\n",
      "\n  /** Lists lakes.\n   * @returns {DataToolOutput}\n   */\n  function lakes",
    ],
    ["a JSDoc closed after its text on a later line", "/**\n * Lists rivers. */\nfunction rivers() {\n  return sample();\n}\nregistry.tool()(rivers);\n", "/**\n * Lists rivers.\n * @returns {DataToolOutput}\n */\nfunction rivers"],
    ["the second of two consts", "const size = 1, towns = () => sample();\nregistry.tool()(towns);\n", "const size = 1, towns = /** @returns {DataToolOutput} */ () => sample();"],
    ["an indented function without JSDoc", "export function install() {\n  function lakes() {\n    return sample();\n  }\n  registry.tool()(lakes);\n}\n", "{\n  /** @returns {DataToolOutput} */\n  function lakes() {"],
    [
      "a static method",
      "export class W {\n  @registry.tool()\n  static forecast() {\n    return sample();\n  }\n}\n",
      "  /** @returns {DataToolOutput} */\n  @registry.tool()",
    ],
  ])("on %s: a JSDoc @returns, and applied, the registration verifies", (_name, registration, expected) => {
    const text = `${JS_HEADER}${registration}`;
    const { findings } = analyzeJs(text);
    expect(findings.map((finding) => finding.id)).toEqual(["missing-annotation"]);
    expect(findings[0]!.message).toContain("in the function's JSDoc");
    expect(findings[0]!.message).not.toContain("after the parameter list");
    expect(findings[0]!.fix).toMatchObject({ jsdoc: true, typeInScope: true, inferredFits: true });
    const fixedText = applyEdits(text, findings[0]!);
    expect(fixedText).toContain(expected);
    const fixed = analyzeJs(fixedText);
    expect(fixed.findings).toEqual([]);
    expect(fixed.registrations.map((registration) => registration.finding)).toEqual([undefined]);
  });

  it("offers no fix for a JSDoc overload without @returns: the edit would belong in that overload's JSDoc", () => {
    const { findings } = analyzeJs(
      `${HEADER}/**\n * @overload\n * @param {number} n\n * @returns {DataToolOutput}\n */\n/**\n * @overload\n * @param {string} s\n */\n/** @param {any} x */\nfunction lookup(x) { return sample(); }\nregistry.tool()(lookup);\n`,
    );
    expect(findings.map((finding) => [finding.id, finding.message, finding.fix])).toEqual([
      [
        "missing-annotation",
        "Tool 'lookup' (overload 2 of 2) has no return type annotation; the registry accepts only a tool declared to return DataToolOutput, and an inferred type does not count. Its inferred return type is 'any'. It does not fit: write '@returns {DataToolOutput}' in that overload's JSDoc block, and return { content: [{ type: \"text\", text }], structuredContent: { sources: [url] } }.",
        undefined,
      ],
    ]);
  });

  it("advises a JSDoc @import when DataToolOutput is not in scope, never TypeScript syntax", () => {
    const { findings } = analyzeJs(`import { registry } from "./lib/registry.js";
import { sample } from "./lib/sample.js";
registry.tool()(function lakes() { return sample(); });
`);
    expect(findings[0]!.fix).toMatchObject({
      jsdoc: true,
      typeInScope: false,
      importable: true,
      importStatement: '/** @import { DataToolOutput } from "@sourced/registry" */',
    });
    expect(findings[0]!.message).toContain(`write '@returns {DataToolOutput}' in the function's JSDoc, importing it with '/** @import { DataToolOutput } from "@sourced/registry" */'`);
    expect(findings[0]!.message).not.toContain("import type");
  });

  it("judges JSDoc: @returns {string} is rejected at the JSDoc type, and the advice is JSDoc", () => {
    const { findings, sourceFile } = analyzeJs(`${JS_HEADER}/** @returns {string} */
function loose() { return "no sources"; }
registry.tool()(loose);
`);
    expect(findings.map((finding) => finding.id)).toEqual(["not-data-tool-output"]);
    expect(sourceFile.text.slice(findings[0]!.start, findings[0]!.end)).toBe("string");
    expect(findings[0]!.message).toContain("Declare '@returns {DataToolOutput}' in its JSDoc instead");
  });
});

describe("registrations", () => {
  it("records the form, the tool, the registered function and the verdict", () => {
    const { registrations } = analyze(`${HEADER}
export class Weather {
  @registry.tool({ name: "weather" }) static forecast(): DataToolOutput { return sample(); }
}
export const cities = registry.tool()(function list_cities(): DataToolOutput { return sample(); });
`);
    expect(registrations.map((registration) => [registration.form, registration.tool, registration.finding])).toEqual([
      ["decorator", "weather", undefined],
      ["call", "list_cities", undefined],
    ]);
    expect(ts.isMethodDeclaration(registrations[0]!.fn!)).toBe(true);
    expect(ts.isFunctionExpression(registrations[1]!.fn!)).toBe(true);
  });

  // What an emit step pins on a function it strips (edit-plan.ts): the name the registry serves,
  // only where the registry takes it from the function; where the options name the tool, pinning
  // would rename the user's function.
  it("pins the served name only where the registry takes it from the function", () => {
    const { registrations } = analyze(`${HEADER}
declare const flag: boolean;
declare const options: { name?: "from_type" };
let changing = "changing";
const asTool = registry.tool();
const asNamed = registry.tool({ name: "held" });
registry.tool()(function plain(): DataToolOutput { return sample(); });
registry.tool({ name: "named" })(function unnamed_here(): DataToolOutput { return sample(); });
registry.tool({ name: undefined })(function undefined_name(): DataToolOutput { return sample(); });
registry.tool({ name: void 0 })(function void_name(): DataToolOutput { return sample(); });
registry.tool({ name: flag ? "either_same" : undefined })(function either_same(): DataToolOutput { return sample(); });
registry.tool({ name: flag ? "one" : "two" })(function two_names(): DataToolOutput { return sample(); });
registry.tool({ name: flag ? "either_other" : undefined })(function not_that(): DataToolOutput { return sample(); });
registry.tool({ name: changing })(function dynamic(): DataToolOutput { return sample(); });
registry.tool(options)(function from_type(): DataToolOutput { return sample(); });
registry.tool({ ...options })(function spread(): DataToolOutput { return sample(); });
registry.tool({ ["name"]: "computed_literal" })(function computed(): DataToolOutput { return sample(); });
registry["tool"]({ name: "element_access" })(function element(): DataToolOutput { return sample(); });
asTool(function through_const(): DataToolOutput { return sample(); });
asNamed(function through_named_const(): DataToolOutput { return sample(); });
(flag ? asTool : asNamed)(function through_either(): DataToolOutput { return sample(); });
changing = "";
`);
    expect(registrations.map((registration) => [registration.tool, registration.pinnedName])).toEqual([
      ["plain", "plain"],
      ["named", undefined],
      ["undefined_name", "undefined_name"],
      ["void_name", "void_name"],
      ["either_same", "either_same"],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      // An optional name equal to the function's: served under it either way.
      ["from_type", "from_type"],
      [undefined, undefined],
      ["computed_literal", undefined],
      ["element_access", undefined],
      ["through_const", "through_const"],
      ["held", undefined],
      [undefined, undefined],
    ]);
  });

  it("reads the options a name comes from as the registry will, and names no tool it cannot see", () => {
    const chain = Array.from({ length: 8 }, (_, index) => `const hop${index + 1} = hop${index};`).join("\n");
    const { registrations } = analyze(`${HEADER}
declare const flag: boolean;
declare const untitled: { title: string };
declare const options: { name?: "from_type" };
declare const unnamed: { name?: undefined };
declare const ambient: ReturnType<typeof registry.tool>;
declare const picked: { name?: "picked_a" | "picked_b" };
let changing = "changing";
const factories = { make: (options: { name: string }) => registry.tool(options) };
const curried = () => factories.make;
const { make } = factories;
const [tool] = [factories.make];
const { "tool": quoted } = registry;
const holder = { asTool: registry.tool() };
const { asTool: fromHolder } = holder;
const hop0 = registry.tool({ name: "deep" });
${chain}
registry.tool({ name: "before", ...untitled })(function spread_without_name(): DataToolOutput { return sample(); });
registry.tool({ name: "before", ...options })(function from_type(): DataToolOutput { return sample(); });
registry.tool({ [changing]: "computed" })(function computed_key(): DataToolOutput { return sample(); });
registry.tool(unnamed)(function typed_undefined(): DataToolOutput { return sample(); });
registry.tool({ name: flag ? ("same" as string) : "same" })(function asserted_branch(): DataToolOutput { return sample(); });
factories.make({ name: "made" })(function made_by_method(): DataToolOutput { return sample(); });
factories["make"]({ name: "made" })(function made_by_element(): DataToolOutput { return sample(); });
make({ name: "made" })(function made_destructured(): DataToolOutput { return sample(); });
tool({ name: "made" })(function made_from_array(): DataToolOutput { return sample(); });
curried()({ name: "made" })(function made_by_a_call(): DataToolOutput { return sample(); });
quoted({ name: "quoted" })(function quoted_key(): DataToolOutput { return sample(); });
ambient(function ambient_decorator(): DataToolOutput { return sample(); });
hop7(function seven_hops(): DataToolOutput { return sample(); });
hop8(function eight_hops(): DataToolOutput { return sample(); });
(flag ? hop7 : hop7)(function seven_hops_and_a_conditional(): DataToolOutput { return sample(); });
registry.tool(picked)(function picked_a(): DataToolOutput { return sample(); });
holder.asTool(function held_by_object(): DataToolOutput { return sample(); });
fromHolder(function destructured_from_object(): DataToolOutput { return sample(); });
// @ts-expect-error: names not declared yet, as often in an editor
(flag ? hop0 : (undeclared as typeof hop0))(function mid_edit(): DataToolOutput { return sample(); });
// @ts-expect-error
(undeclaredFactory({ name: "made" }) as typeof hop0)(function mid_edit_factory(): DataToolOutput { return sample(); });
// @ts-expect-error
registry.tool({ name })(function mid_edit_shorthand(): DataToolOutput { return sample(); });
`);
    expect(registrations.map((registration) => [registration.tool, registration.pinnedName])).toEqual([
      // A spread whose type has no `name` leaves the earlier one standing; one that may have it
      // (`name?: "from_type"`: absent, "from_type" or undefined) makes the name unknown.
      ["before", undefined],
      [undefined, undefined],
      // A computed key may be `name`.
      [undefined, undefined],
      // A `name` typed `undefined`: the function's.
      ["typed_undefined", "typed_undefined"],
      // Each branch read as written: `"same" as string` is still "same" at run time.
      ["same", undefined],
      // A factory's own options (a method, an element, destructured from an object or an array,
      // returned by a call): whatever it passes to `registry.tool` is out of sight.
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      // The registry's `tool` destructured under a quoted key.
      ["quoted", undefined],
      // Made out of sight: named as its author names it, the function's name pinned (harmless if
      // the options name the tool).
      ["ambient_decorator", "ambient_decorator"],
      // Eight consts are followed (MAX_HOPS); past them the decorator is made out of sight.
      ["deep", undefined],
      ["eight_hops", "eight_hops"],
      // A conditional is one more.
      ["seven_hops_and_a_conditional", "seven_hops_and_a_conditional"],
      // "picked_a", "picked_b" or the function's: unknown, though one of them is the function's.
      [undefined, undefined],
      // An object's property, which the analysis does not follow: as if made out of sight.
      ["held_by_object", "held_by_object"],
      ["destructured_from_object", "destructured_from_object"],
      // Names that resolve to nothing yet: a branch made out of sight, a factory's options, a
      // name unknown; never a failure.
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
    expect(registrations.flatMap((registration) => registration.finding ?? [])).toEqual([]);
  });
});

// What the value at a registration resolves to, and so what is judged: the declarations behind
// names, aliases, objects, patterns and parameters, up to the analysis' limits, and the words of
// each case it cannot see through. The corpus pins these per front-end; this pins each edge.
describe("what a registered value resolves to", () => {
  const DIRECTLY = "Register a function declared with ': DataToolOutput' directly, or a const bound to one.";
  const DECLARE = ' Declare \': DataToolOutput\' instead and return { content: [{ type: "text", text }], structuredContent: { sources: [url] } }.';
  type Outcome = readonly [tool: string | undefined, id: string | undefined, message: string | undefined];
  const ok = (tool?: string): Outcome => [tool, undefined, undefined];
  const cannotVerify = (tool: string | undefined, why: string, instead = DIRECTLY): Outcome => [
    tool,
    "unverifiable-registration",
    `${tool === undefined ? "The tool registered here" : `Tool '${tool}'`} cannot be verified: ${why}. ${instead}`,
  ];
  const returnsString = (tool: string | undefined, after = DECLARE): Outcome => [
    tool,
    "not-data-tool-output",
    `${tool === undefined ? "The tool registered here" : `Tool '${tool}'`} is declared to return 'string', which is not DataToolOutput.${after}`,
  ];
  const computed = (text: string) => `the function registered here is computed at run time ('${text}', of type '() => DataToolOutput'), so its declared return type cannot be seen`;
  const callersDecide = (enclosing?: string) => {
    const who = enclosing === undefined ? "its function" : `'${enclosing}'`;
    const mark = enclosing === undefined ? "that function" : `'${enclosing}'`;
    return [`'fn' is a parameter without a type, so each caller of ${who} decides what is registered`, `Mark ${mark} with RegistersTool<…> from @sourced/registry so that each of its calls is judged, or type 'fn' as a function returning DataToolOutput.`] as const;
  };
  const mutableProperty = (reference: string) =>
    `'${reference}' is a property of a mutable object, so it can be reassigned before it is registered; make the object 'as const' so that its function is fixed`;
  const TOO_MANY = "it is reached through too many aliases";
  const ALIASED = "const a0 = function aliased(): DataToolOutput { return sample(); };";
  /** `const a<from+1> = a<from>; … const a<to> = a<to-1>;` */
  const aliases = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => `const a${from + index + 1} = a${from + index};`).join("\n");
  const MAKE = "declare function make(...n: number[]): () => DataToolOutput;";

  it.each<[string, string, Outcome[]]>([
    // Names: a method's key, overloads.
    ["a method under a computed key that is not a literal: no name", 'const key = "city_list";\nclass T { @registry.tool() static [key](): DataToolOutput { return sample(); } }', [ok()]],
    ["a decorated method's overloads", "class T {\n  static over(): DataToolOutput;\n  static over(x: number): string;\n  @registry.tool() static over(x?: number): any { return x; }\n}", [["over", "not-data-tool-output", "Tool 'over' (overload 2 of 2) is declared to return 'string', which is not DataToolOutput." + DECLARE]]],
    // JSDoc types a TypeScript function only in JavaScript: in TypeScript, `@returns` is no annotation, nor `@overload` a signature.
    ["a TypeScript function's @returns", "/** @returns {DataToolOutput} */\nfunction documented() { return sample(); }\nregistry.tool()(documented);", [["documented", "missing-annotation", "Tool 'documented' has no return type annotation; the registry accepts only a tool declared to return DataToolOutput, and an inferred type does not count. Its inferred return type is 'DataResult'. It already fits: write ': DataToolOutput' after the parameter list."]]],
    ["a TypeScript function's @overload", "/**\n * @overload\n * @returns {string}\n */\nfunction annotated(): DataToolOutput { return sample(); }\nregistry.tool()(annotated);", [ok("annotated")]],
    ["an ambient function", "declare function ambient(): DataToolOutput;\nregistry.tool()(ambient);", [ok("ambient")]],
    ["an ambient function of another type", "declare function ambient(): string;\nregistry.tool()(ambient);", [returnsString("ambient")]],
    // Aliases: each const, destructuring, object property and default export is one hop; MAX_HOPS (8) are followed.
    ["eight const aliases are followed", `${ALIASED}\n${aliases(0, 8)}\nregistry.tool()(a8);`, [ok("aliased")]],
    ["a ninth is one too many", `${ALIASED}\n${aliases(0, 9)}\nregistry.tool()(a9);`, [cannotVerify(undefined, TOO_MANY)]],
    ["a destructured const is a hop, and the object's property another", `${ALIASED}\n${aliases(0, 7)}\nconst holder = { a8: a7 } as const;\nconst { a8 } = holder;\nregistry.tool()(a8);`, [cannotVerify(undefined, TOO_MANY)]],
    ["an as-const object's shorthand is a hop", `${ALIASED}\n${aliases(0, 8)}\nconst holder = { a8 } as const;\nregistry.tool()(holder.a8);`, [cannotVerify(undefined, TOO_MANY)]],
    ["an as-const object's property is a hop", `${ALIASED}\n${aliases(0, 8)}\nconst holder = { value: a8 } as const;\nregistry.tool()(holder.value);`, [cannotVerify(undefined, TOO_MANY)]],
    ["a default export is a hop", `import own from "./__unit__.js";\n${ALIASED}\n${aliases(0, 8)}\nexport default (a8);\nregistry.tool()(own);`, [cannotVerify(undefined, TOO_MANY)]],
    ["a default export of a name", 'import own from "./__unit__.js";\nconst handler = (): DataToolOutput => sample();\nexport default handler;\nregistry.tool()(own);', [ok("handler")]],
    ["a default export of an arrow", 'import own from "./__unit__.js";\nexport default ((): DataToolOutput => sample());\nregistry.tool()(own);', [ok()]],
    // What is computed at run time, and what is not a function at all, quoted on one line up to 60 characters.
    ["a conditional", "declare const flag: boolean;\nfunction a(): DataToolOutput { return sample(); }\nfunction b(): DataToolOutput { return sample(); }\nregistry.tool()(flag ? a : b);", [cannotVerify(undefined, computed("flag ? a : b"))]],
    ["a call returning a function", `${MAKE}\nregistry.tool()(make());`, [cannotVerify(undefined, computed("make()"))]],
    ["a call returning any", "declare function anything(): any;\nregistry.tool()(anything());", [cannotVerify(undefined, "the registered value 'anything()' (of type 'any') is not statically a function")]],
    ["a class", "class Tools {}\n// @ts-expect-error\nregistry.tool()(Tools);", [cannotVerify(undefined, "the registered value 'Tools' (of type 'typeof Tools') is not statically a function")]],
    ["undefined", "// @ts-expect-error\nregistry.tool()(undefined);", [cannotVerify(undefined, "'undefined' has no declaration the analysis can see")]],
    ["each run of whitespace quoted as one space", `${MAKE}\nregistry.tool()(make(\n  1,\n\n  2,   3));`, [cannotVerify(undefined, computed("make( 1, 2, 3)"))]],
    ["60 characters quoted whole", `${MAKE}\nregistry.tool()(make(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 160));`, [cannotVerify(undefined, computed("make(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 160)"))]],
    ["61 cut at 57", `${MAKE}\nregistry.tool()(make(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1600));`, [cannotVerify(undefined, computed("make(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1..."))]],
    // Parameters: a callback's is whatever its call passes; any other function's, whatever its callers pass.
    ["a callback in parentheses", "declare const list: Array<() => DataToolOutput>;\nlist.forEach(((fn) => registry.tool()(fn)));", [cannotVerify(undefined, "'fn' is a parameter of the callback passed to 'list.forEach', so the function registered is whichever one that call passes it", "Register each function by name where it is declared (registry.tool()(cities)), not through a callback or a loop.")]],
    ["an arrow called at once", "function cities(): DataToolOutput { return sample(); }\n((fn) => registry.tool()(fn))(cities);", [cannotVerify(undefined, ...callersDecide())]],
    ["a function expression called at once", "function cities(): DataToolOutput { return sample(); }\n(function (fn) { registry.tool()(fn); })(cities);", [cannotVerify(undefined, ...callersDecide())]],
    ["an anonymous function expression, named by its const", "// @ts-expect-error: implicitly any\nconst register = function (fn) { registry.tool()(fn); };", [cannotVerify(undefined, ...callersDecide("register"))]],
    ["an arrow, named by its const", "// @ts-expect-error: implicitly any\nconst register = (fn) => registry.tool()(fn);", [cannotVerify(undefined, ...callersDecide("register"))]],
    ["an arrow in an object, not named by its key", "// @ts-expect-error: implicitly any\nconst holder = { register: (fn) => registry.tool()(fn) };", [cannotVerify(undefined, ...callersDecide())]],
    ["a declared function", "// @ts-expect-error: implicitly any\nfunction register(fn) { registry.tool()(fn); }", [cannotVerify(undefined, ...callersDecide("register"))]],
    ["a typed parameter, judged by its type", "function register(fn: () => string) { registry.tool()(fn); }", [returnsString(undefined, ` Each caller of 'register' decides what 'fn' registers. ${callersDecide("register")[1]}`)]],
    // Properties and bindings: readonly and const are fixed; a function's own annotation wins over its binding's type.
    ["a static readonly arrow", "class Tools { static readonly handler = (): DataToolOutput => sample(); }\nregistry.tool()(Tools.handler);", [ok("handler")]],
    ["a static arrow that can be reassigned", "class Tools { static handler = (): DataToolOutput => sample(); }\nregistry.tool()(Tools.handler);", [cannotVerify("handler", "'Tools.handler' can be reassigned and has no explicit function type")]],
    ["a readonly property of an interface", "interface Tools { readonly handler: () => DataToolOutput }\ndeclare const tools: Tools;\nregistry.tool()(tools.handler);", [ok("handler")]],
    ["a function's own annotation over its binding's", 'const inner = (): string => "";\nconst typed: () => DataToolOutput = inner as any;\nregistry.tool()(typed);', [returnsString("inner")]],
    ["an as-const arrow's own annotation over its binding's", 'const tools = { list: (): string => "" } as const;\nconst typed: () => DataToolOutput = tools.list as any;\nregistry.tool()(typed);', [returnsString("list")]],
    ["a default export's own annotation over its binding's", 'import own from "./__unit__.js";\nexport default (): string => "";\nconst typed: () => DataToolOutput = own as any;\nregistry.tool()(typed);', [returnsString(undefined)]],
    ["a binding's type for a missing annotation", "function plain() { return sample(); }\nconst typed: () => DataToolOutput = plain;\nregistry.tool()(typed);", [ok("plain")]],
    ["the nearest binding's type", "function plain() { return sample(); }\nconst inner: () => DataToolOutput = plain;\nconst outer: () => unknown = inner;\n// @ts-expect-error\nregistry.tool()(outer);", [ok("plain")]],
    ["an untyped const bound to a conditional", "declare const flag: boolean;\nfunction a(): DataToolOutput { return sample(); }\nconst alias = flag ? a : a;\nregistry.tool()(alias);", [cannotVerify(undefined, computed("flag ? a : a"))]],
    ["a typed const bound to a conditional", "declare const flag: boolean;\nfunction a(): DataToolOutput { return sample(); }\nconst typed: () => DataToolOutput = flag ? a : a;\nregistry.tool()(typed);", [ok("typed")]],
    ["a loop variable", "declare const list: Array<() => DataToolOutput>;\nfor (const fn of list) registry.tool()(fn);", [cannotVerify(undefined, "'fn' has no value the analysis can see")]],
    ["a catch clause's variable", "try { } catch (fn) { registry.tool()(fn as () => DataToolOutput); }", [cannotVerify("fn", "'fn' can be reassigned and has no explicit function type")]],
    // Patterns: a const's object pattern reads the property; any other pattern is not followed.
    ["an array pattern", "function cities(): DataToolOutput { return sample(); }\nconst [first] = [cities];\nregistry.tool()(first);", [cannotVerify(undefined, computed("first"))]],
    ["a nested pattern", "function cities(): DataToolOutput { return sample(); }\nconst { a: { b } } = { a: { b: cities } } as const;\nregistry.tool()(b);", [cannotVerify(undefined, computed("b"))]],
    ["a parameter's pattern", "function f({ cities }: { cities: () => DataToolOutput }) { registry.tool()(cities); }", [cannotVerify(undefined, computed("cities"))]],
    ["a property of a rest element", "function cities(): DataToolOutput { return sample(); }\nconst { ...rest } = { cities } as const;\nregistry.tool()(rest.cities);", [ok("cities")]],
    ["a default value", "function cities(): DataToolOutput { return sample(); }\nconst { list = cities } = {} as { list?: typeof cities };\nregistry.tool()(list);", [cannotVerify(undefined, "'list' is destructured with a default value, which may stand in for the function")]],
    ["a computed key", 'function cities(): DataToolOutput { return sample(); }\nconst tools = { cities } as const;\nconst { ["citi" + "es"]: computed } = tools;\nregistry.tool()(computed);', [cannotVerify(undefined, "the registered value 'computed' (of type 'any') is not statically a function")]],
    ["a renamed key", "function cities(): DataToolOutput { return sample(); }\nconst tools = { cities } as const;\nconst { cities: renamed } = tools;\nregistry.tool()(renamed);", [ok("cities")]],
    ["a let's pattern", "function cities(): DataToolOutput { return sample(); }\nconst tools = { cities } as const;\nlet { cities: renamed } = tools;\nregistry.tool()(renamed);", [cannotVerify("renamed", "'renamed' can be reassigned and has no explicit function type")]],
    // Objects: an as-const literal is fixed, nested or not; a mutable one's functions can be replaced.
    ["a mutable object's reference to a function", "function cities(): DataToolOutput { return sample(); }\nconst tools = { list: cities, cities };\nregistry.tool()(tools.list);\nregistry.tool()(tools.cities);", [cannotVerify(undefined, mutableProperty("tools.list")), cannotVerify(undefined, mutableProperty("tools.cities"))]],
    ["a mutable object's value that is no function", "const tools = { list: 1 };\n// @ts-expect-error\nregistry.tool()(tools.list);", [cannotVerify(undefined, "the registered value 'tools.list' (of type 'number') is not statically a function")]],
    ["an as-const object's references to functions", "function cities(): DataToolOutput { return sample(); }\nfunction towns(): DataToolOutput { return sample(); }\nconst tools = { list: cities, towns } as const;\nregistry.tool()(tools.list);\nregistry.tool()(tools.towns);", [ok("cities"), ok("towns")]],
    ["an as-const array's object", "const tools = [{ list: (): DataToolOutput => sample() }] as const;\nregistry.tool()(tools[0].list);", [ok("list")]],
    ["an as-const object in parentheses", "const tools = ({ list: (): DataToolOutput => sample() }) as const;\nregistry.tool()(tools.list);", [ok("list")]],
    ["an object nested in an as-const one", "const tools = { group: { list: (): DataToolOutput => sample() } } as const;\nregistry.tool()(tools.group.list);", [ok("list")]],
    ["an object under satisfies in an as-const one", "const tools = { group: { list: (): DataToolOutput => sample() } satisfies object } as const;\nregistry.tool()(tools.group.list);", [ok("list")]],
    ["an object in a mutable array", "const tools = { group: [{ list: (): DataToolOutput => sample() }] };\nregistry.tool()(tools.group[0].list);", [cannotVerify("list", mutableProperty("tools.group[0].list"))]],
  ])("%s", (_label, text, outcomes) => {
    const { registrations } = analyze(`${HEADER}${text}\n`);
    expect(registrations.map((registration) => [registration.tool, registration.finding?.id, registration.finding?.message])).toEqual(outcomes);
  });
});

// Which names a file's references must be typed exactly for (marked.ts): a name no guard narrows
// and no inner scope declares again is typed once from its declaration. A name missing from
// `guarded` would be judged by its declared type where a guard narrows it to a decorator.
describe("referenceFactsOf", () => {
  const factsOf = (text: string) => {
    const facts = referenceFactsOf(ts, ts.createSourceFile("facts.ts", text, ts.ScriptTarget.Latest, true));
    return { guarded: [...facts.guarded].sort(), shadowed: [...facts.shadowed].sort() };
  };

  it("counts a name as guarded wherever a guard on it is used as a condition, through aliasing consts (a cycle of them ends)", () => {
    const { guarded } = factsOf(`
if (isTool(direct)) {}
while (receiver.isTool()) {}
const chosen = instance instanceof Tool ? 1 : 2;
assertTool(asserted);
for (; isTool(looped); ) {}
const ok = isTool(aliased);
if (ok) {}
const first = isTool(chained);
const again = first;
if (again) {}
const cycleStart = cycleMiddle;
const cycleMiddle = cycleEnd;
const cycleEnd = cycleMiddle;
if (cycleStart) {}
isTool(deep.member.path) || fallback;
class Holder { check() { if (this.isTool()) {} } }
const unused = isTool(neverCondition);
let changing = isTool(notConst);
if (changing) {}
const listed = [isTool(inList)];
if ((isTool(parenthesized))) {}
if (!isTool(negated)) {}
if (+isTool(numeric)) {}
if ((setup, isTool(afterComma))) {}
const lazy = (cache ??= isTool(lazyGuard));
const both = isTool(andLeft) && other;
const picked = isTool(ternary) ? 1 : 2;
const branch = test ? isTool(branchOnly) : 0;
for (isTool(forInit); ; isTool(forStep)) {}
const sum = plainOperand + 1;
const pair = (isTool(commaFirst), isTool(commaSecond));
if (pair) {}
const statementOnly = isTool(neverNarrowed);
statementOnly;
const passedOn = isTool(consumed);
const consumedResult = consume(passedOn);
const calledOn = isTool(calleeOnly);
calledOn();
const viaMember = isTool(memberAlias);
t.ok(viaMember);
t.ok(isTool(memberAsserted));
makeAssert()(isTool(notDotted));
`);
    expect(guarded).toEqual([
      "afterComma",
      "aliased",
      "andLeft",
      "asserted",
      "chained",
      "commaFirst",
      "commaSecond",
      "deep",
      "direct",
      "instance",
      "lazyGuard",
      "looped",
      "memberAlias",
      "memberAsserted",
      "negated",
      "parenthesized",
      "receiver",
      "t",
      "ternary",
      "this",
      "viaMember",
    ]);
  });

  it("takes this and super as the receiver a guard or an assertion reads; a guard on what a call returns guards no name", () => {
    expect(factsOf(`if (isTool(make().value)) {}\nmakeAssert().ok(isTool(fromCall));\n`).guarded).toEqual([]);
    expect(factsOf(`class Derived extends Base { check() { if (super.isTool()) {} } }\n`).guarded).toEqual(["this"]);
    expect(factsOf(`class Checked { check() { this.assert(isTool(byThis)); } }\n`).guarded).toEqual(["byThis", "this"]);
    expect(factsOf(`class Checked extends Base { check() { super.assert(isTool(bySuper)); } }\n`).guarded).toEqual(["bySuper", "this"]);
  });

  it("counts a name as shadowed where a scope inside the module declares it, imports inside an ambient module included", () => {
    const { shadowed } = factsOf(`
import * as topLevel from "top";
import topDefault, { topNamed } from "top";
const topConst = 1;
const { nestedTop: [arrayTop] } = topConst;
function topFunction(parameter: number, withDefault = topConst, { destructured }: Options = {}) {
  const inner = parameter;
  const innerAlias = topConst;
  function innerFunction() {}
}
topFunction(topConst);
enum TopEnum { Member = topConst }
namespace TopSpace { import alias = topLevel; }
declare module "ambient" {
  import * as ambientNamespace from "x";
  import ambientDefault, { ambientNamed } from "y";
}
`);
    expect(shadowed).toEqual(["Member", "alias", "ambientDefault", "ambientNamed", "ambientNamespace", "destructured", "inner", "innerAlias", "innerFunction", "parameter", "withDefault"]);
  });
});

describe("unresolved registry imports", () => {
  it("lists the imports of the registry, and only those, whose module does not resolve", () => {
    const { unresolvedRegistryImports, sourceFile } = analyze(`// @ts-nocheck: the missing modules are the point
import type { DataToolOutput } from "@sourced/registry";
import { createRegistry } from "@sourced/registry/not-installed";
import { elsewhere } from "@sourced/registy";
export * from "@sourced/registry/also-missing";
import legacy = require("@sourced/registry/legacy");
export type { DataToolOutput, elsewhere, legacy };
export const registry = createRegistry({ name: "x", version: "1.0.0" });
`);
    expect(unresolvedRegistryImports.map(({ specifier, node, start, end }) => [specifier, node.text, sourceFile.text.slice(start, end)])).toEqual([
      ["@sourced/registry/not-installed", "@sourced/registry/not-installed", `"@sourced/registry/not-installed"`],
      ["@sourced/registry/also-missing", "@sourced/registry/also-missing", `"@sourced/registry/also-missing"`],
      ["@sourced/registry/legacy", "@sourced/registry/legacy", `"@sourced/registry/legacy"`],
    ]);
  });
});

describe("robustness and cost", () => {
  it("turns an internal failure into one internal-error finding per registration, never a throw", () => {
    const { program, sourceFile } = programWith(`${HEADER}
registry.tool()(function a(): DataToolOutput { return sample(); });
registry.tool()(function b(): DataToolOutput { return sample(); });
`);
    const checker = program.getTypeChecker();
    const broken = new Proxy(checker, {
      get: (target, key, receiver) =>
        key === "getTypeFromTypeNode"
          ? () => {
              throw new Error("boom");
            }
          : (Reflect.get(target, key, receiver) as unknown),
    });
    const proxied = new Proxy(program, { get: (target, key) => (key === "getTypeChecker" ? () => broken : (Reflect.get(target, key) as unknown)) });
    const { findings } = analyzeSourceFile(ts, proxied, sourceFile);
    expect(findings.map((finding) => [finding.id, finding.code])).toEqual([
      ["internal-error", 92000],
      ["internal-error", 92000],
    ]);
    expect(findings[0]!.message).toContain("boom");
  });

  it("a checker without getTypeOfSymbol (TypeScript 5.0, where it is not public) leaves registry escapes unreported, never failing", () => {
    const { program, sourceFile } = programWith(`${HEADER}
interface Host { tool(): (fn: () => unknown) => unknown }
declare function install(host: Host): void;
install(registry);
registry.tool()(function kept(): DataToolOutput { return sample(); });
`);
    // The same source with the full checker reports the escape: what is missing below is the method alone.
    expect(analyzeSourceFile(ts, program, sourceFile).findings.map((finding) => finding.id)).toEqual(["unverifiable-registration"]);
    const checker = program.getTypeChecker();
    const older = new Proxy(checker, { get: (target, key, receiver) => (key === "getTypeOfSymbol" ? undefined : (Reflect.get(target, key, receiver) as unknown)) });
    const proxied = new Proxy(program, { get: (target, key) => (key === "getTypeChecker" ? () => older : (Reflect.get(target, key) as unknown)) });
    const { findings, registrations } = analyzeSourceFile(ts, proxied, sourceFile);
    expect(findings).toEqual([]);
    expect(registrations.map((registration) => registration.tool)).toEqual(["kept"]);
  });

  it("asks the checker nothing about a file without calls or escaping values", () => {
    const { program, sourceFile } = programWith(`
const a = 1;
let b = a + 2;
export class C { m(x: number): number { return x * b; } }
`);
    const counted = countingProgram(program);
    expect(analyzeSourceFile(ts, counted.program, sourceFile).findings).toEqual([]);
    expect(counted.calls()).toBe(0);
  });

  it("costs checker calls linear in the number of registrations", () => {
    const costOf = (count: number): number => {
      const body = Array.from({ length: count }, (_, index) => `registry.tool()(function t${index}(): DataToolOutput { return sample(); });`);
      const { program, sourceFile } = programWith(`${HEADER}${body.join("\n")}\n`);
      const counted = countingProgram(program);
      const result = analyzeSourceFile(ts, counted.program, sourceFile);
      expect(result.registrations).toHaveLength(count);
      return counted.calls();
    };
    // Linear: cost(n) = fixed + n × per-registration, so doubling from 80 to 160 adds twice what
    // doubling from 40 to 80 added (a quadratic walk would add four times as much).
    const [c40, c80, c160] = [costOf(40), costOf(80), costOf(160)];
    expect(c80).toBeGreaterThan(c40);
    expect((c160 - c80) / (c80 - c40)).toBeGreaterThan(1.5);
    expect((c160 - c80) / (c80 - c40)).toBeLessThan(2.5);
  });
});

describe("questions left unasked on a program nobody has checked", () => {
  /** The program over `text`, its checker's answers recorded by method: what the analysis asked, with the arguments. */
  const askedOf = (text: string): { result: AnalysisResult; asked: (method: string) => unknown[][] } => {
    const { program, sourceFile } = programWith(text);
    const checker = program.getTypeChecker();
    const calls: [string, unknown[]][] = [];
    const recording = new Proxy(checker, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === "function"
          ? (...args: unknown[]) => {
              calls.push([String(key), args]);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            }
          : value;
      },
    });
    const proxied = new Proxy(program, { get: (target, key) => (key === "getTypeChecker" ? () => recording : (Reflect.get(target, key) as unknown)) });
    const result = analyzeSourceFile(ts, proxied, sourceFile);
    return { result, asked: (method) => calls.filter(([name]) => name === method).map(([, args]) => args) };
  };
  const tools = (count: number, options: string): string =>
    Array.from({ length: count }, (_, index) => `registry.tool(${options})(function t${index}(): DataToolOutput { return sample(); });`).join("\n");

  it("reads a registration's decorator from the callee's declaration: registry.tool()'s conditional return type is marked in every branch", () => {
    const { result, asked } = askedOf(`${HEADER}${tools(3, "")}\n`);
    expect(result.registrations.map((registration) => registration.tool)).toEqual(["t0", "t1", "t2"]);
    expect(asked("getResolvedSignature")).toEqual([]);
  });

  it("asks the options' type once for the tools of a file that share literal options, and reports each one's problems in its own literal", () => {
    const problems = (count: number) => {
      const text = `${HEADER}${tools(count, `{ descripton: "Shared.", title: 3 }`)}\n`;
      const { result, asked } = askedOf(text);
      expect(result.registrations).toHaveLength(count);
      const lines = result.findings.map((finding) => [finding.id, finding.tool, finding.sourceFile.text.slice(finding.start, finding.end), finding.sourceFile.getLineAndCharacterOfPosition(finding.start).line]);
      return { lines, contextual: asked("getContextualType").length };
    };
    const one = problems(1);
    const many = problems(20);
    expect(many.contextual).toBe(one.contextual);
    expect(many.lines).toEqual(
      Array.from({ length: 20 }, (_, index) => [
        ["invalid-option", `t${index}`, "descripton", 3 + index],
        ["invalid-option", `t${index}`, "3", 3 + index],
      ]).flat(),
    );
  });

  it("reads the decorator of a static method of a class without type parameters from the callee's declaration, as outside a class", () => {
    const methods = (count: number) => Array.from({ length: count }, (_, index) => `  @registry.tool({ description: "Tool ${index}." })\n  static t${index}(): DataToolOutput { return sample(); }`).join("\n");
    const { result, asked } = askedOf(`${HEADER}export class Tools {\n${methods(3)}\n}\n`);
    expect(result.findings).toEqual([]);
    expect(result.registrations.map((registration) => registration.tool)).toEqual(["t0", "t1", "t2"]);
    expect(asked("getResolvedSignature")).toEqual([]);
    // A generic class's decorators are still resolved: its type parameters may reach the call's inference.
    const generic = askedOf(`${HEADER}export class Tools<T> {\n${methods(1)}\n}\n`);
    expect(generic.result.registrations.map((registration) => registration.tool)).toEqual(["t0"]);
    expect(generic.asked("getResolvedSignature").length).toBeGreaterThan(0);
  });

  it("judges options that fit the options type's declaration without resolving the call for their contextual type", () => {
    // Each call's own literal (no two alike, so none shares another's answer), an input schema
    // among them: registry.tool<I, O>()'s options are read from ToolOptions<I, O> as declared.
    const options = (index: number) => `{ name: "t${index}", description: "Tool ${index}.", timeoutMs: ${index + 1}, ui: false, input: { limit: z.number().max(${index + 1}) } }`;
    const registrations = Array.from({ length: 3 }, (_, index) => `registry.tool(${options(index)})(function t${index}(): DataToolOutput { return sample(); });`);
    const { result, asked } = askedOf(`${HEADER}import { z } from "zod";\n${registrations.join("\n")}\n`);
    expect(result.findings).toEqual([]);
    expect(result.registrations.map((registration) => registration.tool)).toEqual(["t0", "t1", "t2"]);
    expect(asked("getContextualType")).toEqual([]);
  });

  it("judges a raw input shape written in place by its properties' types, never asking the literal's own (typed by resolving the call)", () => {
    const registrations = Array.from(
      { length: 3 },
      (_, index) =>
        `registry.tool({ name: "t${index}", input: { limit: z.number().max(${index + 1}), city: z.string(), tags: z.array(z.boolean()) } })(function t${index}(): DataToolOutput { return sample(); });`,
    );
    const { result, asked } = askedOf(`${HEADER}import { z } from "zod";\n${registrations.join("\n")}\n`);
    expect(result.findings).toEqual([]);
    expect(result.registrations.map((registration) => registration.tool)).toEqual(["t0", "t1", "t2"]);
    const typed = asked("getTypeAtLocation").map(([node]) => (node as ts.Node).getText());
    expect(typed.filter((text) => text.startsWith("{ limit"))).toEqual([]);
    // A property written as a chain of calls whose callees each have one signature without type
    // parameters is typed from what they declare; an overloaded callee (zod's `string`) or a
    // generic one (`array`) is typed at each registration.
    expect(typed.filter((text) => text.startsWith("z.number()"))).toEqual([]);
    expect(typed.filter((text) => text.startsWith("z.string()"))).toHaveLength(3);
    expect(typed.filter((text) => text.startsWith("z.array("))).toHaveLength(3);
  });

  it("types the contract's structuredContent only for a tool that returns one of its own or declares another type", () => {
    // Its keys are `StructuredData`'s (zod's inferred types, Chart.js's configuration). A tool
    // declaring the contract and returning a helper's result has no keys to compare.
    const structuredTyped = (tool: string) => {
      const { result, asked } = askedOf(`${HEADER}${tool}\n`);
      expect(result.findings).toEqual([]);
      return asked("getTypeOfSymbol").filter(([symbol]) => (symbol as ts.Symbol).escapedName === "structuredContent").length;
    };
    expect(structuredTyped(`registry.tool()(function t(): DataToolOutput { return sample(); });`)).toBe(0);
    expect(structuredTyped(`registry.tool()(async function t(): Promise<DataToolOutput> { return sample(); });`)).toBe(0);
    expect(
      structuredTyped(`registry.tool()(function t(): DataToolOutput { return { content: [{ type: "text", text: "x" }], structuredContent: { sources: ["https://example.org"] } }; });`),
    ).toBeGreaterThan(0);
  });

  it("asks a node's symbol once, however many questions read it, and reads a chain's calls once each", () => {
    // The module specifiers are read for the file's reach and again for its unresolved imports
    // (the import of `./missing.js` makes every call the analysis does not recognise ask for
    // them); `limit`, declared again in each function, is read by the mark's question and the
    // registry's at each reference; each member of a chain reads the calls before it.
    const chain = (length: number) => ["z.number()", ...Array.from({ length }, (_, index) => `.max(${index + 1})`)].join("");
    const questionsFor = (length: number) => {
      const { result, asked } = askedOf(`${HEADER}import { z } from "zod";
import { unknownHelper } from "./missing.js";
declare function keep(value: unknown): void;
function first(limit: number): void { keep(limit); keep(limit); }
function second(limit: string): void { keep(limit); unknownHelper(limit); }
registry.tool({ name: "t", input: { limit: ${chain(length)} } })(function t(): DataToolOutput { first(1); second("a"); return sample(); });
`);
      expect(result.findings).toEqual([]);
      expect(result.registrations.map((registration) => registration.tool)).toEqual(["t"]);
      const lookedUp = asked("getSymbolAtLocation").map(([node]) => node);
      expect(lookedUp.filter((node) => ts.isStringLiteral(node as ts.Node)).length).toBeGreaterThan(0);
      expect(lookedUp.filter((node) => (node as ts.Node).getText() === "limit").length).toBeGreaterThan(0);
      expect(lookedUp.length - new Set(lookedUp).size).toBe(0);
      return asked("getTypeOfSymbol").length;
    };
    // The questions grow with the chain's length, not with its square.
    const [two, four, eight] = [2, 4, 8].map(questionsFor);
    expect(four! - two!).toBeGreaterThan(0);
    expect(eight! - four!).toBe(2 * (four! - two!));
  });

  it("resolves no application of a decorator that gives back its argument: a wrapper returning `registry.tool(options)(fn)`", () => {
    // Whether the wrapper returns a decorator (one returned escapes) is told from the decorator's
    // signatures, `<F …>(fn: F): F`, and the argument's own type; resolving the call infers the
    // decorator's conditional type from `ToolOptions` afresh.
    const resolvedIn = (body: string) => {
      const { result, asked } = askedOf(`${HEADER}import type { RegistersTool, ToolOptions } from "@sourced/registry";\n${body}\n`);
      return { findings: result.findings.map((finding) => finding.id), resolved: asked("getResolvedSignature").map(([node]) => (node as ts.Node).getText()) };
    };
    expect(resolvedIn(`export const define: RegistersTool<<F extends () => DataToolOutput>(fn: F, options?: ToolOptions) => F> = (fn, options) => registry.tool(options)(fn);`)).toEqual({
      findings: [],
      resolved: [],
    });
    expect(resolvedIn(`export const inline = (options?: ToolOptions) => registry.tool(options)(function t(): DataToolOutput { return sample(); });`)).toEqual({ findings: [], resolved: [] });
    // A decorator given to one that gives back its argument: the call is resolved, and what it gives back escapes.
    const passing = resolvedIn(
      `declare function passing(): RegistersTool<<F>(fn: F) => F>;\nconst asTool = registry.tool();\nexport function leak(): (fn: () => unknown) => unknown { return passing()(asTool); }`,
    );
    expect(passing.resolved).toContain("passing()(asTool)");
    expect(passing.findings).toContain("unverifiable-registration");
  });

  it("judges an option of a fixed type written as a literal (`annotations: { … }`) by its properties' types, each relation once", () => {
    const judged = (count: number) => {
      const registrations = Array.from(
        { length: count },
        (_, index) => `registry.tool({ annotations: { readOnlyHint: ${index > 0}, title: "Tool ${index}" } })(function t${index}(): DataToolOutput { return sample(); });`,
      );
      const { result, asked } = askedOf(`${HEADER}${registrations.join("\n")}\n`);
      expect(result.findings).toEqual([]);
      expect(result.registrations).toHaveLength(count);
      const typed = asked("getTypeAtLocation").map(([node]) => (node as ts.Node).getText());
      expect(typed.filter((text) => text.startsWith("{ readOnlyHint"))).toEqual([]);
      return asked("isTypeAssignableTo").length;
    };
    // `false` and `true` to `boolean | undefined`, whatever the number of tools; a title is a
    // string, which `title` takes whatever it says.
    expect(judged(6)).toBe(judged(3));
    // What the properties cannot tell is judged as the whole literal: a key the type does not have.
    const misspelt = askedOf(`${HEADER}// @ts-expect-error: readOnlyHnt is no annotation\nregistry.tool({ annotations: { readOnlyHnt: true } })(function t(): DataToolOutput { return sample(); });\n`);
    expect(misspelt.result.findings.map((finding) => [finding.id, finding.tool])).toEqual([["invalid-option", "t"]]);
  });

  it("judges a schema made by a call (`input: z.object({ … })`) by its callee's declared return type, never typing the call (in the call's context)", () => {
    const judged = (count: number) => {
      const registrations = Array.from(
        { length: count },
        (_, index) => `registry.tool({ name: "t${index}", input: z.object({ limit: z.number().max(${index + 1}) }) })(function t${index}(): DataToolOutput { return sample(); });`,
      );
      const { result, asked } = askedOf(`${HEADER}import { z } from "zod";\n${registrations.join("\n")}\n`);
      expect(result.findings).toEqual([]);
      expect(result.registrations).toHaveLength(count);
      expect(asked("getTypeAtLocation").filter(([node]) => (node as ts.Node).getText().startsWith("z.object("))).toEqual([]);
      return asked("isTypeAssignableTo").length;
    };
    // `ZodObject<Writeable<T>, $strip>` to the input's constraint, once whatever the number of tools.
    expect(judged(6)).toBe(judged(3));
  });

  it("resolves a decorator call that infers nothing once, whatever the number of tools missing their annotation", () => {
    // Each fix asks the decorator's output keys; `registry.tool({ description })` infers no type
    // argument (a free option only) and, itself called, has no context: one type for all of them.
    const fixes = (count: number) => {
      const registrations = Array.from({ length: count }, (_, index) => `registry.tool({ description: "Tool ${index}." })(function t${index}() { return sample(); });`);
      const { result, asked } = askedOf(`${HEADER}${registrations.join("\n")}\n`);
      expect(result.findings.map((finding) => [finding.id, finding.fix?.typeText])).toEqual(Array.from({ length: count }, () => ["missing-annotation", "DataToolOutput"]));
      return asked("getResolvedSignature").filter(([node]) => (node as ts.Node).getText().startsWith("registry.tool(")).length;
    };
    expect(fixes(1)).toBe(1);
    expect(fixes(4)).toBe(1);
  });

  it("reads the keys of a returned `structuredContent` literal from what it writes, never asking its type (which checks every value in it)", () => {
    const { result, asked } = askedOf(`${HEADER}registry.tool()(function keys(): DataToolOutput {
  return { content: [{ type: "text", text: "x" }], structuredContent: { sources: ["https://example.org/x"], "table": [["a"]] } };
});
`);
    expect(result.findings).toEqual([]);
    expect(asked("getTypeAtLocation").filter(([node]) => (node as ts.Node).getText().startsWith("{ sources"))).toEqual([]);
  });

  it("asks no type of a registry at each `registry.tool(…)` made and not applied: its declared type is not `any`", () => {
    // Whether such a call is made on a registry whose types are missing (`unverifiable-registration`)
    // is told by its receiver's type being `any`; no narrowing makes a declared type `any`.
    const calls = Array.from({ length: 3 }, (_, index) => `export const made${index} = registry.tool({ description: "made ${index}" });`);
    const { result, asked } = askedOf(`${HEADER}${calls.join("\n")}\n`);
    expect(result.findings).toEqual([]);
    expect(asked("getTypeAtLocation").filter(([node]) => (node as ts.Node).getText() === "registry")).toEqual([]);
    expect(asked("getTypeOfSymbol").filter(([symbol]) => (symbol as ts.Symbol).escapedName === "registry").length).toBeGreaterThan(0);
  });

  it("looks up a name once per file and its declared type once, and asks no reference's type that the declared one settles", () => {
    // Tools that read an ordinary const and call an ordinary function, as arguments and callees of
    // calls (a call that is a statement of its own could be an assertion, which guards its
    // arguments: none here). However many tools read them, the checker is asked the same.
    const questionsFor = (tools: number) => {
      const registrations = Array.from(
        { length: tools },
        (_, index) => `registry.tool()(function t${index}(): DataToolOutput { const a = total(count); return sample(String(a + total(count))); });`,
      );
      const { result, asked } = askedOf(`${HEADER}const count = 1;\nconst total = (value: number): number => value;\n${registrations.join("\n")}\n`);
      expect(result.findings).toEqual([]);
      const about = (method: string) => asked(method).filter(([subject]) => {
        const text = ts.isIdentifier(subject as ts.Node) ? (subject as ts.Identifier).text : (subject as { escapedName?: unknown }).escapedName;
        return text === "count" || text === "total";
      }).length;
      const references = asked("getTypeAtLocation").filter(([node]) => /^(count|total|total\(count\))$/.test((node as ts.Node).getText())).length;
      return { lookups: about("getSymbolAtLocation"), declaredTypes: about("getTypeOfSymbol"), references };
    };
    const one = questionsFor(1);
    expect(one.lookups).toBeGreaterThan(0);
    expect(one.declaredTypes).toBeGreaterThan(0);
    expect(one.references).toBe(0);
    expect(questionsFor(4)).toEqual(one);
  });

  it("asks what each name of a missing annotation's fix means at the function once", () => {
    // Whether the name is in scope and whether an import of it would be seen there ask the same.
    const { result, asked } = askedOf(`${HEADER}registry.tool()(function unannotated() { return sample(); });\n`);
    expect(result.findings.map((finding) => [finding.id, finding.fix?.typeText])).toEqual([["missing-annotation", "DataToolOutput"]]);
    const atFunction = asked("resolveName").filter(([name, location]) => name === "DataToolOutput" && ts.isFunctionExpression(location as ts.Node));
    expect(atFunction).toHaveLength(1);
  });

  it("asks no reference's type of a marked helper its file only calls, and still asks one its file may narrow", () => {
    // `defineTool(…)` for every tool: the name is only ever called, so nothing narrows it and its
    // type at each call is its declared type. A comparison anywhere in the file (`defineTool !==
    // undefined`) can narrow it, and then every reference's own type is asked again.
    const references = (tools: number, narrowed: boolean) => {
      const registrations = Array.from({ length: tools }, (_, index) => `defineTool(function t${index}(): string { return "no sources"; });`);
      const guard = narrowed ? `export const defined = defineTool !== undefined;\n` : "";
      const { result, asked } = askedOf(`${HEADER}const defineTool = registry.tool();\n${guard}${registrations.join("\n")}\n`);
      expect(result.findings.map((finding) => finding.id)).toEqual(Array.from({ length: tools }, () => "not-data-tool-output"));
      return asked("getTypeAtLocation").filter(([node]) => (node as ts.Node).getText() === "defineTool").length;
    };
    expect(references(1, false)).toBe(0);
    expect(references(4, false)).toBe(0);
    expect(references(4, true)).toBe(4);
  });

  it("lists no property of a type only the compiler's library declares (an array of records) to look for the mark", () => {
    const { result, asked } = askedOf(`${HEADER}interface Row { readonly city: string }
const rows: readonly Row[] = [{ city: "Oslo" }];
const copies: Row[][] = [[...rows]];
declare function keep(value: unknown): void;
registry.tool()(function t(): DataToolOutput { keep(rows); keep(copies); keep(new Map<string, Row>()); return sample(); });
`);
    expect(result.findings).toEqual([]);
    expect(result.registrations.map((registration) => registration.tool)).toEqual(["t"]);
    const listed = asked("getPropertiesOfType").map(([type]) => (type as ts.Type).getSymbol()?.name);
    expect(listed.filter((name) => name === "ReadonlyArray" || name === "Array" || name === "Map")).toEqual([]);
  });

  it("reads an overloaded callee's call by the overload it resolves to, not by the first one declared", () => {
    const { result } = askedOf(`${HEADER}import type { RegistersTool, ToolFunction } from "@sourced/registry";
type Passthrough = (fn: ToolFunction) => ToolFunction;
declare function make(value: string): RegistersTool<Passthrough>;
declare function make(value: number): Passthrough;
declare function plain(value: number): Passthrough;
declare function plain(value: string): RegistersTool<Passthrough>;
make("x")(function first(): DataToolOutput { return sample(); });
make(1)(function notRegistered(): DataToolOutput { return sample(); });
plain(1)(function alsoNotRegistered(): DataToolOutput { return sample(); });
plain("x")(function second(): DataToolOutput { return sample(); });
`);
    expect(result.findings).toEqual([]);
    // Their served names are not known through `make` and `plain`; the functions registered are.
    const registered = (registration: { fn: ts.Node | undefined }) => (registration.fn as ts.FunctionExpression | undefined)?.name?.text;
    expect(result.registrations.map(registered)).toEqual(["first", "second"]);
  });

  it("prints an optional call's decorator type with its 'undefined'", () => {
    const { result } = askedOf(`${HEADER}declare const maybe: typeof registry | undefined;
declare function keep(value: unknown): void;
keep(maybe?.tool());
`);
    expect(result.findings.map((finding) => finding.message.split(" is passed")[0])).toEqual([
      "A tool decorator (of type 'ToolDecorator<NoArguments, NoOutputKeys> | undefined')",
    ]);
  });

  it("resolves the calls of one function with the same literal arguments once, with the same settled names once per file, and others at each call", () => {
    const header = `${HEADER}import type { RegistersTool, ToolFunction } from "@sourced/registry";
type Passthrough = (fn: ToolFunction) => ToolFunction;
declare function make<T>(value: T, more?: unknown): T extends bigint | readonly bigint[] ? RegistersTool<Passthrough> : Passthrough;
declare const pick: ((value: bigint) => RegistersTool<Passthrough>) | ((value: bigint) => Passthrough);
const x = 1n;
const name = "key";
let u: bigint | string = 1n;
`;
    const resolutions = (argument: string, count: number, callee = "make"): number => {
      const calls = Array.from({ length: count }, (_, index) => `${callee}(${argument})(function t${index}(): DataToolOutput { return sample(); });`);
      const { result, asked } = askedOf(`${header}${calls.join("\n")}\n`);
      expect(result.findings.filter((finding) => finding.id === "internal-error")).toEqual([]);
      return asked("getResolvedSignature").length;
    };
    for (const literal of ["-1n", "+1", "[-1n, 2n]", '{ "key": [true, null, -0] }']) {
      expect(resolutions(literal, 10), literal).toBe(resolutions(literal, 1));
    }
    // A name declared once whose declared type no narrowing changes means the same at every call of
    // its file, and so do its members and calls of them with literal arguments.
    for (const named of ["[-1n, x]", '{ "key": 1, other: x }', "x.toString()", "BigInt(x)"]) {
      expect(resolutions(named, 10), named).toBe(resolutions(named, 1));
    }
    // Any other name or expression (a union a `let` narrows, an operator, a computed key, a
    // shorthand) may change the call's type: each call is resolved (an object's properties ask again
    // for their context).
    for (const named of ["[-1n, u]", "-x", "!1", "{ [name]: 1 }", "{ x }"]) {
      expect(resolutions(named, 10) - resolutions(named, 1), named).toBeGreaterThanOrEqual(9);
    }
    // The same characters split otherwise are other arguments.
    const twice = (first: string, second: string) =>
      askedOf(`${header}make(${first})(function t0(): DataToolOutput { return sample(); });\nmake(${second})(function t1(): DataToolOutput { return sample(); });\n`).asked("getResolvedSignature").length;
    expect(twice("1, 23", "12, 3")).toBeGreaterThan(twice("1, 23", "1, 23"));
    // A callee typed by a union is what its reference narrows to at each call: nothing is shared.
    expect(resolutions("1n", 10, "pick") - resolutions("1n", 1, "pick")).toBe(9);
    // A callee no declaration gives is left to the checker at each call, without an internal error.
    expect(resolutions("1n", 10, "missing") - resolutions("1n", 1, "missing")).toBe(9);
  });

  it("does not infer the return type of a function in ordinary code that no registry type reaches", () => {
    const { result, asked } = askedOf(`${HEADER}import { rowsOf, same } from "./lib/ordinary.js";
registry.tool()(function rows(): DataToolOutput { return sample(String(rowsOf(1))); });
const decorator = same(registry.tool());
decorator(function kept(): DataToolOutput { return sample(); });
`);
    // Passing the decorator to `same` is reported as ever; the registrations are judged.
    expect(result.findings.map((finding) => finding.id)).toEqual(["unverifiable-registration"]);
    expect(result.registrations.map((registration) => [registration.tool, registration.finding])).toEqual([
      ["rows", undefined],
      [undefined, undefined], // its served name is not known through `same`
    ]);
    const declaredIn = (signature: unknown) => (signature as ts.Signature).getDeclaration()?.getSourceFile().fileName ?? "";
    const inferred = asked("getReturnTypeOfSignature").map(([signature]) => declaredIn(signature));
    expect(inferred.filter((fileName) => fileName.endsWith("/lib/ordinary.ts"))).toEqual([]);
  });
});

describe("a binding declared in another file", () => {
  it("is rejected at the registration, saying where its type is declared", () => {
    const text = `${HEADER}import { loose, pair } from "./__other__.js";\nregistry.tool()(loose);\nregistry.tool()(pair);\n`;
    const { program, sourceFile } = programWith(text, "__unit__.ts", {}, { "__other__.ts": "export declare const loose: () => string;\nexport declare const pair: { (): string; (x: number): number };\n" });
    const { findings } = analyzeSourceFile(ts, program, sourceFile);
    const instead = ' Give the binding a function type that returns DataToolOutput (e.g. \'(input: Input) => DataToolOutput\') and return { content: [{ type: "text", text }], structuredContent: { sources: [url] } }.';
    expect(findings.map((finding) => [finding.id, finding.message, text.slice(finding.start, finding.end)])).toEqual([
      ["not-data-tool-output", `Tool 'loose' (declared at ./__other__.ts:1:29) is declared to return 'string', which is not DataToolOutput.${instead}`, "loose"],
      ["not-data-tool-output", `Tool 'pair' (signature 1 of 2, declared at ./__other__.ts:2:28) is declared to return 'string', which is not DataToolOutput.${instead}`, "pair"],
    ]);
  });

  it("names the overload and where it is declared in one parenthesis", () => {
    const text = `${HEADER}import { over } from "./__other__.js";\nregistry.tool()(over);\n`;
    const other = "export function over(): string;\nexport function over(x: number): number;\nexport function over(x?: number) { return x; }\n";
    const { program, sourceFile } = programWith(text, "__unit__.ts", {}, { "__other__.ts": other });
    const { findings } = analyzeSourceFile(ts, program, sourceFile);
    expect(findings.map((finding) => [finding.id, finding.message.split(" is declared")[0], text.slice(finding.start, finding.end)])).toEqual([
      ["not-data-tool-output", "Tool 'over' (overload 1 of 2, declared at ./__other__.ts:1:1)", "over"],
    ]);
  });
});

describe("a return type judged once", () => {
  // The contract keeps which types fit it (as a function's return, and as an async one's): a
  // program's tools mostly share a few return types, and each judgement asks the checker anew.
  it.each([
    ["declared", "function t{i}(): Out { return sample(); }"],
    ["declared as a Promise", "async function t{i}(): Promise<Out> { return sample(); }"],
  ])("%s by several tools, is asked of the checker as often as for one", (_label, tool) => {
    const assignabilityAsked = (count: number): number => {
      const tools = Array.from({ length: count }, (_, index) => `registry.tool()(${tool.replace("{i}", String(index))});`);
      const { program, sourceFile } = programWith(`${HEADER}type Out = { content: { type: "text"; text: string }[]; structuredContent: { sources: string[] } };\n${tools.join("\n")}\n`);
      const counted = countingProgram(program);
      expect(analyzeSourceFile(ts, counted.program, sourceFile).findings).toEqual([]);
      return counted.calls("isTypeAssignableTo");
    };
    const once = assignabilityAsked(1);
    expect(once).toBeGreaterThan(0);
    expect(assignabilityAsked(4)).toBe(once);
  });
});

describe("a rejection in the words its reader gets", () => {
  // The whole message of each kind of rejection: the corpus pins which finding and a few of its
  // words; this pins what a user reads, from the kind's sentence to the path of the part at fault.
  const INSTEAD = ' Declare \': DataToolOutput\' instead and return { content: [{ type: "text", text }], structuredContent: { sources: [url] } }.';
  it.each([
    ["an overload", "function over(): DataToolOutput;\nfunction over(x: number): string;\nfunction over(x?: number): any { return x; }\nregistry.tool()(over);", "Tool 'over' (overload 2 of 2) is declared to return 'string', which is not DataToolOutput." + INSTEAD],
    ["a generator", "registry.tool()(function* gen(): Generator<DataToolOutput> { yield sample(); });", "Tool 'gen' is a generator function; a tool returns one DataToolOutput, not a generator. Make it a plain (or async) function declared ': DataToolOutput'."],
    ["a binding's second signature", "declare const both: { (): DataToolOutput; (x: number): string };\nregistry.tool()(both);", "Tool 'both' (signature 2 of 2) is declared to return 'string', which is not DataToolOutput. Give the binding a function type that returns DataToolOutput (e.g. '(input: Input) => DataToolOutput') and return { content: [{ type: \"text\", text }], structuredContent: { sources: [url] } }."],
    ["a binding's only signature", "declare const one: () => string;\nregistry.tool()(one);", "Tool 'one' is declared to return 'string', which is not DataToolOutput. Give the binding a function type that returns DataToolOutput (e.g. '(input: Input) => DataToolOutput') and return { content: [{ type: \"text\", text }], structuredContent: { sources: [url] } }."],
    ["a type TypeScript cannot resolve", "registry.tool()(function missing(): Missing { throw new Error(); });", "Tool 'missing' is declared to return 'Missing', which TypeScript cannot resolve, so the return type cannot be judged. Install @sourced/registry and import DataToolOutput from it: import type { DataToolOutput } from \"@sourced/registry\";"],
    ["any", "registry.tool()(function anything(): any { return 1; });", "Tool 'anything' is declared to return 'any', which turns the check off: nothing says the result carries its sources." + INSTEAD],
    ["unknown", "registry.tool()(function unknowable(): unknown { return 1; });", "Tool 'unknowable' is declared to return 'unknown', which says nothing about the result." + INSTEAD],
    ["never", "registry.tool()(function nothing(): never { throw new Error(); });", "Tool 'nothing' is declared to return 'never': it can never produce a result." + INSTEAD],
    ["Promise<any>", "registry.tool()(async function later(): Promise<any> { return 1; });", "Tool 'later' is declared to return 'Promise<any>', which turns the check off: nothing says the result carries its sources. Declare ': Promise<DataToolOutput>' instead and return { content: [{ type: \"text\", text }], structuredContent: { sources: [url] } }."],
    ["a Promise of a type it cannot resolve", "registry.tool()(async function later(): Promise<Missing> { return 1; });", "Tool 'later' is declared to return 'Promise<Missing>', which TypeScript cannot resolve, so the return type cannot be judged. Install @sourced/registry and import DataToolOutput from it: import type { DataToolOutput } from \"@sourced/registry\";"],
    ["Promise<unknown>", "registry.tool()(async function later(): Promise<unknown> { return 1; });", "Tool 'later' is declared to return 'Promise<unknown>', which says nothing about the result. Declare ': Promise<DataToolOutput>' instead and return { content: [{ type: \"text\", text }], structuredContent: { sources: [url] } }."],
    ["a union's member", "registry.tool()(function either(): DataToolOutput | string { return \"\"; });", "Tool 'either' is declared to return 'DataToolOutput | string', whose member 'string' is not DataToolOutput; every member of a union must be." + INSTEAD],
    ["a part typed any", "registry.tool()(function loose(): { content: Text[]; structuredContent: any } { throw new Error(); });", "Tool 'loose' is declared to return '{ content: Text[]; structuredContent: any }', whose 'structuredContent' is 'any': it fits DataToolOutput only because 'any' turns the check off there, and says nothing about the result's sources. Give 'structuredContent' its type." + INSTEAD],
    ["a part's part typed any", "registry.tool()(function loose(): { content: Text[]; structuredContent: { sources: any } } { throw new Error(); });", "Tool 'loose' is declared to return '{ content: Text[]; structuredContent: { sources: any } }', whose 'structuredContent.sources' is 'any': it fits DataToolOutput only because 'any' turns the check off there, and says nothing about the result's sources. Give 'structuredContent.sources' its type." + INSTEAD],
    ["a part typed any[]", "registry.tool()(function loose(): { content: any[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'loose' is declared to return '{ content: any[]; structuredContent: { sources: string[] } }', whose 'content' is 'any[]': it fits DataToolOutput only because 'any' turns the check off there, and says nothing about the result's sources. Give 'content' its type." + INSTEAD],
    ["a part's part typed any[]", "registry.tool()(function loose(): { content: Text[]; structuredContent: { sources: any[] } } { throw new Error(); });", "Tool 'loose' is declared to return '{ content: Text[]; structuredContent: { sources: any[] } }', whose 'structuredContent.sources' is 'any[]': it fits DataToolOutput only because 'any' turns the check off there, and says nothing about the result's sources. Give 'structuredContent.sources' its type." + INSTEAD],
    ["a local type named DataToolOutput", "interface DataToolOutput { content: string }\nregistry.tool()(function local(): DataToolOutput { throw new Error(); });", "Tool 'local' is declared to return 'DataToolOutput', which is not DataToolOutput: it is a type of the same name, not the one from @sourced/registry, and it has no 'structuredContent'." + INSTEAD],
    ["an object without the parts", "registry.tool()(function bare(): { other: 1 } { throw new Error(); });", "Tool 'bare' is declared to return '{ other: 1 }', which is not DataToolOutput: it has no 'content' and no 'structuredContent'." + INSTEAD],
    ["a string", "registry.tool()(function text(): string { return \"\"; });", "Tool 'text' is declared to return 'string', which is not DataToolOutput." + INSTEAD],
    ["content not an array", "registry.tool()(function flat(): { content: string; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'flat' is declared to return '{ content: string; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' is 'string', not 'ContentBlock[]'." + INSTEAD],
    ["sources holding numbers", "registry.tool()(function flat(): { content: Text[]; structuredContent: { sources: number[] } } { throw new Error(); });", "Tool 'flat' is declared to return '{ content: Text[]; structuredContent: { sources: number[] } }', which is not DataToolOutput: its 'structuredContent.sources' holds 'number', which is not 'string'." + INSTEAD],
    ["sources not an array", "registry.tool()(function flat(): { content: Text[]; structuredContent: { sources: string } } { throw new Error(); });", "Tool 'flat' is declared to return '{ content: Text[]; structuredContent: { sources: string } }', which is not DataToolOutput: its 'structuredContent.sources' is 'string', not 'string[]'." + INSTEAD],
    ["a required part optional", "registry.tool()(function flat(): { content?: Text[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'flat' is declared to return '{ content?: Text[]; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' is optional, and DataToolOutput requires it." + INSTEAD],
    ["an optional part of a part, wrong", "registry.tool()(function flat(): { content: Text[]; structuredContent: { sources: string[]; table: { columns: number } } } { throw new Error(); });", "Tool 'flat' is declared to return '{ content: Text[]; structuredContent: { sources: string[]; table: { columns: number } } }', which is not DataToolOutput: its 'structuredContent.table' is '{ columns: number; }', not an array." + INSTEAD],
    ["a content block's type widened to string", "registry.tool()(function wide(): { content: { type: string; text: string }[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'wide' is declared to return '{ content: { type: string; text: string }[]; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' holds an element whose 'type' is 'string', which is none of \"text\", \"image\", \"audio\", \"resource_link\", \"resource\"; write the literal (e.g. 'type: \"text\" as const') or declare the element's type." + INSTEAD],
    ["a content block without its type", "registry.tool()(function wide(): { content: { text: string }[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'wide' is declared to return '{ content: { text: string }[]; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' holds '{ text: string; }', which has no 'type'." + INSTEAD],
    ["a content block of a literal type, its other part wrong", "registry.tool()(function wide(): { content: { type: \"text\"; text: number }[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'wide' is declared to return '{ content: { type: \"text\"; text: number }[]; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' holds '{ type: \"text\"; text: number; }', which is not 'ContentBlock'." + INSTEAD],
    ["a content block whose type is a union of the literals", "registry.tool()(function mixed(): { content: { type: \"text\" | \"image\"; text: string }[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'mixed' is declared to return '{ content: { type: \"text\" | \"image\"; text: string }[]; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' holds '{ type: \"text\" | \"image\"; text: string; }', which is not 'ContentBlock'." + INSTEAD],
    ["a content block whose type may be another string", "registry.tool()(function mixed(): { content: { type: \"text\" | \"video\"; text: string }[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'mixed' is declared to return '{ content: { type: \"text\" | \"video\"; text: string }[]; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' holds an element whose 'type' is '\"text\" | \"video\"', which is none of \"text\", \"image\", \"audio\", \"resource_link\", \"resource\"; write the literal (e.g. 'type: \"text\" as const') or declare the element's type." + INSTEAD],
    ["content holding strings", "registry.tool()(function wide(): { content: string[]; structuredContent: { sources: string[] } } { throw new Error(); });", "Tool 'wide' is declared to return '{ content: string[]; structuredContent: { sources: string[] } }', which is not DataToolOutput: its 'content' holds 'string', which is not 'ContentBlock'." + INSTEAD],
    ["an optional part declared optional, of another type", "registry.tool()(function flat(): { content: Text[]; structuredContent: { sources: string[]; table?: string } } { throw new Error(); });", "Tool 'flat' is declared to return '{ content: Text[]; structuredContent: { sources: string[]; table?: string } }', which is not DataToolOutput: its 'structuredContent.table' is 'string', not '(string | number | boolean | null)[][]'." + INSTEAD],
    ["a union quoted whole", "registry.tool()(function flat(): { content: Text[]; structuredContent: { sources: string[] }; extra: { aaaaaaaaaa: 1; bbbbbbbbbbbb: 2; cccccccccccc: 3; dddddddddd: 4 } } | string { throw new Error(); });", "Tool 'flat' is declared to return '{ content: Text[]; structuredContent: { sources: string[] }; extra: { aaaaaaaaaa: 1; bbbbbbbbbbbb: 2; cccccccccccc: 3; dddddddddd: 4 } } | string', whose member 'string' is not DataToolOutput; every member of a union must be." + INSTEAD],
  ])("%s", (_label, text, message) => {
    const { findings } = analyze(`${HEADER}type Text = { type: "text"; text: string };\n${text}\n`);
    expect(findings.map((finding) => [finding.id, finding.message])).toEqual([["not-data-tool-output", message]]);
  });
});

/** `program` with a checker that counts the calls made to it: all of them, or those of one method. */
function countingProgram(program: ts.Program): { program: ts.Program; calls: (method?: keyof ts.TypeChecker) => number } {
  const calls = new Map<PropertyKey, number>();
  const checker = program.getTypeChecker();
  const counting = new Proxy(checker, {
    get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === "function"
        ? (...args: unknown[]) => {
            calls.set(key, (calls.get(key) ?? 0) + 1);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          }
        : value;
    },
  });
  return {
    program: new Proxy(program, { get: (target, key) => (key === "getTypeChecker" ? () => counting : (Reflect.get(target, key) as unknown)) }),
    calls: (method) => (method === undefined ? [...calls.values()].reduce((sum, count) => sum + count, 0) : (calls.get(method) ?? 0)),
  };
}

// A mutation run mutates the sources, not dist/: this test could see no mutant there, and costs a
// process judging the corpus for every mutant that reruns the whole set.
describe.skipIf(process.env["SOURCED_MUTATION_RUN"] === "1")("the built package", () => {
  it("never loads typescript at run time (dist has no require of it; analysis runs with it blocked)", () => {
    expect(fs.existsSync(path.join(DIST, "index.js"))).toBe(true);
    for (const file of fs.readdirSync(DIST).filter((name) => name.endsWith(".js"))) {
      expect(fs.readFileSync(path.join(DIST, file), "utf8"), file).not.toMatch(/require\(["']typescript["']\)|from ["']typescript["']/);
    }
    // A fresh process where `require("typescript")` throws: the analysis must still load and run,
    // with the caller's TypeScript (loaded by path) passed in.
    const script = `
      const Module = require("node:module");
      const load = Module._load;
      const typescriptPath = ${JSON.stringify(require.resolve("typescript"))};
      const ts = require(typescriptPath);
      Module._load = function (request, ...rest) {
        if (request === "typescript") throw new Error("the analysis required typescript itself");
        return load.call(this, request, ...rest);
      };
      const analysis = require(${JSON.stringify(path.join(DIST, "index.js"))});
      const config = ts.getParsedCommandLineOfConfigFile(${JSON.stringify(CASES_TSCONFIG)}, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} });
      const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
      const result = analysis.analyzeProgram(ts, program);
      process.stdout.write(JSON.stringify({ findings: result.findings.length, registrations: result.registrations.length }));
    `;
    const output = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { findings: number; registrations: number };
    expect(output.findings).toBeGreaterThan(50);
    expect(output.registrations).toBeGreaterThan(output.findings);
  });
});

/** `analyzeSourceFile` over `text`, with `seen` told the first argument of every call of the checker's `method`. */
function analyzedWatching(text: string, method: "getPropertiesOfType" | "getReturnTypeOfSignature", seen: (checker: ts.TypeChecker, argument: unknown) => void): AnalysisResult {
  const { program, sourceFile } = programWith(text);
  const checker = program.getTypeChecker();
  const watching = new Proxy(checker, {
    get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (key === method) seen(checker, args[0]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const proxied = new Proxy(program, { get: (target, key) => (key === "getTypeChecker" ? () => watching : (Reflect.get(target, key) as unknown)) });
  return analyzeSourceFile(ts, proxied, sourceFile);
}

describe("a function declaration's own properties", () => {
  /** `analyzeSourceFile` over `text`, and the types whose properties the analysis listed. */
  const listing = (text: string): { result: AnalysisResult; listed: string[] } => {
    const listed: string[] = [];
    const result = analyzedWatching(text, "getPropertiesOfType", (checker, type) => listed.push(checker.typeToString(type as ts.Type)));
    return { result, listed };
  };

  it("are listed only for a function its file writes to or a namespace merges with, never for one its file only calls", () => {
    // Each call is a candidate registration, its callee's type read for the mark. A function its
    // file only calls has no property of its own (TypeScript adds one only for an assignment to
    // the function in its file, `noted.note = …`, or a merged namespace), so its type is not listed.
    const text = `${HEADER}export function rows(limit: number) { return [limit]; }
export function noted(limit: number) { return [limit]; }
noted.note = "a property";
export function spaced(limit: number) { return [limit]; }
export namespace spaced { export const unit = "rows"; }
rows(1);
noted(2);
spaced(3);
`;
    const { result, listed } = listing(text);
    expect(result.findings).toEqual([]);
    // `rows`' type, printed `(limit: number) => number[]`, is not among them.
    expect(listed).toEqual(["typeof noted", "typeof spaced"]);
  });
});

describe("what a function declaration returns", () => {
  /** `analyzeSourceFile` over `text`, and the functions whose inferred return type the analysis asked for. */
  const asking = (text: string): { result: AnalysisResult; asked: string[] } => {
    const asked: string[] = [];
    const result = analyzedWatching(text, "getReturnTypeOfSignature", (_, signature) => {
      const declaration = (signature as ts.Signature).getDeclaration() as ts.SignatureDeclaration | undefined;
      if (declaration !== undefined && ts.isFunctionDeclaration(declaration) && declaration.type === undefined && declaration.name !== undefined) asked.push(declaration.name.text);
    });
    return { result, asked };
  };

  it("is told from the calls it returns when none returns a marked value, its body never typed; a helper returning a decorator is still followed", () => {
    // A module's helper, called by its tools: `rows` returns what a generic helper declares
    // (`T[]`), `count` what `rows` returns, `named` a parameter; none is asked. `decorate` returns a
    // marked decorator, which only its return type tells: its registration is judged as before.
    const text = `${HEADER}function pick<T>(records: readonly T[], limit: number): T[] { return records.slice(0, limit); }
const records: readonly string[] = ["a", "b"];
export function rows(limit: number) { return pick(records, limit); }
export function count() { if (records.length > 1) return rows(1); return rows(2); }
export function named(name: string) { return name; }
export function decorate() { return registry.tool({ description: "Decorated." }); }
// Each call handed on, where a decorator could escape: what the call returns is asked.
String(rows(1));
String(count());
String(named("x"));
export const decorated = decorate()(function decorated(): string {
  return String(rows(1).length);
});
`;
    const { result, asked } = asking(text);
    expect(result.registrations.length).toBe(1);
    expect(result.findings.map(({ id }) => id)).toEqual(["not-data-tool-output"]);
    expect([...new Set(asked)].sort()).toEqual(["decorate"]);
  });

  it("of a function returning a call of itself is asked of the checker, without looping", () => {
    const text = `${HEADER}export function again(n: number): number { return n; }
export function loop(n: number) { return n > 0 ? again(n) : 0; }
export function self() { return self(); }
String(self());
String(loop(1));
`;
    const { result, asked } = asking(text);
    expect(result.registrations).toEqual([]);
    expect(result.findings).toEqual([]);
    // `loop` returns what it does not read (a conditional); `self` calls itself: both are asked.
    expect([...new Set(asked)].sort()).toEqual(["loop", "self"]);
  });
});
