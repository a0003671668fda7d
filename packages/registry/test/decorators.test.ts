import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { compileServers, connectInMemory, firstText, recordingLogger } from "./helpers.js";

// TC39 decorators as tsc emits them: the fixtures under servers/ are compiled by the real tsc.
type DecoratedModule = typeof import("./servers/decorated.js");
type InstanceModule = typeof import("./servers/instance-method.js");

describe("registry.tool() as a TC39 decorator (compiled by tsc)", () => {
  let outDir: string;
  beforeAll(async () => {
    outDir = await compileServers("decorators");
  });

  test("registers static methods by name or options.name, returns them unchanged, calls them with this = the class", async () => {
    const { buildDecorated } = (await import(`${outDir}/decorated.js`)) as DecoratedModule;
    const logger = recordingLogger();
    const { registry, Weather } = buildDecorated(logger);
    expect(registry.tools.map((tool) => tool.name)).toEqual(["forecast", "rain_chance"]);
    expect(registry.tools[0]?.fn).toBe(Weather.forecast);
    expect(registry.tools[1]?.fn).toBe(Weather.rain);
    expect(registry.tools[0]?.site).toMatch(/decorated\.[jt]s:\d+:\d+$/);

    const { client, close } = await connectInMemory(registry);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.description, tool.outputSchema?.required])).toEqual([
      ["forecast", "Tomorrow's forecast.", ["sources"]],
      ["rain_chance", undefined, ["sources"]],
    ]);
    const result = await client.callTool({ name: "forecast" });
    expect(firstText(result)).toBe("Sunny.");
    expect(result.structuredContent).toEqual({ sources: ["https://example.org/weather"] });
    expect((await client.callTool({ name: "rain_chance" })).structuredContent).toEqual({
      sources: ["https://example.org/weather"],
      force: "10%",
    });
    expect(logger.warnings).toEqual([]);
    await close();
  });

  test("an instance method is a clear error naming the class and the method, thrown while the class is defined", async () => {
    const { defineForecaster } = (await import(`${outDir}/instance-method.js`)) as InstanceModule;
    expect(() => defineForecaster()).toThrow(
      /^registry\.tool\(\) cannot register the instance method "forecast" of class Forecaster \(.*instance-method\.[jt]s:\d+:\d+\): a tool is called without an instance\. Make it static \(@registry\.tool\(\) static forecast\(…\)\) or register a plain function\.$/,
    );
  });

  test.each([[[]], [["--enable-source-maps"]]])("node %j: a decorator wrapped outside the class still names the class", async (flags) => {
    // With source maps Node names a class body `Function.<static_initializer>`; the site must
    // still be that frame, not the wrapper's line (which lies below another class).
    const script = `try { require(${JSON.stringify(`${outDir}/wrapped-decorator.js`)}).defineWrapped(); } catch (error) { process.stdout.write(error.message); }`;
    const { stdout } = await promisify(execFile)(process.execPath, [...flags, "-e", script]);
    expect(stdout).toMatch(/^registry\.tool\(\) cannot register the instance method "forecast" of class Forecaster \(.*wrapped-decorator\.[jt]s:\d+:\d+\)/);
  });

  test("requireVerified: a stamped static method is served, an unstamped one refused with one warning", async () => {
    const { buildVerifiedDecorated } = (await import(`${outDir}/decorated.js`)) as DecoratedModule;
    const logger = recordingLogger();
    const { registry, Weather } = buildVerifiedDecorated(logger);
    expect(typeof Weather.unchecked).toBe("function");
    expect(registry.tools.map((tool) => [tool.name, tool.verifiedBy])).toEqual([["forecast", "@sourced/transformer@0.1.0"]]);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/^tool "unchecked" \(.*decorated\.[jt]s:\d+:\d+\) was not registered: requireVerified is on and the function carries no verified stamp/);
    const { client, close } = await connectInMemory(registry);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["forecast"]);
    await close();
  });

  test("the public types hold: DataToolOutput is a CallToolResult, charts are Chart.js configurations (servers/types.ts compiled)", () => {
    // compileServers ran tsc with noEmitOnError over servers/types.ts (whose @ts-expect-error lines
    // must all be errors): an emitted types.js means every type assertion held.
    expect(existsSync(join(outDir, "types.js"))).toBe(true);
  });
});
