import { analyzeSourceFile, type Finding, type FindingId } from "@sourced/analysis";
import { ESLintUtils, type TSESLint, type TSESTree } from "@typescript-eslint/utils";

import { addStatement, addTypeImport } from "../util/addTypeImport";
import { createRule } from "../util/createRule";
import { typescriptOf } from "../util/typescriptOf";

export type Options = [Record<string, never>];
export type MessageIds = FindingId | "addAnnotation" | "addAnnotationAndImport";

/** One message per finding id: the analysis words every finding itself, the rule passes it through. */
const findingMessages = {
  "missing-annotation": "{{message}}",
  "not-data-tool-output": "{{message}}",
  "unverifiable-registration": "{{message}}",
  "invalid-option": "{{message}}",
  "internal-error": "{{message}}",
  "unnamed-tool": "{{message}}",
  "duplicate-tool-name": "{{message}}",
  "invalid-tool-name": "{{message}}",
  "invalid-source": "{{message}}",
  "strict-null-checks-off": "{{message}}",
  "undeclared-output-key": "{{message}}",
} satisfies Record<FindingId, string>;

export default createRule<Options, MessageIds>({
  name: "require-data-tool-output",
  meta: {
    type: "problem",
    docs: {
      description: "Require every registered MCP tool to declare that it returns `DataToolOutput`",
      recommended: true,
      requiresTypeChecking: true,
    },
    hasSuggestions: true,
    messages: {
      ...findingMessages,
      addAnnotation: "Declare the return type `{{text}}`.",
      addAnnotationAndImport: "Declare the return type `{{text}}` and import `{{name}}` from '{{module}}'.",
    },
    // The judgement is shared with the transformer and the CLI: nothing here may tune it.
    schema: [{ type: "object", properties: {}, additionalProperties: false }],
    defaultOptions: [{}],
  },
  create(context) {
    // Throws typescript-eslint's standard "requires type information" error without a program.
    const services = ESLintUtils.getParserServices(context);
    const program = services.program;
    // The checker is created (every file bound) once per program, here as in typescript-eslint's
    // own typed rules: that one-time cost belongs to every typed rule, not to the first node this
    // rule visits (nor to its TIMING row).
    program.getTypeChecker();
    const { sourceCode } = context;
    const sourceFile = services.esTreeNodeToTSNodeMap.get(sourceCode.ast);
    const ts = typescriptOf(sourceFile);

    if (!ts) {
      return {
        Program(node) {
          reportInternalError(
            node,
            "the 'typescript' module that built this file's program is not loaded and cannot be resolved next to " +
              "'@typescript-eslint/parser'; install 'typescript' beside the parser",
          );
        },
      };
    }

    // One file-level analysis: a single walk of the TypeScript tree finds every site, where
    // visiting ESTree nodes one by one would map each of them back to TypeScript first.
    return {
      Program(node) {
        let findings: readonly Finding[];
        try {
          findings = analyzeSourceFile(ts, program, sourceFile).findings;
        } catch (error) {
          reportInternalError(node, error instanceof Error ? error.message : String(error));
          return;
        }
        for (const finding of findings) report(finding);
      },
    };

    function report(finding: Finding): void {
      // A finding always lies in the analysed file: the analysis underlines the registration
      // when the registered function is declared in another file.
      context.report({
        loc: { start: sourceCode.getLocFromIndex(finding.start), end: sourceCode.getLocFromIndex(finding.end) },
        messageId: finding.id,
        data: { message: finding.message },
        suggest: suggestions(finding),
      });
    }

    function suggestions(finding: Finding): TSESLint.SuggestionReportDescriptor<MessageIds>[] | null {
      const fix = finding.fix;
      if (finding.id !== "missing-annotation" || !fix?.inferredFits) return null;
      // The analysis plans every edit: `: T` after the parameters (and parentheses around a lone
      // arrow parameter), or in JavaScript `@returns {T}` in the function's JSDoc.
      const insertAnnotation = (fixer: TSESLint.RuleFixer): TSESLint.RuleFix[] =>
        fix.edits.map((edit) => fixer.insertTextAfterRange([edit.position, edit.position], edit.text));
      if (fix.typeInScope) {
        return [{ messageId: "addAnnotation", data: { text: fix.typeText }, fix: insertAnnotation }];
      }
      // Another DataToolOutput in the file would clash with the import, or shadow it here.
      if (!fix.importable) return null;
      return [
        {
          messageId: "addAnnotationAndImport",
          data: { text: fix.typeText, name: fix.importNames.join(", "), module: fix.module },
          fix: (fixer) => [
            ...insertAnnotation(fixer),
            // JavaScript cannot hold `import type`: a JSDoc `@import` makes the name visible to JSDoc.
            fix.jsdoc ? addStatement(fixer, sourceCode, fix.importStatement) : addTypeImport(fixer, sourceCode, fix.importNames, fix.module),
          ],
        },
      ];
    }

    /** A failure of the whole file's check (a failure at one site is a finding of the analysis). */
    function reportInternalError(node: TSESTree.Node, cause: string): void {
      context.report({
        node,
        messageId: "internal-error",
        data: {
          message:
            `internal error in @sourced/eslint-plugin: ${cause}. The tool registrations of this file were not ` +
            "checked; run `sourced check` for the same check outside ESLint, and report this with the file.",
        },
      });
    }
  },
});
