import { PassThrough, type Readable, type Writable } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/server";
import { serveStdio as sdkServeStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { Logger } from "./logger.js";

export interface StdioServeOptions {
  /** Longest message line, in bytes: a longer one is discarded and answered with a JSON-RPC error. Default 4 MiB. */
  maxLineBytes?: number;
  /** Defaults to the process's stdin and stdout. */
  stdin?: Readable;
  stdout?: Writable;
}

export interface StdioServing {
  /** The SDK server serving this connection, once the client's first message has chosen its era. */
  readonly server: McpServer | undefined;
  /** Ends the connection; the process then exits once nothing else keeps it alive. */
  close(): Promise<void>;
  /** Settles when the connection ends: stdin closed, stdout closed, or `close()`. */
  readonly closed: Promise<void>;
}

const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

function errorLine(code: number, message: string, id: string | number | null = null): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
}

/**
 * Why a parsed line is no JSON-RPC message the transport can take — a batch (not part of MCP
 * since 2025-06-18), a bare value, another `jsonrpc`, neither a method nor a result or error — or
 * `undefined`. The SDK's transport would only log such a line, and leave its sender waiting.
 */
function notAMessage(value: unknown): string | undefined {
  if (Array.isArray(value)) return "JSON-RPC batches are not part of MCP since revision 2025-06-18; send one message per line";
  if (typeof value !== "object" || value === null) return "a message is a JSON object";
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return 'a message has "jsonrpc": "2.0"';
  if (typeof message.method !== "string" && !("result" in message) && !("error" in message)) {
    return 'a message has a "method" (a request or a notification), or a "result" or an "error" (a response)';
  }
  return undefined;
}

/** The id a malformed message can be answered by, when it has a usable one. */
function idOf(value: unknown): string | number | null {
  const id = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/**
 * Splits stdin into lines ahead of the SDK's transport, which ends the connection on a line over
 * its buffer size and answers nothing to a line that is not JSON. Here an oversize line is
 * discarded as it streams in (never buffered whole), and a line that is not JSON or no JSON-RPC
 * message dropped, each answered with a JSON-RPC error (by the message's id when it has one,
 * else `id: null`); every other line passes on.
 */
class LineGuard {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly forward: (line: Buffer) => void,
    private readonly reply: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (!this.discarding) {
        this.pendingBytes += piece.length;
        if (this.pendingBytes > this.maxLineBytes) {
          this.discarding = true;
          this.pending = [];
        } else {
          this.pending.push(piece);
        }
      }
      if (end === -1) return;
      this.endLine();
      start = end + 1;
    }
  }

  private endLine(): void {
    if (this.discarding) {
      this.reply(errorLine(-32600, `Invalid request: a message over ${this.maxLineBytes} bytes was discarded`));
    } else {
      const line = Buffer.concat(this.pending, this.pendingBytes);
      const text = line.toString("utf8").trim();
      if (text !== "") {
        let parsed = false;
        let value: unknown;
        try {
          value = JSON.parse(text);
          parsed = true;
        } catch {
          this.reply(errorLine(-32700, "Parse error: a message line is not JSON"));
        }
        const problem = parsed ? notAMessage(value) : undefined;
        if (problem !== undefined) this.reply(errorLine(-32600, `Invalid request: ${problem}`, idOf(value)));
        else if (parsed) this.forward(line);
      }
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = false;
  }
}

/**
 * The SDK's `serveStdio` (the client's opening message selects the era; one server per connection)
 * over a guarded stdin. A closed stdout ends the connection instead of crashing the process.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a failure while setting up is a rejected promise, as for serveHttp
export async function serveStdioLines(createServer: () => McpServer, logger: Logger, options: StdioServeOptions = {}): Promise<StdioServing> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const lines = new PassThrough();
  let server: McpServer | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const reply = (line: string): void => {
    if (!stdout.writableEnded && !stdout.destroyed) stdout.write(line);
  };
  const guard = new LineGuard(maxLineBytes, (line) => lines.write(Buffer.concat([line, Buffer.from("\n")])), reply);
  const onData = (chunk: Buffer | string): void => guard.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  const onEnd = (): void => void lines.end();
  stdin.on("data", onData);
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);

  // The transport's own limit only has to hold one guarded line.
  const transport = new StdioServerTransport(lines, stdout, { maxBufferSize: maxLineBytes + 1024 });
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.off("close", onEnd);
    // Nothing more will be read: let the process exit once stdin is its only handle.
    if ("pause" in stdin && typeof stdin.pause === "function") stdin.pause();
    if (stdin === process.stdin) process.stdin.unref?.();
    resolveClosed();
  };
  const handle = sdkServeStdio(
    () => {
      server = createServer();
      return server;
    },
    {
      transport,
      onerror: (error) => {
        // EPIPE: the client closed our stdout; the transport closes itself, nothing to report.
        if ((error as NodeJS.ErrnoException).code === "EPIPE") return;
        logger.warn(`stdio: ${error.message}`);
      },
    },
  );
  // stdin's end reaches the transport through `lines`, which then closes the connection.
  lines.once("end", end);
  lines.once("close", end);
  // A write to a closed stdout errors on the stream itself as well: never an uncaught EPIPE.
  stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") logger.warn(`stdio: stdout failed: ${error.message}`);
    void handle.close().finally(end);
  });
  return {
    get server() {
      return server;
    },
    close: async () => {
      await handle.close();
      end();
    },
    closed,
  };
}
