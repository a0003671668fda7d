import { AST_NODE_TYPES, type TSESLint, type TSESTree } from "@typescript-eslint/utils";

/**
 * The fix that makes the types `names` of `module` visible in the file: merged into an existing
 * named import of `module` when there is one (`import type { A, name }` or
 * `import { a, type name }`), else a new `import type { name } from "module";` after the last
 * import (or at the top), in the quotes the file already uses.
 */
export function addTypeImport(
  fixer: TSESLint.RuleFixer,
  sourceCode: Readonly<TSESLint.SourceCode>,
  names: string | readonly string[],
  module: string,
): TSESLint.RuleFix {
  const list = typeof names === "string" ? [names] : names;
  const imports = sourceCode.ast.body.filter(
    (statement): statement is TSESTree.ImportDeclaration => statement.type === AST_NODE_TYPES.ImportDeclaration,
  );

  for (const declaration of imports) {
    if (declaration.source.value !== module) continue;
    const named = declaration.specifiers.filter(
      (specifier): specifier is TSESTree.ImportSpecifier => specifier.type === AST_NODE_TYPES.ImportSpecifier,
    );
    const last = named.at(-1);
    if (last) return fixer.insertTextAfter(last, list.map((name) => (declaration.importKind === "type" ? `, ${name}` : `, type ${name}`)).join(""));
  }

  const quote = imports.at(-1)?.source.raw.charAt(0) === "'" ? "'" : '"';
  return addStatement(fixer, sourceCode, `import type { ${list.join(", ")} } from ${quote}${module}${quote};`);
}

/** Adds `statement` on a line of its own after the file's last import (or at the top, below a shebang). */
export function addStatement(fixer: TSESLint.RuleFixer, sourceCode: Readonly<TSESLint.SourceCode>, statement: string): TSESLint.RuleFix {
  const lastImport = sourceCode.ast.body.filter((node) => node.type === AST_NODE_TYPES.ImportDeclaration).at(-1);
  if (lastImport) return fixer.insertTextAfter(lastImport, `\n${statement}`);
  // Keep a shebang on the first line.
  const top = sourceCode.text.startsWith("#!") ? sourceCode.text.indexOf("\n") + 1 : 0;
  return fixer.insertTextBeforeRange([top, top], `${statement}\n`);
}
