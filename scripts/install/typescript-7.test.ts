import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeNode, NODE_LINES, nodeBinary } from "../node-lines";
import { installProject, MCP_CLIENT, packWorkspace, PACKED, removeInstalledProjects, removePackedTarballs, REPO, TOOLCHAINS, type InstalledProject, type Run } from "./index";

/*
 * The transformer and the ESLint rule where a bare `typescript` put TypeScript 7: what
 * `pnpm add -D @sourced/transformer @sourced/eslint-plugin ts-patch typescript …` installs today (pnpm
 * warns of the unmet peer and goes on; npm overrides it with a warning). Both front-ends run inside
 * TypeScript 5/6's JavaScript API, which TypeScript 7 does not have: each must say so in one line
 * naming the ways out, instead of failing inside ts-patch or typescript-eslint.
 */

/** The TypeScript 7 the native backend's tests run on (fixtures/ts7). */
const TYPESCRIPT_7 = (JSON.parse(fs.readFileSync(path.join(REPO, "fixtures/ts7/package.json"), "utf8")) as { devDependencies: { typescript: string } }).devDependencies.typescript;
const TEMPLATE = path.join(REPO, "fixtures", "install");

function describeRun(run: Run): string {
  return `exit ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

/** The one line of stderr that carries `needle`, checked to be one line of its own. */
function lineWith(output: string, needle: string): string {
  const lines = output.split("\n").filter((line) => line.includes(needle));
  expect(lines, output).toHaveLength(1);
  return lines[0]!;
}

let project: InstalledProject;
let directory: string;
beforeAll(() => {
  const { typescript: _typescript6, ...ts6Toolchain } = TOOLCHAINS.ts6;
  project = installProject({
    manager: "pnpm",
    tarballs: packWorkspace(),
    dependencies: { "@sourced/registry": PACKED },
    devDependencies: { "@sourced/transformer": PACKED, "@sourced/eslint-plugin": PACKED, "@sourced/cli": PACKED, "@sourced/project": PACKED, ...ts6Toolchain, ...MCP_CLIENT, typescript: TYPESCRIPT_7 },
  });
  const files: Record<string, string> = { "package.json": `${JSON.stringify({ type: "module" }, null, 2)}\n` };
  for (const name of ["tsconfig.json", "eslint.config.mjs"]) files[name] = fs.readFileSync(path.join(TEMPLATE, name), "utf8");
  for (const name of fs.readdirSync(path.join(TEMPLATE, "src"))) files[`src/${name}`] = fs.readFileSync(path.join(TEMPLATE, "src", name), "utf8");
  directory = project.caseDirectory("typescript-7", files);
});
afterAll(() => {
  removeInstalledProjects();
  removePackedTarballs();
});

describe(`TypeScript ${TYPESCRIPT_7} installed as \`typescript\` beside the transformer and the ESLint plugin`, () => {
  it("is the project's TypeScript", () => {
    const tsc = project.bin("tsc", ["--version"], directory);
    expect(tsc.stdout.trim()).toBe(`Version ${TYPESCRIPT_7}`);
  });

  it("ts-patch's own tspc fails as it loads, before it reads the tsconfig or loads any transformer: nothing of ours can run there", () => {
    const tspc = project.bin("tspc", ["-p", "tsconfig.json"], directory);
    expect(tspc.status).not.toBe(0);
    expect(tspc.stderr).toContain("TypeError: Cannot read properties of undefined (reading 'LineFeed')");
    expect(tspc.stderr).toMatch(/ts-patch[\\/]config\.js/);
  });

  it("sourced-tspc says, in one line, that tspc cannot run on TypeScript 7 and names the ways out", () => {
    const build = project.bin("sourced-tspc", ["-p", "tsconfig.json"], directory);
    expect(build.status, describeRun(build)).toBe(1);
    expect(build.stdout).toBe("");
    const line = lineWith(build.stderr, "TypeScript 7");
    expect(build.stderr).toBe(`${line}\n`);
    expect(line).toMatch(new RegExp(`^error: tspc cannot build with the transformer on TypeScript ${TYPESCRIPT_7.replaceAll(".", "\\.")}: `));
    for (const wayOut of ["Keep 'typescript' at 6.0", "the alias setup", "'sourced check' (@sourced/cli)", "the bundler plugin (@sourced/unplugin)", "docs/typescript-7.md"]) expect(line).toContain(wayOut);
    expect(fs.existsSync(path.join(directory, "dist"))).toBe(false);
    // docs/transformer.md shows this very line.
    expect(fs.readFileSync(path.join(REPO, "docs/transformer.md"), "utf8")).toContain(`\n\n  \`\`\`\n  ${line}\n  \`\`\`\n`);
  });

  it("ESLint with the plugin's recommended config stops with the plugin's one line, before typescript-eslint's parser loads", () => {
    const lint = project.bin("eslint", ["src"], directory);
    expect(lint.status, describeRun(lint)).toBe(2);
    const line = lineWith(lint.stderr, "TypeScript 7");
    expect(line).toMatch(new RegExp(`^Error: @sourced/eslint-plugin cannot run on TypeScript ${TYPESCRIPT_7.replaceAll(".", "\\.")}: typescript-eslint needs `));
    for (const wayOut of ["Keep 'typescript' at 6.0", "the alias setup", "'sourced check' (@sourced/cli)", "docs/typescript-7.md#eslint-users-the-alias-setup"]) expect(line).toContain(wayOut);
    // typescript-eslint's own refusal (which names neither the rule nor `sourced check`) never ran.
    expect(lint.stderr).not.toContain("typescript-eslint does not support TS 7.0");
  });
});

