// The registry as a host meets it around the results: a tool that prints, tools that ask the
// client for sampling or elicitation, one that never settles, one with a large answer.
// Over stdio by default; `--http` serves Streamable HTTP and prints the URL. A call timeout comes
// from SOURCED_CALL_TIMEOUT_MS. Once the stdio connection has ended, the process prints
// "console restored" with console.log: it must reach stdout again.
import { createRegistry, type DataToolOutput, type ToolCallExtra } from "@sourced/registry";
import { z } from "zod";

const sources = ["https://example.org/protocol"];
const answer = (text: string): DataToolOutput => ({ content: [{ type: "text", text }], structuredContent: { sources } });
const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const callTimeoutMs = process.env["SOURCED_CALL_TIMEOUT_MS"];
export const registry = createRegistry({
  name: "protocol-test",
  version: "1.0.0",
  ...(callTimeoutMs === undefined ? {} : { callTimeoutMs: Number(callTimeoutMs) }),
});

registry.tool({ description: "Return the top city by population." })(function list_cities(): DataToolOutput {
  return answer("The most populated city is Tokyo (37,400,068).");
});

registry.tool({ description: "Prints to the console and to stdout while it works." })(function chatty(): DataToolOutput {
  console.log("console.log from a tool");
  console.info("console.info from a tool");
  console.debug("console.debug from a tool");
  console.table([{ city: "Tokyo" }]);
  process.stdout.write("a stray process.stdout.write\n");
  return answer("chatty answered");
});

registry.tool({ description: "Asks the client's model (sampling)." })(async function ask_model(_args: unknown, extra: ToolCallExtra): Promise<DataToolOutput> {
  try {
    const sampled = await extra.mcpReq.requestSampling({ messages: [{ role: "user", content: { type: "text", text: "Which city is largest?" } }], maxTokens: 10 });
    return answer(`sampled: ${JSON.stringify(sampled.content)}`);
  } catch (error) {
    return answer(`sampling refused: ${failure(error)}`);
  }
});

registry.tool({ description: "Asks the user (elicitation), through the raw request API." })(async function ask_user(_args: unknown, extra: ToolCallExtra): Promise<DataToolOutput> {
  try {
    const elicited = await extra.mcpReq.send({ method: "elicitation/create", params: { mode: "form", message: "Which city?", requestedSchema: { type: "object", properties: {} } } });
    return answer(`elicited: ${JSON.stringify(elicited)}`);
  } catch (error) {
    return answer(`elicitation refused: ${failure(error)}`);
  }
});

registry.tool({ description: "Never answers; says on stderr when its signal aborts." })(function hang(_args: unknown, extra: ToolCallExtra): Promise<DataToolOutput> {
  extra.mcpReq.signal.addEventListener("abort", () => process.stderr.write(`hang: signal aborted (${String((extra.mcpReq.signal.reason as Error | undefined)?.name)})\n`));
  return new Promise(() => {});
});

registry.tool({ description: "An answer of `megabytes` MB of text.", input: { megabytes: z.number().int().min(1).max(40) } })(function big({
  megabytes,
}: {
  megabytes: number;
}): DataToolOutput {
  return answer("x".repeat(megabytes * 1024 * 1024));
});

async function main(): Promise<void> {
  if (process.argv.includes("--http")) {
    const serving = await registry.serveHttp();
    process.stdout.write(`${serving.url.href}\n`);
    process.once("SIGTERM", () => void serving.close().then(() => process.exit(0)));
  } else {
    const serving = await registry.serveStdio();
    await serving.closed;
    console.log("console restored");
  }
}

void main();
