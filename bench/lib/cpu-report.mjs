// Preloaded (node --import) into every process the benchmark times: on exit it writes the
// process's own CPU time, so a busy machine (other work competing for the cores) skews the
// ratios less than wall-clock time alone would.
import * as fs from "node:fs";

const file = process.env.SOURCED_BENCH_CPU_FILE;
if (file) {
  delete process.env.SOURCED_BENCH_CPU_FILE; // not for grandchildren
  process.on("exit", () => {
    const usage = process.resourceUsage();
    fs.writeFileSync(file, JSON.stringify({ userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000, maxRssKiB: usage.maxRSS }));
  });
}
