import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeNode, envWithNode, NODE_LINES, nodeBinary } from "./node-lines";

/*
 * The binaries the every-line tests run: each is the line it claims, and a package's bin started
 * the way npm and pnpm link them (`#!/usr/bin/env node`) runs on it.
 */

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-node-lines-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe.each(NODE_LINES)("Node %i", (line) => {
  const binary = nodeBinary(line);

  it(`is ${describeNode(binary)}, a release of that line the packages support`, () => {
    const version = spawnSync(binary.path, ["-p", "process.version"], { encoding: "utf8" });
    expect(version.stdout.trim()).toBe(binary.version);
    expect(binary.version).toMatch(new RegExp(`^v${line}\\.`));
    if (line === 22) expect(Number(binary.version.split(".")[1])).toBeGreaterThanOrEqual(18);
  });

  it("runs a bin that starts with `#!/usr/bin/env node` when its directory leads PATH", () => {
    const bin = path.join(scratch, `bin-${line}`);
    fs.writeFileSync(bin, "#!/usr/bin/env node\nprocess.stdout.write(process.version);\n", { mode: 0o755 });
    const run = spawnSync(bin, [], { encoding: "utf8", env: envWithNode(binary, process.env) });
    expect(run.stdout).toBe(binary.version);
  });
});
