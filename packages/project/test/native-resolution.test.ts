import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nativeResolutionInputs } from "../src/native-resolution";
import { removeTrees, tree } from "./helpers";

/*
 * What a TypeScript 7 record says resolution depended on, told from the files' text, on real
 * folders: the places looked in up to the first that is there, in TypeScript's order, and the
 * package.json files read. The start-up check's use of it, on the real TypeScript 7, is in
 * startup-records.test.ts.
 */

afterAll(removeTrees);

/** The inputs of `files` of a tree, its paths made relative to the tree (folders above it left out). */
function inputsOf(root: string, files: readonly string[], options = {}): { missing: string[]; packageJsons: string[] } {
  const inputs = nativeResolutionInputs(
    files.map((file) => path.join(root, file)),
    options,
  );
  const inside = (location: string): string | undefined => (location.startsWith(`${root}${path.sep}`) ? path.relative(root, location).split(path.sep).join("/") : undefined);
  return { missing: inputs.missing.flatMap((location) => inside(location) ?? []), packageJsons: inputs.packageJsons.flatMap((location) => inside(location) ?? []) };
}

describe("the places an import of a TypeScript 7 program is looked for, for the start-up check's record", () => {
  it("a JavaScript extension is looked for as TypeScript's first, up to the file that is there", () => {
    const root = tree({ "package.json": "{}", "src/a.ts": 'import { b } from "./b.js";\nimport { c } from "./c.mjs";\n', "src/b.d.ts": "", "src/c.mts": "" });
    expect(inputsOf(root, ["src/a.ts"])).toEqual({ missing: ["src/b.ts", "src/b.tsx", "src/package.json"], packageJsons: ["package.json"] });
  });

  it("a file not written yet: every place it may be, its folder's package.json and index included", () => {
    const root = tree({ "package.json": "{}", "src/a.ts": 'export type { Out } from "../shared/out.ts";\n' });
    expect(inputsOf(root, ["src/a.ts"]).missing).toEqual([
      "shared/out.ts",
      ...["index.d.ts", "index.js", "index.jsx", "index.ts", "index.tsx", "package.json"].map((name) => `shared/out.ts/${name}`),
      "src/package.json",
    ]);
  });

  it("a package: its folder and its @types' from the file's folder up to the first holding either, and the package.json of the one found", () => {
    const root = tree({ "package.json": "{}", "src/deep/a.ts": 'import type { X } from "@scope/kit/sub";\nimport "other";\n', "node_modules/@scope/kit/package.json": "{}" });
    const { missing, packageJsons } = inputsOf(root, ["src/deep/a.ts"]);
    expect(missing.filter((location) => location.includes("kit"))).toEqual([
      "node_modules/@types/scope__kit",
      "src/deep/node_modules/@scope/kit",
      "src/deep/node_modules/@types/scope__kit",
      "src/node_modules/@scope/kit",
      "src/node_modules/@types/scope__kit",
    ]);
    // Not installed: looked for in every folder up to the root, the tree's own among them.
    expect(missing.filter((location) => location.includes("other"))).toEqual(["node_modules/@types/other", "node_modules/other", "src/deep/node_modules/@types/other", "src/deep/node_modules/other", "src/node_modules/@types/other", "src/node_modules/other"]);
    expect(packageJsons).toEqual(["node_modules/@scope/kit/package.json", "package.json"]);
  });

  it("`paths` targets and the tsconfig's `types` from its folder; Node's own modules and `#` imports are not looked for", () => {
    const root = tree({ "package.json": "{}", "tsconfig.json": "{}", "src/a.ts": 'import "@app/util";\nimport "node:fs";\nimport "path";\nimport "#internal";\n' });
    const { missing } = inputsOf(root, ["src/a.ts"], { paths: { "@app/*": ["lib/*"] }, pathsBasePath: root, configFilePath: path.join(root, "tsconfig.json"), types: ["node"] });
    expect(missing.filter((location) => location.startsWith("lib/"))).toEqual([
      ...["util.d.ts", "util.js", "util.jsx", "util.ts", "util.tsx"].map((name) => `lib/${name}`),
      ...["index.d.ts", "index.js", "index.jsx", "index.ts", "index.tsx", "package.json"].map((name) => `lib/util/${name}`),
    ]);
    expect(missing.filter((location) => location.startsWith("node_modules/"))).toEqual(["node_modules/@app/util", "node_modules/@types/app__util", "node_modules/@types/node", "node_modules/node"]);
    expect(missing.some((location) => /fs|path|internal/.test(location))).toBe(false);
  });
});
