import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, expect, test } from "vitest";

/*
 * docs/contract-rules.md's example, run as a user runs it (Node's type stripping, the package
 * imported by its name) and its output compared with the page's.
 */

const PACKAGE = path.resolve(__dirname, "..");
const PAGE = path.resolve(PACKAGE, "..", "..", "docs", "contract-rules.md");
// Inside the package, so that its name resolves to itself (a package may import itself by name).
const SCRATCH = path.join(PACKAGE, `.docs-${process.pid}`);
afterAll(() => fs.rmSync(SCRATCH, { recursive: true, force: true }));

test("docs/contract-rules.md: the example prints what the page says", () => {
  const page = fs.readFileSync(PAGE, "utf8");
  const blocks = [...page.matchAll(/^```(ts|text)\n([\s\S]*?)^```$/gmu)].map((match) => ({ language: match[1]!, body: match[2]! }));
  const example = blocks.find((block) => block.language === "ts")!;
  const printed = blocks.find((block) => block.language === "text")!;
  fs.mkdirSync(SCRATCH, { recursive: true });
  fs.writeFileSync(path.join(SCRATCH, "example.mts"), example.body);
  const run = spawnSync(process.execPath, [path.join(SCRATCH, "example.mts")], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe(printed.body);
});
