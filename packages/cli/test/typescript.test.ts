import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeProject, loadTypeScript, projectTypeScript } from "@sourced/project";
import { FIXTURE_TSCONFIG, REPO, linkRegistry, parseJson, scratch, sourced } from "./helpers";

const scratchDirectories: string[] = [];
afterAll(() => {
  for (const directory of scratchDirectories) fs.rmSync(directory, { recursive: true, force: true });
});

/** A TypeScript 7 package without its IPC API: a version, no JavaScript API of either kind. */
const TYPESCRIPT_7 = {
  "node_modules/typescript/package.json": JSON.stringify({ name: "typescript", version: "7.0.2", main: "./lib/api.js" }),
  "node_modules/typescript/lib/api.js": `"use strict";\nmodule.exports = { version: "7.0.2" };\n`,
};

function project(files: Record<string, string>): string {
  const directory = scratch(files);
  scratchDirectories.push(directory);
  return directory;
}

describe("which TypeScript checks the project", () => {
  it("the project's own: TypeScript 5.9.3 for a project beside it", () => {
    const run = sourced(["check", "-p", "fixtures/ts5/cli"]);
    expect(run.stdout).toMatch(/ with TypeScript 5\.9\.3 \(classic\)\.\n$/);
  });

  it("TypeScript 7.0.2 beside the project (fixtures/ts7): the native backend checks it, and the summary says so", () => {
    const run = sourced(["check", "-p", "fixtures/ts7/cli"]);
    expect(run.stdout).toMatch(/ with TypeScript 7\.0\.2 \(native\)\.\n$/);
  });

  it("--backend classic on a TypeScript 7 project: the classic backend, with TypeScript 6 found beside the CLI", () => {
    const run = sourced(["check", "-p", "fixtures/ts7/cli", "--backend", "classic"]);
    expect(run.stdout).toMatch(/ with TypeScript 6\.0\.3 \(classic\)\.\n$/);
  });

  it("--backend native on a TypeScript 6 project with no TypeScript 7: exit 2, saying what to install", () => {
    const run = sourced(["check", "-p", "fixtures/cases", "--backend", "native"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^sourced: error: the native backend needs TypeScript 7, and the project at .* has TypeScript 6\.0\.3 \(at .*\)\. Install it \('npm install --save-dev "typescript@>=7\.0\.2 <7\.2"'\)/);
  });

  it("a TypeScript 7 without its IPC API beside the project: the classic backend checks it with TypeScript 6, and says so", () => {
    const directory = project({
      ...TYPESCRIPT_7,
      "tsconfig.json": FIXTURE_TSCONFIG,
      "src/tools.ts": `import { createRegistry } from "@sourced/registry";\nexport const registry = createRegistry({ name: "ts7", version: "1.0.0" });\nexport const f = registry.tool()(function f() { return 1; });\n`,
    });
    linkRegistry(directory);
    const run = sourced(["check", "--format", "json"], directory);
    const notes = run.stderr.split("\n").filter((line) => line !== "");
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^sourced: note: cannot load typescript\/unstable\/sync from .*: the package has no '\.\/unstable\/sync' export; trying the classic backend\.$/);
    expect(notes[1]).toMatch(/^sourced: note: typescript 7\.0\.2 at .* has no JavaScript API; checking with TypeScript 6\.0\.3 from .*$/);
    expect(run.status).toBe(1);
    expect(parseJson(run).map(({ file, line, id, tool }) => ({ file, line, id, tool }))).toEqual([
      { file: "src/tools.ts", line: 3, id: "missing-annotation", tool: "f" },
    ]);
  });

  it("a TypeScript 6.1 beside the project (newer than supported): checked with it, and one warning names it, where it is, the supported range and what to install", () => {
    const typescript6 = path.join(REPO, "node_modules/typescript");
    const directory = project({
      "node_modules/typescript/package.json": JSON.stringify({ name: "typescript", version: "6.1.0", main: "./lib/api.js" }),
      // TypeScript 6.0.3's API under 6.1.0's number: only the version check differs.
      "node_modules/typescript/lib/api.js": `"use strict";\nmodule.exports = { ...require(${JSON.stringify(typescript6)}), version: "6.1.0" };\n`,
      "tsconfig.json": FIXTURE_TSCONFIG,
      "src/tools.ts": `import { createRegistry } from "@sourced/registry";\nexport const registry = createRegistry({ name: "ts61", version: "1.0.0" });\nexport const f = registry.tool()(function f() { return 1; });\n`,
    });
    linkRegistry(directory);
    const run = sourced(["check"], directory);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/ with TypeScript 6\.1\.0 \(classic\)\.\n$/);
    expect(run.stderr).toBe(
      `sourced: warning: typescript 6.1.0 at ${path.join(fs.realpathSync(directory), "node_modules/typescript")} is newer than the classic backend supports (typescript >=5.0 <6.1); ` +
        `checking with it anyway, as its JavaScript API seldom changes within a major version, but sourced was not tested on it: ` +
        `if a verdict looks wrong, check with a supported TypeScript ('npm install --save-dev typescript@6.0') before reporting it.\n`,
    );
  });

  it("a TypeScript 7.2 beside the project, with --backend native: exit 2, one error naming it, where it is, the supported range and what to install", () => {
    const directory = project({
      "node_modules/typescript/package.json": JSON.stringify({ name: "typescript", version: "7.2.0", main: "./lib/api.js" }),
      "node_modules/typescript/lib/api.js": `"use strict";\nmodule.exports = { version: "7.2.0" };\n`,
      "tsconfig.json": FIXTURE_TSCONFIG,
      "src/tools.ts": "export {};\n",
    });
    const run = sourced(["check", "--backend", "native"], directory);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `sourced: error: TypeScript 7.2.0 at ${path.join(fs.realpathSync(directory), "node_modules/typescript")} is newer than the native backend supports (typescript >=7.0.2 <7.2; TypeScript 7's API changes between minor versions). ` +
        `Install a supported one ('npm install --save-dev "typescript@>=7.0.2 <7.2"') or a release of sourced that supports TypeScript 7.2, ` +
        `or check it on the classic backend with TypeScript 6 beside it ('npm install --save-dev @typescript/typescript6@6').\n`,
    );
  });

  it("a TypeScript 7 without its IPC API and nothing else: the classic loader says to install TypeScript 6 beside it", () => {
    const directory = project(TYPESCRIPT_7);
    expect(() => loadTypeScript(directory, [directory])).toThrow(
      /^typescript 7\.0\.2 at .* has no JavaScript API\. sourced check's classic backend needs the TypeScript JavaScript API \(typescript >=5\.0 <6\.1\)\. TypeScript 7 has none \(its own API runs with '--backend native'\): for the classic backend, install TypeScript 6 beside it, e\.g\. 'npm install --save-dev @typescript\/typescript6@6'/,
    );
  });

  it("@typescript/typescript6 beside TypeScript 7 is taken before the CLI's own", () => {
    const typescript6 = path.join(REPO, "node_modules/typescript");
    const directory = project(TYPESCRIPT_7);
    fs.mkdirSync(path.join(directory, "node_modules/@typescript"));
    fs.symlinkSync(typescript6, path.join(directory, "node_modules/@typescript/typescript6"), "dir");
    const loaded = loadTypeScript(directory, []);
    expect(loaded.version).toBe("6.0.3");
    expect(loaded.note).toMatch(/^typescript 7\.0\.2 at .* has no JavaScript API; checking with TypeScript 6\.0\.3 from /);
  });

  it("no TypeScript at all beside the project: the CLI's own, without a note", () => {
    const directory = project({ "tsconfig.json": FIXTURE_TSCONFIG });
    const loaded = loadTypeScript(directory);
    expect(loaded.version).toBe("6.0.3");
    expect(loaded.note).toBeUndefined();
  });
});

