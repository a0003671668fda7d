import { parseArgs } from "node:util";
import { UsageError } from "../errors";

export type PreviewTarget =
  /** `env`: the variables `--env` sets, over the preview's own environment. */
  | { readonly kind: "stdio"; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> }
  | { readonly kind: "http"; readonly url: URL };

export type PreviewCommand = { readonly kind: "help" } | { readonly kind: "preview"; readonly target: PreviewTarget; readonly port: number };

export const PREVIEW_HELP = `sourced preview: see a server's tools as an MCP Apps host shows them.

Usage:
  sourced preview [--port <port>] [--env KEY=VALUE]... -- <command> [args...]   start the server over stdio
  sourced preview [--port <port>] --url <http://host:port/mcp>   connect over Streamable HTTP

Starts a local page on 127.0.0.1 that lists the server's tools, calls one with the arguments of a
form generated from its input schema, and shows side by side what the LLM reads (content), what
the user sees (the tool's data view, driven as a host drives it) and the raw JSON.

A server started over stdio runs in this shell's environment, as it would run on its own, and
what it writes to stderr (warnings, refused tools) is shown here and in the page's activity.

Options:
  --url <url>       The server's Streamable HTTP endpoint.
  --env KEY=VALUE   Set a variable for the server started over stdio (repeatable; wins over
                    this shell's).
  --port <port>     The page's port on 127.0.0.1 (default: any free port; the URL is printed).
  -h, --help        Show this help.

Examples:
  sourced preview -- node build/server.js
  sourced preview --env NODE_ENV=production -- node build/server.js
`;

/** A script a user may have meant to run with node, given without it: `server.js`, `build/server.mjs`. */
const NODE_SCRIPT = /\.(c|m)?(j|t)s$/;

/** The command the user meant, after '--': `node server.js` stays so, a bare `server.js` gets `node`. */
function suggestedCommand(words: readonly string[]): string {
  return [...(NODE_SCRIPT.test(words[0] ?? "") ? ["node"] : []), ...words].join(" ");
}

/** `--env KEY=VALUE` values, in order (a later one wins). */
function parseEnv(entries: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf("=");
    if (equals <= 0) throw new UsageError(`'--env ${entry}' is not KEY=VALUE: write e.g. '--env ${equals === 0 ? "NAME" : entry}=value'.`);
    env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return env;
}

/** Parses the arguments after `sourced preview`. Throws {@link UsageError} for anything it cannot read. */
export function parsePreviewArgs(argv: readonly string[]): PreviewCommand {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? argv : argv.slice(0, separator);
  const command = separator === -1 ? [] : argv.slice(separator + 1);
  let values: { url?: string; port?: string; env?: string[]; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...own],
      options: { url: { type: "string" }, port: { type: "string" }, env: { type: "string", multiple: true }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}. Run 'sourced preview --help' for the options.`);
  }
  if (values.help) return { kind: "help" };
  if (positionals.length > 0) {
    throw new UsageError(
      `unexpected argument '${positionals[0]}': put the server's command after '--', e.g. 'sourced preview -- ${suggestedCommand(positionals)}'.`,
    );
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`'--port ${values.port}' is not a port: give a number from 0 to 65535.`);
  if (values.url !== undefined && command.length > 0) {
    throw new UsageError(`give either '--url ${values.url}' or a command after '--', not both.`);
  }
  const env = parseEnv(values.env ?? []);
  if (values.url !== undefined && values.env !== undefined) {
    throw new UsageError(`'--env' sets variables for a server the preview starts: a server at '--url ${values.url}' runs in its own environment.`);
  }
  if (values.url !== undefined) {
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      throw new UsageError(`'--url ${values.url}' is not a URL: write the endpoint in full, e.g. '--url http://127.0.0.1:3000/mcp'.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UsageError(`'--url ${values.url}' must be an http: or https: URL, e.g. 'http://127.0.0.1:3000/mcp'.`);
    }
    return { kind: "preview", target: { kind: "http", url }, port };
  }
  const [executable, ...args] = command;
  if (executable === undefined || executable === "") {
    throw new UsageError(`missing server: write 'sourced preview -- node build/server.js' (stdio) or 'sourced preview --url http://127.0.0.1:3000/mcp'.`);
  }
  return { kind: "preview", target: { kind: "stdio", command: executable, args, env }, port };
}
