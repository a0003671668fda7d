// Type test (checked by types.test.ts with tsc): the published plugin in an ESM `eslint.config.mts`.
// typescript-eslint issue #11543: plugins built with typescript-eslint's types fail `defineConfig`.
import type { ESLint, Linter } from "eslint";
import { defineConfig } from "eslint/config";

import sourced from "@sourced/eslint-plugin";

export default defineConfig(
  sourced.configs.recommended,
  { languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } } },
  { files: ["**/*.js"], extends: [sourced.configs.disableTypeChecked] },
  { plugins: { sourced }, rules: { "sourced/require-data-tool-output": ["warn", {}] } },
);

export const asPlugin: ESLint.Plugin = sourced;
export const asConfig: Linter.Config = sourced.configs.recommended;
export const namespace: "sourced" = sourced.meta.namespace;

// @ts-expect-error -- precisely typed, not `any`: the plugin has no such config.
export const missing = sourced.configs.strict;
