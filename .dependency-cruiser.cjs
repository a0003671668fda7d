/*
 * The import rules `pnpm lint` enforces (docs/architecture.md, "Packages and their direction"),
 * with dependency-cruiser: no import circle in any package, type imports counted
 * (`tsPreCompilationDeps`: an `import type` that closes a circle is a circle too), and each
 * package importing only the packages of ours below it.
 */

/** Which packages of ours each package may import; any other is an arrow pointing up. */
const LAYERS = {
  "contract-rules": [],
  registry: ["contract-rules"],
  analysis: ["contract-rules"],
  "analysis-native": ["analysis"],
  transformer: ["analysis"],
  "eslint-plugin": ["analysis"],
  project: ["analysis", "analysis-native"],
  cli: ["analysis", "project"],
  unplugin: ["analysis", "project"],
};

const names = (list) => list.map((name) => name.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&")).join("|");

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import circle, type imports included: the files of a circle can be neither read nor changed one at a time. Move what they share to a file below them.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...Object.entries(LAYERS).map(([name, allowed]) => ({
      name: `layers: ${name}`,
      comment: `@sourced/${name} imports ${allowed.length === 0 ? "no other package of ours" : `only ${allowed.map((other) => `@sourced/${other}`).join(" and ")}`} (docs/architecture.md).`,
      severity: "error",
      from: { path: `^packages/${names([name])}/` },
      to: { path: "^packages/[^/]+/", pathNot: `^packages/(${names([name, ...allowed])})/` },
    })),
  ],
  options: {
    // Packages of ours are reached through their built dist/ (as a user's install reaches them):
    // an arrow to another package is checked by the layers, not followed into its build.
    doNotFollow: { path: "(^|/)(node_modules|dist|esm)/" },
    exclude: { path: "(^|/)(test|fixtures)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
  },
};