describe.each(NODE_LINES.map((line) => [describeNode(nodeBinary(line)), nodeBinary(line)] as const))(`plain tsc ${TYPESCRIPT_7}, on %s`, (_title, binary) => {
  it("the start-up check judges its output on TypeScript 7's checker and refuses the tool without DataToolOutput, never naming TypeScript 5 or 6; sourced build strips and stamps it", () => {
    const runner = project.on(binary);
    const files: Record<string, string> = { "package.json": `${JSON.stringify({ type: "module" }, null, 2)}\n`, "client.mjs": fs.readFileSync(path.join(TEMPLATE, "client.mjs"), "utf8") };
    for (const name of ["tsconfig.json"]) files[name] = fs.readFileSync(path.join(TEMPLATE, name), "utf8");
    for (const name of fs.readdirSync(path.join(TEMPLATE, "src"))) files[`src/${name}`] = fs.readFileSync(path.join(TEMPLATE, "src", name), "utf8");
    const here = project.caseDirectory(`typescript-7-tsc-${binary.line}`, files);
    const serve = () => {
      const call = runner.node(["client.mjs", "dist/server.js", "list_cities"], here);
      expect(call.status, describeRun(call)).toBe(0);
      return { ...(JSON.parse(call.stdout) as { node: string; tools: string[] }), stderr: call.stderr };
    };

    const plain = runner.bin("tsc", ["-p", "tsconfig.json"], here);
    expect(plain.status, describeRun(plain)).toBe(0);
    const judged = serve();
    expect(judged.node).toBe(binary.version);
    expect(judged.tools).toEqual(["list_cities"]);
    expect(judged.stderr).toMatch(/\[sourced\] warning: tool "[^"]+" \(src\/tools\.ts:\d+:\d+\) was not registered: /);
    expect(judged.stderr).not.toMatch(/typescript@[56]|TypeScript [56]/);

    const build = runner.bin("sourced", ["build"], here);
    expect(build.status, describeRun(build)).toBe(1);
    expect(build.stdout).toMatch(/^src\/tools\.ts\(\d+,\d+\): error SRC\d+: /m);
    const stamped = serve();
    expect(stamped.tools).toEqual(["list_cities"]);
    expect(stamped.stderr).not.toContain("[sourced] warning");
  });
});
