import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StringDecoder } from "node:string_decoder";
import type { PreviewTarget } from "./args";

/** The MCP Apps extension and the one mime type a host renders (SEP-1865). */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/** One line the server wrote to stderr, numbered from 1 in the order written. */
export interface StderrLine {
  readonly id: number;
  readonly text: string;
}

/**
 * What a server started over stdio writes to stderr (its warnings, the tools it refused), line by
 * line: told to every listener as it comes, the last {@link ServerStderr.KEPT} lines kept for a
 * page that opens later and for error messages.
 */
export class ServerStderr {
  /** A chatty server must not grow the preview without bound. */
  static readonly KEPT = 500;
  private readonly kept: StderrLine[] = [];
  private readonly listeners = new Set<(line: StderrLine) => void>();
  private partial = "";
  private nextId = 1;

  /** Takes a chunk of output: every line it completes is kept and told. */
  write(chunk: string): void {
    const lines = (this.partial + chunk).split(/\r?\n/);
    this.partial = lines.pop() ?? "";
    for (const text of lines) this.add(text);
  }

  /** The output ended: an unterminated last line counts too. */
  end(): void {
    if (this.partial !== "") this.add(this.partial);
    this.partial = "";
  }

  /** Kept lines after `id` (0 for all). */
  since(id: number): StderrLine[] {
    return this.kept.filter((line) => line.id > id);
  }

  /** The last `count` kept lines, as text. */
  tail(count: number): string {
    return this.kept
      .slice(-count)
      .map((line) => line.text)
      .join("\n");
  }

  /** Calls `listener` for every line from now on; returns what stops it. */
  listen(listener: (line: StderrLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private add(text: string): void {
    const line = { id: this.nextId++, text };
    this.kept.push(line);
    if (this.kept.length > ServerStderr.KEPT) this.kept.splice(0, this.kept.length - ServerStderr.KEPT);
    for (const listener of this.listeners) listener(line);
  }
}

export interface Connection {
  readonly client: Client;
  /** How the server is reached, for the page: `stdio: node build/server.js` or the URL. */
  readonly description: string;
  /** Whether the preview started the server (stdio), and so reads its stderr. */
  readonly started: boolean;
  /** What the server writes to stderr: nothing for a server reached over HTTP. */
  readonly stderr: ServerStderr;
  close(): Promise<void>;
}

function quote(arg: string): string {
  return /^[\w./:=@+-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/**
 * Connects the SDK's Client as an MCP Apps host: it announces the extension, so a server that
 * offers a data view only to hosts that render one offers it here too. A server started over
 * stdio gets the environment it would get run on its own (`env`, the preview's, with the
 * target's `--env` variables over it), not the SDK's short default list; its stderr goes to
 * `stderr`, which the caller listens to from before the start.
 */
export async function connect(target: PreviewTarget, cwd: string, env: NodeJS.ProcessEnv, stderr: ServerStderr): Promise<Connection> {
  const client = new Client(
    { name: "sourced-preview", version: "1.0.0" },
    { capabilities: { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } },
  );
  if (target.kind === "http") {
    await client.connect(new StreamableHTTPClientTransport(target.url));
    return { client, description: target.url.href, started: false, stderr, close: () => client.close() };
  }
  const serverEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...env, ...target.env })) if (value !== undefined) serverEnv[key] = value;
  const transport = new StdioClientTransport({ command: target.command, args: [...target.args], cwd, env: serverEnv, stderr: "pipe" });
  // A character split between two chunks is decoded whole.
  const decoder = new StringDecoder("utf8");
  transport.stderr?.on("data", (chunk: Buffer) => stderr.write(decoder.write(chunk)));
  const ended = new Promise<void>((resolve) => transport.stderr?.once("close", resolve) ?? resolve());
  transport.stderr?.on("end", () => {
    stderr.write(decoder.end());
    stderr.end();
  });
  const command = [target.command, ...target.args].map(quote).join(" ");
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    // What the server wrote before it failed is the likeliest explanation: let it all be told first.
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    throw new Error(`cannot start '${command}' as an MCP server over stdio: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { client, description: `stdio: ${command}`, started: true, stderr, close: () => client.close() };
}
