#!/usr/bin/env node
// The demo, end to end on the seed's example server (fixtures/projects/cities), which holds two
// compliant tools and one that cannot say where its data came from (forecast):
//   1. ESLint with sourced.configs.recommended reports it;
//   2. `sourced check` reports the same finding;
//   3. the tspc build with @sourced/transformer reports it and strips it from the emitted JS;
//   4. the built server, with requireVerified, serves only the verified tools: an MCP client sees
//      tools/list without forecast, and list_cities' text, sources and table;
//   5. every tool declares the data view (MCP Apps), and the demo ends by saying how to open it in
//      `sourced preview`.
// Exits 0 when all four behave so (the finding is expected), non-zero otherwise: it doubles as a
// smoke test of the whole product.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const project = join(root, "fixtures/projects/cities");
const fromProject = createRequire(join(project, "package.json"));
// The SDK's v2 Client, on protocol revision 2026-07-28.
const { Client } = fromProject("@modelcontextprotocol/client");
const { StdioClientTransport } = fromProject("@modelcontextprotocol/client/stdio");
const { ESLint } = fromProject("eslint");
// The project's own installs, as its package.json scripts run them (neither package exports its bin).
const tspc = join(project, "node_modules/ts-patch/bin/tspc.js");
const sourced = join(project, "node_modules/@sourced/cli/bin/sourced.js");

/** The non-compliant tool every front-end must report, and the finding id it must carry. */
const REJECTED = { tool: "forecast", file: "src/tools/forecast.ts", id: "not-data-tool-output", code: 92002 };

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

/** Runs a command in the project, echoing its output indented; returns its exit status and output. */
function run(command, args) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd: project, encoding: "utf8" });
  const output = `${result.stdout}${result.stderr}`.trim();
  if (output) console.log(output.replace(/^/gm, "  "));
  return { status: result.status, output };
}

/** `line:column` of the forecast finding in tsc-style output, e.g. `src/tools/forecast.ts(9,24): error TS92002`. */
function tscStylePosition(output, prefix) {
  const match = new RegExp(`${REJECTED.file.replace(/[./]/g, "\\$&")}\\((\\d+),(\\d+)\\): error ${prefix}${REJECTED.code}:`).exec(output);
  return match ? `${match[1]}:${match[2]}` : undefined;
}

heading("1. ESLint with sourced.configs.recommended (fixtures/projects/cities/eslint.config.mjs)");
const eslint = new ESLint({ cwd: project });
const lintResults = await eslint.lintFiles(["src"]);
const formatted = (await (await eslint.loadFormatter("stylish")).format(lintResults)).trim();
console.log(formatted.replaceAll(project + "/", "").replace(/^/gm, "  "));
const lintMessages = lintResults.flatMap((result) =>
  result.messages.map((message) => ({ ...message, file: relative(project, result.filePath).replaceAll("\\", "/") })),
);
const eslintPosition = lintMessages.length === 1 ? `${lintMessages[0].line}:${lintMessages[0].column}` : undefined;
check(
  lintMessages.length === 1 &&
    lintMessages[0].ruleId === "sourced/require-data-tool-output" &&
    lintMessages[0].messageId === REJECTED.id &&
    lintMessages[0].file === REJECTED.file,
  `ESLint: expected one ${REJECTED.id} finding in ${REJECTED.file}, got ${JSON.stringify(lintMessages.map(({ file, line, ruleId, message }) => ({ file, line, ruleId, message })))}`,
);

heading("2. sourced check -p fixtures/projects/cities");
const checked = run(sourced, ["check", "-p", "."]);
check(checked.status === 1, `sourced check: expected exit code 1 (findings), got ${checked.status}`);
check(
  tscStylePosition(checked.output, "SRC") === eslintPosition,
  `sourced check: expected the finding at ${REJECTED.file}:${eslintPosition} (where ESLint reports it), got ${tscStylePosition(checked.output, "SRC")}`,
);

heading("3. tspc -p fixtures/projects/cities (the build, with @sourced/transformer)");
const built = run(tspc, ["-p", "."]);
// tsc exits non-zero on any diagnostic; the JS is still emitted, with the rejected tool stripped.
check(built.status !== 0, "tspc: expected a non-zero exit code for the finding");
check(
  tscStylePosition(built.output, "TS") === eslintPosition,
  `tspc: expected the diagnostic at ${REJECTED.file}:${eslintPosition}, got ${tscStylePosition(built.output, "TS")}`,
);
const emitted = readFileSync(join(project, "build/tools/forecast.js"), "utf8");
const stripped = !/\.tool\(/.test(emitted) && /function forecast\(/.test(emitted);
check(stripped, "tspc: build/tools/forecast.js still registers forecast (or lost the function)");
console.log(`  build/tools/forecast.js: ${stripped ? "registration stripped, function forecast kept" : "NOT stripped"}`);

heading("4. node fixtures/projects/cities/build/server.js (stdio), with the SDK Client");
const transport = new StdioClientTransport({ command: process.execPath, args: [join(project, "build/server.js")], stderr: "pipe" });
const serverLog = [];
transport.stderr?.on("data", (chunk) => serverLog.push(String(chunk)));
const client = new Client({ name: "sourced-demo", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });

try {
  await client.connect(transport);
  console.log(`connected to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version}, protocol ${client.getNegotiatedProtocolVersion()}`);
  check(client.getNegotiatedProtocolVersion() === "2026-07-28", `expected protocol 2026-07-28, got ${client.getNegotiatedProtocolVersion()}`);

  heading("tools/list");
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const required = tool.outputSchema?.required ?? [];
    const sourced = required.includes("sources");
    check(sourced, `tool ${tool.name}: outputSchema does not require sources`);
    console.log(`${tool.name.padEnd(12)} outputSchema requires ${JSON.stringify(required)}  ${sourced ? "ok: sourced" : "MISSING sources"}`);
    if (tool.description) console.log(`${"".padEnd(12)} ${tool.description}`);
    const view = tool._meta?.ui?.resourceUri;
    check(view === "ui://sourced/data-view.html", `tool ${tool.name}: _meta.ui.resourceUri is ${JSON.stringify(view)}, expected the data view`);
    console.log(`${"".padEnd(12)} data view: ${view}`);
  }
  check(
    JSON.stringify(tools.map((tool) => tool.name).sort()) === JSON.stringify(["list_cities", "population"]),
    `expected exactly the verified tools list_cities and population, got ${tools.map((tool) => tool.name).join(", ")}`,
  );
  console.log(`${REJECTED.tool.padEnd(12)} absent: stripped by the build, never registered`);

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

  heading("resources/read ui://sourced/data-view.html (what MCP Apps hosts render)");
  const { contents } = await client.readResource({ uri: "ui://sourced/data-view.html" });
  const view = contents[0];
  check(view?.mimeType === "text/html;profile=mcp-app", `data view: unexpected mime type ${JSON.stringify(view?.mimeType)}`);
  console.log(`${view?.mimeType}, ${Math.round((view?.text?.length ?? 0) / 1024)} KiB, self-contained (its CSP allows no origin)`);
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
  heading("OK: ESLint, sourced check and tspc report forecast at the same place; the built server serves only the verified tools, and list_cities cites its source");
  console.log(
    [
      "",
      "See what the user sees (content, the data view and the raw JSON, side by side) in the local preview:",
      "  node packages/cli/bin/sourced.js preview -- node fixtures/projects/cities/build/server.js",
      "or, inside fixtures/projects/cities:",
      "  npx sourced preview -- node build/server.js",
      "then open the URL it prints.",
    ].join("\n"),
  );
}
