import * as path from "node:path";
import * as ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "../src/errors";
import { ConfigError, createSharedHost, readNativeProjects, readProjects, type Project } from "../src/projects";
import { REPO, removeTrees, thrown, tree, write } from "./helpers";

/*
 * How the project layer finds the projects of a tsconfig: its references, depth first, each once
 * (readProjects with the repository's TypeScript 6.0.3; readNativeProjects, for TypeScript 7, from
 * the text), the files its `files` and `include` name, and the errors that locate a broken
 * configuration or reference. The solution and broken configs of fixtures/cli (which the CLI's
 * tests also check end to end), and projects written to a temporary directory.
 */

afterAll(removeTrees);

const SOLUTION = path.join(REPO, "fixtures/cli/solution");

/** readProjects with a fresh `seen` and cache, paths relative to `cwd`. */
function read(configPath: string, cwd: string = REPO): Project[] {
  return readProjects(ts, configPath, new Set(), new Map(), cwd);
}

const relative = (from: string) => (file: string) => path.relative(from, file).split(path.sep).join("/");

/** a → b, c; b → d; c → d; d → a: a diamond closed into a circle. */
function diamond(): string {
  const config = (...references: string[]) => JSON.stringify({ files: [], references: references.map((reference) => ({ path: reference })) });
  return tree({ "tsconfig.json": config("./b", "./c.json"), "b/tsconfig.json": config("../d"), "c.json": config("./d/tsconfig.json"), "d/tsconfig.json": config("..") });
}

