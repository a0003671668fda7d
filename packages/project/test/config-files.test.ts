import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configCoverage, jsonTokens, stripJsonComments } from "../src/config-files";
import { nativeErrorPlace } from "../src/projects";
import { judgeFiles } from "../src/startup/judge";
import { sameCode, traceOutputs } from "../src/startup/outputs";
import { emittingConfig } from "../src/startup/sources";

/*
 * The project layer's own reading of tsconfig files, without TypeScript (the start-up check's
 * cache reads them in the server's thread; TypeScript 7 has no config API in node), and how the
 * start-up check tells plain tsc's output from other JavaScript.
 */

const made: string[] = [];
afterAll(() => {
  for (const directory of made) fs.rmSync(directory, { recursive: true, force: true });
});

/** A directory holding `files` (paths relative to it). */
function tree(files: Record<string, string>): string {
  const directory = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-project-")));
  made.push(directory);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    fs.writeFileSync(path.join(directory, name), text);
  }
  return directory;
}

describe("stripJsonComments: tsconfig's JSON with comments and trailing commas, made plain JSON", () => {
  it("keeps a string's text as written: commas, brackets, slashes and quotes inside it", () => {
    const text = '{ "include": ["a,]", "b,}", "http://x/*y*/", "say \\"hi\\", ]"], }';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ include: ["a,]", "b,}", "http://x/*y*/", 'say "hi", ]'] });
  });

  it("drops comments and the trailing commas before a closing bracket or brace, across lines and comments", () => {
    const text = '{\n  // a comment, ]\n  "a": [1, 2, /* two, */],\n  "b": { "c": true, },\n  /* last */\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: [1, 2], b: { c: true } });
  });

  it("keeps a comma that separates two values", () => {
    expect(JSON.parse(stripJsonComments('["x" , "y"]'))).toEqual(["x", "y"]);
  });

  it("drops a leading byte order mark, as TypeScript reads the file", () => {
    expect(JSON.parse(stripJsonComments('\uFEFF{ "a": "\uFEFF" }'))).toEqual({ a: "\uFEFF" });
  });

  it("a quote inside a comment opens no string, and a string ending in an escaped backslash closes at its quote", () => {
    const text = '{\n  // say "hi\n  "a": "x\\\\", /* a " and a ] */ "b": "//", // "\n  "c": [1,],\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ a: "x\\", b: "//", c: [1] });
  });
});

describe("jsonTokens: the one reading of tsconfig text that stripJsonComments and the reader of `references` share", () => {
  const tokens = (text: string) => [...jsonTokens(text)].map((token) => [token.kind, text.slice(token.start, token.end)]);

  it("a string whole, escapes and comment markers inside it included; a comment whole, up to its line break; any other character alone", () => {
    expect(tokens('["a\\"//\\\\", /* " */ 1]// x "y\n')).toEqual([
      ["char", "["],
      ["string", '"a\\"//\\\\"'],
      ["char", ","],
      ["char", " "],
      ["comment", '/* " */'],
      ["char", " "],
      ["char", "1"],
      ["char", "]"],
      ["comment", '// x "y'],
      ["char", "\n"],
    ]);
  });

  it("an unterminated string or block comment runs to the end of the text", () => {
    expect(tokens('"a\\')).toEqual([["string", '"a\\']]);
    expect(tokens("1 /* a")).toEqual([["char", "1"], ["char", " "], ["comment", "/* a"]]);
  });
});

describe("configCoverage", () => {
  it("follows `extends` for the output directory (the extending config's first) and reads only the config's own `references`", () => {
    const root = tree({
      "base.json": '{ "compilerOptions": { "outDir": "base-out", }, "references": [{ "path": "./never" }] }',
      "tsconfig.json": '{ "extends": "./base.json", "include": ["src"], "references": [{ "path": "./app" }, { "path": "./other.json" }] }',
      "app/tsconfig.json": '{ "compilerOptions": { "outDir": "../dist/app" } }',
      "other.json": "{}",
    });
    const coverage = configCoverage(path.join(root, "tsconfig.json"));
    expect(coverage.outDir).toBe(path.join(root, "base-out"));
    expect(coverage.references).toEqual([path.join(root, "app", "tsconfig.json"), path.join(root, "other.json")]);
    expect(coverage.configFiles).toEqual([path.join(root, "tsconfig.json"), path.join(root, "base.json")]);
    expect(coverage.skipped).toContain(path.join(root, "base-out"));
    expect(coverage.searched).toEqual([path.join(root, "src")]);
  });

  it("a tsconfig saved with a byte order mark says what it says (JSON.parse alone refuses it), and plain tsc's output in its outDir is found to be its", () => {
    const root = tree({ "tsconfig.json": '\uFEFF{ "compilerOptions": { "rootDir": "src", "outDir": "dist" }, "include": ["src"], "references": [{ "path": "./app" }] }', "src/server.ts": "", "dist/server.js": "" });
    const coverage = configCoverage(path.join(root, "tsconfig.json"));
    expect(coverage).toMatchObject({ outDir: path.join(root, "dist"), rootDir: path.join(root, "src"), searched: [path.join(root, "src")], references: [path.join(root, "app", "tsconfig.json")] });
    expect(emittingConfig(path.join(root, "dist", "server.js"), new Map())).toBe(path.join(root, "tsconfig.json"));
  });

  it("reads a reference as both compilers do, whatever is on disk: a path not ending in .json names a directory's tsconfig.json", () => {
    const root = tree({
      "tsconfig.json": '{ "files": [], "references": [{ "path": "./lib.ts" }, { "path": "./gone" }, { "path": "./named.json" }] }',
      "lib.ts": "export const lib = 1;\n",
    });
    expect(configCoverage(path.join(root, "tsconfig.json")).references).toEqual([
      path.join(root, "lib.ts", "tsconfig.json"),
      path.join(root, "gone", "tsconfig.json"),
      path.join(root, "named.json"),
    ]);
  });
});

