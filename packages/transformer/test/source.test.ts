import * as path from "node:path";
import { expect, test } from "vitest";
import { copyProject, edit, listTools, TRANSFORMER_DIR } from "./support";

const TSX = path.join(TRANSFORMER_DIR, "node_modules", "tsx", "dist", "cli.mjs");

/** Where tspc reports each rejected tool of the server fixture (see suite.ts): the start-up check warns there. */
const REJECTED = { no_annotation: "src/tools.ts:21:54", count_cities: "src/tools.ts:26:69", temperature: "src/tools.ts:40:25" };

test("the same server run from source (tsx, no transformer): the start-up check serves exactly what tspc keeps, and warns for the rest where tspc reports it", async () => {
  const project = copyProject("server", "source-tsx");
  const { tools, stderr } = await listTools(process.execPath, [TSX, "src/server.ts"], project);
  // requireVerified is on: the check's verdict is what verifies a tool run from source.
  expect(tools).toEqual(["city_of_the_day", "forecast", "list_cities", "population", "todays_city"]);
  for (const [tool, at] of Object.entries(REJECTED)) expect(stderr).toContain(`[sourced] warning: tool "${tool}" (${at}) was not registered: Tool '${tool}'`);
  expect(stderr).not.toContain("requireVerified is on");
});

test("run from source with the start-up check off, requireVerified refuses every tool: nothing stamped them", async () => {
  const project = copyProject("server", "source-tsx-unchecked");
  edit(path.join(project, "src/registry.ts"), "requireVerified: true", "requireVerified: true, startupCheck: false");
  const { tools, stderr } = await listTools(process.execPath, [TSX, "src/server.ts"], project);
  expect(tools).toEqual([]);
  for (const tool of ["list_cities", "population", "no_annotation", "count_cities", "forecast", "temperature"]) {
    expect(stderr).toMatch(new RegExp(`tool "${tool}" \\(.*\\) was not registered: requireVerified is on and the function carries no verified stamp`));
  }
});
