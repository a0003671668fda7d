import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { PreviewTarget } from "./args";

/** The MCP Apps extension and the one mime type a host renders (SEP-1865). */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

export interface Connection {
  readonly client: Client;
  /** How the server is reached, for the page: `stdio: node build/server.js` or the URL. */
  readonly description: string;
  /** What the server wrote to stderr (stdio only), kept for error messages. */
  readonly stderr: () => string;
  close(): Promise<void>;
}

function quote(arg: string): string {
  return /^[\w./:=@+-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/**
 * Connects the SDK's Client as an MCP Apps host: it announces the extension, so a server that
 * offers a data view only to hosts that render one offers it here too.
 */
export async function connect(target: PreviewTarget, cwd: string): Promise<Connection> {
  const client = new Client(
    { name: "sourced-preview", version: "1.0.0" },
    { capabilities: { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } },
  );
  if (target.kind === "http") {
    await client.connect(new StreamableHTTPClientTransport(target.url));
    return { client, description: target.url.href, stderr: () => "", close: () => client.close() };
  }
  const transport = new StdioClientTransport({ command: target.command, args: [...target.args], cwd, stderr: "pipe" });
  const log: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => {
    log.push(String(chunk));
    // A chatty server must not grow the preview without bound: keep the last lines.
    if (log.length > 200) log.splice(0, log.length - 200);
  });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    const output = log.join("").trim();
    throw new Error(
      `cannot start '${[target.command, ...target.args].map(quote).join(" ")}' as an MCP server over stdio: ${
        error instanceof Error ? error.message : String(error)
      }${output ? `\nIts stderr:\n${output}` : ""}`,
    );
  }
  return {
    client,
    description: `stdio: ${[target.command, ...target.args].map(quote).join(" ")}`,
    stderr: () => log.join(""),
    close: () => client.close(),
  };
}
