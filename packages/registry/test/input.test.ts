import { execFile } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { type } from "arktype";
import { afterAll, describe, expect, expectTypeOf, test } from "vitest";
import { z } from "zod";
import { z as zod3 } from "zod3";
import { z as zod40 } from "zod3/v4";
import { createRegistry, type DataToolOutput, type ToolCallExtra, type ToolOptions } from "../dist/index.js";
import { connectInMemory, consumerProjects, firstText, PACKAGE_DIR, recordingLogger, seedResult } from "./helpers.js";

/*
 * A tool's input, as the SDK's registerTool takes it (a zod raw shape, a zod object, any Standard
 * Schema with JSON Schema): the function's first parameter is typed from it, and a schema the
 * registry cannot serve is refused when it is registered, naming what to install.
 */

const registry = () => createRegistry({ name: "input", version: "1.0.0" });

describe("the first parameter is typed from the input (checked by tsc over this file)", () => {
  test("a raw shape: what z.object(shape) parses to, optional fields optional", () => {
    const shape = { city: z.string(), limit: z.number().int().optional(), unit: z.enum(["people", "thousands"]).default("people"), note: z.string().nullable() };
    registry().tool({ input: shape })(function population(args, extra) {
      expectTypeOf(args).toEqualTypeOf<z.infer<z.ZodObject<typeof shape>>>();
      expectTypeOf(args).toEqualTypeOf<{ city: string; limit?: number | undefined; unit: "people" | "thousands"; note: string | null }>();
      expectTypeOf(extra).toEqualTypeOf<ToolCallExtra>();
      return seedResult();
    });
  });

  test("a zod object, a transform's output, and another library's Standard Schema (ArkType)", () => {
    const object = z.object({ city: z.string(), year: z.string().transform(Number) });
    registry().tool({ input: object })(function population(args) {
      expectTypeOf(args).toEqualTypeOf<{ city: string; year: number }>();
      return seedResult();
    });
    registry().tool({ input: type({ city: "string", "limit?": "number" }) })(function population(args) {
      expectTypeOf(args).toEqualTypeOf<{ city: string; limit?: number }>();
      return seedResult();
    });
  });

  test("without input the function receives no argument keys; options held in a ToolOptions variable leave them any", () => {
    registry().tool()(function list_cities(args) {
      expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
      return seedResult();
    });
    const options: ToolOptions = { description: "Population of one city." };
    registry().tool(options)(function population(args) {
      expectTypeOf(args).toBeAny();
      return seedResult();
    });
  });

  test("an annotation that agrees with the schema, or asks for less, compiles; the function comes back with its own type", () => {
    const population = registry().tool({ input: { city: z.string(), limit: z.number().optional() } })(
      function population({ city }: { city: string }): Promise<DataToolOutput> {
        return Promise.resolve({ ...seedResult(), structuredContent: { sources: ["https://example.org/cities-data"], force: city } });
      },
    );
    expectTypeOf(population).toEqualTypeOf<({ city }: { city: string }) => Promise<DataToolOutput>>();
  });
});

