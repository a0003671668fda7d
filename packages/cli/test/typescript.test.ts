import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadTypeScript } from "../src/typescript";
import { FIXTURE_TSCONFIG, REPO, linkRegistry, parseJson, scratch, sourced } from "./helpers";

const scratchDirectories: string[] = [];
afterAll(() => {
  for (const directory of scratchDirectories) fs.rmSync(directory, { recursive: true, force: true });
});

/** The shape of the TypeScript 7 package as far as the check cares: a version, no JavaScript API. */
const TYPESCRIPT_7 = {
  "node_modules/typescript/package.json": JSON.stringify({ name: "typescript", version: "7.0.0", main: "./lib/api.js" }),
  "node_modules/typescript/lib/api.js": `"use strict";\nmodule.exports = { version: "7.0.0" };\n`,
};

function project(files: Record<string, string>): string {
  const directory = scratch(files);
  scratchDirectories.push(directory);
  return directory;
}

describe("which TypeScript checks the project", () => {
  it("the project's own: TypeScript 5.9.3 for a project beside it", () => {
    const run = sourced(["check", "-p", "fixtures/ts5/cli"]);
    expect(run.stdout).toMatch(/ with TypeScript 5\.9\.3\.\n$/);
  });

  it("TypeScript 7 beside the project: the CLI's own TypeScript 6 checks it, and says so", () => {
    const directory = project({
      ...TYPESCRIPT_7,
      "tsconfig.json": FIXTURE_TSCONFIG,
      "src/tools.ts": `import { createRegistry } from "@sourced/registry";\nexport const registry = createRegistry({ name: "ts7", version: "1.0.0" });\nexport const f = registry.tool()(function f() { return 1; });\n`,
    });
    linkRegistry(directory);
    const run = sourced(["check", "--format", "json"], directory);
    expect(run.stderr).toMatch(/^sourced: note: typescript 7\.0\.0 at .* has no JavaScript API; checking with TypeScript 6\.0\.3 from .*\n$/);
    expect(run.status).toBe(1);
    expect(parseJson(run).map(({ file, line, id, tool }) => ({ file, line, id, tool }))).toEqual([
      { file: "src/tools.ts", line: 3, id: "missing-annotation", tool: "f" },
    ]);
  });

  it("TypeScript 7 and nothing else: says to install TypeScript 6 beside it", () => {
    const directory = project(TYPESCRIPT_7);
    expect(() => loadTypeScript(directory, [directory])).toThrow(
      /^typescript 7\.0\.0 at .* has no JavaScript API\. sourced check needs the TypeScript JavaScript API \(typescript >=5\.0 <6\.1\)\. TypeScript 7 has none: install TypeScript 6 beside it for the check, e\.g\. 'npm install --save-dev @typescript\/typescript6@6'/,
    );
  });

  it("@typescript/typescript6 beside TypeScript 7 is taken before the CLI's own", () => {
    const typescript6 = path.join(REPO, "node_modules/typescript");
    const directory = project(TYPESCRIPT_7);
    fs.mkdirSync(path.join(directory, "node_modules/@typescript"));
    fs.symlinkSync(typescript6, path.join(directory, "node_modules/@typescript/typescript6"), "dir");
    const loaded = loadTypeScript(directory, []);
    expect(loaded.version).toBe("6.0.3");
    expect(loaded.note).toMatch(/^typescript 7\.0\.0 at .* has no JavaScript API; checking with TypeScript 6\.0\.3 from /);
  });

  it("no TypeScript at all beside the project: the CLI's own, without a note", () => {
    const directory = project({ "tsconfig.json": FIXTURE_TSCONFIG });
    const loaded = loadTypeScript(directory);
    expect(loaded.version).toBe("6.0.3");
    expect(loaded.note).toBeUndefined();
  });
});
