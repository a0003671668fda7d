import type { FlatConfig } from "@typescript-eslint/utils/ts-eslint";

/** The files the typed-linting setup applies to: TypeScript sources, never the config file itself. */
export const TYPESCRIPT_FILES = ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"];

/**
 * `require-data-tool-output` as an error, with the typed linting it needs on TypeScript files:
 * typescript-eslint's parser and its project service (each file is typed by the nearest
 * `tsconfig.json`, as in the editor). Set `parserOptions.tsconfigRootDir` in your own config.
 */
export default (plugin: FlatConfig.Plugin, parser: FlatConfig.Parser): FlatConfig.Config => ({
  name: "sourced/recommended",
  files: TYPESCRIPT_FILES,
  languageOptions: {
    parser,
    sourceType: "module",
    parserOptions: { projectService: true },
  },
  plugins: { sourced: plugin },
  rules: { "sourced/require-data-tool-output": "error" },
});