describe("tsc over a user's project: contradictions are type errors", () => {
  const { project, removeAll } = consumerProjects("input");
  afterAll(removeAll);

  /** Each case's file, and the errors tsc must report for it ("line code"), none if it is valid. */
  const CASES: Record<string, { source: string; errors: string[] }> = {
    "agrees.ts": {
      source: `import { z } from "zod";
import { createRegistry, type DataToolOutput } from "@sourced/registry";
const registry = createRegistry({ name: "cities", version: "1.0.0" });
const answer = (text: string): DataToolOutput => ({ content: [{ type: "text", text }], structuredContent: { sources: ["https://example.org/cities"] } });
registry.tool({ input: { city: z.string() } })(function population({ city }): DataToolOutput { return answer(city.toUpperCase()); });
registry.tool({ input: z.object({ city: z.string() }) })(function area({ city }: { city: string }): DataToolOutput { return answer(city); });
`,
      errors: [],
    },
    "contradicts.ts": {
      source: `import { z } from "zod";
import { createRegistry, type DataToolOutput } from "@sourced/registry";
const registry = createRegistry({ name: "cities", version: "1.0.0" });
declare const answer: DataToolOutput;
registry.tool({ input: { city: z.string() } })(function population({ town }: { town: number }): DataToolOutput { return answer; });
registry.tool({ input: { city: z.string() } })(function area({ city }): DataToolOutput { return city.toFixed() as never; });
registry.tool()(function list_cities({ city }: { city: string }): DataToolOutput { return answer; });
class Weather {
  @registry.tool({ input: { city: z.string() } })
  static forecast({ city }: { city: number }): DataToolOutput { return answer; }
}
`,
      // 5: the annotation contradicts the schema; 6: the unannotated parameter is a string; 7: no
      // input, yet the function wants arguments; 9: the decorator form, as TypeScript reports a decorator.
      errors: ["5 TS2345", "6 TS2551", "7 TS2345", "9 TS1241", "9 TS1270"],
    },
    "zod3.ts": {
      source: `import { z } from "zod3";
import { createRegistry, type DataToolOutput } from "@sourced/registry";
const registry = createRegistry({ name: "cities", version: "1.0.0" });
declare const answer: DataToolOutput;
registry.tool({ input: { city: z.string() } })(function population(): DataToolOutput { return answer; });
registry.tool({ input: z.object({ city: z.string() }) })(function area(): DataToolOutput { return answer; });
`,
      errors: ["5 TS2322", "6 TS2322"],
    },
  };

  test.each(Object.keys(CASES))("%s", async (file) => {
    const dir = project("module");
    const zod3Dir = createRequire(join(PACKAGE_DIR, "package.json")).resolve("zod3/package.json");
    symlinkSync(realpathSync(join(zod3Dir, "..")), join(dir, "node_modules", "zod3"), "dir");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", file), CASES[file]!.source);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ["src"] }),
    );
    const tsc = createRequire(__filename).resolve("typescript/bin/tsc");
    let output = "";
    try {
      await promisify(execFile)(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    const reported = [...output.matchAll(/^src\/[^(]+\((\d+),\d+\): error (TS\d+):/gmu)].map((match) => `${match[1]} ${match[2]}`);
    expect(reported, output).toEqual(CASES[file]!.errors);
    if (file === "contradicts.ts") expect(output).toMatch(/Types of parameters '__0' and 'args' are incompatible[\s\S]*Property 'town' is missing in type '\{ city: string; \}'/u);
  }, 60_000);
});

describe("at run time", () => {
  test("an ArkType schema is served as the SDK serves it: its own JSON Schema, its own validation", async () => {
    const cities = registry();
    cities.tool({ input: type({ city: "string", "limit?": "number" }) })(function population({ city }: { city: string }): DataToolOutput {
      return { ...seedResult(), structuredContent: { sources: ["https://example.org/cities-data"], force: city } };
    });
    const { client, close } = await connectInMemory(cities);
    try {
      const [tool] = (await client.listTools()).tools;
      expect(tool?.inputSchema).toEqual({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { city: { type: "string" }, limit: { type: "number" } },
        required: ["city"],
      });
      const result = await client.callTool({ name: "population", arguments: { city: "Delhi" } });
      expect(result.structuredContent).toEqual({ sources: ["https://example.org/cities-data"], force: "Delhi" });
      const invalid = await client.callTool({ name: "population", arguments: { city: 7 } });
      expect(invalid.isError).toBe(true);
      expect(firstText(invalid)).toBe("Input validation error: Invalid arguments for tool population:\n- city: city must be a string (was a number)");
    } finally {
      await close();
    }
  });

  test.each([
    ["a zod 3 field", { city: zod3.string() }, "input.city is a zod 3 schema, which the MCP SDK cannot use"],
    ["a zod 3 object", zod3.object({ city: zod3.string() }), "input is a zod 3 schema, which the MCP SDK cannot use"],
    ["a zod 4.0 field (zod 3.25's zod/v4)", { city: zod40.string() }, "input.city is a zod 4.0.0 schema, which cannot state its JSON Schema"],
    ["a zod 4.0 object", zod40.object({ city: zod40.string() }), "input is a zod 4.0.0 schema, which cannot state its JSON Schema"],
  ])("%s is refused when registered, naming zod and the version to install", (_name, input, problem) => {
    const cities = registry();
    expect(() => cities.tool({ input: input as never })).toThrow(
      new RegExp(`^registry\\.tool\\(\\) at .*input\\.test\\.ts:\\d+:\\d+: ${problem.replace(/[.()]/gu, "\\$&")}: install zod 4\\.2 or later \\(npm install zod@\\^4\\.2\\.0\\) and import z from "zod"\\.$`, "u"),
    );
  });

  test.each([
    ["a schema that is no object", z.string(), 'input describes "string", not an object: a tool\'s arguments are an object. Wrap it: z.object({ value: … }).'],
    ["a schema JSON Schema cannot state", { when: z.date() }, "input cannot be published as JSON Schema (Date cannot be represented in JSON Schema). Describe it with types JSON Schema has."],
    ["another library's field in a raw shape", { city: type("string") }, "input.city is an arktype schema: the fields of a raw shape are zod schemas, which the registry wraps in z.object(). Pass one schema of that library for the whole input instead."],
    ["a field that is no schema", { city: "string" }, 'input.city is a string, not a zod schema; the fields of a raw shape are zod schemas ({ city: z.string() }).'],
    ["a class instance", new Date(0), "input is an instance of Date, which is neither a schema nor a plain object of zod fields"],
  ])("%s is refused when registered, saying what to write", (_name, input, message) => {
    expect(() => registry().tool({ input: input as never })).toThrow(message);
  });

  test("a refused input never reaches tools/list: initialize and every other request are answered", async () => {
    const cities = registry();
    expect(() => cities.tool({ input: { city: zod3.string() } as never })(function population() {})).toThrow(/zod 3 schema/u);
    cities.tool()(function list_cities() {
      return seedResult();
    });
    const { client, close } = await connectInMemory(cities);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["list_cities"]);
    } finally {
      await close();
    }
  });
});