describe("readProjects: a tsconfig and, depth first, every project it references", () => {
  it("referenced projects before the projects that reference them, as tsc -b builds; each with the files its `include` finds", () => {
    const projects = read(path.join(SOLUTION, "tsconfig.json"));
    expect(projects.map(({ configPath, parsed }) => [relative(SOLUTION)(configPath), parsed.fileNames.map(relative(SOLUTION))])).toEqual([
      ["tools/tsconfig.json", ["tools/src/cities.ts", "tools/src/registry.ts"]],
      ["server/tsconfig.json", ["server/src/main.ts"]],
      ["tsconfig.json", []],
    ]);
  });

  it("each config once, however often it is referenced (a circle included), and never again within one `seen`", () => {
    const root = diamond();
    expect(read(path.join(root, "tsconfig.json")).map((project) => relative(root)(project.configPath))).toEqual(["d/tsconfig.json", "b/tsconfig.json", "c.json", "tsconfig.json"]);
    const seen = new Set<string>();
    expect(readProjects(ts, path.join(root, "b/tsconfig.json"), seen, new Map(), root).map((project) => relative(root)(project.configPath))).toEqual(["c.json", "tsconfig.json", "d/tsconfig.json", "b/tsconfig.json"]);
    expect(readProjects(ts, path.join(root, "d/tsconfig.json"), seen, new Map(), root)).toEqual([]);
  });

  it("`files` and `include` (less `exclude`) make the file names; `extends` is read once for the projects that share it", () => {
    const root = tree({
      "base.json": JSON.stringify({ compilerOptions: { strict: true }, include: ["src"], exclude: ["src/skipped.ts"] }),
      "tsconfig.json": JSON.stringify({ extends: "./base.json", files: ["main.ts"], references: [{ path: "./other" }] }),
      "other/tsconfig.json": JSON.stringify({ extends: "../base.json", compilerOptions: { strict: false } }),
      "main.ts": "",
      "src/a.ts": "",
      "src/skipped.ts": "",
      "src/deep/b.ts": "",
    });
    const extendedConfigs = new Map<string, ts.ExtendedConfigCacheEntry>();
    const projects = readProjects(ts, path.join(root, "tsconfig.json"), new Set(), extendedConfigs, root);
    expect(projects.map(({ configPath, parsed }) => [relative(root)(configPath), parsed.fileNames.map(relative(root)), parsed.options.strict])).toEqual([
      // `include` paths are relative to the config that wrote them.
      ["other/tsconfig.json", ["src/a.ts", "src/deep/b.ts"], false],
      ["tsconfig.json", ["main.ts", "src/a.ts", "src/deep/b.ts"], true],
    ]);
    expect([...extendedConfigs.keys()]).toEqual([path.join(root, "base.json")]);
  });

  it("a reference to a project that does not exist: a UsageError located at that entry of `references`, in the config that holds it", () => {
    const root = tree({
      "tsconfig.json": '{\n  "files": [],\n  "references": [\n    { "path": "./app" },\n    { "path": "./gone" }\n  ]\n}\n',
      "app/tsconfig.json": '{ "files": [], "references": [{ "path": "../lost.json" }] }',
    });
    const error = thrown(() => read(path.join(root, "tsconfig.json"), root));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).not.toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`app/tsconfig.json(1,31): the referenced project '${path.join(root, "lost.json")}' does not exist. Fix the path in 'references', or remove the reference.`);
    write(root, "lost.json", '{ "files": ["a.ts"] }');
    write(root, "a.ts", "");
    expect((thrown(() => read(path.join(root, "tsconfig.json"), root)) as Error).message).toMatch(/^tsconfig\.json\(5,5\): the referenced project '.*[\\/]gone[\\/]tsconfig\.json' does not exist\./);
  });

  it("a tsconfig its compiler rejects: a ConfigError with TypeScript's diagnostics, each at its file(line,col), as tsc prints them", () => {
    const badJson = thrown(() => read(path.join(REPO, "fixtures/cli/bad-json/tsconfig.json")));
    expect(badJson).toBeInstanceOf(ConfigError);
    expect((badJson as ConfigError).message).toBe("fixtures/cli/bad-json/tsconfig.json is not a valid TypeScript configuration; fix the errors above.");
    expect((badJson as ConfigError).diagnostics.split("\n").slice(0, 2)).toEqual([
      "fixtures/cli/bad-json/tsconfig.json(5,3): error TS1005: ',' expected.",
      "fixtures/cli/bad-json/tsconfig.json(7,1): error TS1005: '}' expected.",
    ]);
    const badOption = thrown(() => read(path.join(REPO, "fixtures/cli/bad-option/tsconfig.json")));
    expect(badOption).toBeInstanceOf(ConfigError);
    expect((badOption as ConfigError).diagnostics).toBe("fixtures/cli/bad-option/tsconfig.json(5,5): error TS5023: Unknown compiler option 'strictTools'.\n");
  });

  it("a referenced project's errors are its own, located in its file", () => {
    const root = tree({ "tsconfig.json": '{ "files": [], "references": [{ "path": "./app" }] }', "app/tsconfig.json": '{ "compilerOptions": { "strictTools": true }, "files": ["a.ts"] }', "app/a.ts": "" });
    const error = thrown(() => read(path.join(root, "tsconfig.json"), root)) as ConfigError;
    expect([error.message, error.diagnostics]).toEqual([
      "app/tsconfig.json is not a valid TypeScript configuration; fix the errors above.",
      "app/tsconfig.json(1,24): error TS5023: Unknown compiler option 'strictTools'.\n",
    ]);
  });
});

