import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client, ResourceNotFoundError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compileExamples, consumerProjects, docExamples, firstText, PACKAGE_DIR, type DocExample } from "./helpers.js";

/*
 * docs/server-features.md, run: its complete examples compiled by the repository's tsc in one fresh
 * ES module project outside the workspace, started with node, and used by the v1 and the v2 SDK
 * Client for what each example shows — completion, templates (a read's ResourceNotFoundError) and
 * logging; pushed sampling and resource updates in sessions; `throw inputRequired(…)` on both eras.
 * Each imports from @sourced/registry and zod alone, and its start-up check has nothing to say.
 */

const DOC = join(PACKAGE_DIR, "..", "..", "docs", "server-features.md");
const all = docExamples(DOC);
const { project, removeAll } = consumerProjects("features");
let dir: string;
const children: ChildProcess[] = [];

const example = (marker: string): DocExample => {
  const found = all.filter((candidate) => candidate.code.includes(marker));
  expect(found, marker).toHaveLength(1);
  return found[0]!;
};
const fileOf = (shown: DocExample) => join(dir, "out", `line-${shown.line}.js`);
const stdio = (shown: DocExample) => ({ command: process.execPath, args: [fileOf(shown)], cwd: dir, stderr: "pipe" as const });

beforeAll(async () => {
  dir = project("module");
  mkdirSync(join(dir, "src"));
  for (const shown of all) writeFileSync(join(dir, "src", `line-${shown.line}.ts`), shown.code);
  await compileExamples(dir);
}, 120_000);
afterAll(() => {
  for (const child of children) child.kill();
  removeAll();
});

