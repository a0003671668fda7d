// @ts-check
// Run with `--config eslint.config.mjs` (as `pnpm lint` does): ESLint 10 otherwise uses the nearest
// config of each file, and fixtures/projects/cities has its own, which reports its deliberately
// non-compliant tool.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    // fixtures/install is a user's project, linted by its own configs where the install test installs it.
    ignores: ["**/dist/**", "packages/registry/esm/**", "**/node_modules/**", "**/out/**", "**/build/**", "fixtures/cases/**", "fixtures/install/**", "bench/out/**"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
);
