import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chooseBackend, loadNative, NativeBackendUnavailable, projectTypeScript } from "../src/backend";
import { UsageError } from "../src/errors";
import { loadTypeScript } from "../src/typescript";
import { fakeTypeScript, REPO, removeTrees, thrown, tree, TYPESCRIPT_6, TYPESCRIPT_7 } from "./helpers";

/*
 * Which compiler judges a project: the backend chosen from the project's own TypeScript, and what
 * each loader says, as a UsageError and never a crash, when the TypeScript it needs is missing or
 * of a version it cannot drive. The real TypeScript 6.0.3 and 7.0.2 of the repository, linked into
 * projects written to a temporary directory; no compiler process is started here.
 */

afterAll(removeTrees);

const withTypeScript6 = () => tree({}, { "node_modules/typescript": TYPESCRIPT_6 });
const withTypeScript7 = () => tree({}, { "node_modules/typescript": TYPESCRIPT_7 });

describe("chooseBackend: native exactly when the project's TypeScript is 7 or later", () => {
  it("classic for a project whose TypeScript is 6, native for one whose TypeScript is 7", () => {
    expect(chooseBackend(withTypeScript6(), undefined)).toEqual({ backend: "classic", typescript: { version: "6.0.3", major: 6, directory: TYPESCRIPT_6, via: "typescript" } });
    expect(chooseBackend(withTypeScript7(), undefined)).toEqual({ backend: "native", typescript: { version: "7.0.2", major: 7, directory: TYPESCRIPT_7, via: "typescript" } });
  });

  it("reads the project's tsc (pnpm's shim, from a directory below it) before `typescript`", () => {
    expect(chooseBackend(path.join(REPO, "fixtures/ts7/cli/loose"), undefined)).toMatchObject({ backend: "native", typescript: { version: "7.0.2", via: "tsc" } });
    expect(chooseBackend(path.join(REPO, "fixtures/ts5/cli"), undefined)).toMatchObject({ backend: "classic", typescript: { version: "5.9.3", via: "tsc" } });
  });

  it("TypeScript 7 owning tsc under another name, TypeScript 6 as `typescript` (for ESLint): native, as the project's tsc is", () => {
    const directory = tree({}, { "node_modules/typescript": TYPESCRIPT_6, "node_modules/ts7": TYPESCRIPT_7 });
    fs.mkdirSync(path.join(directory, "node_modules/.bin"));
    fs.symlinkSync("../ts7/bin/tsc", path.join(directory, "node_modules/.bin/tsc"));
    expect(chooseBackend(path.join(directory, "src"), undefined)).toEqual({ backend: "native", typescript: { version: "7.0.2", major: 7, directory: TYPESCRIPT_7, via: "tsc" } });
  });

  it("forced: the backend asked for, whatever the project's TypeScript, which it still reports", () => {
    expect(chooseBackend(withTypeScript6(), "native")).toMatchObject({ backend: "native", typescript: { version: "6.0.3" } });
    expect(chooseBackend(withTypeScript7(), "classic")).toMatchObject({ backend: "classic", typescript: { version: "7.0.2" } });
  });

  it("no TypeScript at all: classic (whose loader then falls back to the layer's own), with nothing found", () => {
    const directory = tree({ "tsconfig.json": "{}" });
    expect(projectTypeScript(directory)).toBeUndefined();
    expect(chooseBackend(directory, undefined)).toEqual({ backend: "classic", typescript: undefined });
  });

  it("a TypeScript 7 or later it may not drive is still native: loadNative says why", () => {
    expect(chooseBackend(tree(fakeTypeScript("8.0.0")), undefined)).toMatchObject({ backend: "native", typescript: { version: "8.0.0", major: 8 } });
  });
});

