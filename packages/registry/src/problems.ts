import type { z } from "zod";

/*
 * The words of a schema's problems: zod's issues (and a Standard Schema's) as the one-line
 * sentences every message of the registry uses — the result check's, the input check's, a
 * resource read's. A leaf: it knows no tool, no net and no server.
 */

/** How many problems an error result lists; the warning carries the same text. */
const MAX_PROBLEMS = 3;

/** Where a problem lies, as messages say it: `structuredContent.sources[0]`, `the result`. */
export function describePath(path: readonly PathSegment[], root = "the result"): string {
  if (path.length === 0) return root;
  const text = path
    .map((segment) => (typeof segment === "object" ? segment.key : segment))
    .map((key, index) =>
      typeof key === "number"
        ? `[${key}]`
        : typeof key === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/u.test(key)
          ? `${index === 0 ? "" : "."}${key}`
          : `[${JSON.stringify(String(key).slice(0, 80))}]`,
    )
    .join("");
  return text.length > 300 ? `${text.slice(0, 150)}…${text.slice(-150)}` : text;
}

export type PathSegment = PropertyKey | { readonly key: PropertyKey };

/** A problem a schema reports: a zod issue, or a Standard Schema's (`message` and `path` only). */
export interface Issue {
  readonly message: string;
  readonly path?: readonly PathSegment[] | undefined;
  readonly code?: string;
  /** zod's `invalid_union`: the issues of each branch. */
  readonly errors?: readonly (readonly Issue[])[];
}

/** For a union (a content block), report the branch that came closest rather than "Invalid input". */
function closestIssue(issue: Issue): Issue {
  if (issue.code !== "invalid_union" || issue.errors === undefined || issue.errors.length === 0) return issue;
  const branch = issue.errors.reduce((best, next) => (next.length < best.length ? next : best));
  const inner = branch[0];
  return inner ? closestIssue({ ...inner, path: [...(issue.path ?? []), ...(inner.path ?? [])] }) : issue;
}

/** The first problems of a failed parse, one line each: `structuredContent.sources[0]: must be …`. */
export function describeProblems(issues: readonly Issue[], max = MAX_PROBLEMS, root?: string): string[] {
  // One value can fail two checks with the same message (a URL that is no string, say).
  const all = [...new Set(issues.map((raw) => {
    const issue = closestIssue(raw);
    return `${describePath(issue.path ?? [], root)}: ${issue.message}`;
  }))];
  const lines = all.slice(0, max);
  if (all.length > max) lines.push(`… and ${all.length - max} more`);
  return lines;
}

/** What a JSON type is called in messages. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  array: "a list",
  object: "an object",
  string: "a string",
  number: "a number",
  boolean: "true or false",
  null: "null",
};

/** A value as messages name what was found: "a string", "a list", "null". */
function describeFound(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * zod's default messages ("Invalid input: expected array, received string") in plain words,
 * for the problems the contract's own messages do not word: the error map of one parse, so the
 * schema's messages still come first and zod's global configuration is left alone.
 */
export function inPlainWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return issue.input === undefined ? `is missing: it must be ${expected}` : `must be ${expected}, not ${describeFound(issue.input)}`;
    }
    case "too_small":
      return issue.origin === "number" ? `must be at least ${String(issue.minimum)}` : undefined;
    case "too_big":
      return issue.origin === "number" ? `must be at most ${String(issue.maximum)}` : undefined;
    case "invalid_format":
      return issue.format === "datetime" ? "must be an ISO 8601 date and time with its offset, e.g. 2026-01-31T12:00:00Z" : undefined;
    case "invalid_value":
      return `must be ${issue.values.map((value) => JSON.stringify(value)).join(" or ")}`;
    default:
      return undefined;
  }
}

/** A text as messages quote it: as JSON, cut at 40 characters ("Compare the two cities by population, ar…"), so a long one leaves room for the rest. */
export function quoteText(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** A JSON value that is neither an object nor a list: what a slip puts where an object goes. */
export type Scalar = string | number | boolean | null;

export function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/**
 * The text a scalar given where a text goes would be written as, quoted as messages quote a value:
 * a string itself, a number or true or false as JSON writes it ("42", "true"); null has none to
 * offer, so the words leave `text` for the author to write.
 */
export function quotedTextOf(value: Scalar): string | undefined {
  return value === null ? undefined : quoteText(String(value));
}

/** A value that is no object, as a message says it: "a string", "nothing (undefined)", "a list". */
export function describeReturned(value: unknown): string {
  if (value === undefined) return "nothing (undefined)";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
