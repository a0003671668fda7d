// @ts-check
// `pnpm mutate`: StrykerJS over the net (packages/registry/src), each file against the registry's
// own fast tests (scripts/mutate/vitest.config.mts). Slow by nature, so not part of `pnpm test`;
// docs/reliability.md gives the scores and the survivors judged equivalent.
import { fileURLToPath } from "node:url";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Named by path: Stryker looks for plugins beside its own package, which pnpm keeps apart.
  plugins: [fileURLToPath(import.meta.resolve("@stryker-mutator/vitest-runner"))],
  vitest: { configFile: "scripts/mutate/vitest.config.mts", related: false },
  mutate: ["packages/registry/src/{wire,contract,url-rule,tool-name,net,stdio,serve}.ts"],
  coverageAnalysis: "perTest",
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
  // The sandbox needs the sources and tests: not the fixtures' toolchains, the docs, what tests
  // compile for themselves, or the sandboxes of another run (`--tempDirName`) going on beside it.
  ignorePatterns: ["/fixtures", "/bench", "/docs", "/test-artifacts", "/reports", "/.stryker-tmp*", "/packages/*/test/servers/dist"],
};
