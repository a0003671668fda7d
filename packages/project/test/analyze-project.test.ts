import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeProject } from "../src/analyze-project";
import { UsageError } from "../src/errors";
import { REPO, removeTrees, thrown, tree, TYPESCRIPT_7 } from "./helpers";

/*
 * analyzeProject, the one-shot judgement the native ProjectSession runs: like `sourced check`, it
 * refuses a project whose tsconfig its own compiler rejects, on either backend, saying where.
 */

afterAll(removeTrees);

const BAD_OPTION = fs.readFileSync(path.join(REPO, "fixtures/cli/bad-option/tsconfig.json"), "utf8");

describe("analyzeProject: a tsconfig its compiler rejects is a UsageError naming each error where it is", () => {
  it("classic (TypeScript 6)", () => {
    const error = thrown(() => analyzeProject({ tsconfig: "fixtures/cli/bad-option/tsconfig.json", cwd: REPO }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      "fixtures/cli/bad-option/tsconfig.json is not a valid TypeScript configuration (fixtures/cli/bad-option/tsconfig.json(5,5): Unknown compiler option 'strictTools'.); fix it so the tools can be checked.",
    );
  });

  it("native (TypeScript 7)", () => {
    const root = tree({ "tsconfig.json": BAD_OPTION.replace("../clean/src/tools.ts", "tools.ts"), "tools.ts": "export const a = 1;\n" }, { "node_modules/typescript": TYPESCRIPT_7 });
    const error = thrown(() => analyzeProject({ tsconfig: "tsconfig.json", cwd: root }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe("tsconfig.json is not a valid TypeScript configuration (tsconfig.json(5,5): Unknown compiler option 'strictTools'.); fix it so the tools can be checked.");
  });
});
