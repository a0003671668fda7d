import { AjvJsonSchemaValidator as AjvV2 } from "@modelcontextprotocol/client/validators/ajv";
import { AjvJsonSchemaValidator as AjvV1 } from "@modelcontextprotocol/sdk/validation/ajv";
import * as rules from "@sourced/contract-rules";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createRegistry, isSourceUrl, SOURCE_URL_PATTERN, structuredContentSchema } from "../dist/index.js";
import { PUBLISHED_SOURCE_URL_PATTERN } from "@sourced/contract-rules";
import { connectInMemory, seedResult } from "./helpers.js";

// The registries of this file test the run time (their tools break the contract on purpose, or sit
// in no tsconfig): the start-up check is off here; startup-check.test.ts tests it.

/*
 * One URL rule, two readers: the server accepts a source exactly when the contract's JSON Schema
 * (generated from `structuredContentSchema`) does, as the SDK clients' own validators read it (v1
 * `@modelcontextprotocol/sdk` and v2 `@modelcontextprotocol/client`, both ajv with ajv-formats).
 * What tools/list publishes in every tool's outputSchema is its superset (issue 44: 600 characters
 * a tool made a list of 1,000 tools 2 MB): a client's check accepts every source the server sends.
 */

type Check = (value: unknown) => { valid: boolean };
let published: Record<string, unknown>;
let listed: Record<string, unknown>;
let clientV1: Check;
let clientV2: Check;

beforeAll(async () => {
  published = z.toJSONSchema(structuredContentSchema, { target: "draft-2020-12", io: "output" });
  clientV1 = new AjvV1().getValidator(published);
  clientV2 = new AjvV2().getValidator(published);
  // The schema exactly as a client receives it in tools/list.
  const registry = createRegistry({ name: "urls", version: "1.0.0", startupCheck: false });
  registry.tool()(function list_cities() {
    return seedResult();
  });
  const { client, close } = await connectInMemory(registry);
  listed = (await client.listTools()).tools[0]!.outputSchema as Record<string, unknown>;
  await close();
});

const server = (source: string) => structuredContentSchema.safeParse({ sources: [source] }).success;

const pick = (pool: string) => fc.constantFrom(...[...pool]);
const hostile = pick(" \t\n\u0000\"'<>\\^`{|}%@:/?#[]\u202E\u200Bé日\uFF0E.-_~!$&()*+,;=");
const plain = pick("abcXYZ019-._~");
const chunk = fc.array(fc.oneof({ weight: 6, arbitrary: plain }, { weight: 2, arbitrary: hostile }, { weight: 1, arbitrary: fc.constantFrom("%20", "%zz", "%4", "%C3%A9", "xn--", "0x1f") }), { maxLength: 8 }).map((chars) => chars.join(""));

const scheme = fc.constantFrom("https://", "http://", "https://", "http://", "HTTPS://", "Http://", "https:", "https:/", "https:\\\\", "ftp://", "javascript:", "data:", "//", "", "https:///");
const label = fc.oneof(
  { weight: 5, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,10}$/) },
  { weight: 1, arbitrary: fc.constantFrom("xn--exmple-cua", "xn--a", "-", "_dmarc", "123", "0x1f", "0x", "localhost", "exämple", "例え", "EXAMPLE") },
  { weight: 1, arbitrary: chunk },
);
const domain = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join("."));
const ipv4 = fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 3, maxLength: 5 }).map((parts) => parts.join("."));
const host = fc.oneof({ weight: 6, arbitrary: domain }, { weight: 2, arbitrary: ipv4 }, { weight: 1, arbitrary: fc.constantFrom("[::1]", "[2001:db8::1]", "", "evil.com@example.org", "example.org\\@evil.com") });
const port = fc.option(fc.oneof(fc.integer({ min: 0, max: 99_999 }).map((n) => `:${n}`), fc.constantFrom(":", ":08080", ":abc", ":65535", ":65536")), { nil: "" });
const userinfo = fc.option(fc.constantFrom("user@", "user:pass@", "@", "a%40b@"), { nil: "", freq: 8 });
const path = fc.array(chunk, { maxLength: 4 }).map((segments) => (segments.length === 0 ? "" : `/${segments.join("/")}`));
const suffix = fc.tuple(fc.option(chunk.map((q) => `?${q}`), { nil: "" }), fc.option(chunk.map((f) => `#${f}`), { nil: "" })).map(([q, f]) => q + f);

