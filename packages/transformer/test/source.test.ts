import * as path from "node:path";
import { expect, test } from "vitest";
import { copyProject, listTools, TRANSFORMER_DIR } from "./support";

const TSX = path.join(TRANSFORMER_DIR, "node_modules", "tsx", "dist", "cli.mjs");

test("the same server run from source (tsx, no transformer) refuses every tool with the registry's warning", async () => {
  const project = copyProject("server", "source-tsx");
  const { tools, stderr } = await listTools(process.execPath, [TSX, "src/server.ts"], project);
  expect(tools).toEqual([]);
  for (const tool of ["list_cities", "population", "no_annotation", "count_cities", "forecast", "temperature"]) {
    expect(stderr).toMatch(new RegExp(`tool "${tool}" \\(.*\\) was not registered: requireVerified is on and the function carries no verified stamp`));
  }
});
