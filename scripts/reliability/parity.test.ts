import * as fs from "node:fs";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { samplePrograms, type GeneratedProgram } from "./generator";
import { collectBatch, describeFailures, judgeBatch, runBatch, type BatchOutcome, type BatchReports } from "./parity";

/*
 * Fuzzed parity of the transformer, the ESLint rule, `sourced check`, the bundler plugin (through
 * esbuild), the analysis and the registry's start-up check (the sources run with tsx, and plain
 * tsc's output of them on TypeScript 7.0.2 and 6.0.3, with and without source maps), on programs
 * whose verdicts are known by construction. The normal run checks one batch of 300 programs in
 * one project; `pnpm soak` runs batches until 5,000 programs (or its time limit) and writes a
 * summary. The normal run uses a fixed seed, so a test run is reproducible and a red CI run fails
 * the same way on a developer's machine; the soak draws a random one (new programs every time).
 * SOURCED_FUZZ_SEED replays any seed; it is printed with every failure.
 */

/** The normal run's programs: always the same 300. */
const FIXED_SEED = 20_261_201;
const SOAK_PROGRAMS = Number(process.env.SOURCED_SOAK_PROGRAMS ?? 0);
const SEED =
  process.env.SOURCED_FUZZ_SEED !== undefined ? Number(process.env.SOURCED_FUZZ_SEED) : SOAK_PROGRAMS > 0 ? Math.floor(Math.random() * 2 ** 31) : FIXED_SEED;
const PROGRAMS = Number(process.env.SOURCED_FUZZ_PROGRAMS ?? 300);
const SOAK_MINUTES = Number(process.env.SOURCED_SOAK_MINUTES ?? 120);
const SOAK_BATCH = Number(process.env.SOURCED_SOAK_BATCH ?? 250);

const line = (o: { programs: number; agree: number; crashes: number }) => `${o.programs} programs, ${o.agree} agree, ${o.crashes} crashes`;

