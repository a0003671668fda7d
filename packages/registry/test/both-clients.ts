import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
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
