import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installProject, MCP_CLIENT, packWorkspace, PACKED, removeInstalledProjects, removePackedTarballs, type Run } from "./index";

/*
 * The registry next to the zod a project already has, installed from the packed tarball with npm,
 * as a user would. The project's zod 4 is the registry's (one copy: its `z.string()` is the
 * registry's type, and tsc accepts it); next to a zod 3, the registry keeps a zod 4 of its own and
 * refuses the project's zod 3 schema when it is registered, naming the version to install.
 */

/** A server whose tool takes an input written with the project's zod; it answers one call and exits. */
const SERVER = `import { z } from "zod";
import { createRegistry, type DataToolOutput } from "@sourced/registry";

const registry = createRegistry({ name: "own-zod", version: "1.0.0" });

registry.tool({ description: "Population of one city.", input: { city: z.string(), limit: z.number().optional() } })(
  function population({ city }): DataToolOutput {
    return { content: [{ type: "text", text: \`\${city.toUpperCase()} has 37,400,068 inhabitants.\` }], structuredContent: { sources: ["https://example.org/cities"] } };
  },
);

void registry.serveStdio();
`;

/** Calls the server once with valid and once with invalid arguments. */
const CLIENT = `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const client = new Client({ name: "own-zod-client", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [process.argv[2]], stderr: "pipe" }));
try {
  const good = await client.callTool({ name: "population", arguments: { city: "Tokyo" } });
  const bad = await client.callTool({ name: "population", arguments: { city: 7 } });
  process.stdout.write(JSON.stringify({ good: good.content[0].text, bad: [bad.isError, bad.content[0].text] }) + "\\n");
} finally {
  await client.close();
}
`;

const TSCONFIG = {
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: ["node"], outDir: "dist" },
  include: ["server.ts"],
};

function describeRun(run: Run): string {
  return `exit ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
}

/** Every `zod` package installed under the project, by its version. */
function installedZods(directory: string): string[] {
  const found: string[] = [];
  const walk = (modules: string): void => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      const full = path.join(modules, entry);
      if (entry.startsWith("@")) {
        for (const scoped of fs.readdirSync(full)) walk(path.join(full, scoped, "node_modules"));
        continue;
      }
      if (entry === "zod") found.push((JSON.parse(fs.readFileSync(path.join(full, "package.json"), "utf8")) as { version: string }).version);
      walk(path.join(full, "node_modules"));
    }
  };
  walk(path.join(directory, "node_modules"));
  return found.sort();
}

afterAll(() => {
  removeInstalledProjects();
  removePackedTarballs();
});

describe("a project with its own zod 4.3 (npm)", () => {
  const project = () =>
    installProject({
      manager: "npm",
      tarballs: packWorkspace(),
      dependencies: { "@sourced/registry": PACKED, zod: "4.3.6" },
      devDependencies: { typescript: "6.0.3", "@types/node": "22.20.7", ...MCP_CLIENT },
    });

  it("installs one zod, the project's: the registry and the MCP SDK use it", () => {
    expect(installedZods(project().directory)).toEqual(["4.3.6"]);
  });

  it("tsc accepts an input written with it and types the parameter; the built server answers, validating with it", () => {
    const directory = project().caseDirectory("own-zod", {
      "package.json": `${JSON.stringify({ type: "module" })}\n`,
      "tsconfig.json": `${JSON.stringify(TSCONFIG, null, 2)}\n`,
      "server.ts": SERVER,
      "client.mjs": CLIENT,
    });
    const build = project().bin("tsc", ["-p", "tsconfig.json"], directory);
    expect(build.status, describeRun(build)).toBe(0);
    const call = project().node(["client.mjs", "dist/server.js"], directory);
    expect(call.status, describeRun(call)).toBe(0);
    const { good, bad } = JSON.parse(call.stdout) as { good: string; bad: [boolean, string] };
    expect(good).toBe("TOKYO has 37,400,068 inhabitants.");
    expect(bad[0]).toBe(true);
    expect(bad[1]).toMatch(/^Input validation error: Invalid arguments for tool population:\n- city: /u);
  });
});

describe("a project still on zod 3 (npm)", () => {
  const project = () =>
    installProject({ manager: "npm", tarballs: packWorkspace(), dependencies: { "@sourced/registry": PACKED, zod: "3.25.76" }, devDependencies: { ...MCP_CLIENT } });

  it("the registry keeps a zod 4 of its own; the project's zod 3 schema is refused at registration, naming the version to install", () => {
    const zods = installedZods(project().directory);
    expect(zods).toContain("3.25.76");
    expect(zods.some((version) => /^4\.(?:[2-9]|\d{2,})\./u.test(version)), zods.join(", ")).toBe(true);
    const directory = project().caseDirectory("zod3", {
      "package.json": `${JSON.stringify({ type: "module" })}\n`,
      "server.js": SERVER.replace("type DataToolOutput ", "").replace("): DataToolOutput {", ") {"),
    });
    const run = project().node(["server.js"], directory);
    expect(run.status, describeRun(run)).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `TypeError: registry.tool() at ${path.join(directory, "server.js")}:6:10: input.city is a zod 3 schema, which the MCP SDK cannot use: install zod 4.2 or later (npm install zod@^4.2.0) and import z from "zod".`,
    );
  });
});
