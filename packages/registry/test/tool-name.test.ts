import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { validateToolName } from "@modelcontextprotocol/sdk/shared/toolNameValidation.js";
import fc from "fast-check";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createRegistry, TOOL_NAME_PATTERN } from "../dist/index.js";
import { firstText, seedResult } from "./helpers.js";

// Run from source, the start-up check would hold a name it cannot take for its verdict instead of
// throwing (startup-check.test.ts): these tests are about the throw a build-less, check-less run gives.
const register = (name: string) => createRegistry({ name: "names", version: "1.0.0", startupCheck: false }).tool({ name })(() => seedResult());

/** The alternative an error offers: `Pass { name: "…" }`. */
const alternative = (message: string) => JSON.parse(/Pass \{ name: ("(?:[^"\\]|\\.)*") \}\.$/u.exec(message)?.[1] ?? "null") as string | null;

function registrationError(name: string): string {
  try {
    register(name);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(name)} was registered`);
}

describe("tool names are checked when they are registered", () => {
  afterEach(() => vi.restoreAllMocks());

  test.each(["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__"])(
    "%s collides with an object built-in: a clear error, and a valid alternative",
    (name) => {
      const message = registrationError(name);
      expect(message).toMatch(/^registry\.tool\(\) at .*tool-name\.test\.ts:\d+:\d+: /u);
      expect(message).toContain(`the tool name "${name}" is a property every JavaScript object inherits (Object.prototype.${name})`);
      const instead = alternative(message);
      expect(instead).toMatch(/_tool$/u);
      expect(() => register(instead!)).not.toThrow();
    },
  );

  test.each([
    ["list cities", 'it contains a space', "list_cities"],
    ["weather/forecast", 'it contains "/"', "weather_forecast"],
    ["café", 'it contains "é"', "caf_"],
    ["bound list_cities", "it contains a space", "bound_list_cities"],
    ["#lookup", 'it contains "#"', "lookup"],
    ["-dash", 'it starts or ends with "-"', "dash"],
    ["dot.", 'it starts or ends with "."', "dot"],
    ["x".repeat(129), "it has 129 characters", "x".repeat(128)],
  ])("%j breaks the MCP tool-name rule: %s; the error offers %j", (name, what, instead) => {
    const message = registrationError(name);
    expect(message).toContain('breaks the MCP tool-name rule (1 to 128 characters, each A-Z, a-z, 0-9, "_", "-" or ".", not starting or ending with "-" or ".")');
    expect(message).toContain(`: ${what}.`);
    expect(alternative(message)).toBe(instead);
    expect(() => register(instead)).not.toThrow();
  });

  test.each([
    // A `#` is dropped only where a private method's name has it: first.
    ["a#b", 'it contains "#"', "a_b"],
    // Only the leading and trailing "." or "-" go; those inside stay.
    ["a b.c", "it contains a space", "a_b.c"],
    ["-a.b-", 'it starts or ends with "-"', "a.b"],
  ])("%j breaks the MCP tool-name rule: %s; the error offers %j, the rule's characters kept in place", (name, what, instead) => {
    const message = registrationError(name);
    expect(message).toContain(`: ${what}.`);
    expect(alternative(message)).toBe(instead);
  });

  test("a built-in's alternative loses its own leading and trailing underscores before _tool", () => {
    expect(alternative(registrationError("__proto__"))).toBe("proto_tool");
    expect(alternative(registrationError("__lookupGetter__"))).toBe("lookupGetter_tool");
    expect(alternative(registrationError("toString"))).toBe("toString_tool");
  });

  test("the length limit is on the name, not on where it breaks the rule: 128 characters that break it otherwise are told so", () => {
    const dashed = `-${"x".repeat(127)}`;
    expect(registrationError(dashed)).toContain(': it starts or ends with "-".');
    expect(registrationError(`${dashed}x`)).toContain(": it has 129 characters.");
  });

  test("the error quotes a name of up to 40 characters whole, a longer one cut at 40 with an ellipsis", () => {
    const forty = `${"x".repeat(39)} `;
    expect(registrationError(forty)).toContain(`the tool name ${JSON.stringify(forty)} breaks`);
    const fortyOne = `${forty}y`;
    expect(registrationError(fortyOne)).toContain(`the tool name ${JSON.stringify(`${forty}…`)} breaks`);
  });

  test.each([
    [null, "null"],
    [42, "number"],
    [Symbol("list_cities"), "symbol"],
  ])("a function whose own name is %s, not a string, is refused: the error says what it got", (name, got) => {
    const fn = Object.defineProperty(() => seedResult(), "name", { value: name });
    expect(() => createRegistry({ name: "n", version: "1", startupCheck: false }).tool()(fn)).toThrow(
      new RegExp(`^registry\\.tool\\(\\) at .*tool-name\\.test\\.ts:\\d+:\\d+: the tool name must be a string, got ${got}\\.$`, "u"),
    );
  });

  test("a name that is not a string is refused", () => {
    expect(() => createRegistry({ name: "n", version: "1", startupCheck: false }).tool({ name: 42 as never })(() => seedResult())).toThrow(
      /^registry\.tool\(\) at .*tool-name\.test\.ts:\d+:\d+: option "name" takes a string, not a number \(42\)\.$/u,
    );
  });

  test("property: every accepted name is one the SDK accepts without a warning; every refused one comes with an accepted alternative", () => {
    const name = fc.oneof(
      fc.string({ unit: "binary", maxLength: 140 }),
      fc.stringMatching(/^[A-Za-z0-9_.-]{0,130}$/u),
      fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype)),
    );
    fc.assert(
      fc.property(name, (candidate) => {
        let message: string | undefined;
        try {
          register(candidate);
        } catch (error) {
          message = (error as Error).message;
        }
        if (message === undefined) {
          expect(TOOL_NAME_PATTERN.test(candidate)).toBe(true);
          expect(validateToolName(candidate)).toEqual({ isValid: true, warnings: [] });
          expect(Object.prototype.hasOwnProperty.call(Object.prototype, candidate)).toBe(false);
        } else if (candidate !== "") {
          const instead = alternative(message);
          expect(instead).not.toBeNull();
          expect(() => register(instead!)).not.toThrow();
        }
      }),
      { numRuns: 3_000, seed: 12 },
    );
  });

  test("names at the edges of the rule are served over Streamable HTTP without one SDK warning", async () => {
    const warn = vi.spyOn(console, "warn");
    const registry = createRegistry({ name: "edges", version: "1.0.0", startupCheck: false });
    const names = ["a", "_", "A.b-c_9", "x".repeat(128), "constructor_tool"];
    for (const name of names) registry.tool({ name })(() => seedResult());
    const serving = await registry.serveHttp();
    const client = new Client({ name: "names", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(serving.url));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(names);
      for (const name of names) expect(firstText(await client.callTool({ name }))).toContain("Tokyo");
    } finally {
      await client.close();
      await serving.close();
    }
    expect(warn).not.toHaveBeenCalled();
  });
});
