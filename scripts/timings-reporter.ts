import * as fs from "node:fs";
import * as path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/*
 * How long each test file held its worker, hooks included — the JSON reporter's file times count
 * its tests only, so a file whose work is a `beforeAll` (the fuzzed parity, the conformance suite)
 * looked free there. Written for CI's summary (`.ci/run` prints the longest files).
 */
export default class TimingsReporter implements Reporter {
  private readonly seconds: [string, number][] = [];

  onTestModuleEnd(testModule: TestModule): void {
    const { collectDuration, setupDuration, duration } = testModule.diagnostic();
    this.seconds.push([path.relative(process.cwd(), testModule.moduleId), Math.round((collectDuration + setupDuration + duration) / 1000)]);
  }

  onTestRunEnd(): void {
    fs.writeFileSync(".vitest-timings.json", JSON.stringify(this.seconds.sort((a, b) => b[1] - a[1])));
  }
}
