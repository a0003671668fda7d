import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_TSCONFIG, REPO } from "./helpers";

/*
 * The install recipes of docs/typescript-7.md, each installed as a user would: packed tarballs
 * of our packages plus TypeScript from the registry, into a fresh project outside the workspace,
 * with the package manager's plain install (no --legacy-peer-deps, no --force). Each recipe must
 * install, keep the project's `tsc` at TypeScript 7, and `sourced check` must run on the native
 * backend and find what it should.
 */

// `project` comes with the CLI, and is what the registry's start-up check runs on: a project that runs from source has it too.
// contract-rules: the registry and the analysis depend on it (an override, like the others, until it is published).
const PACKAGES = ["contract-rules", "registry", "analysis", "analysis-native", "project", "cli", "eslint-plugin"] as const;
const TOOLS = [
  `import { createRegistry, type DataToolOutput } from "@sourced/registry";`,
  `export const registry = createRegistry({ name: "recipes", version: "1.0.0" });`,
  `export const good = registry.tool()(function good(): DataToolOutput {`,
  `  return { content: [{ type: "text", text: "ok" }], structuredContent: { sources: ["https://example.org/"] } };`,
  `});`,
  `export const bad = registry.tool()(function bad() {`,
  `  return 1;`,
  `});`,
  ``,
].join("\n");

let packs: string;
const projects: string[] = [];
const tarballs: Record<string, string> = {};

function run(command: string, args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "", npm_config_audit: "false", npm_config_fund: "false" } });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  packs = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-packs-"));
  for (const name of PACKAGES) {
    const packed = run("pnpm", ["pack", "--pack-destination", packs], path.join(REPO, "packages", name));
    expect(packed.status, packed.stderr).toBe(0);
    const file = fs.readdirSync(packs).find((entry) => entry.startsWith(`sourced-${name}-`) && entry.endsWith(".tgz"));
    expect(file, `the tarball of @sourced/${name}`).toBeDefined();
    tarballs[`@sourced/${name}`] = `file:${path.join(packs, file!)}`;
  }
}, 300_000);

afterAll(() => {
  for (const directory of [packs, ...projects]) if (directory !== undefined) fs.rmSync(directory, { recursive: true, force: true });
});

/** A fresh project: our tarballs plus `devDependencies`, and a tools file with one finding. */
function freshProject(devDependencies: Record<string, string>, extra: Record<string, unknown> = {}): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-recipe-"));
  projects.push(directory);
  // The contract's rules come with the registry and the analysis, never installed by name.
  const { "@sourced/registry": registry, "@sourced/eslint-plugin": _eslintPlugin, "@sourced/contract-rules": _contractRules, ...tools } = tarballs;
  // Our packages depend on each other by version; until they are published, each package
  // manager is told to take those versions from the tarballs (npm `overrides`, yarn `resolutions`,
  // pnpm `overrides` in pnpm-workspace.yaml). Everything else comes from the registry.
  const manifest = {
    name: "recipe",
    private: true,
    type: "commonjs",
    dependencies: { "@sourced/registry": registry },
    devDependencies: { ...tools, ...devDependencies },
    overrides: tarballs,
    resolutions: tarballs,
    ...extra,
  };
  fs.writeFileSync(path.join(directory, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(directory, "pnpm-workspace.yaml"), `overrides:\n${Object.entries(tarballs).map(([name, spec]) => `  "${name}": "${spec}"\n`).join("")}`);
  fs.writeFileSync(path.join(directory, "tsconfig.json"), FIXTURE_TSCONFIG);
  fs.mkdirSync(path.join(directory, "src"));
  fs.writeFileSync(path.join(directory, "src/tools.ts"), TOOLS);
  return directory;
}

/** What every recipe must give: TypeScript 7 as the project's `tsc`, and the native check's one finding. */
function expectNativeCheck(directory: string, typescriptForEslint?: RegExp): void {
  const tsc = run(path.join(directory, "node_modules/.bin/tsc"), ["--version"], directory);
  expect(tsc.stdout.trim()).toBe("Version 7.0.2");
  if (typescriptForEslint !== undefined) {
    const api = run(process.execPath, ["-e", `process.stdout.write(require("typescript").version)`], directory);
    expect(api.stdout).toMatch(typescriptForEslint);
  }
  const check = run(path.join(directory, "node_modules/.bin/sourced"), ["check"], directory);
  expect(check.stderr).toBe("");
  expect(check.status).toBe(1);
  expect(check.stdout).toMatch(/^src\/tools\.ts\(6,45\): error SRC92001: Tool 'bad' /);
  expect(check.stdout).toMatch(/\nFound 1 finding in 1 file; checked 2 registrations in 1 file of 1 project with TypeScript 7\.0\.2 \(native\)\.\n$/);
}

const ALIAS = { typescript: "npm:@typescript/typescript6@6.0.2", "@typescript/native": "npm:typescript@7.0.2" };

describe("install recipes, from packed tarballs into fresh projects", () => {
  it("npm, TypeScript 7 only: `npm install` succeeds, and sourced check runs natively", () => {
    const directory = freshProject({ typescript: "7.0.2" });
    const install = run("npm", ["install"], directory);
    expect(install.status, install.stderr).toBe(0);
    expectNativeCheck(directory);
  });

  it("npm, the alias setup for ESLint (`typescript` is TypeScript 6, TypeScript 7 as `@typescript/native`): the project's tsc stays 7, and the ESLint rule runs on TypeScript 6", () => {
    const directory = freshProject({
      ...ALIAS,
      "@sourced/eslint-plugin": tarballs["@sourced/eslint-plugin"]!,
      eslint: "10.15.0",
      "@typescript-eslint/parser": "8.73.0",
    });
    fs.writeFileSync(
      path.join(directory, "eslint.config.mjs"),
      `import { defineConfig } from "eslint/config";\nimport sourced from "@sourced/eslint-plugin";\n\nexport default defineConfig(\n  sourced.configs.recommended,\n  { languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } } },\n);\n`,
    );
    const install = run("npm", ["install"], directory);
    expect(install.status, install.stderr).toBe(0);
    expectNativeCheck(directory, /^6\.0\./);
    const lint = run(path.join(directory, "node_modules/.bin/eslint"), ["src"], directory);
    expect(lint.status, lint.stderr).toBe(1);
    expect(lint.stdout).toMatch(/6:45\s+error\s+Tool 'bad' has no return type annotation.*sourced\/require-data-tool-output/);
  });

  it("pnpm, TypeScript 7 only", () => {
    const directory = freshProject({ typescript: "7.0.2" });
    const install = run("pnpm", ["install"], directory);
    expect(install.status, install.stderr + install.stdout).toBe(0);
    expectNativeCheck(directory);
  });

  it("pnpm, the alias setup for ESLint", () => {
    const directory = freshProject(ALIAS);
    const install = run("pnpm", ["install"], directory);
    expect(install.status, install.stderr + install.stdout).toBe(0);
    expectNativeCheck(directory, /^6\.0\./);
  });

  it("yarn (1.x, node_modules), the alias setup for ESLint", () => {
    const directory = freshProject(ALIAS);
    const install = run("npx", ["--yes", "yarn@1.22.22", "install", "--non-interactive", "--no-progress"], directory);
    expect(install.status, install.stderr + install.stdout).toBe(0);
    expectNativeCheck(directory, /^6\.0\./);
  });
});
