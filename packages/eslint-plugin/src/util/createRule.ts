import { ESLintUtils } from "@typescript-eslint/utils";

/** `meta.docs` of this plugin's rules, beside ESLint's `description` and `url`. */
export interface SourcedPluginDocs {
  /** Enabled by `configs.recommended`. */
  recommended?: boolean;
  /** Needs a `ts.Program` from typescript-eslint's parser services. */
  requiresTypeChecking?: boolean;
}

/** Where each rule's documentation lives; the rule name is the page's name. */
export const DOCS_BASE_URL = "https://github.com/sourced-dev/sourced/blob/main/docs/rules/";

export const createRule = ESLintUtils.RuleCreator<SourcedPluginDocs>((name) => `${DOCS_BASE_URL}${name}.md`);