describe("readNativeProjects: the same list for TypeScript 7, read from the configs' text", () => {
  it("the order and the configs readProjects gives", () => {
    for (const config of [path.join(SOLUTION, "tsconfig.json"), path.join(diamond(), "tsconfig.json")]) {
      expect(readNativeProjects(config, new Set(), REPO)).toEqual(read(config).map((project) => project.configPath));
    }
  });

  it("reads references through comments and trailing commas, a directory standing for its tsconfig.json", () => {
    const root = tree({
      "tsconfig.json": '{\n  // the app\n  "references": [{ "path": "./app", }, /* a file */ { "path": "./tsconfig.lib.json" },],\n}\n',
      "app/tsconfig.json": "{}",
      "tsconfig.lib.json": "{}",
    });
    expect(readNativeProjects(path.join(root, "tsconfig.json"), new Set(), root).map(relative(root))).toEqual(["app/tsconfig.json", "tsconfig.lib.json", "tsconfig.json"]);
  });

  it("a reference to a project that does not exist: a UsageError naming the config that holds it; a config it cannot parse is left to TypeScript 7", () => {
    const root = tree({ "tsconfig.json": '{ "references": [{ "path": "./app" }] }', "app/tsconfig.json": '{ "references": [{ "path": "../gone.json" }] }', "broken/tsconfig.json": '{ "references": [' });
    const error = thrown(() => readNativeProjects(path.join(root, "tsconfig.json"), new Set(), root));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`app/tsconfig.json(1,18): the referenced project '${path.join(root, "gone.json")}' does not exist. Fix the path in 'references', or remove the reference.`);
    expect(readNativeProjects(path.join(root, "broken/tsconfig.json"), new Set(), root)).toEqual([path.join(root, "broken/tsconfig.json")]);
  });

  // Both compilers resolve a reference alike (a path ending in `.json` is the config, any other a
  // directory holding tsconfig.json), so the native list fails where readProjects fails, with its message.
  it.each([
    ["a missing directory", "./dir/gone", "dir/gone/tsconfig.json"],
    ["a missing .json", "./gone.json", "gone.json"],
    ["a file that is neither a .json nor a directory", "./lib.ts", "lib.ts/tsconfig.json"],
    ["a directory without tsconfig.json", "./empty", "empty/tsconfig.json"],
  ])("a reference to %s: readProjects' message, at the entry of `references`", (_, reference, config) => {
    const root = tree({
      "tsconfig.json": `{\r\n  "files": [],\r\n  "references": [\r\n    { "path": "./app" }, // the app\r\n    /* then */ { "path": "${reference}" },\r\n  ],\r\n}\r\n`,
      "app/tsconfig.json": '{ "files": ["../lib.ts"] }',
      "lib.ts": "export const a = 1;\n",
      "empty/a.ts": "",
    });
    const expected = `tsconfig.json(5,16): the referenced project '${path.join(root, config)}' does not exist. Fix the path in 'references', or remove the reference.`;
    expect((thrown(() => read(path.join(root, "tsconfig.json"), root)) as Error).message).toBe(expected);
    const error = thrown(() => readNativeProjects(path.join(root, "tsconfig.json"), new Set(), root));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(expected);
  });

  it("`references` written twice: the last counts, and both readers place its entry", () => {
    const root = tree({ "tsconfig.json": '{\n  "references": [{ "path": "./app" }],\n  "files": [],\n  "references": [{ "path": "./gone.json" }]\n}\n', "app/tsconfig.json": '{ "files": ["a.ts"] }', "app/a.ts": "" });
    const expected = `tsconfig.json(4,18): the referenced project '${path.join(root, "gone.json")}' does not exist. Fix the path in 'references', or remove the reference.`;
    expect((thrown(() => read(path.join(root, "tsconfig.json"), root)) as Error).message).toBe(expected);
    expect((thrown(() => readNativeProjects(path.join(root, "tsconfig.json"), new Set(), root)) as Error).message).toBe(expected);
  });

  // The native reader places an entry by the tokens stripJsonComments reads (jsonTokens): a quote
  // or a bracket in a comment, a comment marker or an escaped quote in a string, must move nothing.
  it.each([
    [
      "comments holding quotes and brackets, strings holding comment markers and escaped quotes, trailing commas",
      '{\n  // "references": [ { "path": "./never" } ]\n  "files": [],\n  "compilerOptions": { "outDir": "out//x/*", "rootDir": ".", },\n  "references": [\n    { "path": "./app", /* "], */ },\n    // { "path": "./old" },\n    /* " */ { "path": "./say \\"hi\\" // x" },\n  ],\n}\n',
      'say "hi" // x/tsconfig.json',
      "tsconfig.json(8,13)",
    ],
    [
      "`references` written twice, the second with an escaped letter: TypeScript reads the key as JSON does",
      '{\n  "files": [],\n  "references": [{ "path": "./app" }],\n  "refer\\u0065nces": [{ "path": "./app" }, { "path": "./gone" }]\n}\n',
      "gone/tsconfig.json",
      "tsconfig.json(4,44)",
    ],
    ["a byte order mark", '\uFEFF{ "files": [],\n  "references": [{ "path": "./app" }, { "path": "./gone" }] }\n', "gone/tsconfig.json", "tsconfig.json(2,39)"],
  ])("a missing reference in a tsconfig with %s: both readers place it where TypeScript does", (_, config, missing, place) => {
    const root = tree({ "tsconfig.json": config, "app/tsconfig.json": '{ "files": ["a.ts"] }', "app/a.ts": "" });
    const expected = `${place}: the referenced project '${path.join(root, missing)}' does not exist. Fix the path in 'references', or remove the reference.`;
    expect((thrown(() => read(path.join(root, "tsconfig.json"), root)) as Error).message).toBe(expected);
    expect((thrown(() => readNativeProjects(path.join(root, "tsconfig.json"), new Set(), root)) as Error).message).toBe(expected);
  });

  it("reads the references of a tsconfig that starts with a byte order mark, as TypeScript does", () => {
    const root = tree({ "tsconfig.json": '\uFEFF{ "files": [], "references": [{ "path": "./app" }] }', "app/tsconfig.json": '{ "files": ["a.ts"] }', "app/a.ts": "" });
    expect(readNativeProjects(path.join(root, "tsconfig.json"), new Set(), root).map(relative(root))).toEqual(read(path.join(root, "tsconfig.json"), root).map((project) => relative(root)(project.configPath)));
    expect(readNativeProjects(path.join(root, "tsconfig.json"), new Set(), root).map(relative(root))).toEqual(["app/tsconfig.json", "tsconfig.json"]);
  });
});

