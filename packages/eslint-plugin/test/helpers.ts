import { createRequire } from "node:module";
import * as path from "node:path";

import { RuleTester } from "@typescript-eslint/rule-tester";
import { afterAll, describe, it } from "vitest";

/**
 * The tests load the built package with Node's own `require`, as ESLint does: the plugin, the
 * parser, `typescript` and `@sourced/analysis` are then the very modules a user's ESLint runs.
 */
export const nodeRequire = createRequire(__filename);

export const PACKAGE_DIR = path.resolve(__dirname, "..");
export const REPO_DIR = path.resolve(PACKAGE_DIR, "../..");
/** The typed project the rule tester lints its cases in. */
export const FIXTURE_DIR = path.join(REPO_DIR, "fixtures/eslint");
/** The workspace package whose node_modules holds TypeScript 5.9.3 and its parser. */
export const TS5_DIR = path.join(REPO_DIR, "fixtures/ts5");

export const plugin = nodeRequire("../dist/index.js") as typeof import("../src/index");
export const rule = (nodeRequire("../dist/rules/require-data-tool-output.js") as typeof import("../src/rules/require-data-tool-output")).default;

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

/** A rule tester on the fixture project, typed by its tsconfig through the project service. */
export function createRuleTester(): RuleTester {
  return new RuleTester({
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: FIXTURE_DIR },
    },
  });
}
