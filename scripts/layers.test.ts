import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/*
 * The import rules of `.dependency-cruiser.cjs` (docs/architecture.md): `pnpm lint` runs them, and
 * this test runs them in the suite, so CI holds them too. The packages pass; a circle closed by
 * an `import type` line, an arrow from a package to one above it, and an arrow up the registry's
 * floors that closes no circle, are caught.
 */

const REPO = path.resolve(__dirname, "..");
const CONFIG = path.join(REPO, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(REPO, "node_modules", ".bin", "depcruise");

function cruise(cwd: string): { status: number | null; output: string } {
  const run = spawnSync(DEPCRUISE, ["--config", CONFIG, "--output-type", "err", "packages"], { cwd, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-layers-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A tree of `files` beside the repository's tsconfig.base.json, which the rules resolve imports with. */
function tree(name: string, files: Record<string, string>): string {
  const root = path.join(scratch, name);
  for (const [file, text] of Object.entries({ "tsconfig.base.json": fs.readFileSync(path.join(REPO, "tsconfig.base.json"), "utf8"), ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("the import rules (.dependency-cruiser.cjs)", () => {
  it("hold on every package: no circle, type imports counted, and no arrow up the layers", () => {
    const run = cruise(REPO);
    expect(run.output).toMatch(/no dependency violations found \(\d+ modules/);
    expect(run.status).toBe(0);
  });

  it.each([
    [
      "a circle that only an `import type` line closes",
      {
        "packages/registry/src/options.ts": 'import type { RegistryOptions } from "./registry.js";\nexport const keys: (keyof RegistryOptions)[] = ["name"];\n',
        "packages/registry/src/registry.ts": 'import { keys } from "./options.js";\nexport interface RegistryOptions { name: string }\nexport const known = keys;\n',
      },
      ["error no-circular: packages/registry/src/options.ts → ", "packages/registry/src/registry.ts"],
    ],
    [
      "a package importing one above it (the analysis, the project layer)",
      {
        "packages/project/src/index.ts": "export const project = 1;\n",
        "packages/analysis/src/index.ts": 'import { project } from "../../project/src/index.js";\nexport const analysis = project;\n',
      },
      ["error layers: analysis: packages/analysis/src/index.ts → packages/project/src/index.ts"],
    ],
    [
      "a registry file importing one on a floor above it (the public types, the net)",
      {
        "packages/registry/src/net.ts": "export const net = 1;\n",
        "packages/registry/src/types.ts": 'import { net } from "./net.js";\nexport const types = net;\n',
      },
      ["error registry floors: types: packages/registry/src/types.ts → packages/registry/src/net.ts"],
    ],
    [
      "a registry leaf importing a file on a floor (the wire words, the server)",
      {
        "packages/registry/src/server.ts": "export const server = 1;\n",
        "packages/registry/src/wire.ts": 'import { server } from "./server.js";\nexport const wire = server;\n',
      },
      ["error registry floors: leaves: packages/registry/src/wire.ts → packages/registry/src/server.ts"],
    ],
  ])("catch %s", (what, files, said) => {
    const run = cruise(tree(what.replace(/\W+/g, "-"), files));
    expect(run.status).not.toBe(0);
    for (const words of said) expect(run.output).toContain(words);
  });
});
