import { readFileSync } from "node:fs";
import * as path from "node:path";

// First: on TypeScript 7, say so before the parser fails to load.
import "./util/refuseTypeScript7";
import * as parserBase from "@typescript-eslint/parser";
import type { FlatConfig } from "@typescript-eslint/utils/ts-eslint";
import type { Linter, Rule } from "eslint";

import disableTypeChecked from "./configs/disable-type-checked";
import recommended from "./configs/recommended";
import rules from "./rules";

/**
 * The plugin in ESLint's own types, which `defineConfig()` from `eslint/config` checks against.
 * typescript-eslint's rule, parser and config types are not assignable to them (typescript-eslint
 * issue #11543), so the plugin is built with typescript-eslint's types and published in ESLint's.
 */
interface SourcedPlugin {
  meta: { name: string; version: string; namespace: "sourced" };
  rules: { "require-data-tool-output": Rule.RuleModule };
  configs: {
    /** `sourced/require-data-tool-output` as an error, with typescript-eslint's parser and `projectService` on TypeScript files. */
    recommended: Linter.Config;
    /** The rule off and typed linting off, for files no tsconfig covers. */
    disableTypeChecked: Linter.Config;
  };
}

// Read, not imported: an import would make tsc copy package.json into dist.
const { name, version } = JSON.parse(readFileSync(path.join(__dirname, "../package.json"), "utf8")) as {
  name: string;
  version: string;
};

const parser: FlatConfig.Parser = { meta: parserBase.meta, parseForESLint: parserBase.parseForESLint };

const plugin = {
  meta: { name, version, namespace: "sourced" as const },
  rules,
  // Filled below: the recommended config refers to the plugin itself.
  configs: {} as Record<keyof SourcedPlugin["configs"], FlatConfig.Config>,
};
plugin.configs.recommended = recommended(plugin, parser);
plugin.configs.disableTypeChecked = disableTypeChecked();

export = plugin as unknown as SourcedPlugin;
