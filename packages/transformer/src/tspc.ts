import * as path from "node:path";
import { typescript7Problem } from "@sourced/analysis";

/**
 * `sourced-tspc`: ts-patch's `tspc`, after one check it cannot make itself. On TypeScript 7 (whose
 * `typescript` package has no JavaScript compiler) ts-patch fails as it loads, with
 * `TypeError: Cannot read properties of undefined (reading 'LineFeed')`, before it reads a
 * tsconfig or loads this transformer, so neither can say why. This says so, in one line naming the
 * ways out, and otherwise hands the command line to ts-patch's own `tspc`, in this process.
 */
export function run(): void {
  let tsPatch: string;
  try {
    // ts-patch is the transformer's peer: the one resolved from here is the project's.
    tsPatch = path.dirname(require.resolve("ts-patch/package.json"));
  } catch {
    process.stderr.write("error: sourced-tspc runs ts-patch's tspc, and ts-patch is not installed: install ts-patch@4 with typescript@6.0 (ts-patch@3.3.0 with TypeScript 5)\n");
    process.exitCode = 1;
    return;
  }
  const problem = typescript7Problem("tspc", tsPatch);
  if (problem !== undefined) {
    process.stderr.write(`error: ${problem}\n`);
    process.exitCode = 1;
    return;
  }
  // What ts-patch's own bin runs (its `tspc` refuses to be required): tsc, patched, on process.argv.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- run for its effect, as ts-patch's bin does
  require("ts-patch/compiler/tsc");
}