describe("nativeErrorPlace: where TypeScript 7 places a config error, as file(line,col)", () => {
  it("counts the line breaks TypeScript counts: a lone carriage return and the Unicode line and paragraph separators too", () => {
    const root = tree({ "tsconfig.json": '{\r  "a": 1,\u2028  "b": 2,\u2029  "c": 3,\r\n  "d": 4\n  "e": 5 }' });
    const text = fs.readFileSync(path.join(root, "tsconfig.json"), "utf8");
    const place = (key: string): string | undefined => nativeErrorPlace({ fileName: path.join(root, "tsconfig.json"), start: text.indexOf(`"${key}"`), code: 1, message: "" }, root);
    expect(["a", "b", "c", "d", "e"].map(place)).toEqual(["tsconfig.json(2,3)", "tsconfig.json(3,3)", "tsconfig.json(4,3)", "tsconfig.json(5,3)", "tsconfig.json(6,3)"]);
  });
});

describe("emittingConfig: which tsconfig wrote a JavaScript file", () => {
  it("the config whose outDir holds it, found above it or through the references of one above it", () => {
    const root = tree({
      "tsconfig.json": '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }',
      "tsconfig.app.json": '{ "compilerOptions": { "rootDir": "src", "outDir": "build" }, "include": ["src"] }',
      "src/server.ts": "",
      "build/server.js": "",
      "build/lib/deep.mjs": "",
    });
    const cache = new Map<string, string | undefined>();
    expect(emittingConfig(path.join(root, "build", "server.js"), cache)).toBe(path.join(root, "tsconfig.app.json"));
    expect(emittingConfig(path.join(root, "build", "lib", "deep.mjs"), cache)).toBe(path.join(root, "tsconfig.app.json"));
  });

  it("a second project that extends the first and inherits its outDir: the config nearest to the source the file mirrors, unless it emits nothing", () => {
    const root = tree({
      "tsconfig.json": '{ "compilerOptions": { "rootDir": ".", "outDir": "out" }, "include": ["*.ts"] }',
      "server.ts": "",
      "loose/tsconfig.json": '{ "extends": "../tsconfig.json", "compilerOptions": { "strictNullChecks": false }, "include": ["*.ts"] }',
      "loose/tools.ts": "",
      "types/tsconfig.json": '{ "extends": "../tsconfig.json", "compilerOptions": { "noEmit": true }, "include": ["*.ts"] }',
      "types/check.ts": "",
      "out/server.js": "",
      "out/loose/tools.js": "",
      "out/types/check.js": "",
    });
    const cache = new Map<string, string | undefined>();
    expect(emittingConfig(path.join(root, "out", "loose", "tools.js"), cache)).toBe(path.join(root, "loose", "tsconfig.json"));
    expect(emittingConfig(path.join(root, "out", "server.js"), cache)).toBe(path.join(root, "tsconfig.json"));
    expect(emittingConfig(path.join(root, "out", "types", "check.js"), cache)).toBe(path.join(root, "tsconfig.json"));
  });

  it("a config without outDir: the JavaScript beside a TypeScript source of its name; plain JavaScript and dependencies are no one's output", () => {
    const root = tree({
      "tsconfig.json": '{ "include": ["src"] }',
      "src/server.ts": "",
      "src/server.js": "",
      "src/plain.js": "",
      "src/types.cts": "",
      "src/types.cjs": "",
      "node_modules/dep/index.js": "",
    });
    const cache = new Map<string, string | undefined>();
    expect(emittingConfig(path.join(root, "src", "server.js"), cache)).toBe(path.join(root, "tsconfig.json"));
    expect(emittingConfig(path.join(root, "src", "types.cjs"), cache)).toBe(path.join(root, "tsconfig.json"));
    expect(emittingConfig(path.join(root, "src", "plain.js"), cache)).toBeUndefined();
    expect(emittingConfig(path.join(root, "node_modules", "dep", "index.js"), cache)).toBeUndefined();
    expect(emittingConfig(path.join(root, "src", "server.ts"), cache)).toBeUndefined();
  });
});

