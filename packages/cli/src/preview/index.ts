import { UsageError } from "../errors";
import { parsePreviewArgs, PREVIEW_HELP } from "./args";
import { connect, ServerStderr } from "./connect";
import { startPreviewServer } from "./server";

export interface PreviewIo {
  readonly cwd: string;
  /** The environment a server started over stdio runs in (before `--env`). */
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * `sourced preview <argv>`: connects to the server, starts the page and prints its URL. Resolves
 * with the exit code once the preview has stopped (`stop` aborted, or the server went away); 2 for
 * a usage error or a server that cannot be reached.
 */
export async function preview(argv: readonly string[], io: PreviewIo, stop: AbortSignal): Promise<0 | 2> {
  let command;
  try {
    command = parsePreviewArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`sourced: error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (command.kind === "help") {
    io.stdout(PREVIEW_HELP);
    return 0;
  }
  // The server's stderr goes to the terminal as it comes, from its first line: a server that
  // refuses its tools at start-up says why before the preview prints anything.
  const stderr = new ServerStderr();
  stderr.listen((line) => io.stderr(`[server] ${line.text}\n`));
  let connection;
  try {
    connection = await connect(command.target, io.cwd, io.env, stderr);
  } catch (error) {
    io.stderr(`sourced: error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  let running;
  try {
    running = await startPreviewServer(connection, command.port);
  } catch (error) {
    await connection.close().catch(() => undefined);
    io.stderr(`sourced: error: cannot start the preview: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const { name, version } = connection.client.getServerVersion() ?? { name: "server", version: "" };
  io.stdout(`sourced preview of ${name} ${version} (${connection.description})\n  open ${running.url.href}\n  Ctrl+C stops it.\n`);
  await new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    stop.addEventListener("abort", () => resolve(), { once: true });
    connection.client.onclose = () => {
      io.stderr("sourced: the server closed the connection; the preview stops.\n");
      resolve();
    };
  });
  await running.close();
  await connection.close().catch(() => undefined);
  return 0;
}

/** The `sourced preview` process: stops on SIGINT/SIGTERM. */
export function runPreview(argv: readonly string[]): void {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  preview(argv, { cwd: process.cwd(), env: process.env, stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) }, controller.signal)
    .then(
      (code) => (process.exitCode = code),
      (error: unknown) => {
        process.stderr.write(`sourced: internal error, please report it:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exitCode = 2;
      },
    )
    .finally(() => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    });
}
