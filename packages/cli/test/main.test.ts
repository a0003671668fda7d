import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, main, UsageError, type Io } from "../dist/index.js";
import { REPO, sourced } from "./helpers";

/** `main` in this process, with standard output and error captured. */
function runMain(argv: readonly string[], cwd = REPO): { status: 0 | 1 | 2; stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  const io: Io = { cwd, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) };
  const status = main(argv, io);
  return { status, stdout, stderr };
}

describe("main(argv, io) in process", () => {
  it("answers as the spawned binary does, byte for byte", () => {
    for (const argv of [["--help"], ["--version"], ["check", "-p", "fixtures/cli/findings", "--format", "json"], ["check", "-p", "fixtures/cli/clean"], ["check", "--formt", "json"]]) {
      const inProcess = runMain(argv);
      const spawned = sourced(argv);
      expect({ status: inProcess.status, stdout: inProcess.stdout, stderr: inProcess.stderr }, argv.join(" ")).toEqual(spawned);
    }
  });

  it("reads options the way node:util parseArgs does: inline values, short forms, groups", () => {
    const expected = runMain(["check", "--project", "fixtures/cli/findings", "--format", "json"]);
    expect(expected.status).toBe(1);
    for (const argv of [
      ["check", "--project=fixtures/cli/findings", "--format=json"],
      ["check", "-pfixtures/cli/findings", "-fjson"],
      ["--format", "json", "check", "-p", "fixtures/cli/findings"],
      ["check", "-p", "fixtures/cli/findings", "-f", "json", "--format", "json"],
    ]) {
      expect(runMain(argv), argv.join(" ")).toEqual(expected);
    }
    expect(runMain(["-hv"]).stdout).toBe(runMain(["--help"]).stdout);
  });

  it("says what is wrong with each malformed call, and exits 2", () => {
    const cases: Array<[string[], string]> = [
      [["check", "--formt", "json"], "unknown option '--formt'. Did you mean '--format'? Run 'sourced --help' for the options."],
      [["check", "--projct=x"], "unknown option '--projct'. Did you mean '--project'?"],
      [["check", "-x"], "unknown option '-x'. Run 'sourced --help' for the options."],
      [["check", "--help=yes"], "option '--help' takes no value; write '--help'."],
      [["check", "-p"], "option '-p' needs a value: '-p tsconfig.json'."],
      [["check", "--output="], "option '--output' needs a value: '--output report.sarif'."],
      [["check", "-o", "--format", "json"], "option '-o' needs a value"],
      [["check", "--format", "json", "-f", "text"], "'--format' given twice ('json' and 'text'); give it once."],
      [["check", "-o", "a.txt", "--output", "b.txt"], "'--output' given twice ('a.txt' and 'b.txt'); give it once."],
      [["check", "--", "src/tools.ts"], "'--' is not supported: sourced check takes no file arguments."],
      [["check", "src/tools.ts"], "unexpected argument 'src/tools.ts': sourced check takes no file arguments"],
      [["lint"], "unknown command 'lint': the commands are 'check', 'build' and 'preview'."],
      [[], "missing command: write 'sourced check'."],
    ];
    for (const [argv, message] of cases) {
      const run = runMain(argv);
      expect(run.status, argv.join(" ")).toBe(2);
      expect(run.stdout, argv.join(" ")).toBe("");
      expect(run.stderr.startsWith(`sourced: error: ${message}`), `${argv.join(" ")}: ${run.stderr}`).toBe(true);
    }
  });

  it("prints a ConfigError's TypeScript diagnostics before its message", () => {
    const run = runMain(["check", "-p", "fixtures/cli/bad-json"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^fixtures\/cli\/bad-json\/tsconfig\.json\(5,3\): error TS1005: ',' expected\.\n/);
    const error = new ConfigError("the message", "the diagnostics\n");
    expect(error).toBeInstanceOf(UsageError);
    expect(error.name).toBe("ConfigError");
    expect(error.diagnostics).toBe("the diagnostics\n");
  });

  it("never throws: a failure of its own is one message on standard error and exit code 2", () => {
    let stderr = "";
    const status = main(["--version"], {
      cwd: REPO,
      stdout: () => {
        throw new Error("standard output is closed");
      },
      stderr: (text) => (stderr += text),
    });
    expect(status).toBe(2);
    expect(stderr).toMatch(/^sourced: internal error, please report it:\nError: standard output is closed\n/);
  });

  it("writes --output relative to io.cwd", () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-main-"));
    try {
      const run = runMain(["check", "-p", path.join(REPO, "fixtures/cli/clean"), "-o", "report.json", "-f", "json"], directory);
      expect(run.status).toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(directory, "report.json"), "utf8"))).toEqual([]);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
