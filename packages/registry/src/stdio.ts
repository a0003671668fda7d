import { PassThrough, Writable, type Readable } from "node:stream";
import { parseJSONRPCMessage, type McpServer } from "@modelcontextprotocol/server";
import { serveStdio as sdkServeStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { Logger } from "./logger.js";
import type { ServingContext } from "./server.js";
import { SerialisedLists } from "./tools-list.js";

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

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
const isRequestId = (value: unknown): boolean => typeof value === "string" || Number.isInteger(value);
const jsonType = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : typeof value === "number" ? String(value) : `a ${typeof value}`;

/** The id a malformed message can be answered by: its own when MCP accepts it as an id, else `null`. */
function idOf(value: unknown): string | number | null {
  const id = isObject(value) ? value["id"] : undefined;
  return isRequestId(id) ? (id as string | number) : null;
}

/** The first issue of a failed parse, down the closest branch of each union: `"params._meta.progressToken": Invalid input: …`. */
function firstIssue(error: unknown): string | undefined {
  type Issue = { code?: string; path?: PropertyKey[]; message?: string; errors?: Issue[][] };
  let issues = (error as { issues?: Issue[] } | undefined)?.issues;
  let path: PropertyKey[] = [];
  while (issues !== undefined && issues.length > 0) {
    const [issue] = issues as [Issue];
    path = [...path, ...(issue.path ?? [])];
    if (issue.code !== "invalid_union" || !issue.errors?.length) return `"${path.map(String).join(".")}": ${issue.message ?? "invalid"}`;
    issues = issue.errors.reduce((closest, branch) => (branch.length < closest.length ? branch : closest));
  }
  return undefined;
}

/**
 * Why MCP does not accept a message that has the JSON-RPC shape — judged by the SDK's own message
 * schema, which its transport applies after this guard (and drops what fails, unanswered) — or
 * `undefined`.
 */
function schemaProblem(message: JsonObject): string | undefined {
  try {
    parseJSONRPCMessage(message);
    return undefined;
  } catch (error) {
    if ("id" in message && !isRequestId(message["id"])) return `"id" must be a string or an integer, not ${jsonType(message["id"])}`;
    if ("params" in message && !isObject(message["params"])) return `"params" must be an object, not ${jsonType(message["params"])}`;
    const meta = isObject(message["params"]) ? message["params"]["_meta"] : undefined;
    if (meta !== undefined && !isObject(meta)) return `"params._meta" must be an object, not ${jsonType(meta)}`;
    const members = typeof message["method"] === "string" ? ["jsonrpc", "id", "method", "params"] : ["jsonrpc", "id", "result", "error"];
    const unknown = Object.keys(message).find((key) => !members.includes(key));
    if (unknown !== undefined) return `unknown member ${JSON.stringify(unknown.slice(0, 60))}; a message has only ${members.map((key) => `"${key}"`).join(", ")}`;
    return firstIssue(error) ?? "it does not match the MCP message schema";
  }
}

/**
 * Splits stdin into lines ahead of the SDK's transport, which ends the connection on a line over
 * its buffer size and answers nothing to a line that is not JSON, or to a request its message
 * schema refuses (params that are no object, an id of the wrong type, an extra member…). Here an
 * oversize line is discarded as it streams in (never buffered whole); a line that is not JSON, no
 * JSON-RPC message, or a request MCP does not accept is answered with a JSON-RPC error (by the
 * request's id when it has a valid one, else `id: null`), as Streamable HTTP answers it. A
 * notification or a response MCP does not accept is dropped with a warning: JSON-RPC answers
 * neither. White space around the JSON (a BOM, a no-break space) is not part of the message:
 * what passes on is the message's own text.
 */
class LineGuard {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly forward: (message: string) => void,
    private readonly reply: (line: string) => void,
    private readonly drop: (problem: string) => void,
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
      // trim(): JavaScript's white space, the BOM included; JSON's own is a subset of it.
      const text = Buffer.concat(this.pending, this.pendingBytes).toString("utf8").trim();
      if (text !== "") this.check(text);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = false;
  }

  private check(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(errorLine(-32700, "Parse error: a message line is not JSON"));
      return;
    }
    const notMessage = notAMessage(value);
    if (notMessage !== undefined) {
      this.reply(errorLine(-32600, `Invalid request: ${notMessage}`, idOf(value)));
      return;
    }
    const message = value as JsonObject;
    const problem = schemaProblem(message);
    if (problem === undefined) this.forward(text);
    else if (typeof message["method"] === "string" && "id" in message) this.reply(errorLine(-32600, `Invalid request: ${problem}`, idOf(message)));
    else this.drop(`a ${typeof message["method"] === "string" ? "notification" : "response"} MCP does not accept was dropped: ${problem}`);
  }
}

