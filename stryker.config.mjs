// @ts-check
// `pnpm mutate`: StrykerJS over the net (packages/registry/src) and the judgement
// (packages/analysis/src), each file against the fast tests that pin it (scripts/mutate/groups.mjs,
// scripts/mutate/vitest.config.mts). Slow by nature, so not part of `pnpm test`;
// docs/reliability.md gives the scores and the survivors judged equivalent.
import { fileURLToPath } from "node:url";
import { mutationGroup } from "./scripts/mutate/groups.mjs";

/**
 * One group a run, named by `SOURCED_MUTATE` (scripts/mutate/groups.mjs): `registry` (the default)
 * or `analysis`, every file of the package against all its in-process tests, or one file against
 * the tests that pin it (`contract`, `net`, `analysis:marked`, ...). A static mutant reruns every
 * test of its run, so no file is made to wait for tests that cannot see it. The vitest
 * configuration picks the same group's tests; each group keeps its own incremental record and
 * reports under reports/mutation/<group>/.
 */
const GROUP = mutationGroup();

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Named by path: Stryker looks for plugins beside its own package, which pnpm keeps apart.
  plugins: [fileURLToPath(import.meta.resolve("@stryker-mutator/vitest-runner"))],
  vitest: { configFile: "scripts/mutate/vitest.config.mts", related: false },
  mutate: GROUP.mutate,
  coverageAnalysis: "perTest",
  // Stryker would put `// @ts-nocheck` atop every source it copies, the corpus's cases included:
  // their verdicts and line numbers are what the analysis' tests check. vitest checks no types anyway.
  disableTypeChecks: false,
  // The machine running this is usually running other things too.
  concurrency: 1,
  timeoutMS: 30_000,
  // The first run of an analysis group (every test, with coverage) took over Stryker's default
  // 5 minutes on a machine at a load of 15-20.
  dryRunTimeoutMinutes: 20,
  // A re-run after a change tests only the mutants the change touched. The file is a local cache
  // of this checkout's last run (ignored by git): the scores come from a fresh run, not from it.
  incremental: true,
  incrementalFile: `${GROUP.reportDir}/incremental.json`,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `${GROUP.reportDir}/index.html` },
  jsonReporter: { fileName: `${GROUP.reportDir}/mutation.json` },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  // The sandbox needs the sources and tests, and of the fixtures what the analysis' tests read (the
  // corpus, its harness, TypeScript 5): not the other fixtures, the docs, what tests compile for
  // themselves, or the sandboxes of another run (`--tempDirName`) going on beside it.
  ignorePatterns: ["/fixtures/*", "!/fixtures/harness.ts", "!/fixtures/cases", "!/fixtures/ts5", "/bench", "/docs", "/test-artifacts", "/reports", "/.stryker-tmp*", "/packages/*/test/servers/dist"],
};