describe("a refinement that answers with a rejected promise", () => {
  // zod's synchronous parse drops such a promise: its rejection went unhandled and ended the
  // server's process (Node's default), and the refinement ran twice. vitest fails a run on an
  // unhandled rejection, so this test fails then too.
  test("input: the call is answered with an error naming the tool, the refinement ran once, the server goes on", async () => {
    let runs = 0;
    const registry = createRegistry({ name: "lookup", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.tool({
      input: {
        city: z.string().refine(() => {
          runs++;
          return Promise.reject(new Error("the city index is down"));
        }),
      },
    })(function lookup(): DataToolOutput {
      return seedResult();
    });
    registry.tool()(function list_cities(): DataToolOutput {
      return seedResult();
    });
    const { client, close } = await connectInMemory(registry);
    const result = await client.callTool({ name: "lookup", arguments: { city: "Paris" } });
    expect([result.isError, firstText(result)]).toEqual([true, 'Tool "lookup" failed: the city index is down']);
    expect(runs).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await client.callTool({ name: "list_cities" })).isError).toBeUndefined();
    await close();
  });

  test("output: the result is refused (its schema is asynchronous), and nothing is left unhandled", async () => {
    const registry = createRegistry({ name: "lookup", version: "1.0.0", startupCheck: false, logger: recordingLogger() });
    registry.tool({ output: { n: z.number().refine(() => Promise.reject(new Error("the check is down"))) } })(function count() {
      return { ...seedResult(), structuredContent: { ...seedResult().structuredContent, n: 1 } };
    });
    registry.tool({ output: { n: z.number().refine((n) => n >= 0, "must not be negative") } })(function checked_count() {
      return { ...seedResult(), structuredContent: { ...seedResult().structuredContent, n: -1 } };
    });
    const { client, close } = await connectInMemory(registry);
    const result = await client.callTool({ name: "count" });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("the tool's output schema is asynchronous");
    // A synchronous refinement is checked at once, in its own words.
    const negative = await client.callTool({ name: "checked_count" });
    expect(firstText(negative)).toContain("must not be negative");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await close();
  });
});