describe("analyzeProject: the check's backend choice, for other front-ends", () => {
  it("picks native for a TypeScript 7 project and classic for a TypeScript 6 one, with the same findings", () => {
    const native = analyzeProject({ tsconfig: "fixtures/ts7/cli/tsconfig.json", cwd: REPO });
    const classic = analyzeProject({ tsconfig: "fixtures/cases/tsconfig.json", cwd: REPO });
    try {
      expect([native.backend, native.typescriptVersion]).toEqual(["native", "7.0.2"]);
      expect([classic.backend, classic.typescriptVersion]).toEqual(["classic", "6.0.3"]);
      const fields = (analysis: typeof native) =>
        analysis.result.findings.map((finding) => [path.relative(REPO, finding.sourceFile.fileName), finding.start, finding.end, finding.id, finding.tool, finding.message, finding.fix]);
      expect(fields(native).length).toBeGreaterThan(100);
      expect(fields(native)).toEqual(fields(classic));
    } finally {
      native.close();
      classic.close();
    }
  });
});

describe("projectTypeScript: the TypeScript the project's tsc is", () => {
  it("reads pnpm's shell shims (the workspace's own installs are pnpm's)", () => {
    expect(projectTypeScript(path.join(REPO, "fixtures/ts7/cli"))).toMatchObject({ version: "7.0.2", via: "tsc" });
    expect(projectTypeScript(path.join(REPO, "fixtures/ts5/cli"))).toMatchObject({ version: "5.9.3", via: "tsc" });
  });

  it("follows npm's symlinks, and takes the package owning tsc over `typescript`", () => {
    const directory = project(TYPESCRIPT_7);
    fs.mkdirSync(path.join(directory, "node_modules/.bin"));
    fs.mkdirSync(path.join(directory, "node_modules/@typescript"));
    fs.symlinkSync(path.join(REPO, "node_modules/typescript"), path.join(directory, "node_modules/@typescript/old"), "dir");
    fs.symlinkSync("../@typescript/old/bin/tsc", path.join(directory, "node_modules/.bin/tsc"));
    expect(projectTypeScript(directory)).toMatchObject({ version: "6.0.3", via: "tsc" });
    fs.rmSync(path.join(directory, "node_modules/.bin/tsc"));
    expect(projectTypeScript(directory)).toMatchObject({ version: "7.0.2", via: "typescript" });
  });
});

describe("the native adapter is loaded only when used", () => {
  it("a classic check never loads @sourced/analysis-native; a native one does", () => {
    const script = [
      `const { check } = require(${JSON.stringify(path.join(REPO, "packages/cli"))});`,
      `const loaded = () => Object.keys(require.cache).some((file) => file.includes("analysis-native"));`,
      `const classic = check({ projects: ["fixtures/cli/clean"], cwd: ${JSON.stringify(REPO)} });`,
      `const afterClassic = loaded();`,
      `const native = check({ projects: ["fixtures/ts7/cli"], cwd: ${JSON.stringify(REPO)} });`,
      `process.stdout.write(JSON.stringify([classic.backends, afterClassic, native.backends, loaded()]));`,
    ].join("\n");
    const run = spawnSync(process.execPath, ["-e", script], { cwd: REPO, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual([["classic"], false, ["native"], true]);
  });
});
