import { AjvJsonSchemaValidator as AjvV2 } from "@modelcontextprotocol/client/validators/ajv";
import { AjvJsonSchemaValidator as AjvV1 } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { dataToolOutputSchema, isSourceUrl, structuredContentSchema, toSourceUrl } from "../dist/index.js";

/*
 * toSourceUrl: an upstream URL (a search API's `url`) in the form the net accepts, or nothing.
 * Whatever it returns, the net and the v1 and v2 clients' validators of the published outputSchema
 * accept, and it names the address it was given.
 */

const published = z.toJSONSchema(structuredContentSchema, { target: "draft-7", io: "output" });
const clientV1 = new AjvV1().getValidator(published as never);
const clientV2 = new AjvV2().getValidator(published as never);
const netAccepts = (source: string) =>
  dataToolOutputSchema.safeParse({ content: [{ type: "text", text: "x" }], structuredContent: { sources: [source] } }).success;

describe("toSourceUrl", () => {
  test.each([
    ["https://example.org/a b", "https://example.org/a%20b"],
    ["https://exämple.org/straße?q=müller", "https://xn--exmple-cua.org/stra%C3%9Fe?q=m%C3%BCller"],
    ["https://example.org/search?q=a|b", "https://example.org/search?q=a%7Cb"],
    ["https://example.org/a^b[1]`c`", "https://example.org/a%5Eb%5B1%5D%60c%60"],
    ["https://example.org/100%", "https://example.org/100%25"],
    ["https://example.org/page#a#b", "https://example.org/page#a%23b"],
    ["  HTTPS://Example.ORG:443/Tokyo  ", "https://example.org/Tokyo"],
    // Whitespace a record's text carries that the URL parser would not strip (a no-break space).
    ["\u00a0https://example.org/Tokyo\u00a0", "https://example.org/Tokyo"],
    ["https://example.org/a\\b?c\\d", "https://example.org/a/b?c%5Cd"],
  ])("%j becomes %j", (text, expected) => {
    expect(toSourceUrl(text)).toBe(expected);
    expect(netAccepts(expected)).toBe(true);
  });

  test("a URL the rule accepts is returned as it is, not re-serialised", () => {
    for (const url of ["https://example.org/a/../b", "http://example.org:8080/x?y=1#z", "https://EXAMPLE.org/A%7cB"]) {
      expect(isSourceUrl(url)).toBe(true);
      expect(toSourceUrl(url)).toBe(url);
    }
  });

  test.each([
    ["a file path", "file:///srv/data/cities.jsonl"],
    ["a bare path", "/srv/data/cities.jsonl"],
    ["another scheme", "javascript:alert(1)"],
    ["a resource URI", "memory://graph"],
    ["user information, which disguises the host", "https://example.org@evil.test/"],
    ["credentials", "https://user:secret@example.org/"],
    ["a password without a user name", "https://:secret@example.org/"],
    ["an IPv6 host", "https://[::1]/cities"],
    ["no URL at all", "see the city archive"],
    ["an empty string", ""],
    ["a host the rule refuses", "https://exa%20mple.org/"],
  ])("%s gives nothing: %j", (_what, text) => {
    expect(toSourceUrl(text)).toBeUndefined();
  });

  test("what is not a string gives nothing", () => {
    for (const value of [undefined, null, 42, { href: "https://example.org/" }, ["https://example.org/"]]) expect(toSourceUrl(value)).toBeUndefined();
  });

  // Upstream URLs as APIs return them: valid ones, and valid ones with a character a rule refuses
  // put in somewhere (spaces, non-ASCII, markup, `|`, escapes, bidi controls), and any text at all.
  const hostile = fc.constantFrom(..." \t\"'<>\\^`{|}%@:/?#[]\u202E\u200Béü日ß\uFF0E.-_~!$&()*+,;=", "%zz", "%4", "%C3%A9", "\uD800");
  const upstream = fc.oneof(
    { weight: 2, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.webUrl({ withQueryParameters: true, withFragments: true, validSchemes: ["http", "https", "HTTPS", "ftp", "file"] }), fc.array(fc.tuple(fc.nat(), hostile), { minLength: 1, maxLength: 4 }))
        .map(([url, inserts]) => inserts.reduce((text, [at, char]) => text.slice(0, at % (text.length + 1)) + char + text.slice(at % (text.length + 1)), url)),
    },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  );
  /** Compares addresses up to the escapes toSourceUrl adds (and a WHATWG parser leaves as they are). */
  const sameAddress = (href: string) => href.replace(/%(7C|5E|5B|5D|60|7B|7D|5C|23|25)/giu, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));

  /** Why nothing honest can be made of `text`: the refusals toSourceUrl documents; `undefined` if none applies. */
  const whyNothing = (text: string): string | undefined => {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return "no URL";
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return "another scheme";
    if (url.username !== "" || url.password !== "") return "user information";
    if (!isSourceUrl(`${url.protocol}//${url.host}/`)) return "a host the rule refuses";
    return undefined;
  };

  test("whatever it returns, the net and the v1 and v2 clients accept; it names the same address; it is idempotent; nothing only for a reason (20,000 upstream URLs)", () => {
    const samples = fc.sample(upstream, { numRuns: 20_000, seed: 20_261_202 });
    const problems: string[] = [];
    let made = 0;
    let already = 0;
    for (const text of samples) {
      const source = toSourceUrl(text);
      if (source === undefined) {
        const why = whyNothing(text);
        if (why === undefined) problems.push(`${JSON.stringify(text)} names an http(s) address, yet gave nothing`);
        continue;
      }
      if (isSourceUrl(text)) already++;
      else made++;
      const verdicts = [netAccepts(source), clientV1({ sources: [source] }).valid, clientV2({ sources: [source] }).valid];
      if (verdicts.includes(false)) problems.push(`${JSON.stringify(text)} -> ${JSON.stringify(source)}: net, v1, v2 = ${verdicts.join(", ")}`);
      if (toSourceUrl(source) !== source) problems.push(`${JSON.stringify(source)} is not kept as it is`);
      if (sameAddress(new URL(source).href) !== sameAddress(new URL(text.trim()).href)) problems.push(`${JSON.stringify(text)} -> ${JSON.stringify(source)} names another address`);
    }
    console.log(`${samples.length} upstream URLs: ${already} accepted as they were, ${made} made acceptable, ${samples.length - already - made} nothing`);
    expect(problems.slice(0, 20)).toEqual([]);
    // Both sides exercised: URLs made acceptable, and URLs left as nothing for a reason.
    expect(made).toBeGreaterThan(samples.length / 10);
    expect(samples.length - already - made).toBeGreaterThan(samples.length / 10);
  });
});
