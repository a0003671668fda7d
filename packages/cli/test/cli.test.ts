import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, FIXTURES, FIXTURE_TSCONFIG, REPO, parseJson, scratch, sourced, syntaxErrorProject } from "./helpers";

const version = (JSON.parse(fs.readFileSync(path.join(REPO, "packages/cli/package.json"), "utf8")) as { version: string }).version;
const scratchDirectories: string[] = [];
afterAll(() => {
  for (const directory of scratchDirectories) fs.rmSync(directory, { recursive: true, force: true });
});

/** What the `findings` fixture must report, whatever the format. */
const FINDINGS = [
  { file: "fixtures/cli/findings/src/tools.ts", line: 11, id: "missing-annotation", tool: "population" },
  { file: "fixtures/cli/findings/src/weather.ts", line: 3, id: "not-data-tool-output", tool: "forecast" },
];

describe("sourced --help / --version", () => {
  it("prints the usage and exits 0", () => {
    const run = sourced(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("sourced check [-p <tsconfig.json | directory>]...");
    // Every command is listed, `build` with where its own help is.
    expect(run.stdout).toContain("sourced build [-p <tsconfig.json | directory>] [-- <tsc arguments>]");
    expect(run.stdout).toContain("(see 'sourced build --help')");
    expect(run.stdout).toContain("sourced preview -- <server command>");
    expect(run.stdout).toContain("Exit codes: 0 no findings, 1 findings, 2 usage or configuration error.");
    expect(sourced(["check", "--help"]).stdout).toBe(run.stdout);
  });

  it("prints the package version and exits 0", () => {
    const run = sourced(["--version"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });
});

describe("the launcher", () => {
  it("keeps its compiled code in Node's compile cache, as tsc does, unless NODE_DISABLE_COMPILE_CACHE is set", () => {
    // Node's default place is under the temporary directory (TMPDIR); NODE_COMPILE_CACHE would turn
    // the cache on without the launcher, so it is left out.
    const cached = (env: Record<string, string>): string[] => {
      const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-compile-cache-"));
      scratchDirectories.push(temporary);
      const { NODE_COMPILE_CACHE: _ignored, NODE_DISABLE_COMPILE_CACHE: _too, ...inherited } = process.env;
      const run = spawnSync(process.execPath, [BIN, "check", "-p", "fixtures/cli/clean/tsconfig.json"], { cwd: REPO, encoding: "utf8", env: { ...inherited, NODE_OPTIONS: "", TMPDIR: temporary, ...env } });
      expect(run.status, run.stderr).toBe(0);
      const cache = path.join(temporary, "node-compile-cache");
      return fs.existsSync(cache) ? fs.readdirSync(cache, { recursive: true }).map(String) : [];
    };
    expect(cached({}).length).toBeGreaterThan(0);
    expect(cached({ NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual([]);
  });
});

describe("text format", () => {
  it("exits 0 with a summary when every tool is compliant", () => {
    const run = sourced(["check", "-p", "fixtures/cli/clean/tsconfig.json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^No findings; checked 1 registration in 1 file of 1 project with TypeScript 6\.0\.3 \(classic\)\.\n$/);
  });

  it("prints tsc-style lines with SRC codes and exits 1 on findings", () => {
    const run = sourced(["check", "-p", "fixtures/cli/findings"]);
    expect(run.status).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(FINDINGS.length + 2);
    FINDINGS.forEach((finding, index) => {
      const code = finding.id === "missing-annotation" ? 92001 : 92002;
      expect(lines[index]).toMatch(new RegExp(`^${escape(finding.file)}\\(${finding.line},\\d+\\): error SRC${code}: .*'${finding.tool}'`));
    });
    expect(lines[FINDINGS.length]).toBe("");
    expect(lines.at(-1)).toBe("Found 2 findings in 2 files; checked 3 registrations in 3 files of 1 project with TypeScript 6.0.3 (classic).");
  });

  it("takes the directory it runs in by default, with paths relative to it", () => {
    const run = sourced(["check"], path.join(FIXTURES, "findings"));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^src\/tools\.ts\(11,\d+\): error SRC92001: /);
  });
});

describe("json format", () => {
  it("is an array of findings in stable order, 1-based, relative to the current directory", () => {
    const run = sourced(["check", "-p", "fixtures/cli/findings", "--format", "json"]);
    expect(run.status).toBe(1);
    const findings = parseJson(run);
    expect(findings.map(({ file, line, id, tool }) => ({ file, line, id, tool }))).toEqual(FINDINGS);
    for (const finding of findings) {
      expect(Object.keys(finding)).toEqual(["file", "line", "column", "endLine", "endColumn", "id", "severity", "tool", "message"]);
      expect(finding.severity).toBe("error");
      expect(finding.column).toBeGreaterThanOrEqual(1);
      expect(finding.endLine * 1e6 + finding.endColumn).toBeGreaterThan(finding.line * 1e6 + finding.column);
      expect(finding.message).toContain(`'${finding.tool}'`);
    }
    // Same run, same bytes: the order does not depend on the file system or the analysis's visiting order.
    expect(sourced(["check", "-p", "fixtures/cli/findings", "--format=json"]).stdout).toBe(run.stdout);
  });

  it("says which findings are warnings; warnings alone exit 0, in every format", () => {
    // strictNullChecks off, every tool compliant: the one program-wide warning.
    const json = sourced(["check", "-p", "fixtures/cli/loose", "--format", "json"]);
    expect(json.status).toBe(0);
    expect(parseJson(json).map(({ file, line, id, severity, tool }) => ({ file, line, id, severity, tool }))).toEqual([
      { file: "fixtures/cli/loose/src/tools.ts", line: 6, id: "strict-null-checks-off", severity: "warning", tool: null },
    ]);
    const text = sourced(["check", "-p", "fixtures/cli/loose"]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^fixtures\/cli\/loose\/src\/tools\.ts\(6,\d+\): warning SRC92009: strictNullChecks is off in this project/);
    const sarif = sourced(["check", "-p", "fixtures/cli/loose", "--format", "sarif"]);
    expect(sarif.status).toBe(0);
    const log = JSON.parse(sarif.stdout) as { runs: [{ results: { ruleId: string; level: string }[] }] };
    expect(log.runs[0].results.map(({ ruleId, level }) => [ruleId, level])).toEqual([["strict-null-checks-off", "warning"]]);
  });

  it("is an empty array with exit code 0 when there is nothing to report", () => {
    const run = sourced(["check", "-p", "fixtures/cli/clean", "--format", "json"]);
    expect(run.status).toBe(0);
    expect(parseJson(run)).toEqual([]);
  });
});

describe("--output", () => {
  it("writes the report to the file and a summary to standard output", () => {
    const directory = scratch({});
    scratchDirectories.push(directory);
    const target = path.join(directory, "reports", "sourced.json");
    const run = sourced(["check", "-p", "fixtures/cli/findings", "--format", "json", "--output", target]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(`Found 2 findings in 2 files; checked 3 registrations in 3 files of 1 project with TypeScript 6.0.3 (classic). Report (json) written to ${target}.\n`);
    const written = fs.readFileSync(target, "utf8");
    expect(written).toBe(sourced(["check", "-p", "fixtures/cli/findings", "--format", "json"]).stdout);
  });

  it("exits 2 when the file cannot be written", () => {
    const run = sourced(["check", "-p", "fixtures/cli/clean", "-o", "package.json/report.txt"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^sourced: error: cannot write the report to 'package\.json\/report\.txt': .*Pass '--output' a writable path\.\n$/);
  });
});

describe("several projects", () => {
  it("checks every -p and reports each file once", () => {
    const run = sourced(["check", "-p", "fixtures/cli/clean", "-p", "fixtures/cli/findings", "-p", "fixtures/cli/findings/tsconfig.json", "--format", "json"]);
    expect(run.status).toBe(1);
    expect(parseJson(run).map(({ file, line, id, tool }) => ({ file, line, id, tool }))).toEqual(FINDINGS);
    const text = sourced(["check", "-p", "fixtures/cli/clean", "-p", "fixtures/cli/findings"]);
    expect(text.stdout.trimEnd().split("\n").at(-1)).toBe("Found 2 findings in 2 files; checked 4 registrations in 4 files of 2 projects with TypeScript 6.0.3 (classic).");
  });

  it("follows the references of a solution-style tsconfig without checking a file twice", () => {
    const expected = [
      { file: "fixtures/cli/solution/server/src/main.ts", line: 4, id: "not-data-tool-output", tool: "weather" },
      { file: "fixtures/cli/solution/tools/src/cities.ts", line: 3, id: "missing-annotation", tool: "list_cities" },
    ];
    // The server project references the tools project and imports its registry: checking the
    // server alone still checks the tools first, and no file is reported twice.
    for (const args of [
      ["-p", "fixtures/cli/solution", "-p", "fixtures/cli/solution/server"],
      ["-p", "fixtures/cli/solution/server"],
    ]) {
      const run = sourced(["check", ...args, "--format", "json"]);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(1);
      expect(parseJson(run).map(({ file, line, id, tool }) => ({ file, line, id, tool }))).toEqual(expected);
    }
    // The solution itself has no files; its two references are the projects checked.
    expect(sourced(["check", "-p", "fixtures/cli/solution"]).stdout).toMatch(/; checked 2 registrations in 3 files of 2 projects with TypeScript 6\.0\.3 \(classic\)\.\n$/);
  });
});

describe("usage and configuration errors exit 2 with a clear message", () => {
  it("an unknown option, with a suggestion", () => {
    const run = sourced(["check", "--formt", "json"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("sourced: error: unknown option '--formt'. Did you mean '--format'? Run 'sourced --help' for the options.\n");
  });

  it("an unknown format, a missing value, a missing or unknown command, a file argument", () => {
    const cases: Array<[string[], RegExp]> = [
      [["check", "--format", "xml"], /unknown format 'xml'; use one of: text, json, sarif\./],
      [["check", "-p"], /option '-p' needs a value: '-p tsconfig\.json'\./],
      [["check", "-p", "--format", "json"], /option '-p' needs a value/],
      [[], /missing command: write 'sourced check'\./],
      [["lint"], /unknown command 'lint': the commands are 'check', 'build' and 'preview'\./],
      [["check", "src/tools.ts"], /unexpected argument 'src\/tools\.ts': sourced check takes no file arguments/],
    ];
    for (const [args, message] of cases) {
      const run = sourced(args);
      expect(run.status, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/^sourced: error: /);
      expect(run.stderr).toMatch(message);
    }
  });

  it("no tsconfig.json in the current directory", () => {
    const run = sourced(["check"], FIXTURES);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "sourced: error: cannot find tsconfig.json in the current directory. Run sourced check where your tsconfig.json is, or pass '-p <path/to/tsconfig.json>'.\n",
    );
  });

  it("a -p that does not exist, or a directory without tsconfig.json", () => {
    const missing = sourced(["check", "-p", "fixtures/cli/nowhere/tsconfig.json"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("cannot find 'fixtures/cli/nowhere/tsconfig.json' (from -p)");
    const directory = sourced(["check", "-p", "fixtures/cli"]);
    expect(directory.status).toBe(2);
    expect(directory.stderr).toContain("cannot find a tsconfig.json in the directory 'fixtures/cli'");
  });

  it("a tsconfig with a JSON syntax error, reported as tsc reports it", () => {
    const run = sourced(["check", "-p", "fixtures/cli/bad-json"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^fixtures\/cli\/bad-json\/tsconfig\.json\(5,3\): error TS1005: ',' expected\.\n/);
    expect(run.stderr).toMatch(/sourced: error: fixtures\/cli\/bad-json\/tsconfig\.json is not a valid TypeScript configuration; fix the errors above\.\n$/);
  });

  it("a tsconfig with an unknown compiler option", () => {
    const run = sourced(["check", "-p", "fixtures/cli/bad-option", "--format", "sarif"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^fixtures\/cli\/bad-option\/tsconfig\.json\(5,5\): error TS5023: Unknown compiler option 'strictTools'\.\n/);
  });

  it("a reference to a project that does not exist, located in the referencing tsconfig", () => {
    const directory = scratch({ "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./gone" }] }, null, 2) });
    scratchDirectories.push(directory);
    const run = sourced(["check"], directory);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^sourced: error: tsconfig\.json\(4,5\): the referenced project '.*gone[\\/]tsconfig\.json' does not exist\./);
  });

  it("an import of the registry that does not resolve: its registrations would pass unchecked", () => {
    const directory = scratch({
      "tsconfig.json": FIXTURE_TSCONFIG,
      "src/tools.ts": [
        `import { createRegistry } from "@sourced/registry";`,
        ``,
        `const registry = createRegistry({ name: "x", version: "1.0.0" });`,
        `export const f = registry.tool()(function f() { return 1; });`,
        ``,
      ].join("\n"),
    });
    scratchDirectories.push(directory);
    const run = sourced(["check", "--format", "json"], directory);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      "src/tools.ts(1,32): error: cannot resolve '@sourced/registry', so registrations made through it cannot be recognised and would pass unchecked. " +
        "Install the project's dependencies (e.g. 'npm install') before running sourced check.",
    );
    expect(Array.isArray(parseJson(run))).toBe(true);
  });
});

describe("source files with syntax errors", () => {
  it("are checked as far as they parse, and the syntax errors are reported on standard error", () => {
    const directory = syntaxErrorProject();
    scratchDirectories.push(directory);
    const run = sourced(["check"], directory);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^src\/broken\.ts\(9,10\): warning TS1005: ':' expected\.\n/);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^src\/broken\.ts\(4,\d+\): error SRC92001: .*'unannotated'/);
    expect(lines[1]).toMatch(/^src\/fine\.ts\(3,\d+\): error SRC92002: .*'wrong'/);
    expect(lines.at(-1)).toMatch(/; 1 file with syntax errors was checked as far as it parses\.$/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
