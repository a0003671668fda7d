import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/*
 * Small projects written to a temporary directory, outside the repository, so nothing above them
 * resolves `typescript` or `@sourced/registry`: each test links in exactly the installs it means.
 */

export const REPO = path.resolve(__dirname, "../../..");
/** The repository's TypeScript 6.0.3 (the classic backend's). */
export const TYPESCRIPT_6 = fs.realpathSync(path.join(REPO, "node_modules/typescript"));
/** TypeScript 7.0.2 with its IPC API, as fixtures/ts7 installs it (the native backend's). */
export const TYPESCRIPT_7 = fs.realpathSync(path.join(REPO, "fixtures/ts7/node_modules/typescript"));
export const REGISTRY = path.join(REPO, "packages/registry");

const made: string[] = [];

/** A directory holding `files` (paths relative to it) and `links` (name → what it links to). */
export function tree(files: Record<string, string>, links: Record<string, string> = {}): string {
  const directory = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-project-")));
  made.push(directory);
  for (const [name, text] of Object.entries(files)) write(directory, name, text);
  for (const [name, target] of Object.entries(links)) {
    fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    fs.symlinkSync(target, path.join(directory, name), "dir");
  }
  return directory;
}

export function write(directory: string, name: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
  fs.writeFileSync(path.join(directory, name), text);
}

/** Every directory `tree` made, removed (each test file's `afterAll`). */
export function removeTrees(): void {
  for (const directory of made.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
}

/** A `typescript` package of `version` with no compiler in it: `api` is what its entry exports. */
export function fakeTypeScript(version: string, api = `{ version: ${JSON.stringify(version)} }`): Record<string, string> {
  return {
    "node_modules/typescript/package.json": JSON.stringify({ name: "typescript", version, main: "./lib/api.js" }),
    "node_modules/typescript/lib/api.js": `"use strict";\nmodule.exports = ${api};\n`,
  };
}

/** The files of a fixture directory, by path relative to it, to copy into a tree a test may edit. */
export function filesOf(directory: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(directory, { recursive: true, encoding: "utf8" })) {
    const file = path.join(directory, name);
    if (fs.statSync(file).isFile()) files[name.split(path.sep).join("/")] = fs.readFileSync(file, "utf8");
  }
  return files;
}

/** What `run` threw (the test fails if it returned). */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw, and it returned");
}
