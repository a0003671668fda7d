// Type test (checked by types.test.ts with tsc): the published plugin in a CommonJS `eslint.config.cts`.
import type { Linter } from "eslint";
import { defineConfig } from "eslint/config";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS form is what this file checks
import sourced = require("@sourced/eslint-plugin");

const config: Linter.Config[] = defineConfig({
  extends: [sourced.configs.recommended],
  languageOptions: { parserOptions: { tsconfigRootDir: __dirname } },
});

export = config;
