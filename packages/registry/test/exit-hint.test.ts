import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { consumerProjects } from "./helpers.js";

/*
 * A module that registers tools and never starts a transport used to exit 0 without a word, and
 * its client only saw "Connection closed". A real child process each time: the hint is given when
 * Node is about to exit with nothing left to do.
 */

const { project, removeAll } = consumerProjects("exit-hint");
afterAll(removeAll);

const HEADER = `import { createRegistry } from "@sourced/registry";
const registry = createRegistry({ name: "cities", version: "1.0.0" });
const answer = () => ({ content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: ["https://example.org/cities"] } });
`;

function run(body: string): { status: number | null; stdout: string; stderr: string } {
  const dir = project("module");
  writeFileSync(join(dir, "server.js"), `${HEADER}${body}\n`);
  // stdin closed at once: a stdio server ends as a client that hangs up.
  const result = spawnSync(process.execPath, ["server.js"], { cwd: dir, input: "", encoding: "utf8", timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const HINT =
  'registered, but the process is exiting without serving them, so no client can call them. Start a transport once the tools are registered: registry.serveStdio() for a client that starts this process, or registry.serveHttp() for clients that connect to it.';

describe("tools registered, nothing served: one hint at exit", () => {
  test("one tool: the hint names it and both transports; the exit code is unchanged", () => {
    const { status, stdout, stderr } = run('registry.tool()(function list_cities() { return answer(); });');
    expect(status).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toBe(`[sourced] warning: registry "cities": tool "list_cities" is ${HINT}\n`);
  });

  test("several tools, named up to three", () => {
    const { stderr } = run(["a", "b", "c", "d"].map((name) => `registry.tool({ name: "${name}" })(answer);`).join("\n"));
    expect(stderr).toBe(`[sourced] warning: registry "cities": 4 tools ("a", "b", "c", …) are ${HINT}\n`);
  });

  test.each([
    ["serveStdio()", 'registry.tool()(function list_cities() { return answer(); });\nawait registry.serveStdio();'],
    ["createServer() for a transport of one's own", 'registry.tool()(function list_cities() { return answer(); });\nregistry.createServer();'],
    ["no tool at all", ""],
  ])("no hint after %s", (_name, body) => {
    const { status, stderr } = run(body);
    expect(status).toBe(0);
    expect(stderr).toBe("");
  });
});
