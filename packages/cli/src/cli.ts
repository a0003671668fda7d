import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { HELP, parseArgs } from "./args";
import { runBuild } from "./build";
import { check } from "./check";
import { ConfigError } from "@sourced/project";
import { UsageError } from "./errors";
import { formatJson } from "./formats/json";
import { formatSarif } from "./formats/sarif";
import { formatNotices, formatText, summary } from "./formats/text";
import { packageInfo } from "./package-info";
import type * as Preview from "./preview";

export interface Io {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * `sourced <argv>`: returns the exit code. 0 no findings, 1 findings, 2 usage or configuration
 * error. Never throws: anything unexpected is reported on standard error with exit code 2.
 */
export function main(argv: readonly string[], io: Io): 0 | 1 | 2 {
  try {
    if (argv[0] === "build") return runBuild(argv.slice(1), io);
    const command = parseArgs(argv);
    if (command.kind === "help") {
      io.stdout(HELP);
      return 0;
    }
    if (command.kind === "version") {
      io.stdout(`${packageInfo().version}\n`);
      return 0;
    }

    const report = check({ projects: command.projects, cwd: io.cwd, ...(command.backend !== undefined ? { backend: command.backend } : {}) });
    if (report.notices.length > 0) io.stderr(formatNotices(report.notices));
    const { version, homepage } = packageInfo();
    const output =
      command.format === "json"
        ? formatJson(report)
        : command.format === "sarif"
          ? formatSarif(report, { name: "sourced", version, informationUri: homepage }, io.cwd)
          : formatText(report);
    if (command.output === undefined) io.stdout(output);
    else {
      const target = path.resolve(io.cwd, command.output);
      try {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, output);
      } catch (error) {
        throw new UsageError(`cannot write the report to '${command.output}': ${error instanceof Error ? error.message : String(error)}. Pass '--output' a writable path.`);
      }
      io.stdout(`${summary(report)} Report (${command.format}) written to ${command.output}.\n`);
    }
    return report.exitCode;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`${error.diagnostics}sourced: error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof UsageError) {
      io.stderr(`sourced: error: ${error.message}\n`);
      return 2;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`sourced: internal error, please report it:\n${detail}\n`);
    return 2;
  }
}

/** The `sourced` binary: real process streams and exit code. */
export function run(): void {
  // `preview` keeps running (it serves a page): it has its own arguments and exit.
  // Loaded only for `preview`: its MCP client and zod cost `check` ~0.3 s of start-up otherwise.
  if (process.argv[2] === "preview") return (createRequire(__filename)("./preview") as typeof Preview).runPreview(process.argv.slice(3));
  process.exitCode = main(process.argv.slice(2), {
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