const structured = fc.tuple(scheme, userinfo, host, port, path, suffix).map((parts) => parts.join(""));
/** A valid web URL with one character inserted, replaced or removed somewhere. */
const mutated = fc
  .tuple(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.nat(), fc.oneof(hostile, plain, fc.constant("")), fc.boolean())
  .map(([url, at, char, replace]) => {
    const index = at % (url.length + 1);
    return url.slice(0, index) + char + url.slice(replace ? index + 1 : index);
  });
const urlLike = fc.oneof(
  { weight: 5, arbitrary: structured },
  { weight: 2, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true, validSchemes: ["http", "https"] }) },
  { weight: 2, arbitrary: mutated },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
);

describe("the source URL rule", () => {
  test("the published schema carries the rule as its pattern, next to format: uri", () => {
    const items = (published.properties as { sources: { items: { pattern: string; format: string } } }).sources.items;
    expect(items.format).toBe("uri");
    expect(new RegExp(items.pattern, "u").source).toBe(new RegExp(SOURCE_URL_PATTERN, "u").source);
  });

  test("what tools/list publishes for a source is a superset of the rule: both clients accept every source the server accepts, on 12,000 generated URL-like strings", () => {
    const items = (listed.properties as { sources: { items: { pattern: string; format: string } } }).sources.items;
    expect(items).toMatchObject({ pattern: PUBLISHED_SOURCE_URL_PATTERN, format: "uri" });
    const listedV1 = new AjvV1().getValidator(listed);
    const listedV2 = new AjvV2().getValidator(listed);
    const publishedRule = new RegExp(PUBLISHED_SOURCE_URL_PATTERN, "u");
    const samples = fc.sample(urlLike, { numRuns: 12_000, seed: 20_261_206 });
    const accepted = samples.filter((sample) => server(sample));
    expect(accepted.length).toBeGreaterThan(2_000);
    expect(accepted.filter((sample) => !publishedRule.test(sample) || !listedV1({ sources: [sample] }).valid || !listedV2({ sources: [sample] }).valid)).toEqual([]);
    // And it still refuses what is plainly no http(s) URL.
    for (const refused of ["javascript:alert(1)", "ftp://example.org", "https://exa mple.org", 'https://example.org/"><script>', "https://example.org/\\x"]) {
      expect(publishedRule.test(refused), refused).toBe(false);
    }
  });

  test("server and the v1 and v2 SDK clients' validators agree on 12,000 generated URL-like strings", () => {
    const samples = fc.sample(urlLike, { numRuns: 12_000, seed: 20_261_201 });
    const disagreements: string[] = [];
    let accepted = 0;
    for (const source of samples) {
      const verdicts = [server(source), isSourceUrl(source), clientV1({ sources: [source] }).valid, clientV2({ sources: [source] }).valid];
      if (new Set(verdicts).size !== 1) disagreements.push(`${JSON.stringify(source)}: server, rule, v1, v2 = ${verdicts.join(", ")}`);
      if (verdicts[0]) accepted++;
    }
    console.log(`${samples.length} URL-like strings: ${accepted} accepted, ${samples.length - accepted} refused, ${disagreements.length} disagreements`);
    expect(disagreements.slice(0, 20)).toEqual([]);
    // Both sides of the rule are exercised, not just one.
    expect(accepted).toBeGreaterThan(samples.length / 5);
    expect(samples.length - accepted).toBeGreaterThan(samples.length / 5);
  });

  test("every accepted source is an http(s) URL to a WHATWG parser (a browser, the gateway)", () => {
    const samples = fc.sample(urlLike, { numRuns: 5_000, seed: 7 }).filter(isSourceUrl);
    const broken = samples.filter((source) => {
      // A punycode label is not decoded by the rule: one that does not decode is a broken link.
      if (/[/.]xn--/iu.test(source.split(/[/?#]/u, 3).join("/"))) return false;
      try {
        return !["http:", "https:"].includes(new URL(source).protocol);
      } catch {
        return true;
      }
    });
    expect(broken).toEqual([]);
  });

  test.each([
    ["https://example.org/a b", "it contains a space", 'write "https://example.org/a%20b"'],
    ["https://exämple.org/", "it contains U+00E4", 'write "https://xn--exmple-cua.org/"'],
    ['https://example.org/"><script>alert(1)</script>', 'it contains "\\""', 'write "https://example.org/%22%3E%3Cscript%3Ealert(1)%3C/script%3E"'],
    ["https://example.org/%zz", 'it contains a "%" not followed by two hex digits', undefined],
    ["https://evil.com\\@example.org", 'it contains "\\\\"', 'write "https://evil.com/@example.org"'],
    ["https://example.org/\u202Etxt.exe", "it contains U+202E", 'write "https://example.org/%E2%80%AEtxt.exe"'],
    ["https://user:pw@example.org/", "it has user information before the host", undefined],
    ["HTTPS://EXAMPLE.ORG", "the scheme must be written in lowercase", 'write "https://example.org/"'],
    ["https://1.2.3.999/", 'its host "1.2.3.999" is not a domain name or an IPv4 address', undefined],
    ["https://example.org:99999/", "its port is not a number from 0 to 65535", undefined],
  ])("%j is refused by the server and both clients: %s", (source, why, suggestion) => {
    expect(clientV1({ sources: [source] }).valid).toBe(false);
    expect(clientV2({ sources: [source] }).valid).toBe(false);
    const parsed = structuredContentSchema.safeParse({ sources: [source] });
    expect(parsed.success).toBe(false);
    const message = parsed.error!.issues[0]!.message;
    expect(message).toContain(`must be an absolute http: or https: URL (${why}`);
    if (suggestion) expect(message).toContain(suggestion);
    else expect(message).not.toContain("; write");
  });

  test.each(["https://example.org/cities-data", "http://127.0.0.1:8080/data?q=1#top", "https://xn--exmple-cua.org/a%20b?x=(1)&y=*", "https://medium.com/@user/post", "http://localhost:3000/"])(
    "%j is accepted by the server and both clients",
    (source) => {
      expect([server(source), clientV1({ sources: [source] }).valid, clientV2({ sources: [source] }).valid]).toEqual([true, true, true]);
    },
  );
});

/** The message a refused source gets from the server, as the tool's author reads it. */
function refusal(source: unknown): string {
  const parsed = structuredContentSchema.safeParse({ sources: [source] });
  if (parsed.success) throw new Error(`${JSON.stringify(source)} was accepted`);
  return parsed.error.issues[0]!.message;
}

const RULE = "must be an absolute http: or https: URL";
/** What an absolute URI of another scheme is told: a resource the registry serves may be cited by its URI. */
const RESOURCE_ADVICE = '; the URI of a resource this server serves may stand as a source: serve the data with registry.resource() (docs/registry.md, "Local data")';

describe("each reason the URL rule gives, by a case of its own", () => {
  test.each([
    ["example.org/data", "it has no scheme (a relative or bare address)", ""],
    ["1http://example.org/", "it has no scheme (a relative or bare address)", ""],
    ["ftp://example.org/data.csv", 'its scheme is "ftp"', RESOURCE_ADVICE],
    ["git+ssh.v-2://example.org/", 'its scheme is "git+ssh.v-2"', RESOURCE_ADVICE],
    ["xhttps://example.org/", 'its scheme is "xhttps"', RESOURCE_ADVICE],
    ["Https://example.org/", "the scheme must be written in lowercase", '; write "https://example.org/"'],
    ["HTTP://example.org/", "the scheme must be written in lowercase", '; write "http://example.org/"'],
    // Lowercased it is still refused: nothing to suggest.
    ["HTTPS://[::1]", "the scheme must be written in lowercase", ""],
    ["https:x/http://example.org/", "the scheme must be followed by //", '; write "https://x/http://example.org/"'],
    ["https:example.org", "the scheme must be followed by //", '; write "https://example.org/"'],
    ["http:/example.org", "the scheme must be followed by //", '; write "http://example.org/"'],
    ["http://example.org/\tx", "it contains U+0009", '; write "http://example.org/x"'],
    ["http://example.org/\u007Fx", "it contains U+007F: percent-encode it, and write a host in punycode, xn--…", '; write "http://example.org/%7Fx"'],
    ["http://example.org/a%2", 'it contains a "%" not followed by two hex digits (at 20)', ""],
    ["http://example.org/%g0", 'it contains a "%" not followed by two hex digits (at 19)', ""],
    ["https://user@example.org/", "it has user information before the host (user@host), which disguises the host", ""],
    ["https://:8080/", "it has no host", ""],
    ["http://user@example.org/", "it has user information before the host (user@host), which disguises the host", ""],
    ["https://a:1b.org/", 'its host "a:1b.org" is not a domain name or an IPv4 address', ""],
    ["https://[::1]/", 'its host "[::1]" is not a domain name or an IPv4 address', ""],
    ["https://example.123/", 'its host "example.123" is not a domain name or an IPv4 address', ""],
    ["https://example.org:/", "its port is not a number from 0 to 65535", '; write "https://example.org/"'],
    ["https://example.org:65536/", "its port is not a number from 0 to 65535", ""],
  ])("%j: (%s)%s", (source, why, suggestion) => {
    expect(refusal(source)).toBe(`${RULE} (${why})${suggestion}`);
  });

  test.each([...`"<>\\^\`{|}`])("the character %s, which a URL may not carry as it is, is named", (char) => {
    expect(refusal(`https://example.org/a${char}b`)).toMatch(new RegExp(`^${RULE} \\(it contains ${JSON.stringify(char).replace(/[\\^|{}]/gu, "\\$&")}\\)`, "u"));
  });

  test("the printable ASCII edges, ! and ~, are not refused as characters", () => {
    expect(server("https://example.org/!~")).toBe(true);
    expect(refusal("https://example.org/!~[")).toBe(RULE);
  });

  test("only a string is a source URL, whatever it turns into", () => {
    expect(isSourceUrl({ toString: () => "https://example.org/" })).toBe(false);
    expect(isSourceUrl(new URL("https://example.org/"))).toBe(false);
    expect(isSourceUrl("https://example.org/")).toBe(true);
  });

  test("a refusal with no more specific reason is the rule alone, and suggests nothing the rule would refuse", () => {
    expect(refusal("https://example.org/[x]")).toBe(RULE);
  });

  test("a suggestion of up to 120 characters is quoted whole, a longer one cut at 120 with an ellipsis", () => {
    // "https://example.org/a%20b" is 25 characters.
    const at = (length: number) => `https://example.org/a b${"c".repeat(length - 25)}`;
    expect(refusal(at(120))).toBe(`${RULE} (it contains a space); write ${JSON.stringify(at(120).replace(" ", "%20"))}`);
    expect(refusal(at(121))).toBe(`${RULE} (it contains a space); write ${JSON.stringify(`${at(121).replace(" ", "%20").slice(0, 120)}…`)}`);
  });

  test.each([
    [42, "number"],
    [null, "null"],
    [undefined, "undefined"],
  ])("a source that is not a string (%s) is told what it is", (source, what) => {
    expect(refusal(source)).toBe(`${RULE}, got ${what}`);
  });
});

describe("the URL rule at its edges: server and both clients", () => {
  const verdicts = (source: string) => [server(source), clientV1({ sources: [source] }).valid, clientV2({ sources: [source] }).valid];

  test.each<[string, boolean]>([
    ...["0", "9", "10", "99", "100", "199", "200", "249", "250", "255"].map((octet): [string, boolean] => [`http://${octet}.${octet}.${octet}.${octet}/`, true]),
    ...["256", "260", "300", "01", "1000"].map((octet): [string, boolean] => [`http://1.2.3.${octet}/`, false]),
    ...["0", "9999", "10000", "59999", "60000", "64999", "65499", "65529", "65535"].map((port): [string, boolean] => [`http://example.org:${port}/`, true]),
    ...["65536", "65540", "65600", "66000", "70000", "100000", "08080"].map((port): [string, boolean] => [`http://example.org:${port}/`, false]),
    ["http://example.123a/", true],
    ["http://example.0xg/", true],
    ["http://a_b.example/", true],
    ["http://example.0x/", false],
    ["http://example.0x1F/", false],
    ["http://example..org/", false],
    ["http://example.org./", false],
    ["https://example.org/a/b/c%2F?q=/?#/?", true],
    ["https://example.org/a#b#c", false],
    ["https://example.org?a", true],
    ["https://example.org#a", true],
    ["http://", false],
  ])("%j: %s", (source, accepted) => {
    expect(verdicts(source)).toEqual([accepted, accepted, accepted]);
  });
});

/**
 * The advice a source naming local data gets: serve the file as a resource named `name` and cite
 * its URI; read as UTF-8 text, or for binary data (`mimeType` given: a database, a spreadsheet) as
 * a base64 blob of that type.
 */
const localDataAdvice = (name: string, mimeType?: string) =>
  `. A path or a file: URL is no link a client can open: for local data, serve the file as a resource and cite the resource's URI, ` +
  (mimeType === undefined
    ? `registry.resource("${name}", "local://${name}", {}, () => ({ contents: [{ uri: "local://${name}", text: readFileSync(file, "utf8") }] })) `
    : `registry.resource("${name}", "local://${name}", { mimeType: "${mimeType}" }, () => ({ contents: [{ uri: "local://${name}", mimeType: "${mimeType}", blob: readFileSync(file).toString("base64") }] })) `) +
  `and sources: ["local://${name}"] (docs/registry.md, "Local data")`;
const SQLITE = "application/vnd.sqlite3";
const NO_SCHEME = `${RULE} (it has no scheme (a relative or bare address))`;

describe("the advice for local data: which sources get it, in which words", () => {
  test.each([
    // A path: relative, home, absolute, Windows with either separator.
    ["./cities.json", NO_SCHEME, "cities.json"],
    ["~/cities.csv", NO_SCHEME, "cities.csv"],
    ["/srv/cities", NO_SCHEME, "cities"],
    ["\\\\share\\cities.tsv", NO_SCHEME, "cities.tsv"],
    ["C:\\data\\cities.db", `${RULE} (its scheme is "C")`, "cities.db", SQLITE],
    ["z:/data/cities", `${RULE} (its scheme is "z")`, "cities"],
    // A bare file name of a data format, each spelling of the formats with a variant.
    ...["cities.jsonl", "cities.yml", "cities.yaml", "cities.htm", "cities.html"].map((name): [string, string, string] => [name, NO_SCHEME, name]),
    // Binary data (a SQLite database, a spreadsheet, a PDF) is no UTF-8 text: a blob of its type.
    ["cities.sqlite", NO_SCHEME, "cities.sqlite", SQLITE],
    ["cities.sqlite3", NO_SCHEME, "cities.sqlite3", SQLITE],
    ["cities.xls", NO_SCHEME, "cities.xls", "application/vnd.ms-excel"],
    ["cities.xlsx", NO_SCHEME, "cities.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ["CITIES.PDF", NO_SCHEME, "CITIES.PDF", "application/pdf"],
    ["./photos/tokyo.png", NO_SCHEME, "tokyo.png", "image/png"],
    // A file: URL, in any case.
    ["file:///var/lib/cities/cities.sqlite", `${RULE} (its scheme is "file")`, "cities.sqlite", SQLITE],
    ["file:///srv/cities.parquet", `${RULE} (its scheme is "file")`, "cities.parquet", "application/vnd.apache.parquet"],
    ["FILE:///srv/cities.md", `${RULE} (its scheme is "FILE")`, "cities.md"],
    // The name in the advice is the last segment, cleaned of what a URI would have to escape...
    ["./my data (v2).json", NO_SCHEME, "mydatav2.json"],
    ["~/a-b_c~d.csv", NO_SCHEME, "a-b_c~d.csv"],
    // ...or data.json when nothing is left.
    ["/", NO_SCHEME, "data.json"],
    ["./données/", NO_SCHEME, "data.json"],
  ])("%j: %s, then the advice to serve %j", (source, refused, name, mimeType?: string) => {
    expect(refusal(source)).toBe(`${refused}${localDataAdvice(name, mimeType)}`);
  });

  test.each([
    // A bare name or a bare host names no file; with a path it is a web address without its scheme.
    ["cities", NO_SCHEME],
    ["example.org", NO_SCHEME],
    ["reports.pdfarchive.example", NO_SCHEME],
    ["example.org/report.pdf", NO_SCHEME],
    ["cities.json.bak", NO_SCHEME],
    ["notes/file:cities", NO_SCHEME],
    // Another scheme is a resource's URI, even when it ends in a data file's name.
    ["s3://bucket/cities.json", `${RULE} (its scheme is "s3")${RESOURCE_ADVICE}`],
    ["c:cities.json", `${RULE} (its scheme is "c")${RESOURCE_ADVICE}`],
  ])("%j gets no advice for local data: %s", (source, refused) => {
    expect(refusal(source)).toBe(refused);
  });

  test("what is not a string is told what it is, never read as a path or a file: URL", () => {
    expect(refusal(new URL("file:///srv/cities.json"))).toBe(`${RULE}, got object`);
    expect(refusal({ toString: () => "./cities.json" })).toBe(`${RULE}, got object`);
  });
});

describe("which URIs of another scheme are told they may stand as a resource's URI", () => {
  test.each([
    ["s3://bucket/a%41", true],
    ["s3://bucket/[x]@!$&'()*+,;=~-._?#:", true],
    ["s3://bucket/javascript:alert", true],
    // Not RFC 3986 characters, or a broken escape: no URI at all.
    ["s3://bucket/a b", false],
    ["s3://bucket/a%4", false],
    ["s3://bucket/a%4g", false],
    ["s3://bucket/a\"b", false],
    // A scheme a browser runs or renders itself.
    ["javascript:alert(1)", false],
    ["DATA:text/html,x", false],
    ["about:blank", false],
  ])("%j: %s", (source, advised) => {
    const scheme = /^[^:]+/u.exec(source)![0];
    expect(refusal(source)).toBe(`${RULE} (its scheme is ${JSON.stringify(scheme)})${advised ? RESOURCE_ADVICE : ""}`);
  });
});

test("the rule the registry exports is @sourced/contract-rules' own, which the analysis reads too: written once", () => {
  expect(isSourceUrl).toBe(rules.isSourceUrl);
  expect(SOURCE_URL_PATTERN).toBe(rules.SOURCE_URL_PATTERN);
});
