/** Where the registry reports refusals and failed results. `console` fits. */
export interface Logger {
  warn(message: string): void;
}

/**
 * The default logger writes to stderr — never stdout, which carries the JSON-RPC messages of the
 * stdio transport.
 */
export const stderrLogger: Logger = {
  warn(message) {
    process.stderr.write(`[sourced] warning: ${message}\n`);
  },
};
