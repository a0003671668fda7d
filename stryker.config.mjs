// @ts-check
// `pnpm mutate`: StrykerJS over the net (packages/registry/src) and the judgement
// (packages/analysis/src), each file against its package's fast tests
// (scripts/mutate/vitest.config.mts). Slow by nature, so not part of `pnpm test`;
// docs/reliability.md gives the scores and the survivors judged equivalent.
import { fileURLToPath } from "node:url";

/**
 * One package a run (`SOURCED_MUTATE=analysis pnpm mutate`; the registry by default): a static
 * mutant reruns every test of the run, so the registry's are not made to wait for the analysis'
 * corpus, nor the other way round. The vitest configuration picks the same package's tests.
 */
const PACKAGE = process.env.SOURCED_MUTATE ?? "registry";
const MUTATED = {
  registry: ["packages/registry/src/{wire,contract,url-rule,tool-name,net,stdio,serve}.ts"],
  analysis: ["packages/analysis/src/{judge,served,registry-escape,marked,sites}.ts"],
};
if (!(PACKAGE in MUTATED)) throw new Error(`SOURCED_MUTATE must be ${Object.keys(MUTATED).join(" or ")}, got ${JSON.stringify(PACKAGE)}`);

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Named by path: Stryker looks for plugins beside its own package, which pnpm keeps apart.
  plugins: [fileURLToPath(import.meta.resolve("@stryker-mutator/vitest-runner"))],
  vitest: { configFile: "scripts/mutate/vitest.config.mts", related: false },
  mutate: MUTATED[/** @type {keyof typeof MUTATED} */ (PACKAGE)],
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
  incrementalFile: `reports/mutation/${PACKAGE}/incremental.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${PACKAGE}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${PACKAGE}/mutation.json` },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  // The sandbox needs the sources and tests, and of the fixtures what the analysis' tests read (the
  // corpus, its harness, TypeScript 5): not the other fixtures, the docs, what tests compile for
  // themselves, or the sandboxes of another run (`--tempDirName`) going on beside it.
  ignorePatterns: ["/fixtures/*", "!/fixtures/harness.ts", "!/fixtures/cases", "!/fixtures/ts5", "/bench", "/docs", "/test-artifacts", "/reports", "/.stryker-tmp*", "/packages/*/test/servers/dist"],
};
