import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

// The contributor's first command in the README must keep working: the demo checks its own four steps and exits
// non-zero when any of them misbehaves.
it("pnpm demo: the three front-ends report forecast, the built server serves only the verified tools", () => {
  const demo = spawnSync(process.execPath, [join(__dirname, "demo.mjs")], { encoding: "utf8" });
  expect(demo.stderr).toBe("");
  expect(demo.status).toBe(0);
  expect(demo.stdout).toMatch(/src\/tools\/forecast\.ts\(9,24\): error SRC92002: Tool 'forecast'/);
  expect(demo.stdout).toMatch(/src\/tools\/forecast\.ts\(9,24\): error TS92002: Tool 'forecast'/);
  expect(demo.stdout).toContain("forecast     absent: stripped by the build, never registered");
  expect(demo.stdout).toContain("  - https://example.org/cities-data");
  expect(demo.stdout).toContain("text/html;profile=mcp-app");
  expect(demo.stdout.trimEnd()).toMatch(/preview -- node fixtures\/projects\/cities\/build\/server\.js\n.*\n {2}npx sourced preview -- node build\/server\.js\nthen open the URL it prints\.$/);
});
