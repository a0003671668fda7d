// Lints a generated project with @sourced/eslint-plugin's `recommended` config, as a user's ESLint
// does, and prints one JSON document: [{ file, messages: [{ ruleId, messageId, message, line, column, fatal }] }].
//
//   node lint-project.mjs <project-dir> <glob>...
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(path.join(root, "package.json"));
const { ESLint } = require("eslint");
const plugin = require(path.join(root, "packages/eslint-plugin"));

const [projectDir, ...patterns] = process.argv.slice(2);
if (!projectDir || patterns.length === 0) {
  console.error("usage: node lint-project.mjs <project-dir> <glob>...");
  process.exit(2);
}
const cwd = path.resolve(projectDir);
const eslint = new ESLint({
  cwd,
  overrideConfigFile: true,
  overrideConfig: [
    plugin.configs.recommended,
    // Checked JavaScript, with the same setup.
    { ...plugin.configs.recommended, files: ["**/*.js"] },
    { languageOptions: { parserOptions: { tsconfigRootDir: cwd } } },
  ],
});
const results = await eslint.lintFiles(patterns);
process.stdout.write(
  JSON.stringify(
    results.map(({ filePath, messages }) => ({
      file: path.relative(cwd, filePath).split(path.sep).join("/"),
      messages: messages.map(({ ruleId, messageId, message, line, column, fatal }) => ({ ruleId, messageId, message, line, column, fatal: fatal === true })),
    })),
  ),
);
