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

/**
 * The registry's floors, from the top down (docs/architecture.md, "The import rules"): a file
 * imports only files on its own floor (no circle there: the first rule) or below it. A file not
 * named here is a leaf, which imports leaves only. The registry depends on no package but the
 * contract's rules, so its own files carry its layers: serving above the net, the net above the
 * contract, transports importing nothing of the registry's top.
 */
const REGISTRY_FLOORS = [
  ["index"],
  ["registry"],
  ["registration", "verdicts"],
  ["serve"],
  ["stdio", "http", "http-types", "http-requests", "http-answers"],
  ["server", "client-mistakes"],
  ["resource-net", "offering-net"],
  ["options", "net", "bounds"],
  ["types"],
  ["contract", "input", "resource-sources", "published-schema"],
];

const registryFiles = (floors) => `^packages/registry/src/(${names(floors.flat())})\\.ts$`;

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
    // The top floor has nothing above it.
    ...REGISTRY_FLOORS.slice(1).map((floor, index) => ({
      name: `registry floors: ${floor.join(", ")}`,
      comment: `Inside the registry, ${floor.join(", ")} import only files on their floor or below it, not ${REGISTRY_FLOORS.slice(0, index + 1).flat().join(", ")} (docs/architecture.md).`,
      severity: "error",
      from: { path: registryFiles([floor]) },
      to: { path: registryFiles(REGISTRY_FLOORS.slice(0, index + 1)) },
    })),
    {
      name: "registry floors: leaves",
      comment: "A registry file on no floor of .dependency-cruiser.cjs is a leaf (wire, tool-name, problems, …): it imports leaves only. Name its floor there if it must import more.",
      severity: "error",
      from: { path: "^packages/registry/src/", pathNot: registryFiles(REGISTRY_FLOORS) },
      to: { path: registryFiles(REGISTRY_FLOORS) },
    },
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