/**
 * `process.stdout.write` while connections are served on the process's own stdout: it writes to
 * stderr, so that what a tool prints (`console.log`, `console.info`, `console.debug`,
 * `console.table`, a stray `process.stdout.write`) never corrupts the protocol. The transports
 * write through `protocolWrite`, the `write` stdout had before. Undone when the last such
 * connection ends.
 */
let stdoutRouting: { readonly protocolWrite: Writable["write"]; readonly routed: Writable["write"]; readonly hadOwnWrite: boolean; connections: number } | undefined;

function routeStdoutToStderr(): { protocolWrite: Writable["write"]; release(): void } {
  if (stdoutRouting === undefined) {
    const stdout = process.stdout;
    const routed = function write(...args: unknown[]): boolean {
      return (process.stderr.write as (...args: unknown[]) => boolean).apply(process.stderr, args);
    } as Writable["write"];
    // Kept unbound: called on stdout (ProtocolOutput), and put back as it was.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    stdoutRouting = { protocolWrite: stdout.write, routed, hadOwnWrite: Object.hasOwn(stdout, "write"), connections: 0 };
    stdout.write = routed;
  }
  const routing = stdoutRouting;
  routing.connections++;
  let released = false;
  return {
    protocolWrite: routing.protocolWrite,
    release() {
      if (released) return;
      released = true;
      if (--routing.connections > 0) return;
      stdoutRouting = undefined;
      // Someone who replaced it since keeps theirs.
      if (process.stdout.write !== routing.routed) return;
      if (routing.hadOwnWrite) process.stdout.write = routing.protocolWrite;
      else delete (process.stdout as { write?: unknown }).write;
    },
  };
}

/**
 * What the transport writes to: the real stdout, through the `write` given (stdout's own while
 * console output is routed away from it). A `tools/list` answer gets its serialised tools here,
 * in place of the table's placeholder (tools-list.ts): the list is serialised once, not
 * per request.
 */
class ProtocolOutput extends Writable {
  constructor(
    private readonly target: Writable,
    private readonly targetWrite: Writable["write"],
    private readonly lists: SerialisedLists,
  ) {
    super({ decodeStrings: false });
  }

  override _write(chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const write = this.targetWrite as (chunk: unknown, encoding: BufferEncoding, callback?: (error?: Error | null) => void) => boolean;
    const chunks = typeof chunk === "string" ? this.lists.splice(chunk) : undefined;
    if (chunks === undefined) {
      write.call(this.target, chunk, encoding, callback);
      return;
    }
    // In order; done when the last is.
    chunks.forEach((piece, index) => write.call(this.target, piece, encoding, index === chunks.length - 1 ? callback : undefined));
  }
}

/**
 * The SDK's `serveStdio` (the client's opening message selects the era; one server per connection)
 * over a guarded stdin and a stdout that carries the protocol only. A closed stdout ends the
 * connection instead of crashing the process.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a failure while setting up is a rejected promise, as for serveHttp
export async function serveStdioLines(createServer: (serving: ServingContext) => McpServer, logger: Logger, options: StdioServeOptions = {}): Promise<StdioServing> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const routing = stdout === process.stdout ? routeStdoutToStderr() : undefined;
  const lists = new SerialisedLists();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- ProtocolOutput calls it on stdout
  const output = new ProtocolOutput(stdout, routing?.protocolWrite ?? stdout.write, lists);
  const lines = new PassThrough();
  let server: McpServer | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const reply = (line: string): void => {
    if (!output.writableEnded && !output.destroyed) output.write(line);
  };
  const guard = new LineGuard(maxLineBytes, (message) => lines.write(`${message}\n`), reply, (problem) => logger.warn(`stdio: ${problem}`));
  const onData = (chunk: Buffer | string): void => guard.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  const onEnd = (): void => void lines.end();
  stdin.on("data", onData);
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);

  // The transport's own limit only has to hold one guarded line.
  const transport = new StdioServerTransport(lines, output, { maxBufferSize: maxLineBytes + 1024 });
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
    routing?.release();
    resolveClosed();
  };
  const handle = sdkServeStdio(
    ({ era }) => {
      // The connection's server stays with its client: it is told of resource updates and list changes.
      server = createServer({ lists, stays: true, era });
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
