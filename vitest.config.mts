import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "scripts/**/*.test.ts"],
    // Tests run the real tsc, tspc, ESLint and MCP servers in child processes: allow them time.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".vitest-results.json" }], "./scripts/timings-reporter.ts"] : ["default"],
  },
});
