#!/usr/bin/env node
// `pnpm soak`: the fuzzed parity of scripts/reliability/parity.test.ts over 5,000 generated
// programs (SOURCED_SOAK_PROGRAMS), in batches of one project each, stopping by itself after
// SOURCED_SOAK_MINUTES (default 120) whatever it has reached. Prints
// `N programs, N agree, N crashes` and exits non-zero on any disagreement or crash.
// Then the run-time net's property test over generated hostile results
// (packages/registry/test/hostile-results.test.ts) with more cases (SOURCED_NET_CASES, default
// 20,000) and a random seed (or SOURCED_NET_SEED), printed so that a failure can be replayed.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const vitest = path.join(path.dirname(createRequire(path.join(root, "package.json")).resolve("vitest/package.json")), "vitest.mjs");
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-soak-")), "summary.json");

const run = spawnSync(process.execPath, [vitest, "run", "scripts/reliability/parity.test.ts"], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    SOURCED_SOAK_PROGRAMS: process.env.SOURCED_SOAK_PROGRAMS ?? "5000",
    SOURCED_SOAK_REPORT: report,
  },
});

if (!fs.existsSync(report)) {
  console.error(`soak: no summary was written (vitest exited with ${run.status ?? run.signal})`);
  process.exit(2);
}
const summary = JSON.parse(fs.readFileSync(report, "utf8"));
console.log(
  `\nseed ${summary.seed}, ${summary.batches} batches of up to ${summary.batchSize}, ` +
    `${summary.registrations} registrations, ${summary.findings} expected findings, ${Math.round(summary.ms / 1000)} s`,
);
console.log(`${summary.programs} programs, ${summary.agree} agree, ${summary.crashes} crashes`);
const parityPassed = run.status === 0 && summary.agree === summary.programs;

const netSeed = process.env.SOURCED_NET_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
const netCases = process.env.SOURCED_NET_CASES ?? "20000";
console.log(`\nthe net: ${netCases} hostile results, seed ${netSeed} (replay with SOURCED_NET_SEED=${netSeed})`);
const net = spawnSync(process.execPath, [vitest, "run", "packages/registry/test/hostile-results.test.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, SOURCED_NET_CASES: netCases, SOURCED_NET_SEED: netSeed },
});
process.exit(parityPassed && net.status === 0 ? 0 : 1);
