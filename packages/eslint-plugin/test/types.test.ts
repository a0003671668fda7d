import { spawnSync } from "node:child_process";
import * as path from "node:path";

import { expect, it } from "vitest";

import { nodeRequire, PACKAGE_DIR } from "./helpers";

it("the published plugin type-checks under defineConfig (ESM and CommonJS configs), and so do the tests", () => {
  const tsc = nodeRequire.resolve("typescript/bin/tsc");
  const run = spawnSync(process.execPath, [tsc, "-p", path.join(PACKAGE_DIR, "test/tsconfig.json")], {
    encoding: "utf8",
  });
  expect(run.stdout + run.stderr).toBe("");
  expect(run.status).toBe(0);
});
