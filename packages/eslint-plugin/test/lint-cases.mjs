// Lints every TypeScript and JavaScript file (.ts .mts .cts .js .mjs .cjs) of each cases directory with @sourced/eslint-plugin's `recommended` config, loading
// ESLint, typescript-eslint's parser, typescript and the plugin from a toolchain directory's
// node_modules (e.g. the TypeScript 5.9.3 workspace package), and prints one JSON document:
//
//   node lint-cases.mjs <toolchain-dir> <cases-dir> [<cases-dir>…]
//   -> { typescript, programs, programsFromToolchain, results: [{ filePath, messages }] }
//
// Several directories share the process (one load of ESLint and TypeScript); each is linted from
// its own root, as its own run would. A directory need not hold every flavour.
//
// `programsFromToolchain` counts the linted files whose program that toolchain's typescript built:
// it proves the run really used that version, not a copy found elsewhere.
import { createRequire } from "node:module";
import * as path from "node:path";

const [toolchainDir, ...casesDirs] = process.argv.slice(2).map((dir) => path.resolve(dir));
if (!toolchainDir || casesDirs.length === 0) {
  console.error("usage: node lint-cases.mjs <toolchain-dir> <cases-dir> [<cases-dir>…]");
  process.exit(2);
}

const toolchain = createRequire(path.join(toolchainDir, "package.json"));
const { ESLint } = toolchain("eslint");
const parser = toolchain("@typescript-eslint/parser");
const ts = toolchain("typescript");
const sourced = toolchain("@sourced/eslint-plugin");

const PATTERNS = ["**/*.ts", "**/*.mts", "**/*.cts", "**/*.js", "**/*.mjs", "**/*.cjs"];

let programs = 0;
let programsFromToolchain = 0;
const probe = {
  rules: {
    typescript: {
      meta: { type: "problem", schema: [] },
      create(context) {
        const program = context.sourceCode.parserServices?.program;
        const sourceFile = program?.getSourceFile(context.filename);
        if (sourceFile) {
          programs++;
          if (sourceFile.constructor === ts.objectAllocator.getSourceFileConstructor()) programsFromToolchain++;
        }
        return {};
      },
    },
  },
};

const lint = (casesDir) =>
  new ESLint({
    cwd: casesDir,
    errorOnUnmatchedPattern: false,
    overrideConfigFile: true,
    overrideConfig: [
      sourced.configs.recommended,
      // The corpus's checked JavaScript, linted with the same setup.
      { ...sourced.configs.recommended, files: ["**/*.js", "**/*.mjs", "**/*.cjs"] },
      // The toolchain's own parser: the plugin's resolves next to the plugin, whatever links to it.
      { languageOptions: { parser, parserOptions: { tsconfigRootDir: casesDir } } },
      { files: PATTERNS, plugins: { probe }, rules: { "probe/typescript": "error" } },
    ],
  }).lintFiles(PATTERNS);
const results = [];
for (const casesDir of casesDirs) results.push(...(await lint(casesDir)));

process.stdout.write(
  JSON.stringify({
    typescript: ts.version,
    programs,
    programsFromToolchain,
    results: results.map(({ filePath, messages }) => ({ filePath, messages })),
  }),
);
