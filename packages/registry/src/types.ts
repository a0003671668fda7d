import type { ToolAnnotations } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { RegistersTool } from "./brand.js";

/**
 * Any function; `tool()` is typed loosely on purpose: the analysis, not an overload, judges.
 * A tool is called as `fn(args, extra)`: `args` is the input parsed by `ToolOptions.input` (`{}`
 * when the tool has none), `extra` the SDK's request context (`signal`, `sessionId`, …). A static
 * method is called with `this` = its class.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolFunction = (...args: any[]) => unknown;

/** Options of `registry.tool(options?)`. */
export interface ToolOptions {
  /** The tool's name; defaults to the function's (or method's) name. Required for an anonymous function. */
  name?: string;
  /** A human-readable title for clients' UIs. */
  title?: string;
  /** What the tool does, for the LLM (JSDoc is erased at run time: say it here). */
  description?: string;
  /** The input: a zod raw shape or a zod object, as the MCP SDK takes it; published as `inputSchema`. */
  input?: z.ZodRawShape | z.ZodObject;
  annotations?: ToolAnnotations;
  /** Declare the registry's data view (MCP Apps) on this tool; `false` serves it to hosts as text only. Default `true`. */
  ui?: boolean;
  /**
   * This tool's call deadline, in ms (`Infinity` for none); defaults to the registry's
   * `callTimeoutMs`. A call still running then is answered with an error result and its signal
   * (`extra.mcpReq.signal`) aborted.
   */
  timeoutMs?: number;
}

/**
 * What `registry.tool(options?)` returns: applied to a function (call form) or to a static method
 * (TC39 decorator), it registers it and gives the very same function back.
 */
export type ToolDecorator = RegistersTool<{
  <F extends ToolFunction>(fn: F): F;
  <F extends ToolFunction>(method: F, context: ClassMethodDecoratorContext): F;
}>;
