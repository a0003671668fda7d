import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkRegistrations, type StartupOutcome } from "@sourced/project/startup";
import { REGISTRY, removeTrees, tree, TYPESCRIPT_6, TYPESCRIPT_7, write } from "./helpers";

/*
 * The start-up check's records against what module resolution depended on, as ProjectSession
 * sees it (session.test.ts): a record made while an import found nothing (a file not written yet,
 * outside what `include` searches) or while a package link pointed elsewhere (pnpm's upgrade) must
 * not answer the next start, though no file of the program changed. The built check, its worker
 * and the real TypeScript 6.0.3, on projects written to a temporary directory.
 */

afterAll(removeTrees);

const TSCONFIG = JSON.stringify({ compilerOptions: { target: "es2022", module: "nodenext", strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true }, include: ["src"] });

/** The project's one tool, returning `Out` from `from`; its registration's frame is line 4, column 18. */
const tools = (from: string) =>
  `import { createRegistry } from "@sourced/registry";\nimport type { Out } from "${from}";\nexport const registry = createRegistry({ name: "r", version: "1.0.0" });\n` +
  `export const t = registry.tool({ description: "d" })(function t(): Out { throw new Error(); });\n`;

async function verdict(root: string): Promise<[StartupOutcome["source"], string]> {
  const outcome = await checkRegistrations([{ tool: "t", frames: [{ file: path.join(root, "src/tools.ts"), line: 4, column: 18 }] }], { cwd: root });
  const [only] = outcome.verdicts;
  return [outcome.source, only === undefined ? "none" : only.kind === "refused" ? `refused: ${only.finding.message.split(",")[0]}` : only.kind];
}

describe.each([
  ["TypeScript 6", TYPESCRIPT_6],
  ["TypeScript 7", TYPESCRIPT_7],
])("%s: a record made while resolution found nothing, or found another package, is not reused once it finds what it would now", (_, typescript) => {
  it("a type imported from a file not written yet, outside `include`: refused, then verified at the next start once the file is written", async () => {
    const root = tree({ "tsconfig.json": TSCONFIG, "package.json": '{ "type": "module" }', "src/tools.ts": tools("../shared/out.ts") }, { "node_modules/typescript": typescript, "node_modules/@sourced/registry": REGISTRY });
    expect(await verdict(root)).toEqual(["analysis", "refused: Tool 't' is declared to return 'Out'"]);
    expect(await verdict(root)).toEqual(["cache", "refused: Tool 't' is declared to return 'Out'"]);
    write(root, "shared/out.ts", 'export type Out = import("@sourced/registry").DataToolOutput;\n');
    expect(await verdict(root)).toEqual(["analysis", "verified"]);
    expect(await verdict(root)).toEqual(["cache", "verified"]);
  });

  it("a type imported from a package not installed yet: refused, then verified at the next start once it is installed", async () => {
    const root = tree({ "tsconfig.json": TSCONFIG, "package.json": '{ "type": "module" }', "src/tools.ts": tools("kit") }, { "node_modules/typescript": typescript, "node_modules/@sourced/registry": REGISTRY });
    expect(await verdict(root)).toEqual(["analysis", "refused: Tool 't' is declared to return 'Out'"]);
    expect(await verdict(root)).toEqual(["cache", "refused: Tool 't' is declared to return 'Out'"]);
    write(root, "node_modules/kit/package.json", JSON.stringify({ name: "kit", version: "1.0.0", types: "./index.d.ts" }));
    write(root, "node_modules/kit/index.d.ts", 'export type Out = import("@sourced/registry").DataToolOutput;\n');
    expect(await verdict(root)).toEqual(["analysis", "verified"]);
    expect(await verdict(root)).toEqual(["cache", "verified"]);
  });

  it("a type imported through `paths` from a file not written yet: refused, then verified at the next start once the file is written", async () => {
    const config = JSON.parse(TSCONFIG) as { compilerOptions: Record<string, unknown> };
    config.compilerOptions.paths = { "@shared/*": ["./shared/*"] };
    const root = tree({ "tsconfig.json": JSON.stringify(config), "package.json": '{ "type": "module" }', "src/tools.ts": tools("@shared/out.ts") }, { "node_modules/typescript": typescript, "node_modules/@sourced/registry": REGISTRY });
    expect(await verdict(root)).toEqual(["analysis", "refused: Tool 't' is declared to return 'Out'"]);
    expect(await verdict(root)).toEqual(["cache", "refused: Tool 't' is declared to return 'Out'"]);
    write(root, "shared/out.ts", 'export type Out = import("@sourced/registry").DataToolOutput;\n');
    expect(await verdict(root)).toEqual(["analysis", "verified"]);
  });

  it("a package upgraded by re-pointing its link, as pnpm does (both versions' files unchanged): judged again on the new version", async () => {
    const version = (major: number, out: string) => ({
      [`node_modules/.pnpm/kit@${major}.0.0/node_modules/kit/package.json`]: JSON.stringify({ name: "kit", version: `${major}.0.0`, types: "./index.d.ts" }),
      [`node_modules/.pnpm/kit@${major}.0.0/node_modules/kit/index.d.ts`]: `export type Out = ${out};\n`,
    });
    const root = tree(
      {
        "tsconfig.json": TSCONFIG,
        "package.json": '{ "type": "module" }',
        "src/tools.ts": tools("kit"),
        ...version(1, 'import("@sourced/registry").DataToolOutput'),
        ...version(2, "string"),
      },
      { "node_modules/typescript": typescript, "node_modules/@sourced/registry": REGISTRY },
    );
    fs.symlinkSync(path.join(root, "node_modules/.pnpm/kit@1.0.0/node_modules/kit"), path.join(root, "node_modules/kit"), "dir");
    expect(await verdict(root)).toEqual(["analysis", "verified"]);
    expect(await verdict(root)).toEqual(["cache", "verified"]);
    fs.rmSync(path.join(root, "node_modules/kit"));
    fs.symlinkSync(path.join(root, "node_modules/.pnpm/kit@2.0.0/node_modules/kit"), path.join(root, "node_modules/kit"), "dir");
    expect(await verdict(root)).toEqual(["analysis", "refused: Tool 't' is declared to return 'Out'"]);
  });
});
