import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";

// The vitest configuration `pnpm mutate` runs: only the fast, in-process tests of the packages
// being mutated. Stryker mutates `src/*.ts`, but the tests import the built `../dist/*.js`, as a
// user would; here that import is served from the (mutated) source instead, or no mutant could
// ever be seen by a test.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Which test files each mutated package is judged by (its own, in-process ones). */
const MUTATION_TESTS = {
  registry: ["net", "wire", "contract", "url-rule", "tool-name", "stdio-lines", "http-answers", "http-safety", "http-input", "listen-streams", "tools-list"].map(
    (name) => `packages/registry/test/${name}.test.ts`,
  ),
  // The corpus through the classic backend on TypeScript 6 and 5, and the judgement's own cases;
  // they import ../src already.
  analysis: ["corpus", "analysis"].map((name) => `packages/analysis/test/${name}.test.ts`),
};

function distToSource(): Plugin {
  return {
    name: "sourced:dist-to-source",
    enforce: "pre",
    resolveId(source, importer) {
      if (importer === undefined || !source.startsWith("../dist/")) return null;
      const testDir = dirname(importer);
      if (!/[\\/]packages[\\/][^\\/]+[\\/]test$/.test(testDir)) return null;
      return join(testDir, "..", "src", source.slice("../dist/".length).replace(/\.js$/, ".ts"));
    },
  };
}

export default defineConfig({
  root: ROOT,
  plugins: [distToSource()],
  test: {
    // The package `stryker.config.mjs` mutates this run (SOURCED_MUTATE, the registry by default).
    include: MUTATION_TESTS[(process.env["SOURCED_MUTATE"] ?? "registry") as keyof typeof MUTATION_TESTS],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Tells the tests they run instrumented: wire.test.ts's "at once" time bound is not asserted then.
    env: { SOURCED_MUTATION_RUN: "1" },
  },
});
