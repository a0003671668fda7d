import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const REPO = path.resolve(__dirname, "../../..");
export const BIN = path.join(REPO, "packages/cli/bin/sourced.js");
export const FIXTURES = path.join(REPO, "fixtures/cli");

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `sourced` binary in a child process, as a user's shell or CI would. */
export function sourced(args: readonly string[], cwd: string = REPO): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What a JSON report holds per finding. */
export interface JsonFinding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly id: string;
  readonly severity: "error" | "warning";
  readonly tool: string | null;
  readonly message: string;
}

export function parseJson(run: Run): JsonFinding[] {
  try {
    return JSON.parse(run.stdout) as JsonFinding[];
  } catch {
    throw new Error(`stdout is not JSON (exit ${run.status}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/** A scratch directory outside the repository, so nothing above it resolves `typescript` or `@sourced/registry`. */
export function scratch(files: Record<string, string>): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-cli-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    fs.writeFileSync(path.join(directory, name), text);
  }
  return directory;
}

export const FIXTURE_TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    types: [],
    noEmit: true,
  },
  include: ["src"],
});

/**
 * A project with a syntax error in one file (written at test time: a broken file in the repository
 * would break every linter run over it). Registry resolved through a link to the real package.
 */
export function syntaxErrorProject(): string {
  const directory = scratch({
    "tsconfig.json": FIXTURE_TSCONFIG,
    "src/registry.ts": `import { createRegistry } from "@sourced/registry";\n\nexport const registry = createRegistry({ name: "syntax-error", version: "1.0.0" });\n`,
    "src/broken.ts": [
      `import { registry } from "./registry.js";`,
      ``,
      `// The registration parses; the function below it does not.`,
      `export const unannotated = registry.tool()(function unannotated() {`,
      `  return { content: [] };`,
      `});`,
      ``,
      `export function broken( {`,
      `  return 1;`,
      `}`,
      ``,
    ].join("\n"),
    "src/fine.ts": `import { registry } from "./registry.js";\n\nexport const wrong = registry.tool()(function wrong(): number {\n  return 42;\n});\n`,
  });
  linkRegistry(directory);
  return directory;
}

/** `node_modules/@sourced/registry` in a scratch project: a link to the real package, as a workspace install makes it. */
export function linkRegistry(directory: string): void {
  fs.mkdirSync(path.join(directory, "node_modules/@sourced"), { recursive: true });
  fs.symlinkSync(path.join(REPO, "packages/registry"), path.join(directory, "node_modules/@sourced/registry"), "dir");
}