describe("sameCode: whether the running file is what the config emits now", () => {
  it("ignores the byte order mark, the source map comment and trailing white space, nothing else", () => {
    expect(sameCode("\uFEFFexport const a = 1;\n", "export const a = 1;\n//# sourceMappingURL=a.js.map")).toBe(true);
    expect(sameCode("export const a = 1;\n//# sourceMappingURL=data:application/json;base64,e30=\n", "export const a = 1;\n")).toBe(true);
    expect(sameCode("export const a = 2;\n", "export const a = 1;\n")).toBe(false);
    expect(sameCode("export const a = 1; // sourceMappingURL=x\n", "export const a = 1;\n")).toBe(false);
  });
});

describe("traceOutputs: each running file of tsc's output against the config's emit now", () => {
  it("traced when it is that emit; otherwise why not: changed sources, a checking build's output, a file the config does not emit", () => {
    const root = tree({
      "dist/same.js": "export const a = 1;\n",
      "dist/edited.js": "export const a = 2;\n",
      "dist/stamped.js": 'export const a = Object.defineProperties(f, { [Symbol.for("@sourced/registry:verified")]: { value: "@sourced/cli@0.1.0" } });\n',
      "dist/stray.js": "",
    });
    const emitted = (name: string) => ({ source: path.join(root, "src", `${name}.ts`), text: "export const a = 1;\n//# sourceMappingURL=x.js.map", mappings: "AAAA" });
    const emission = new Map(["same", "edited", "stamped"].map((name) => [path.join(root, "dist", `${name}.js`), emitted(name)]));
    const files = ["same", "edited", "stamped", "stray"].map((name) => path.join(root, "dist", `${name}.js`));
    const display = (file: string) => path.relative(root, file);
    const [same, edited, stamped, stray] = traceOutputs(files, path.join(root, "tsconfig.json"), emission, () => "print", display);
    expect(same).toEqual({ file: files[0], fingerprint: "print", source: path.join(root, "src", "same.ts"), mappings: "AAAA" });
    expect(edited).toMatchObject({ failure: "dist/edited.js is not what tsconfig.json emits from src/edited.ts now: the sources changed after the build (or it was built with other options), so they are not what runs; rebuild and restart" });
    expect(stamped).toMatchObject({ failure: expect.stringMatching(/^dist\/stamped\.js comes from a build that checked it \(it carries verified stamps: tspc or sourced build\)/) });
    expect(stray).toMatchObject({ failure: expect.stringMatching(/^tsconfig\.json emits no dist\/stray\.js from its sources as they are now/) });
  });
});

describe("judgeFiles on plain tsc's output: one emit traces the whole build", () => {
  it("records every file the build wrote, not only the one asked about: the server's next registry finds its file in the record", () => {
    const root = tree({
      "tsconfig.json": '{ "compilerOptions": { "target": "ES2022", "lib": ["ES5"], "module": "commonjs", "types": [], "strict": true, "rootDir": "src", "outDir": "dist" }, "include": ["src"] }',
      "src/a.ts": "export const a = 1;\n",
      "src/b.ts": "export const b = 2;\n",
      "src/c.ts": "export const c = 3;\n",
    });
    const config = path.join(root, "tsconfig.json");
    const dist = (name: string) => path.join(root, "dist", `${name}.js`);
    // As tsc writes them (the check's emit matches them, source map comment aside); c.ts was never built.
    fs.mkdirSync(path.join(root, "dist"));
    fs.writeFileSync(dist("a"), '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.a = void 0;\nexports.a = 1;\n');
    fs.writeFileSync(dist("b"), '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.b = void 0;\nexports.b = 2;\n');
    const result = judgeFiles({ files: [], outputs: [{ file: dist("a"), config }], cwd: root, cache: false });
    expect(result.outputs.map((output) => output.file)).toEqual([dist("a")]);
    const recorded = result.records.find((record) => record.config === config)?.outputs ?? [];
    expect(recorded.map((output) => ({ file: output.file, source: "source" in output ? output.source : output.failure }))).toEqual([
      { file: dist("a"), source: path.join(root, "src", "a.ts") },
      { file: dist("b"), source: path.join(root, "src", "b.ts") },
    ]);
  });
});
