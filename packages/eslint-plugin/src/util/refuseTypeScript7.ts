import * as path from "node:path";

import { typescript7Problem } from "@sourced/analysis";

/*
 * Imported for its effect, before typescript-eslint's parser: the parser reads TypeScript's API as
 * it loads and, on TypeScript 7 (which has none), throws an error of its own that names neither
 * this rule nor the ways out. The plugin refuses to load first, in one line that names them.
 */

let parserDirectory: string | undefined;
try {
  parserDirectory = path.dirname(require.resolve("@typescript-eslint/parser"));
} catch {
  // Not installed: the plugin's import of the parser reports it as Node does.
}
const problem = parserDirectory === undefined ? undefined : typescript7Problem("eslint", parserDirectory);
if (problem !== undefined) throw new Error(problem);
