import { parseArgs as parseNodeArgs, type ParseArgsConfig } from "node:util";
import { closestMatch } from "@sourced/analysis";
import { type Backend, BACKENDS } from "@sourced/project";
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
  sourced build [-p <tsconfig.json | directory>] [-- <tsc arguments>]
                The project's own tsc (TypeScript 7, or 5/6 without ts-patch), then in its output
                rejected registrations stripped, verified ones stamped, as tspc does
                (see 'sourced build --help')
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

/** The options, in `node:util`'s `parseArgs` form; every option belongs to `check`. */
const OPTIONS = {
  project: { type: "string", short: "p", multiple: true },
  format: { type: "string", short: "f", multiple: true },
  output: { type: "string", short: "o", multiple: true },
  backend: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const satisfies ParseArgsConfig["options"];

type OptionName = keyof typeof OPTIONS;
type ValueOption = { [K in OptionName]: (typeof OPTIONS)[K]["type"] extends "string" ? K : never }[OptionName];

const COMMANDS = ["check"] as const;

/**
 * Parses `sourced <command> [options]` with `node:util`'s `parseArgs`, reading its tokens so each
 * mistake gets its own message (a typo gets the nearest option). Throws {@link UsageError} for
 * anything it cannot read.
 */
export function parseArgs(argv: readonly string[]): Command {
  const { tokens } = parseNodeArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const projects: string[] = [];
  let format: Format | undefined;
  let output: string | undefined;
  let backend: Backend | undefined;
  let command: string | undefined;
  let flag: "help" | "version" | undefined;

  for (const token of tokens) {
    if (token.kind === "option-terminator") throw new UsageError(`'--' is not supported: sourced check takes no file arguments.`);
    if (token.kind === "positional") {
      if (command === undefined) {
        command = token.value;
        continue;
      }
      throw new UsageError(
        `unexpected argument '${token.value}': sourced check takes no file arguments, because a change in one file can break a tool registered in another. ` +
          `It checks whole projects: pass '-p <tsconfig.json>'.`,
      );
    }
    const { rawName, value, inlineValue } = token;
    if (!isOption(token.name)) {
      const suggestion = closest(rawName);
      throw new UsageError(`unknown option '${rawName}'.${suggestion ? ` Did you mean '${suggestion}'?` : ""} Run 'sourced --help' for the options.`);
    }
    const option = token.name;
    if (option === "help" || option === "version") {
      if (value !== undefined) throw new UsageError(`option '${rawName}' takes no value; write '${rawName}'.`);
      flag ??= option;
      continue;
    }
    // `-p --format json`: parseArgs takes `--format` as the value; it is the next option instead.
    if (value === undefined || value === "" || (!inlineValue && value.startsWith("-") && value !== "-")) {
      throw new UsageError(`option '${rawName}' needs a value: ${example(option)}.`);
    }
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
  }

  if (flag === "help" || command === "help") return { kind: "help" };
  if (flag === "version") return { kind: "version" };
  if (command === undefined) throw new UsageError(`missing command: write 'sourced check'. Run 'sourced --help' for the options.`);
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`unknown command '${command}': the commands are 'check', 'build' and 'preview'. Run 'sourced --help' for the options.`);
  }
  return { kind: "check", projects, format: format ?? "text", output, backend };
}

function isOption(name: string): name is OptionName {
  return Object.hasOwn(OPTIONS, name);
}

function example(option: ValueOption): string {
  switch (option) {
    case "project":
      return "'-p tsconfig.json'";
    case "format":
      return `'--format ${FORMATS.join("|")}'`;
    case "output":
      return "'--output report.sarif'";
    case "backend":
      return `'--backend ${BACKENDS.join("|")}'`;
  }
}

/** The known long option nearest to a mistyped one, when it is near enough to be a typo. */
function closest(rawName: string): string | undefined {
  const match = closestMatch(rawName.replace(/^-+/, ""), Object.keys(OPTIONS));
  return match === undefined ? undefined : `--${match}`;
}
