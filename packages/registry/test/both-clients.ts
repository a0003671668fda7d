import { Client, InMemoryTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { McpServer } from "@modelcontextprotocol/server";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Registry } from "../dist/index.js";
import { connectInMemory } from "./helpers.js";

/*
 * One check, run by the v2 Client and the legacy v1 Client (which validates every result against
 * the tool's published outputSchema) on a fresh registry each: over createServer() in memory, or
 * over serveHttp() (the v2 Client pinned to 2026-07-28).
 */

/** What a check may ask of either Client. */
export type AnyClient = Pick<Client, "callTool" | "listTools" | "listResources" | "readResource" | "listPrompts" | "getPrompt" | "getServerCapabilities" | "close">;

export async function checkInMemory(build: () => Registry, check: (client: AnyClient) => Promise<void>): Promise<void> {
  const { client, close } = await connectInMemory(build());
  await check(client);
  await close();

  const legacyServer = build().createServer();
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await legacyServer.connect(serverTransport);
  const legacy = new LegacyClient({ name: "both-clients", version: "1.0.0" });
  await legacy.connect(clientTransport);
  await check(legacy as unknown as AnyClient);
  await legacy.close();
  await legacyServer.close();
}

export async function checkOverHttp(build: () => Registry, check: (client: AnyClient) => Promise<void>): Promise<void> {
  const serving = await build().serveHttp();
  try {
    const client = new Client({ name: "both-clients", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(serving.url));
    await check(client);
    await client.close();
    const legacy = new LegacyClient({ name: "both-clients", version: "1.0.0" });
    await legacy.connect(new LegacyStreamableHTTPClientTransport(serving.url));
    await check(legacy as unknown as AnyClient);
    await legacy.close();
  } finally {
    await serving.close();
  }
}

/**
 * What `ask` answers through the v2 and then the v1 Client, each on a fresh server of `server`
 * (a plain SDK McpServer, or a registry's createServer(), to compare them), in memory.
 */
export async function answersInMemory<T>(server: () => McpServer, ask: (client: Client) => Promise<T>): Promise<T[]> {
  const seen: T[] = [];
  const modern = server();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await modern.connect(serverSide);
  const client = new Client({ name: "both-clients", version: "1.0.0" });
  await client.connect(clientSide);
  seen.push(await ask(client));
  await client.close();
  await modern.close();
  const legacyServer = server();
  const [legacySide, legacyServerSide] = LegacyInMemoryTransport.createLinkedPair();
  await legacyServer.connect(legacyServerSide);
  const legacy = new LegacyClient({ name: "both-clients", version: "1.0.0" });
  await legacy.connect(legacySide);
  seen.push(await ask(legacy as unknown as Client));
  await legacy.close();
  await legacyServer.close();
  return seen;
}

/** The same over the registry's Streamable HTTP (the v2 Client pinned to 2026-07-28). */
export async function answersOverHttp<T>(registry: Registry, ask: (client: Client) => Promise<T>): Promise<T[]> {
  const seen: T[] = [];
  await checkOverHttp(
    () => registry,
    async (client) => {
      seen.push(await ask(client as unknown as Client));
    },
  );
  return seen;
}

/**
 * The message each request of `names` failed with, by name, as both Clients give it: the v1 Client
 * prefixes the server's message with its code (`MCP error -32603: `), which is taken off. A request
 * that succeeds reads "answered", so it fails the comparison with the refusal expected.
 */
export async function refusalsOf(names: readonly string[], ask: (name: string) => Promise<unknown>): Promise<Record<string, string>> {
  const received: Record<string, string> = {};
  for (const name of names) {
    const error = await ask(name).then(
      () => new Error("answered"),
      (thrown: unknown) => thrown as Error,
    );
    received[name] = error.message.replace(/^MCP error -?\d+: /u, "");
  }
  return received;
}
