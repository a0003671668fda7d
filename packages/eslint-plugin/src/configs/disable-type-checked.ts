import type { FlatConfig } from "@typescript-eslint/utils/ts-eslint";

/**
 * Turns the rule and typed linting off, for files no tsconfig covers (JavaScript, generated code):
 * `{ files: ["**\/*.js"], ...sourced.configs.disableTypeChecked }`.
 */
export default (): FlatConfig.Config => ({
  name: "sourced/disable-type-checked",
  languageOptions: {
    parserOptions: { program: null, project: false, projectService: false },
  },
  rules: { "sourced/require-data-tool-output": "off" },
});