describe("createSharedHost: declaration files parsed once for all the projects of a run", () => {
  it("a declaration file is the same SourceFile in every program that reads it with the same settings; a source file never is", () => {
    const options = (target: string) => ({ compilerOptions: { target, lib: ["ES5"], types: [], noEmit: true }, files: ["../shared.ts", "globals.d.ts"] });
    const root = tree({
      "a/tsconfig.json": JSON.stringify(options("ES2022")),
      "b/tsconfig.json": JSON.stringify(options("ES2022")),
      "c/tsconfig.json": JSON.stringify(options("ES5")),
      "shared.ts": "export const a = 1;\n",
      "a/globals.d.ts": "declare const A: number;\n",
    });
    for (const name of ["b", "c"]) write(root, `${name}/globals.d.ts`, "declare const A: number;\n");
    const cache = new Map<string, ts.SourceFile>();
    const program = (name: string): ts.Program => {
      const [{ parsed }] = read(path.join(root, name, "tsconfig.json"), root) as [Project];
      return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host: createSharedHost(ts, parsed.options, cache) });
    };
    const [a, b, c] = [program("a"), program("b"), program("c")];
    const libs = (p: ts.Program) => p.getSourceFiles().filter((file) => file.isDeclarationFile && file.fileName.includes("node_modules"));
    expect(libs(a).length).toBeGreaterThan(0);
    // b reads the lib files a parsed, as they are; c (another target) parses its own.
    expect(libs(b).map((file) => file.fileName)).toEqual(libs(a).map((file) => file.fileName));
    expect(libs(b).every((file, index) => file === libs(a)[index])).toBe(true);
    expect(libs(c).some((file) => libs(a).includes(file))).toBe(false);
    // Once per file and settings: a's and b's lib files once, c's once more, every globals.d.ts once.
    expect(cache.size).toBe(2 * libs(a).length + 3);
    // How a source file parses may depend on its project's options: each program parses its own.
    const shared = path.join(root, "shared.ts");
    expect(a.getSourceFile(shared)).toBeDefined();
    expect(b.getSourceFile(shared)).not.toBe(a.getSourceFile(shared));
  });

  it("parses JSDoc as tsc does: whole in JavaScript files, in TypeScript files only what can change a type", () => {
    const root = tree({
      "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", lib: ["ES2022"], types: [], allowJs: true, checkJs: true, noEmit: true }, files: ["a.ts", "b.js"] }),
      "a.ts": "/** Lists lakes. @returns the lakes */\nexport function lakes(): string[] { return []; }\n",
      "b.js": "/** @returns {number} */\nexport function depth() { return 1; }\n",
    });
    const [{ parsed }] = read(path.join(root, "tsconfig.json"), root) as [Project];
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host: createSharedHost(ts, parsed.options, new Map()) });
    const docsOf = (file: string): number => ts.getJSDocCommentsAndTags(program.getSourceFile(path.join(root, file))!.statements[0]!).length;
    // ts.createCompilerHost alone parses both; tsc (and so the transformer's programs) only the JavaScript one's.
    expect([docsOf("a.ts"), docsOf("b.js")]).toEqual([0, 1]);
  });
});
