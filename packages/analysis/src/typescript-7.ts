import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** The front-ends that run inside TypeScript 5/6's JavaScript API, which TypeScript 7 does not have. */
export type ClassicFrontEnd = "tspc" | "eslint";

const DOCS = "https://github.com/sourced-dev/sourced/blob/main/docs/typescript-7.md";
const KEEP_6 = "Keep 'typescript' at 6.0 (TypeScript 7 can own 'tsc' beside it: the alias setup)";

/** What fails, why, and the ways out; `{version}` is the TypeScript found. */
const MESSAGES: Readonly<Record<ClassicFrontEnd, string>> = {
  tspc:
    "tspc cannot build with the transformer on TypeScript {version}: ts-patch patches TypeScript 5/6's JavaScript compiler, which TypeScript 7 does not have. " +
    `${KEEP_6}, or build without tspc: 'sourced check' (@sourced/cli) and the bundler plugin (@sourced/unplugin) run on TypeScript 7. See ${DOCS}`,
  eslint:
    "@sourced/eslint-plugin cannot run on TypeScript {version}: typescript-eslint needs TypeScript 5/6's JavaScript API, which TypeScript 7 does not have. " +
    `${KEEP_6}, or check with 'sourced check' (@sourced/cli), which runs on TypeScript 7, in place of the rule. See ${DOCS}#eslint-users-the-alias-setup`,
};

/**
 * One line saying that `frontEnd` meets TypeScript 7 and naming the ways out, when the `typescript`
 * package that `require` resolves from `directory` (where ts-patch or typescript-eslint's parser
 * loads it from) is 7 or later; `undefined` for 5/6, or when none is installed there (the
 * front-end's own load then says so).
 *
 * ts-patch and typescript-eslint's parser read the compiler's API as they load, and fail there on
 * TypeScript 7 (ts-patch with a TypeError), so this reads the package's version and never loads it.
 */
export function typescript7Problem(frontEnd: ClassicFrontEnd, directory: string): string | undefined {
  let manifestPath: string;
  try {
    manifestPath = createRequire(join(directory, "noop.js")).resolve("typescript/package.json");
  } catch {
    return undefined;
  }
  const { version } = JSON.parse(readFileSync(manifestPath, "utf8")) as { version?: unknown };
  if (typeof version !== "string" || Number(version.split(".")[0]) < 7) return undefined;
  return MESSAGES[frontEnd].replace("{version}", version);
}
