import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";
import { mutationGroup } from "./groups.mjs";

// The vitest configuration `pnpm mutate` runs: only the fast, in-process tests of the packages
// being mutated. Stryker mutates `src/*.ts`, but the tests import the built `../dist/*.js`, as a
// user would; here that import is served from the (mutated) source instead, or no mutant could
// ever be seen by a test.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The group `stryker.config.mjs` mutates this run (SOURCED_MUTATE, the registry's by default). */
const GROUP = mutationGroup();

function distToSource(): Plugin {
  return {
    name: "sourced:dist-to-source",
    enforce: "pre",
    resolveId(source, importer) {
      // The registry's and the analysis' sources import the contract's rules by name: the mutated source too.
      if (source === "@sourced/contract-rules") return join(ROOT, "packages", "contract-rules", "src", "index.ts");
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
    include: GROUP.tests,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Tells the tests they run instrumented: wire.test.ts's "at once" time bound is not asserted then.
    // SOURCED_CORPUS_TYPESCRIPT tells corpus.test.ts to judge the corpus on TypeScript 6 alone.
    env: { SOURCED_MUTATION_RUN: "1", ...(GROUP.typescript6Only === true ? { SOURCED_CORPUS_TYPESCRIPT: "6" } : {}) },
  },
});