describe("docs/server-features.md examples", () => {
  test("three complete examples, each importing from @sourced/registry and zod alone", () => {
    expect(all).toHaveLength(3);
    for (const shown of all) {
      const imported = [...shown.code.matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
      expect(new Set(imported)).toEqual(new Set(["@sourced/registry", "zod"]));
    }
  });

  test("completion and templates: both Clients complete a template's variable and a prompt's argument, list and read the cities, and hear the log at their level", async () => {
    const shown = example("ResourceTemplate");
    for (const legacy of [true, false]) {
      const logs: unknown[] = [];
      let stderr = "";
      const client = legacy ? new LegacyClient({ name: "docs", version: "1.0.0" }) : new Client({ name: "docs", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
      if (client instanceof LegacyClient) client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => void logs.push(params.data));
      else client.setNotificationHandler("notifications/message", ({ params }) => void logs.push(params.data));
      const transport = legacy ? new LegacyStdioClientTransport(stdio(shown)) : new StdioClientTransport(stdio(shown));
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      await client.connect(transport);
      try {
        const v2 = client as Client;
        expect((await v2.complete({ ref: { type: "ref/resource", uri: "cities://{name}" }, argument: { name: "name", value: "t" } })).completion.values).toEqual(["Tokyo"]);
        expect((await v2.complete({ ref: { type: "ref/prompt", name: "compare" }, argument: { name: "city", value: "De" } })).completion.values).toEqual(["Delhi"]);
        expect((await v2.listResources()).resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(["cities://Tokyo", "cities://Delhi", "cities://Shanghai"]));
        const read = await v2.readResource({ uri: "cities://Delhi" });
        expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ name: "Delhi", population: 30_290_936 });
        // A city it does not know: the read's ResourceNotFoundError, passed on as the SDK's own server passes it on.
        const missing = await v2.readResource({ uri: "cities://Atlantis" }).then(
          () => undefined,
          (error: unknown) => error as { code?: unknown; data?: unknown },
        );
        expect(missing, legacy ? "v1" : "v2").toMatchObject({ code: -32_602, data: { uri: "cities://Atlantis" } });
        if (!legacy) expect(missing).toBeInstanceOf(ResourceNotFoundError);
        await v2.setLoggingLevel("info");
        const result = await v2.callTool({ name: "list_cities" });
        expect(firstText(result)).toBe("Tokyo (37,400,068), Delhi (30,290,936), Shanghai (27,058,479)");
        expect(result.structuredContent).toEqual({ sources: ["cities://Tokyo", "cities://Delhi", "cities://Shanghai"] });
        expect(logs).toEqual(["listing 3 cities"]);
        expect(stderr).toBe("");
      } finally {
        await client.close();
      }
    }
  });

  test("sessions: both Clients' model answers describe_city over HTTP, and a subscribed Client hears of promote's update", async () => {
    const shown = example("requestSampling");
    const child = spawn(process.execPath, [fileOf(shown)], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const url = new URL(String((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value));
    for (const legacy of [true, false]) {
      const updated: string[] = [];
      const sentence = "Tokyo is the largest city on Earth.";
      const answer = () => ({ role: "assistant" as const, content: { type: "text" as const, text: sentence }, model: "docs" });
      let client: LegacyClient | Client;
      if (legacy) {
        const v1 = new LegacyClient({ name: "docs", version: "1.0.0" }, { capabilities: { sampling: {} } });
        v1.setRequestHandler(CreateMessageRequestSchema, answer);
        v1.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => void updated.push(params.uri));
        await v1.connect(new LegacyStreamableHTTPClientTransport(url));
        client = v1;
      } else {
        const v2 = new Client({ name: "docs", version: "1.0.0" }, { capabilities: { sampling: {} }, versionNegotiation: { mode: "legacy" } });
        v2.setRequestHandler("sampling/createMessage", answer);
        v2.setNotificationHandler("notifications/resources/updated", ({ params }) => void updated.push(params.uri));
        await v2.connect(new StreamableHTTPClientTransport(url));
        client = v2;
      }
      const v2 = client as Client;
      try {
        expect(firstText(await v2.callTool({ name: "describe_city", arguments: { city: "Tokyo" } }))).toBe(sentence);
        await v2.subscribeResource({ uri: "cities://ranking" });
        expect(firstText(await v2.callTool({ name: "promote", arguments: { city: "Delhi" } }))).toBe("Delhi leads the ranking.");
        const deadline = Date.now() + 2_000;
        while (updated.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(updated).toEqual(["cities://ranking"]);
      } finally {
        await client.close();
      }
    }
    expect(stderr).toBe("");
  });

  test("throw inputRequired(…): the user's answer reaches forget_city and the prompt compare on 2026-07-28 (the v2 Client) and on a 2025-era connection (the v1 Client, through the SDK)", async () => {
    const shown = example("inputRequired");
    // What the user answers: the city to compare with when the prompt asks, the confirmation when the tool does.
    const answer = (confirm: boolean) => (request: { params: { message?: unknown } }) => {
      const content: Record<string, string | boolean> = String(request.params.message).includes("which city") ? { city: "Delhi" } : { confirm };
      return { action: "accept" as const, content };
    };
    const compared = [{ role: "user", content: { type: "text", text: "Compare Tokyo and Delhi by population: call list_cities." } }];
    const modern = new Client({ name: "docs", version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    modern.setRequestHandler("elicitation/create", answer(true));
    await modern.connect(new StdioClientTransport(stdio(shown)));
    try {
      expect(firstText(await modern.callTool({ name: "forget_city", arguments: { city: "Tokyo" } }))).toBe("Tokyo is forgotten.");
      expect((await modern.getPrompt({ name: "compare" })).messages).toEqual(compared);
    } finally {
      await modern.close();
    }
    const legacy = new LegacyClient({ name: "docs", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    legacy.setRequestHandler(ElicitRequestSchema, answer(false));
    await legacy.connect(new LegacyStdioClientTransport(stdio(shown)));
    try {
      expect(firstText(await legacy.callTool({ name: "forget_city", arguments: { city: "Delhi" } }))).toBe("Delhi is kept.");
      expect((await legacy.getPrompt({ name: "compare" })).messages).toEqual(compared);
    } finally {
      await legacy.close();
    }
  });
});
