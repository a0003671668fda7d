import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { VERIFIED_STAMP, VERIFIED_STAMP_KEY } from "@sourced/registry";
import { expect, test } from "vitest";
import { TRANSFORMER_DIR } from "./support";

test("stamps with the registry's own key, loading nothing of the registry (nor the MCP SDK or zod)", () => {
  // A fresh process: what loading the built transformer loads, as ts-patch does.
  const script = `
    const transformer = require(${JSON.stringify(path.join(TRANSFORMER_DIR, "dist", "index.js"))});
    process.stdout.write(JSON.stringify({ key: transformer.VERIFIED_STAMP_KEY, loaded: Object.keys(require.cache) }));
  `;
  const { key, loaded } = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { key: string; loaded: string[] };
  expect(key).toBe(VERIFIED_STAMP_KEY);
  expect(Symbol.for(key)).toBe(VERIFIED_STAMP);
  expect(loaded.filter((file) => /[\\/](@modelcontextprotocol|zod)[\\/]/.test(file))).toEqual([]);
  expect(loaded.filter((file) => /[\\/]registry[\\/]dist[\\/]/.test(file))).toEqual([]);
});
