import { readFileSync } from "node:fs";
import * as path from "node:path";

import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

import { FIXTURE_DIR, nodeRequire, PACKAGE_DIR, plugin, rule } from "./helpers";

const RULE = "sourced/require-data-tool-output";
const packageJson = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { name: string; version: string };
const analysis = nodeRequire("@sourced/analysis") as typeof import("@sourced/analysis");

describe("plugin", () => {
  it("names itself from package.json, in the namespace 'sourced'", () => {
    expect(plugin.meta).toEqual({ name: packageJson.name, version: packageJson.version, namespace: "sourced" });
  });

  it("exports the rule under its name", () => {
    expect(Object.keys(plugin.rules)).toEqual(["require-data-tool-output"]);
    expect(plugin.rules["require-data-tool-output"]).toBe(rule);
  });
});

describe("rule meta", () => {
  it("is a type-aware problem rule with suggestions and a documentation page", () => {
    expect(rule.meta.type).toBe("problem");
    expect(rule.meta.hasSuggestions).toBe(true);
    expect(rule.meta.fixable).toBeUndefined();
    expect(rule.meta.docs?.requiresTypeChecking).toBe(true);
    expect(rule.meta.docs?.recommended).toBe(true);
    expect(rule.meta.docs?.url).toMatch(/\/docs\/rules\/require-data-tool-output\.md$/);
  });

  it("takes no options and rejects unknown ones", () => {
    expect(rule.meta.defaultOptions).toEqual([{}]);
    expect(rule.meta.schema).toEqual([{ type: "object", properties: {}, additionalProperties: false }]);
  });

  it("has one message per finding id of the analysis, each passing the finding's own words through", () => {
    for (const id of Object.keys(analysis.FINDING_KINDS)) {
      expect(rule.meta.messages).toHaveProperty([id], "{{message}}");
    }
  });
});

describe("configs.recommended", () => {
  const config = plugin.configs.recommended;

  it("enables the rule as an error on TypeScript files", () => {
    expect(config.name).toBe("sourced/recommended");
    expect(config.files).toEqual(["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"]);
    expect(config.rules).toEqual({ [RULE]: "error" });
    expect(config.plugins).toEqual({ sourced: plugin });
  });

  it("sets up typed linting: typescript-eslint's parser with its project service", () => {
    const parser = nodeRequire("@typescript-eslint/parser") as typeof import("@typescript-eslint/parser");
    expect(config.languageOptions?.parser).toEqual({ meta: parser.meta, parseForESLint: parser.parseForESLint });
    expect(config.languageOptions?.parserOptions).toEqual({ projectService: true });
    expect(config.languageOptions?.sourceType).toBe("module");
  });

  it("reports through a real ESLint on a typed file", async () => {
    const eslint = new ESLint({
      cwd: FIXTURE_DIR,
      overrideConfigFile: true,
      overrideConfig: [config, { languageOptions: { parserOptions: { tsconfigRootDir: FIXTURE_DIR } } }],
    });
    const [result] = await eslint.lintText(UNANNOTATED, { filePath: path.join(FIXTURE_DIR, "file.ts") });
    expect(result?.messages.map((message) => [message.ruleId, message.messageId, message.severity])).toEqual([
      [RULE, "missing-annotation", 2],
    ]);
  });
});

describe("configs.disableTypeChecked", () => {
  it("turns the rule and typed linting off", async () => {
    expect(plugin.configs.disableTypeChecked).toEqual({
      name: "sourced/disable-type-checked",
      languageOptions: { parserOptions: { program: null, project: false, projectService: false } },
      rules: { [RULE]: "off" },
    });
    // After `recommended`, the same file lints clean without building a program.
    const eslint = new ESLint({
      cwd: FIXTURE_DIR,
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended, plugin.configs.disableTypeChecked],
    });
    const [result] = await eslint.lintText(UNANNOTATED, { filePath: path.join(FIXTURE_DIR, "file.ts") });
    expect(result?.messages).toEqual([]);
  });
});

describe("without type information", () => {
  it("fails with typescript-eslint's standard error instead of passing silently", async () => {
    const eslint = new ESLint({
      cwd: FIXTURE_DIR,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ["**/*.ts"],
          languageOptions: { parser: plugin.configs.recommended.languageOptions?.parser },
          plugins: { sourced: plugin },
          rules: { [RULE]: "error" },
        },
      ],
    });
    await expect(eslint.lintText(UNANNOTATED, { filePath: path.join(FIXTURE_DIR, "file.ts") })).rejects.toThrow(
      /You have used a rule which requires type information, but don't have parserOptions set to generate type information/,
    );
  });
});

const UNANNOTATED = `
import { registry } from "./registry";
export const listCities = registry.tool()(function list_cities() {
  return { content: [{ type: "text" as const, text: "ok" }], structuredContent: { sources: ["https://example.org/cities"] } };
});
`;