describe.skipIf(SOAK_PROGRAMS > 0)(`fuzzed parity: ${PROGRAMS} generated programs in one project (seed ${SEED})`, () => {
  let programs: GeneratedProgram[];
  let reports: BatchReports;
  let outcome: BatchOutcome;

  beforeAll(async () => {
    programs = samplePrograms(SEED, PROGRAMS);
    reports = await collectBatch(programs);
    outcome = judgeBatch(programs, reports);
    console.log(`${line(outcome)} (seed ${SEED}; ${outcome.registrations} registrations, ${outcome.findings} findings; ms ${JSON.stringify(outcome.timings)})`);
    // About 3.5 minutes on a busy 2-core machine, the four plain tsc builds and `sourced build`
    // included; the bound is room, not a target (when each registry's start-up check emitted the
    // project again, the batch took over 40 minutes).
  }, 900_000);

  afterAll(() => {
    if (outcome?.failures.length === 0) fs.rmSync(reports.directory, { recursive: true, force: true });
  });

  it("the generator covers every verdict, served tools and unresolved registries", () => {
    const ids = new Set(programs.flatMap((p) => p.findings.map((f) => f.id)));
    expect([...ids].sort()).toEqual([
      "duplicate-tool-name",
      "invalid-source",
      "invalid-tool-name",
      "missing-annotation",
      "not-data-tool-output",
      "unnamed-tool",
      "unverifiable-registration",
    ]);
    expect(programs.reduce((sum, p) => sum + p.served.length, 0)).toBeGreaterThan(PROGRAMS / 2);
    expect(programs.filter((p) => p.loadError !== undefined).length).toBeGreaterThan(0);
    // Start-up failures of a registry that resolves, besides unresolved registries.
    expect(programs.filter((p) => p.loadError !== undefined && p.loadError !== "@sourced/registy").length).toBeGreaterThan(0);
    expect(programs.filter((p) => p.findings.some((f) => f.tool === undefined)).length).toBeGreaterThan(0);
    expect(programs.filter((p) => p.files.length > 1).length).toBeGreaterThan(0);
    expect(programs.filter((p) => p.files.some((f) => f.name.endsWith(".js"))).length, "checked JavaScript modules").toBeGreaterThan(0);
  });

  it("nothing crashes: no internal error, no fatal message, no front-end failing as a whole", () => {
    expect(outcome.crashes, describeFailures(outcome, programs)).toBe(0);
    expect([...reports.batchProblems.values()]).toEqual([]);
  });

  it("every program compiles as generated (no diagnostics but ours)", () => {
    expect(reports.foreign).toEqual([]);
  });

  it("tspc, ESLint, `sourced check`, esbuild with the bundler plugin and the analysis report exactly the constructed findings; the stripped JS loads and serves exactly the verified tools; run from source, and from plain tsc 7.0.2 and 6.0.3 output with and without source maps, the start-up check serves the same and refuses the rest with tspc's findings; `sourced build`'s output serves the same, stamped", () => {
    expect(outcome.failures.length, describeFailures(outcome, programs)).toBe(0);
    expect(outcome.agree).toBe(PROGRAMS);
  });

  it("the judge is not blind: a program with one expectation changed is reported as a disagreement", () => {
    const target = programs.find((p) => p.findings.length > 0 && p.loadError === undefined)!;
    const [first, ...rest] = target.findings;
    const mutated = programs.map((p) => (p === target ? { ...p, findings: [{ ...first!, line: first!.line + 1 }, ...rest] } : p));
    const judged = judgeBatch(mutated, reports);
    expect(judged.failures.map((f) => f.program)).toContain(target.id);
    const dropped = programs.map((p) => (p === target ? { ...p, served: [...p.served, "never_registered_00000_0"] } : p));
    expect(judgeBatch(dropped, reports).failures.map((f) => f.program)).toContain(target.id);
    // A report in a shared lib/ file, which no program owns, is caught too.
    const eslintReports = reports.reported.get("eslint") ?? [];
    const inLib = new Map(reports.reported);
    inLib.set("eslint", [...eslintReports, { file: "lib/platform.ts", id: "not-data-tool-output", tool: "platform", line: 1, column: 1 }]);
    const libJudged = judgeBatch(programs, { ...reports, reported: inLib });
    expect(libJudged.failures.map((f) => f.program)).toContain("(batch)");
    expect(libJudged.agree).toBe(PROGRAMS);
  });
});

describe.runIf(SOAK_PROGRAMS > 0)("soak", () => {
  it(
    `${SOAK_PROGRAMS} programs in batches of ${SOAK_BATCH}, for at most ${SOAK_MINUTES} minutes`,
    async () => {
      const deadline = Date.now() + SOAK_MINUTES * 60_000;
      const total = { programs: 0, agree: 0, crashes: 0, registrations: 0, findings: 0, batches: 0, ms: 0 };
      const failures: string[] = [];
      const started = Date.now();
      for (let batch = 0; total.programs < SOAK_PROGRAMS && Date.now() < deadline; batch++) {
        const seed = (SEED + batch) % 2 ** 31;
        const programs = samplePrograms(seed, Math.min(SOAK_BATCH, SOAK_PROGRAMS - total.programs), total.programs);
        const outcome = await runBatch(programs);
        total.programs += outcome.programs;
        total.agree += outcome.agree;
        total.crashes += outcome.crashes;
        total.registrations += outcome.registrations;
        total.findings += outcome.findings;
        total.batches++;
        if (outcome.failures.length > 0) failures.push(`batch ${batch} (seed ${seed}):\n${describeFailures(outcome, programs, 3)}`);
        console.log(`batch ${batch} (seed ${seed}): ${line(outcome)}; ms ${JSON.stringify(outcome.timings)}`);
      }
      total.ms = Date.now() - started;
      const summary = { seed: SEED, batchSize: SOAK_BATCH, ...total, failures };
      if (process.env.SOURCED_SOAK_REPORT) fs.writeFileSync(process.env.SOURCED_SOAK_REPORT, JSON.stringify(summary, null, 2));
      console.log(line(total));
      expect(failures, failures.join("\n\n")).toEqual([]);
    },
    SOAK_MINUTES * 60_000 + 15 * 60_000,
  );
});
