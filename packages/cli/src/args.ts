import { closestMatch } from "@sourced/analysis";
import { type Backend, BACKENDS } from "./backend";
import { UsageError } from "./errors";

export const FORMATS = ["text", "json", "sarif"] as const;
export type Format = (typeof FORMATS)[number];

export type Command =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | {
      readonly kind: "check";
      /** As given on the command line (files or directories), in order; empty for the default ./tsconfig.json. */
      readonly projects: readonly string[];
      readonly format: Format;
      readonly output: string | undefined;
      /** `--backend`: forced; `undefined` picks it from the project's TypeScript. */
      readonly backend: Backend | undefined;
    };

export const HELP = `sourced check: every MCP tool registration must declare that it returns DataToolOutput.

Usage:
  sourced check [-p <tsconfig.json | directory>]... [--format text|json|sarif] [--output <file>]
                [--backend classic|native]
  sourced preview -- <server command>   (or --url <url>; see 'sourced preview --help')

Options:
  -p, --project <path>   The tsconfig.json to check, or a directory that holds one
                         (default: ./tsconfig.json). Repeat to check several projects;
                         the references of solution-style tsconfigs are followed.
  -f, --format <format>  text: tsc-style lines and a summary (default)
                         json: an array of findings
                         sarif: SARIF 2.1.0, for GitHub code scanning
  -o, --output <file>    Write the report to <file> instead of standard output.
  --backend <backend>    classic: TypeScript 5.x/6.x's JavaScript API, in process
                         native: TypeScript 7's compiler, through its IPC API
                         (default: native when the project's tsc is TypeScript 7,
                         else classic)
  -h, --help             Show this help.
  -v, --version          Show the version.

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error.
`;

const OPTIONS_WITH_VALUE = new Map<string, "project" | "format" | "output" | "backend">([
  ["--backend", "backend"],
  ["-p", "project"],
  ["--project", "project"],
  ["-f", "format"],
  ["--format", "format"],
  ["-o", "output"],
  ["--output", "output"],
]);
const FLAGS = new Map<string, "help" | "version">([
  ["-h", "help"],
  ["--help", "help"],
  ["-v", "version"],
  ["--version", "version"],
]);
const KNOWN = [...OPTIONS_WITH_VALUE.keys(), ...FLAGS.keys()].filter((name) => name.startsWith("--"));

/** Parses `sourced <command> [options]`. Throws {@link UsageError} for anything it cannot read. */
export function parseArgs(argv: readonly string[]): Command {
  const projects: string[] = [];
  let format: Format | undefined;
  let output: string | undefined;
  let backend: Backend | undefined;
  let command: string | undefined;
  let flag: "help" | "version" | undefined;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") throw new UsageError(`'--' is not supported: sourced check takes no file arguments.`);
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = equals > 0 ? arg.slice(0, equals) : arg;

    const flagKind = FLAGS.get(name);
    if (flagKind !== undefined) {
      if (equals > 0) throw new UsageError(`option '${name}' takes no value; write '${name}'.`);
      flag ??= flagKind;
      continue;
    }
    const option = OPTIONS_WITH_VALUE.get(name);
    if (option !== undefined) {
      let value: string | undefined;
      if (equals > 0) value = arg.slice(equals + 1);
      else {
        value = argv[i + 1];
        if (value === undefined || (value.startsWith("-") && value !== "-")) {
          throw new UsageError(`option '${name}' needs a value: ${example(option)}.`);
        }
        i++;
      }
      if (value === "") throw new UsageError(`option '${name}' needs a value: ${example(option)}.`);
      if (option === "project") projects.push(value);
      else if (option === "format") {
        if (!(FORMATS as readonly string[]).includes(value)) {
          throw new UsageError(`unknown format '${value}'; use one of: ${FORMATS.join(", ")}.`);
        }
        if (format !== undefined && format !== value) throw new UsageError(`'--format' given twice ('${format}' and '${value}'); give it once.`);
        format = value as Format;
      } else if (option === "backend") {
        if (!(BACKENDS as readonly string[]).includes(value)) {
          throw new UsageError(`unknown backend '${value}'; use one of: ${BACKENDS.join(", ")}.`);
        }
        if (backend !== undefined && backend !== value) throw new UsageError(`'--backend' given twice ('${backend}' and '${value}'); give it once.`);
        backend = value as Backend;
      } else {
        if (output !== undefined && output !== value) throw new UsageError(`'--output' given twice ('${output}' and '${value}'); give it once.`);
        output = value;
      }
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      const suggestion = closest(name);
      throw new UsageError(`unknown option '${name}'.${suggestion ? ` Did you mean '${suggestion}'?` : ""} Run 'sourced --help' for the options.`);
    }
    if (command === undefined) {
      command = arg;
      continue;
    }
    throw new UsageError(
      `unexpected argument '${arg}': sourced check takes no file arguments, because a change in one file can break a tool registered in another. ` +
        `It checks whole projects: pass '-p <tsconfig.json>'.`,
    );
  }

  if (flag === "help" || command === "help") return { kind: "help" };
  if (flag === "version") return { kind: "version" };
  if (command === undefined) throw new UsageError(`missing command: write 'sourced check'. Run 'sourced --help' for the options.`);
  if (command !== "check") throw new UsageError(`unknown command '${command}': the commands are 'check' and 'preview'. Run 'sourced --help' for the options.`);
  return { kind: "check", projects, format: format ?? "text", output, backend };
}

function example(option: "project" | "format" | "output" | "backend"): string {
  switch (option) {
    case "backend":
      return `'--backend ${BACKENDS.join("|")}'`;
    case "project":
      return "'-p tsconfig.json'";
    case "format":
      return `'--format ${FORMATS.join("|")}'`;
    case "output":
      return "'--output report.sarif'";
  }
}

/** The known long option nearest to a mistyped one, when it is near enough to be a typo. */
function closest(name: string): string | undefined {
  const match = closestMatch(name.replace(/^-+/, ""), KNOWN.map((known) => known.slice(2)));
  return match === undefined ? undefined : `--${match}`;
}