describe("loadNative: TypeScript 7's API, or a NativeBackendUnavailable that names the version and what to do", () => {
  /** What loadNative threw for the project in `directory`, as chooseBackend found its TypeScript. */
  const refusal = (directory: string): NativeBackendUnavailable => {
    const error = thrown(() => loadNative(directory, chooseBackend(directory, undefined).typescript));
    expect(error).toBeInstanceOf(NativeBackendUnavailable);
    expect(error).toBeInstanceOf(UsageError);
    return error as NativeBackendUnavailable;
  };

  it("no TypeScript: says so, and to install TypeScript 7 or drop --backend native", () => {
    const directory = tree({});
    const error = refusal(directory);
    expect(error.reason).toBe(`the native backend needs TypeScript 7, and the project at ${directory} has no TypeScript`);
    expect(error.message).toBe(`${error.reason}. Install it ('npm install --save-dev "typescript@>=7.0.2 <7.2"'), or drop '--backend native' to check with the classic backend.`);
  });

  it("TypeScript 6: names its version and where it is", () => {
    const directory = withTypeScript6();
    const error = refusal(directory);
    expect(error.reason).toBe(`the native backend needs TypeScript 7, and the project at ${directory} has TypeScript 6.0.3 (at ${TYPESCRIPT_6})`);
    expect(error.message).toContain(`'npm install --save-dev "typescript@>=7.0.2 <7.2"'`);
  });

  it("a TypeScript 7 or later whose API it does not drive: names the version and the ones it supports", () => {
    const directory = tree(fakeTypeScript("7.5.0"));
    const error = refusal(directory);
    expect(error.reason).toBe(`TypeScript 7.5.0 at ${path.join(directory, "node_modules/typescript")} is newer than the native backend supports (typescript >=7.0.2 <7.2; TypeScript 7's API changes between minor versions)`);
    expect(error.message).toBe(
      `${error.reason}. Install a supported one ('npm install --save-dev "typescript@>=7.0.2 <7.2"') or a release of sourced that supports TypeScript 7.5, ` +
        `or check it on the classic backend with TypeScript 6 beside it ('npm install --save-dev @typescript/typescript6@6').`,
    );
  });

  it("a TypeScript 7 without its IPC API: says what it could not load", () => {
    const directory = tree(fakeTypeScript("7.0.2"));
    expect(refusal(directory).reason).toMatch(/^cannot load typescript\/unstable\/sync from .*node_modules[\\/]typescript: /);
  });

  it("the project's TypeScript 7: its API, from that install (found through tsc, or as `typescript` when nothing was found)", () => {
    const directory = withTypeScript7();
    const native = loadNative(directory, chooseBackend(directory, undefined).typescript);
    expect([native.version, native.directory, native.entry]).toEqual(["7.0.2", TYPESCRIPT_7, "typescript/unstable/sync"]);
    expect(loadNative(directory, undefined).directory).toBe(TYPESCRIPT_7);
  });
});

describe("loadTypeScript: the classic backend's TypeScript, or a UsageError saying what to install", () => {
  const older = () => tree(fakeTypeScript("4.9.5", `{ version: "4.9.5", createProgram() {} }`));

  it("a TypeScript older than 5.0 beside the project is passed over for the layer's own, with a note naming it", () => {
    const directory = older();
    const loaded = loadTypeScript(directory);
    expect(loaded.version).toBe("6.0.3");
    expect(loaded.note).toMatch(/^typescript 4\.9\.5 at .*node_modules[\\/]typescript is older than 5\.0, the oldest the classic backend supports \(typescript >=5\.0 <6\.1\); checking with TypeScript 6\.0\.3 from /);
  });

  it("only a TypeScript older than 5.0, or none: a UsageError naming it, and the TypeScript to install", () => {
    const directory = older();
    const error = thrown(() => loadTypeScript(directory, [directory]));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(
      /^typescript 4\.9\.5 at .* is older than 5\.0, the oldest the classic backend supports \(typescript >=5\.0 <6\.1\)\. sourced check's classic backend needs the TypeScript JavaScript API \(typescript >=5\.0 <6\.1\)\. Install it: 'npm install --save-dev typescript@6\.0'\.$/,
    );
    const empty = tree({});
    expect((thrown(() => loadTypeScript(empty, [empty])) as Error).message).toMatch(new RegExp(`^no 'typescript' package can be resolved from ${empty.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\. `));
  });
});
