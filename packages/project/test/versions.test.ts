import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chooseBackend, loadClassicInstead, loadNative, NativeBackendUnavailable } from "../src/backend";
import { UsageError } from "../src/errors";
import { analyzeProject } from "../src/analyze-project";
import { isSessionFailure, ProjectSession } from "../src/session";
import { loadTypeScript } from "../src/typescript";
import { CLASSIC_RANGE, SUPPORTED_TYPESCRIPT } from "../src/versions";
import { fakeTypeScript, REPO, removeTrees, thrown, tree, TYPESCRIPT_6, TYPESCRIPT_7 } from "./helpers";

/*
 * The TypeScript versions sourced supports (>=5.0 <6.1 on the classic backend, >=7.0.2 <7.2 on the
 * native one): the real 5.9.3, 6.0.3, 7.0.2 and 7.1 dev build of the repository load without a
 * word; a version outside gets one message naming it, where it is, what is supported and what to
 * install. Versions the repository does not install are small packages of that version number
 * written to a temporary node_modules: only the version check is exercised on them.
 */

afterAll(removeTrees);

const TYPESCRIPT_5 = fs.realpathSync(path.join(REPO, "fixtures/ts5/node_modules/typescript"));
const TYPESCRIPT_71 = fs.realpathSync(path.join(REPO, "fixtures/ts71/node_modules/typescript"));

/** A `typescript` of `version` whose JavaScript API is TypeScript 6.0.3's (a 6.x minor sourced was not tested on). */
const newerClassic = (version: string) =>
  tree(fakeTypeScript(version, `{ ...require(${JSON.stringify(TYPESCRIPT_6)}), version: ${JSON.stringify(version)} }`));

const native = (directory: string) => loadNative(directory, chooseBackend(directory, undefined).typescript);

/** What loadNative threw for the project in `directory`. */
const nativeRefusal = (directory: string): NativeBackendUnavailable => {
  const error = thrown(() => native(directory));
  expect(error).toBeInstanceOf(NativeBackendUnavailable);
  return error as NativeBackendUnavailable;
};

describe("one range, in the code and in every package that takes the project's TypeScript", () => {
  it("the peer range of project, cli, analysis and unplugin is the loaders' range; the transformer's and the ESLint plugin's, the classic one", () => {
    const peer = (name: string) => (JSON.parse(fs.readFileSync(path.join(REPO, "packages", name, "package.json"), "utf8")) as { peerDependencies: Record<string, string> }).peerDependencies["typescript"];
    expect(SUPPORTED_TYPESCRIPT).toBe(">=5.0 <6.1 || >=7.0.2 <7.2");
    for (const name of ["project", "cli", "analysis", "unplugin"]) expect([name, peer(name)]).toEqual([name, SUPPORTED_TYPESCRIPT]);
    for (const name of ["transformer", "eslint-plugin"]) expect([name, peer(name)]).toEqual([name, CLASSIC_RANGE]);
  });
});

describe("inside the range: the real installs load without a note or a warning", () => {
  it("TypeScript 5.9.3 and 6.0.3 on the classic backend", () => {
    for (const [install, version] of [
      [TYPESCRIPT_5, "5.9.3"],
      [TYPESCRIPT_6, "6.0.3"],
    ] as const) {
      const directory = tree({}, { "node_modules/typescript": install });
      const loaded = loadTypeScript(directory, [directory]);
      expect([loaded.version, loaded.note, loaded.warning]).toEqual([version, undefined, undefined]);
    }
  });

  it("TypeScript 7.0.2 and the 7.1 dev build on the native backend (their API loaded, no process started)", () => {
    for (const [install, version] of [
      [TYPESCRIPT_7, "7.0.2"],
      [TYPESCRIPT_71, "7.1.0-dev.20261021.1"],
    ] as const) {
      expect(native(tree({}, { "node_modules/typescript": install })).version).toBe(version);
    }
  });
});

