#!/usr/bin/env node
// The demo: build the seed's example server (fixtures/projects/cities), start it over stdio, and
// show what an MCP client sees — tools/list with the published contract, and list_cities' result.
// Exits non-zero when anything differs from what the seed promises.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const project = join(root, "fixtures/projects/cities");
// The SDK is a dependency of @sourced/registry: resolve it from there.
const requireFromRegistry = createRequire(join(root, "packages/registry/package.json"));
const { Client } = requireFromRegistry("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = requireFromRegistry("@modelcontextprotocol/sdk/client/stdio.js");
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");

const problems = [];
function check(condition, message) {
  if (!condition) problems.push(message);
  return condition;
}

function heading(text) {
  console.log(`\n== ${text}`);
}

/** Rows as an aligned text table, the header underlined. */
function formatTable(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column] ?? "").length)));
  const line = (row) => row.map((cell, column) => String(cell ?? "").padEnd(widths[column])).join("  ").trimEnd();
  return [line(rows[0]), widths.map((width) => "-".repeat(width)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

heading("Build: tsc -p fixtures/projects/cities");
execFileSync(process.execPath, [tsc, "-b", join(root, "packages/registry")], { stdio: "inherit" });
execFileSync(process.execPath, [tsc, "-p", project], { stdio: "inherit" });
console.log("built fixtures/projects/cities/build/");

heading("Start: node fixtures/projects/cities/build/server.js (stdio)");
const transport = new StdioClientTransport({ command: process.execPath, args: [join(project, "build/server.js")], stderr: "pipe" });
const serverLog = [];
transport.stderr?.on("data", (chunk) => serverLog.push(String(chunk)));
const client = new Client({ name: "sourced-demo", version: "1.0.0" });

try {
  await client.connect(transport);
  console.log(`connected to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version}`);

  heading("tools/list");
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const required = tool.outputSchema?.required ?? [];
    const sourced = required.includes("sources");
    check(sourced, `tool ${tool.name}: outputSchema does not require sources`);
    console.log(`${tool.name.padEnd(12)} outputSchema requires ${JSON.stringify(required)}  ${sourced ? "ok: sourced" : "MISSING sources"}`);
    if (tool.description) console.log(`${"".padEnd(12)} ${tool.description}`);
  }
  check(
    JSON.stringify(tools.map((tool) => tool.name).sort()) === JSON.stringify(["list_cities", "population"]),
    `expected the tools list_cities and population, got ${tools.map((tool) => tool.name).join(", ")}`,
  );

  heading("tools/call list_cities");
  // callTool also validates structuredContent against the outputSchema from tools/list.
  const result = await client.callTool({ name: "list_cities" });
  const text = result.content.filter((block) => block.type === "text").map((block) => block.text).join("\n");
  const { sources = [], table = [] } = result.structuredContent ?? {};
  console.log(`text (for the LLM):\n  ${text}`);
  console.log(`sources (for the gateway):\n${sources.map((source) => `  - ${source}`).join("\n")}`);
  if (table.length > 0) console.log(`table (for the gateway):\n${formatTable(table).replace(/^/gm, "  ")}`);
  check(result.isError !== true, "list_cities returned an error result");
  check(
    text === "The 3 most populated cities are Tokyo (37,400,068), Delhi (30,290,936) and Shanghai (27,058,479).",
    `list_cities: unexpected text ${JSON.stringify(text)}`,
  );
  check(JSON.stringify(sources) === JSON.stringify(["https://example.org/cities-data"]), `list_cities: unexpected sources ${JSON.stringify(sources)}`);
  check(
    JSON.stringify(table) ===
      JSON.stringify([["City", "Population"], ["Tokyo", "37400068"], ["Delhi", "30290936"], ["Shanghai", "27058479"]]),
    `list_cities: unexpected table ${JSON.stringify(table)}`,
  );

  heading('tools/call population { city: "Delhi" }');
  const delhi = await client.callTool({ name: "population", arguments: { city: "Delhi" } });
  const delhiText = delhi.content.find((block) => block.type === "text")?.text;
  console.log(`text: ${delhiText}\nsources: ${delhi.structuredContent?.sources?.join(", ")}`);
  check(delhiText === "Delhi has 30,290,936 inhabitants.", `population: unexpected text ${JSON.stringify(delhiText)}`);
} catch (error) {
  problems.push(`the demo failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await client.close().catch(() => {});
}

if (problems.length > 0) {
  heading("FAILED");
  for (const problem of problems) console.error(`- ${problem}`);
  if (serverLog.length > 0) console.error(`server stderr:\n${serverLog.join("")}`);
  process.exitCode = 1;
} else {
  heading("OK: every tool publishes the DataToolOutput contract, and list_cities cites its source");
}
