import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canNeverBeSource,
  closestMatch,
  describeSourceUrlProblem,
  isResourceUriForm,
  isSourceUrl,
  localDataAdvice,
  suggestToolName,
  TOOL_NAME_PATTERN,
  toolNameProblem,
  toSourceUrl,
} from "../dist/index.js";

/*
 * The contract's rules, written once: the registry enforces them at run time and the analysis at
 * build time, both from this package (they were two copies, kept equal by property tests; these are
 * those tests, now of the one copy). What a rule refuses, its words say why and what to write; what
 * they suggest passes the rule.
 */

const hostile = fc.string({ unit: fc.constantFrom(..."aZ09_-.: /\\é%#?@".split("")), maxLength: 40 });
const names = fc.oneof(hostile, fc.constantFrom("constructor", "toString", "__proto__", "", "x".repeat(129), "-a", "a.", "#secret", "valid_name"));
const strings = fc.oneof(
  fc.string(),
  hostile,
  fc.tuple(fc.constantFrom("https://", "http://", "HTTPS://", "https:/", "ftp://", "memory://", "", "./", "/"), hostile).map(([scheme, rest]) => scheme + rest),
  fc.constantFrom("memory://graph", "file:///srv/data.json", "./data.json", "cities.csv", "C:\\data\\x.csv", "urn:isbn:0451450523", "HTTPS://example.org/", "example.org", "~/x.json"),
  fc.tuple(fc.constantFrom("memory:", "file:", "urn:", "http:", "https:", "HTTP:", "data:", "JavaScript:", "blob:", "about:", ""), fc.webPath()).map(([scheme, path]) => `${scheme}${path}`),
  fc.webUrl(),
);

/** The fix a refusal suggests (`; write "…"`), if any. */
const suggested = (message: string): string | undefined => /; write ("(?:[^"\\]|\\.)*")/u.exec(message)?.[1];

describe("the tool-name rule", () => {
  it("refuses exactly what breaks the MCP pattern or names a built-in of every object; its suggestion passes", () => {
    fc.assert(
      fc.property(names, (name) => {
        const problem = toolNameProblem(name);
        expect(problem === undefined).toBe(TOOL_NAME_PATTERN.test(name) && !(name in Object.prototype));
        if (problem === undefined) return;
        const suggestion = suggestToolName(name);
        expect(problem).toContain(`Pass { name: ${JSON.stringify(suggestion)} }`);
        expect(toolNameProblem(suggestion)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it("says what breaks it, in the words the registry throws and the analysis reports", () => {
    expect(toolNameProblem("top city")).toBe(
      'the tool name "top city" breaks the MCP tool-name rule (1 to 128 characters, each A-Z, a-z, 0-9, "_", "-" or ".", not starting or ending with "-" or "."): it contains a space. Pass { name: "top_city" }',
    );
    expect(toolNameProblem("constructor")).toContain('(Object.prototype.constructor), so a lookup by name could find it where no tool is registered. Pass { name: "constructor_tool" }');
    expect(toolNameProblem(42)).toBe("the tool name must be a string, got number");
  });
});

describe("the URL rule", () => {
  it("a refused source is told the rule, and any fix it suggests is accepted; nothing accepted is refused", () => {
    fc.assert(
      fc.property(strings, (value) => {
        if (isSourceUrl(value)) {
          expect(canNeverBeSource(value)).toBe(false);
          expect(toSourceUrl(value)).toBe(value);
          return;
        }
        const message = describeSourceUrlProblem(value);
        expect(message.startsWith("must be an absolute http: or https: URL")).toBe(true);
        const fix = suggested(message);
        if (fix !== undefined) expect(isSourceUrl(JSON.parse(fix) as string)).toBe(true);
        // A URI a served resource may have is told so (local data, how to serve it), and never reported at build time.
        const local = localDataAdvice(value);
        expect(message.endsWith(local)).toBe(true);
        expect(message.includes("the URI of a resource this server serves may stand as a source")).toBe(isResourceUriForm(value) && local === "");
        expect(canNeverBeSource(value)).toBe(!isResourceUriForm(value));
        const made = toSourceUrl(value);
        if (made !== undefined) expect(isSourceUrl(made)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("reports at build time only what no rule can accept: other schemes are left to the net (a resource's URI may be a source)", () => {
    expect(["./data.json", "example.org/x", "https://example.org/a b", "HTTPS://example.org/", "C:\\data\\x.csv", "", "memory://graph space", "javascript:alert(1)", "data:text/plain,x"].filter(canNeverBeSource)).toHaveLength(9);
    expect(["https://example.org/", "memory://graph", "file:///data/cities.json", "urn:isbn:0451450523"].filter(canNeverBeSource)).toEqual([]);
  });

  it("a path or a file: URL is told how to serve the file as a resource; another scheme, that a served resource may be cited", () => {
    for (const path of ["./data/cities.json", "/srv/cities.json", "cities.csv", "C:\\data\\cities.csv", "file:///srv/cities.json"]) {
      expect(describeSourceUrlProblem(path)).toContain('serve the file as a resource and cite the resource\'s URI, registry.resource("cities.');
    }
    expect(describeSourceUrlProblem("example.org")).not.toContain("serve the file");
    expect(describeSourceUrlProblem("memory://graph")).toContain("the URI of a resource this server serves may stand as a source");
    expect(describeSourceUrlProblem("https://example.org/top cities")).toBe('must be an absolute http: or https: URL (it contains a space); write "https://example.org/top%20cities"');
  });
});

describe("did-you-mean", () => {
  const words = fc.array(fc.string({ unit: fc.constantFrom(..."abcdefgh".split("")), minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 });

  it("answers a candidate or nothing; a known word, in any case, itself", () => {
    fc.assert(
      fc.property(words, fc.string({ maxLength: 12 }), (known, word) => {
        const match = closestMatch(word, known);
        if (match !== undefined) expect(known).toContain(match);
        expect(closestMatch(known[0]!.toUpperCase(), known)?.toLowerCase()).toBe(known.find((candidate) => candidate.toLowerCase() === known[0]!.toLowerCase()));
      }),
      { numRuns: 500 },
    );
  });

  it("finds a typo (a third of the letters, at least one), and nothing farther", () => {
    expect(closestMatch("requireVerifed", ["name", "requireVerified", "startupCheck"])).toBe("requireVerified");
    expect(closestMatch("nam", ["name", "version"])).toBe("name");
    expect(closestMatch("nmae", ["name", "version"])).toBeUndefined();
    expect(closestMatch("zzzz", ["name", "version"])).toBeUndefined();
  });
});
