import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { firstText, PACKAGE_DIR } from "./helpers.js";

/*
 * The sessionful mode of serveHttp behind a real balancer: three instances of the everything-server
 * (fixtures/conformance) behind Debian's haproxy, with the recipe of docs/registry.md — round robin
 * for a session's first request, then sticky on Mcp-Session-Id (a stick table learns each id from
 * the answer that gives it). A session lives on one instance: every later request of it (the
 * client's answer to a sampling request, the GET stream that carries a resource update) must reach
 * that instance. haproxy names the instance that answered in a header of the test's own, which a
 * fetch of the clients' reads. A second frontend without stickiness shows what the recipe is for.
 */

const FIXTURE = join(PACKAGE_DIR, "..", "..", "fixtures", "conformance");
const INSTANCES = 3;

const children: ChildProcess[] = [];
let config: string;
let sticky: URL;
let roundRobin: URL;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startInstance(): Promise<number> {
  const child = spawn(process.execPath, ["src/everything-server.ts", "--http", "--sessions"], { cwd: FIXTURE, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  return Number(new URL(String(first.value)).port);
}

function haproxyBinary(): string {
  for (const candidate of ["haproxy", "/usr/sbin/haproxy"]) if (spawnSync(candidate, ["-v"]).status === 0) return candidate;
  throw new Error("haproxy is not installed: .ci/run installs Debian's haproxy; on a machine of your own, apt-get install haproxy");
}

beforeAll(async () => {
  const ports = await Promise.all(Array.from({ length: INSTANCES }, startInstance));
  const [stickyPort, roundRobinPort] = [await freePort(), await freePort()];
  const servers = ports.map((port, index) => `  server s${index} 127.0.0.1:${port}`).join("\n");
  config = mkdtempSync(join(tmpdir(), "sourced-haproxy-"));
  const file = join(config, "haproxy.cfg");
  // The recipe of docs/registry.md ("Sessions behind a balancer"), plus the test's x-served-by.
  writeFileSync(
    file,
    `global
  maxconn 512
defaults
  mode http
  timeout connect 5s
  timeout client 120s
  timeout server 120s
frontend sticky
  bind 127.0.0.1:${stickyPort}
  default_backend mcp
frontend round_robin
  bind 127.0.0.1:${roundRobinPort}
  default_backend plain
backend mcp
  balance roundrobin
  http-response set-header x-served-by %[srv_name]
  stick-table type string len 64 size 100k expire 30m
  stick on req.hdr(mcp-session-id)
  stick store-response res.hdr(mcp-session-id)
${servers}
backend plain
  balance roundrobin
  http-response set-header x-served-by %[srv_name]
${servers}
`,
  );
  const haproxy = spawn(haproxyBinary(), ["-db", "-f", file], { stdio: ["ignore", "inherit", "inherit"] });
  children.push(haproxy);
  const exit: { code?: number } = {};
  haproxy.once("exit", (code) => (exit.code = code ?? -1));
  sticky = new URL(`http://127.0.0.1:${stickyPort}/mcp`);
  roundRobin = new URL(`http://127.0.0.1:${roundRobinPort}/mcp`);
  // haproxy is ready once it accepts a connection.
  for (let attempt = 0; attempt < 100; attempt++) {
    if (exit.code !== undefined) throw new Error(`haproxy exited (${exit.code}) with the configuration:\n${readFileSync(file, "utf8")}`);
    const ok = await fetch(sticky, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
  rmSync(config, { recursive: true, force: true });
});

/** A fetch that notes which instance answered each request of each session. */
function recordingFetch(served: Map<string, Set<string>>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const session = response.headers.get("mcp-session-id") ?? new Headers(init?.headers).get("mcp-session-id");
    const by = response.headers.get("x-served-by");
    if (session !== null && by !== null) served.set(session, (served.get(session) ?? new Set()).add(by));
    return response;
  };
}

describe("sessions behind haproxy, sticky on Mcp-Session-Id", () => {
  test("six sessions (v1 and v2 Clients): each stays on one instance, the three instances share them; sampling and resource updates work in each", async () => {
    const served = new Map<string, Set<string>>();
    const clients = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const updated: string[] = [];
        if (index % 2 === 0) {
          const client = new LegacyClient({ name: "scale-out", version: "1.0.0" }, { capabilities: { sampling: {} } });
          client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: "assistant", content: { type: "text", text: `answer ${index}` }, model: "m" }));
          client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => void updated.push(params.uri));
          await client.connect(new LegacyStreamableHTTPClientTransport(sticky, { fetch: recordingFetch(served) }));
          return { client: client as unknown as Client, updated, index };
        }
        const client = new Client({ name: "scale-out", version: "1.0.0" }, { capabilities: { sampling: {} }, versionNegotiation: { mode: "legacy" } });
        client.setRequestHandler("sampling/createMessage", () => ({ role: "assistant", content: { type: "text", text: `answer ${index}` }, model: "m" }));
        client.setNotificationHandler("notifications/resources/updated", ({ params }) => void updated.push(params.uri));
        await client.connect(new StreamableHTTPClientTransport(sticky, { fetch: recordingFetch(served) }));
        return { client, updated, index };
      }),
    );
    try {
      for (const { client, updated, index } of clients) {
        expect(firstText(await client.callTool({ name: "test_sampling", arguments: { prompt: "hello" } }))).toBe(`LLM response: answer ${index}`);
        await client.subscribeResource({ uri: "test://watched-resource" });
        await client.callTool({ name: "test_update_watched_resource", arguments: { text: `from ${index}` } });
        const deadline = Date.now() + 2_000;
        while (updated.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(updated).toEqual(["test://watched-resource"]);
        await client.unsubscribeResource({ uri: "test://watched-resource" });
      }
    } finally {
      await Promise.all(clients.map(({ client }) => client.close()));
    }
    expect(served.size).toBe(6);
    for (const [session, instances] of served) expect([...instances], `session ${session}`).toHaveLength(1);
    expect(new Set([...served.values()].map((instances) => [...instances][0])).size).toBe(INSTANCES);
  });

  test("without stickiness a session's next request reaches another instance, which answers 404: the client is told the session is not there", async () => {
    const client = new LegacyClient({ name: "scale-out", version: "1.0.0" });
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    // The handshake's initialize reaches one instance, its `initialized` notification the next.
    const session = (async () => {
      await client.connect(new LegacyStreamableHTTPClientTransport(roundRobin, { fetch: counting }));
      await client.listTools();
    })();
    try {
      await expect(session).rejects.toThrow(/Session not found: it was closed, or another instance holds it \(route on Mcp-Session-Id\)/);
      expect(statuses).toEqual([200, 404]);
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
