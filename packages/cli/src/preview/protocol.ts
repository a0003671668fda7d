/*
 * What the preview page and its local server say to each other (JSON over 127.0.0.1). The page is
 * a browser bundle (preview-page/), so this file holds types only.
 */

/** A tool as `tools/list` gave it, with the UI resource its `_meta` names (MCP Apps), if any. */
export interface PreviewTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly uiResourceUri?: string;
}

/** The subset of JSON Schema the argument form reads. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly description?: string;
  readonly default?: unknown;
  readonly title?: string;
}

/** `GET /api/tools` */
export interface ToolsResponse {
  readonly server: { readonly name: string; readonly version: string };
  /** How the preview reaches the server: `stdio: node build/server.js` or the URL. */
  readonly target: string;
  /** Whether the preview started the server, and so shows its stderr (`GET /api/activity`). */
  readonly stderr: boolean;
  readonly tools: readonly PreviewTool[];
}

/** `POST /api/call` with `{ name, arguments }`. */
export interface CallRequest {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * `POST /api/read` with `{ uri }`: a resource the framed view asks the host to read
 * (`resources/read`, e.g. a source that is a resource's URI). The server's answer as it sent it, or
 * why there is none.
 */
export type ReadResponse = { readonly kind: "result"; readonly result: { readonly contents: readonly unknown[] } } | { readonly kind: "failed"; readonly error: string };

/** The data view to frame for a call: where the preview serves the resource's HTML, or why it cannot. */
export type ViewFrame = { readonly url: string; readonly resourceUri: string } | { readonly error: string };

export type CallResponse =
  | {
      readonly kind: "result";
      /** The tool result exactly as the server sent it. */
      readonly result: CallToolResultJson;
      readonly view: ViewFrame | undefined;
    }
  /** The call itself failed (unknown tool, arguments the schema refuses, server gone): a protocol error. */
  | { readonly kind: "failed"; readonly error: string };

export interface CallToolResultJson {
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}
