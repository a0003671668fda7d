// @ts-check
// `pnpm mutate`: StrykerJS over the net (packages/registry/src) and the judgement
// (packages/analysis/src), each file against its package's fast tests
// (scripts/mutate/vitest.config.mts). Slow by nature, so not part of `pnpm test`;
// docs/reliability.md gives the scores and the survivors judged equivalent.
import { fileURLToPath } from "node:url";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Named by path: Stryker looks for plugins beside its own package, which pnpm keeps apart.
  plugins: [fileURLToPath(import.meta.resolve("@stryker-mutator/vitest-runner"))],
  vitest: { configFile: "scripts/mutate/vitest.config.mts", related: false },
  mutate: ["packages/registry/src/{wire,contract,url-rule,tool-name,net,stdio,serve}.ts", "packages/analysis/src/{judge,served,registry-escape,marked,sites}.ts"],
  coverageAnalysis: "perTest",
  // Stryker would put `// @ts-nocheck` atop every source it copies, the corpus's cases included:
  // their verdicts and line numbers are what the analysis' tests check. vitest checks no types anyway.
  disableTypeChecks: false,
  // The machine running this is usually running other things too.
  concurrency: 1,
  timeoutMS: 30_000,
  // A re-run after a change tests only the mutants the change touched. The file is a local cache
  // of this checkout's last run (ignored by git): the scores come from a fresh run, not from it.
  incremental: true,
  incrementalFile: "reports/mutation/incremental.json",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  // The sandbox needs the sources and tests, and of the fixtures what the analysis' tests read (the
  // corpus, its harness, TypeScript 5): not the other fixtures, the docs, what tests compile for
  // themselves, or the sandboxes of another run (`--tempDirName`) going on beside it.
  ignorePatterns: ["/fixtures/*", "!/fixtures/harness.ts", "!/fixtures/cases", "!/fixtures/ts5", "/bench", "/docs", "/test-artifacts", "/reports", "/.stryker-tmp*", "/packages/*/test/servers/dist"],
};
