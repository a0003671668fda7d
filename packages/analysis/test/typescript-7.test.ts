import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { typescript7Problem } from "../src/index";

/*
 * Which `typescript` a front-end that needs TypeScript 5/6's API would load, read from real
 * installs: the repository's 6.0.3, fixtures/ts5's 5.9.3, fixtures/ts7's 7.0.2, the 7.1 dev build.
 */

const REPO = path.resolve(__dirname, "../../..");
const empty = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-no-typescript-"));
afterAll(() => fs.rmSync(empty, { recursive: true, force: true }));

describe("typescript7Problem", () => {
  it.each([
    ["the repository (TypeScript 6.0.3)", REPO],
    ["fixtures/ts5 (TypeScript 5.9.3)", path.join(REPO, "fixtures/ts5")],
  ])("says nothing where `typescript` is 5/6: %s", (_name, directory) => {
    expect(typescript7Problem("tspc", directory)).toBeUndefined();
    expect(typescript7Problem("eslint", directory)).toBeUndefined();
  });

  it("says nothing where no `typescript` is installed: the front-end's own load reports that", () => {
    expect(typescript7Problem("tspc", empty)).toBeUndefined();
  });

  it.each([
    ["fixtures/ts7", "7.0.2"],
    ["fixtures/ts71", (JSON.parse(fs.readFileSync(path.join(REPO, "fixtures/ts71/node_modules/typescript/package.json"), "utf8")) as { version: string }).version],
  ])("names the version found in %s, what cannot run there and the ways out, in one line", (fixture, version) => {
    const tspc = typescript7Problem("tspc", path.join(REPO, fixture));
    expect(tspc).toMatch(new RegExp(`^tspc cannot build with the transformer on TypeScript ${version.replaceAll(".", "\\.")}: `));
    expect(tspc).toContain("the alias setup");
    expect(tspc).toContain("'sourced check' (@sourced/cli) and the bundler plugin (@sourced/unplugin) run on TypeScript 7");
    const eslint = typescript7Problem("eslint", path.join(REPO, fixture));
    expect(eslint).toMatch(new RegExp(`^@sourced/eslint-plugin cannot run on TypeScript ${version.replaceAll(".", "\\.")}: typescript-eslint needs `));
    expect(eslint).toContain("in place of the rule");
    for (const message of [tspc, eslint]) expect(message).not.toContain("\n");
  });
});
