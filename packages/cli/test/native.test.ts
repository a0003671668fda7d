import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_TSCONFIG, FIXTURES, REPO, linkRegistry, scratch, sourced, syntaxErrorProject } from "./helpers";

/*
 * `sourced check` on the native backend says what the classic backend says, for every situation
 * the CLI's own tests cover: findings, solutions, broken tsconfigs, syntax errors, an unresolved
 * registry. Each project is a scratch copy whose `tsc` is TypeScript 7.0.2 (fixtures/ts7), checked
 * once as chosen (native) and once with `--backend classic` (the CLI's own TypeScript 6.0.3).
 */

const TSC7 = path.join(REPO, "fixtures/ts7/node_modules/typescript/bin/tsc");
const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

/** Makes TypeScript 7 the project's `tsc`, as installing `typescript@7` does. */
function withTypeScript7(directory: string): string {
  directories.push(directory);
  fs.mkdirSync(path.join(directory, "node_modules/.bin"), { recursive: true });
  fs.symlinkSync(TSC7, path.join(directory, "node_modules/.bin/tsc"));
  return directory;
}

function copyOfFixtures(): string {
  const directory = scratch({});
  fs.cpSync(FIXTURES, directory, { recursive: true });
  linkRegistry(directory);
  return withTypeScript7(directory);
}

/** Both backends on the same project: everything equal but the summary's TypeScript and backend. */
function expectSameOnBothBackends(args: readonly string[], cwd: string): void {
  const native = sourced(args, cwd);
  const classic = sourced([...args, "--backend", "classic"], cwd);
  const normal = (text: string) => text.replace(/with TypeScript \S+ \((classic|native)\)/g, "with TypeScript <version> (<backend>)");
  expect(native.stdout).toMatch(/with TypeScript 7\.0\.2 \(native\)|^\[|^$/);
  expect({ status: native.status, stdout: normal(native.stdout), stderr: native.stderr }).toEqual({
    status: classic.status,
    stdout: normal(classic.stdout),
    stderr: classic.stderr,
  });
}

describe("the native backend reports what the classic backend reports", () => {
  const fixtures = copyOfFixtures();

  it.each(["clean", "findings", "solution"])("fixtures/cli/%s, text and JSON", (name) => {
    expectSameOnBothBackends(["check", "-p", name], fixtures);
    expectSameOnBothBackends(["check", "-p", name, "--format", "json"], fixtures);
  });

  it.each(["bad-json", "bad-option"])("fixtures/cli/%s: the configuration errors as tsc prints them, exit 2", (name) => {
    const native = sourced(["check", "-p", name], fixtures);
    expect(native.status).toBe(2);
    expect(native.stderr).toMatch(new RegExp(`^${name}/tsconfig\\.json\\(5,\\d\\): error TS\\d+: `));
    expectSameOnBothBackends(["check", "-p", name], fixtures);
  });

  it("source files with syntax errors: checked as far as they parse, the errors on standard error", () => {
    const directory = withTypeScript7(syntaxErrorProject());
    const native = sourced(["check"], directory);
    expect(native.status).toBe(1);
    expect(native.stderr).toMatch(/^src\/broken\.ts\(9,10\): warning TS1005: ':' expected\.\n/);
    expectSameOnBothBackends(["check"], directory);
  });

  it("an import of the registry that does not resolve: exit 2, each import's place", () => {
    const directory = withTypeScript7(
      scratch({
        "tsconfig.json": FIXTURE_TSCONFIG,
        "src/tools.ts": `import { createRegistry } from "@sourced/registry";\n\nconst registry = createRegistry({ name: "x", version: "1.0.0" });\nexport const f = registry.tool()(function f() { return 1; });\n`,
      }),
    );
    const native = sourced(["check", "--format", "json"], directory);
    expect(native.status).toBe(2);
    expect(native.stderr).toContain("src/tools.ts(1,32): error: cannot resolve '@sourced/registry'");
    expectSameOnBothBackends(["check", "--format", "json"], directory);
  });
});

describe("a reference to a project that does not exist", () => {
  // TypeScript 7 resolves a reference as TypeScript 6 does (a path ending in `.json` is the config,
  // any other a directory holding tsconfig.json): both backends name that config, at the entry.
  it.each([
    ["a missing directory", "./dir/gone", "dir/gone/tsconfig.json"],
    ["a missing .json", "./gone.json", "gone.json"],
    ["a file that is neither a .json nor a directory", "./lib.ts", "lib.ts/tsconfig.json"],
  ])("%s: exit 2, one line at its entry of `references`, the same on both backends", (_, reference, config) => {
    const directory = withTypeScript7(
      scratch({
        "tsconfig.json": `{\n  "files": [],\n  "references": [\n    { "path": "./app" },\n    { "path": "${reference}" }\n  ]\n}\n`,
        "app/tsconfig.json": FIXTURE_TSCONFIG,
        "app/src/a.ts": "export const a = 1;\n",
        "lib.ts": "export const b = 2;\n",
      }),
    );
    const line = `sourced: error: tsconfig.json(5,5): the referenced project '${path.join(fs.realpathSync(directory), config)}' does not exist. Fix the path in 'references', or remove the reference.\n`;
    for (const backend of ["native", "classic"]) {
      expect(sourced(["check", "--backend", backend], directory)).toEqual({ status: 2, stdout: "", stderr: line });
    }
  });
});

describe("checked JavaScript: JSDoc types", () => {
  // TypeScript 7 reparses a JSDoc `@returns {T}` into the function's return type node; TypeScript
  // 6 keeps it in the JSDoc, where the analysis reads it: both backends judge the JSDoc type.
  it("a JSDoc return type is the annotation on both backends", () => {
    const directory = withTypeScript7(
      scratch({
        "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", allowJs: true, checkJs: true, strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ["src"] }),
        "src/tools.js": [
          `const { createRegistry } = require("@sourced/registry");`,
          `const registry = createRegistry({ name: "js", version: "1.0.0" });`,
          `/** @returns {import("@sourced/registry").DataToolOutput} */`,
          `function good() {`,
          `  return { content: [{ type: "text", text: "ok" }], structuredContent: { sources: ["https://example.org/"] } };`,
          `}`,
          `exports.good = registry.tool()(good);`,
          `/** @returns {string} */`,
          `function wrong() { return "x"; }`,
          `exports.wrong = registry.tool()(wrong);`,
          `exports.bare = registry.tool()(function bare() { return 1; });`,
          ``,
        ].join("\n"),
      }),
    );
    linkRegistry(directory);
    const findings = (args: readonly string[]) =>
      (JSON.parse(sourced(["check", "--format", "json", ...args], directory).stdout) as { line: number; id: string; tool: string }[]).map(({ line, id, tool }) => `${line} ${id} ${tool}`);
    expect(findings([])).toEqual(["8 not-data-tool-output wrong", "11 missing-annotation bare"]);
    expect(findings(["--backend", "classic"])).toEqual(findings([]));
  });
});
