import { spawn } from "node:child_process";
import { createServer, request, Agent, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compileServers, firstText } from "./helpers.js";

/*
 * Running several instances: three server processes behind a round-robin balancer (a few lines
 * of node:http, written here). Protocol revision 2026-07-28 has no sessions and the 2025-era
 * clients are served statelessly, so any instance answers any request: the v2 and the v1 Client
 * work through the balancer as they do against one server.
 */

const INSTANCES = 3;
let upstreams: Array<{ port: number; stop(): Promise<void> }> = [];
let balancer: Server;
let balancerUrl: URL;
/** Requests each instance received through the balancer. */
const served = new Array<number>(INSTANCES).fill(0);

async function startInstance(outDir: string): Promise<{ port: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [`${outDir}/server.js`, "--http"], { stdio: ["ignore", "pipe", "inherit"] });
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  return {
    port: Number(new URL(String(first.value)).port),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Round robin: each request to the next instance, as it came (the Host header names the instance, as a proxy rewrites it). */
function roundRobin(): Server {
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  return createServer((req, res) => {
    const index = next++ % INSTANCES;
    served[index]!++;
    const { port } = upstreams[index]!;
    const upstream = request({ host: "127.0.0.1", port, method: req.method, path: req.url, agent, headers: { ...req.headers, host: `127.0.0.1:${port}` } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
}

beforeAll(async () => {
  const outDir = await compileServers("scale-out");
  upstreams = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(outDir)));
  balancer = roundRobin();
  await new Promise<void>((resolve) => balancer.listen(0, "127.0.0.1", resolve));
  balancerUrl = new URL(`http://127.0.0.1:${(balancer.address() as AddressInfo).port}/mcp`);
});
afterAll(async () => {
  await new Promise<void>((resolve) => balancer.close(() => resolve()));
  balancer.closeAllConnections();
  await Promise.all(upstreams.map((upstream) => upstream.stop()));
});

const CLIENTS = {
  "2026-07-28 (v2 Client)": async () => {
    const client = new Client({ name: "scale-out", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(balancerUrl));
    return {
      list: async () => (await client.listTools(undefined, { cacheMode: "refresh" })).tools,
      call: (name: string, args?: Record<string, unknown>) => client.callTool({ name, ...(args ? { arguments: args } : {}) }),
      close: () => client.close(),
    };
  },
  "2025 (v1 Client)": async () => {
    const client = new LegacyClient({ name: "scale-out", version: "1.0.0" });
    await client.connect(new LegacyStreamableHTTPClientTransport(balancerUrl));
    return {
      list: async () => (await client.listTools()).tools,
      call: (name: string, args?: Record<string, unknown>) => client.callTool({ name, ...(args ? { arguments: args } : {}) }),
      close: () => client.close(),
    };
  },
};

describe("three instances behind a round-robin balancer", () => {
  for (const [era, connect] of Object.entries(CLIENTS)) {
    test(`${era}: every request answered by whichever instance gets it; lists identical; every instance served`, async () => {
      const before = [...served];
      const client = await connect();
      try {
        const lists = [await client.list(), await client.list(), await client.list()];
        expect(lists[0]!.map((tool) => tool.name)).toContain("list_cities");
        expect(lists[1]).toEqual(lists[0]);
        expect(lists[2]).toEqual(lists[0]);
        const cities = ["Tokyo", "Delhi", "Shanghai"];
        for (let call = 0; call < 12; call++) {
          const city = cities[call % 3]!;
          expect(firstText(await client.call("population", { city }))).toMatch(new RegExp(`^${city} has \\d+ inhabitants\\.$`));
        }
        const refused = await client.call("javascript_source");
        expect(refused["isError"]).toBe(true);
        expect(firstText(refused)).toContain('Tool "javascript_source" returned a result that breaks the DataToolOutput contract');
      } finally {
        await client.close();
      }
      for (const [index, count] of served.entries()) expect(count - before[index]!, `instance ${index}`).toBeGreaterThan(3);
    });
  }
});