describe("a newer 6.x minor: judged with it, and warned about (as typescript-eslint warns), never refused", () => {
  it("6.1.0 and a 6.1 dev build: loaded, with a warning naming the version, where it is, the supported range and what to install", () => {
    for (const version of ["6.1.0", "6.1.0-dev.20270101"]) {
      const directory = newerClassic(version);
      const loaded = loadTypeScript(directory, [directory]);
      expect([loaded.version, typeof loaded.ts.createProgram, loaded.note]).toEqual([version, "function", undefined]);
      expect(loaded.warning).toBe(
        `typescript ${version} at ${path.join(directory, "node_modules/typescript")} is newer than the classic backend supports (typescript >=5.0 <6.1); checking with it anyway, ` +
          `as its JavaScript API seldom changes within a major version, but sourced was not tested on it: if a verdict looks wrong, check with a supported TypeScript ('npm install --save-dev typescript@6.0') before reporting it`,
      );
    }
  });

  it("analyzeProject and ProjectSession judge with it, and carry the warning for their front-end to give", () => {
    const directory = newerClassic("6.1.0");
    fs.writeFileSync(path.join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, files: ["a.ts"] }));
    fs.writeFileSync(path.join(directory, "a.ts"), "export const a = 1;\n");
    const analysis = analyzeProject({ tsconfig: "tsconfig.json", cwd: directory });
    expect([analysis.backend, analysis.typescriptVersion, analysis.warning]).toEqual(["classic", "6.1.0", expect.stringMatching(/^typescript 6\.1\.0 at .* is newer than the classic backend supports/)]);
    const outcome = new ProjectSession(path.join(directory, "tsconfig.json")).refresh();
    expect(isSessionFailure(outcome)).toBe(false);
    expect(outcome).toMatchObject({ backend: "classic", warning: analysis.warning });
  });

  it("a newer major with a JavaScript API is refused on the classic backend: one error naming it and what to install", () => {
    const directory = tree(fakeTypeScript("8.0.0", `{ version: "8.0.0", createProgram() {} }`));
    const error = thrown(() => loadTypeScript(directory, [directory]));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      `typescript 8.0.0 at ${path.join(directory, "node_modules/typescript")} is a major version the classic backend does not support (typescript >=5.0 <6.1). ` +
        `sourced check's classic backend needs the TypeScript JavaScript API (typescript >=5.0 <6.1). TypeScript 7 has none (its own API runs with '--backend native'): ` +
        `for the classic backend, install TypeScript 6 beside it, e.g. 'npm install --save-dev @typescript/typescript6@6' (or, without TypeScript 7, 'npm install --save-dev typescript@6.0').`,
    );
  });
});

describe("TypeScript 7 outside >=7.0.2 <7.2: the native backend refuses it before loading anything", () => {
  it("7.0.0 and 7.0.1: older than supported, upgrade it", () => {
    for (const version of ["7.0.0", "7.0.1"]) {
      const directory = tree(fakeTypeScript(version));
      const error = nativeRefusal(directory);
      expect(error.message).toBe(
        `TypeScript ${version} at ${path.join(directory, "node_modules/typescript")} is older than the native backend supports (typescript >=7.0.2 <7.2). ` +
          `Upgrade it ('npm install --save-dev "typescript@>=7.0.2 <7.2"'), or check it on the classic backend with TypeScript 6 beside it ('npm install --save-dev @typescript/typescript6@6').`,
      );
    }
  });

  it("7.2.0, a 7.2 dev build and 8.0.0: newer than supported, naming the minor a newer sourced would have to support", () => {
    for (const [version, minor] of [
      ["7.2.0", "7.2"],
      ["7.2.0-dev.20270101.1", "7.2"],
      ["8.0.0", "8.0"],
    ] as const) {
      const directory = tree(fakeTypeScript(version));
      const error = nativeRefusal(directory);
      expect(error.message).toBe(
        `TypeScript ${version} at ${path.join(directory, "node_modules/typescript")} is newer than the native backend supports (typescript >=7.0.2 <7.2; TypeScript 7's API changes between minor versions). ` +
          `Install a supported one ('npm install --save-dev "typescript@>=7.0.2 <7.2"') or a release of sourced that supports TypeScript ${minor}, ` +
          `or check it on the classic backend with TypeScript 6 beside it ('npm install --save-dev @typescript/typescript6@6').`,
      );
    }
  });

  it("nothing for the classic backend to fall back on either: one error, leading with why TypeScript 7 could not run", () => {
    const directory = tree(fakeTypeScript("7.2.0"));
    const refused = nativeRefusal(directory);
    const error = thrown(() => loadClassicInstead(directory, refused, [directory]));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`${refused.reason}, and the classic backend has no TypeScript 5 or 6 to check it with instead. ${refused.advice}`);
    // With TypeScript 6 beside it (a tree of its own: Node keeps what it did not find), the classic backend checks it, as before.
    const beside = tree(fakeTypeScript("7.2.0"), { "node_modules/@typescript/typescript6": TYPESCRIPT_6 });
    expect(loadClassicInstead(beside, nativeRefusal(beside), [beside]).version).toBe("6.0.3");
  });
});
