import { PACKED } from "./project";

/**
 * The toolchains a user installs next to sourced, pinned as the docs' install lines pin them
 * (`typescript@6.0`, `ts-patch@4`, …): a bare `typescript` is TypeScript 7.
 */
export const TOOLCHAINS = {
  /** TypeScript 6.0 with ts-patch 4 (its engines say Node.js >= 22.15: every supported line). */
  ts6: {
    typescript: "6.0.3",
    "ts-patch": "4.0.1",
    eslint: "10.15.0",
    "@typescript-eslint/parser": "8.73.0",
    "@types/node": "22.20.7",
  },
  /** TypeScript 5.x with ts-patch 3.3.0 (ts-patch 4 requires TypeScript 6). */
  ts5: {
    typescript: "5.9.3",
    "ts-patch": "3.3.0",
    eslint: "10.15.0",
    "@typescript-eslint/parser": "8.73.0",
    "@types/node": "22.20.7",
  },
} as const satisfies Record<string, Readonly<Record<string, string>>>;

/** Every sourced package from its tarball: the registry as the server's dependency, the rest as dev tools. */
export const SOURCED = {
  dependencies: { "@sourced/registry": PACKED },
  devDependencies: {
    "@sourced/analysis": PACKED,
    "@sourced/cli": PACKED,
    "@sourced/eslint-plugin": PACKED,
    "@sourced/project": PACKED,
    "@sourced/transformer": PACKED,
  },
} as const;

/** The MCP client a server's own tests would use, to call the installed server over stdio. */
export const MCP_CLIENT = { "@modelcontextprotocol/sdk": "1.32.2" } as const;
