/*
 * Tool names are checked when they are registered, not when they are served: a name the MCP
 * specification does not allow makes the SDK warn on every request, and a name every JavaScript
 * object already has (`constructor`, `__proto__`, `toString`, …) collides with the SDK's lookup
 * table of tools, so the server fails to start or answers every request with an error. The
 * registry refuses such a name when the tool is registered; the analysis reports it at build time,
 * in the same words.
 */
/**
 * The MCP specification's tool-name rule: 1 to 128 characters, each A–Z, a–z, 0–9, `_`, `-` or `.`;
 * and, as the SDK warns otherwise, not starting or ending with `-` or `.`.
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,126}[A-Za-z0-9_])?$/;
const TOOL_NAME_RULE = 'the MCP tool-name rule (1 to 128 characters, each A-Z, a-z, 0-9, "_", "-" or ".", not starting or ending with "-" or ".")';
const MAX_LENGTH = 128;

/** Names every plain object inherits: a tool of that name would be found where none is registered. */
const OBJECT_BUILT_INS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A valid name close to `name`: disallowed characters become `_`, built-ins get a `_tool` suffix. */
export function suggestToolName(name: string): string {
  // `#name`, a private method's: the name without its `#`.
  let suggestion = [...name.replace(/^#(?=.)/u, "")]
    .map((char) =>
      // Stryker disable next-line Regex: `char` is one code point, so either anchor alone says the same.
      /^[A-Za-z0-9_.-]$/u.test(char) ? char : "_",
    )
    .join("")
    .replace(/^[.-]+/u, "")
    .slice(0, MAX_LENGTH)
    .replace(/[.-]+$/u, "");
  if (/^_*$/u.test(suggestion)) suggestion = "tool";
  if (OBJECT_BUILT_INS.has(suggestion)) suggestion = `${suggestion.replace(/^_+|_+$/gu, "")}_tool`;
  return suggestion;
}

/** What is wrong with `name` as a tool name, or `undefined` when it is fine. */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return `the tool name must be a string, got ${name === null ? "null" : typeof name}`;
  const quoted = JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
  if (!TOOL_NAME_PATTERN.test(name)) {
    // Stryker disable next-line Regex: `char` is one code point, so either anchor alone says the same.
    const bad = [...name].find((char) => !/^[A-Za-z0-9_.-]$/u.test(char));
    const what =
      bad !== undefined
        ? `it contains ${bad === " " ? "a space" : JSON.stringify(bad)}`
        : // Stryker disable next-line ConditionalExpression: unreachable, register() refuses an empty name first (as anonymous).
          name.length === 0
          ? // Stryker disable next-line StringLiteral: as above, unreachable.
            "it is empty"
          : name.length > MAX_LENGTH
            ? `it has ${name.length} characters`
            : `it starts or ends with ${JSON.stringify(/^[.-]/u.test(name) ? name[0] : name.at(-1))}`;
    return `the tool name ${quoted} breaks ${TOOL_NAME_RULE}: ${what}. Pass { name: ${JSON.stringify(suggestToolName(name))} }`;
  }
  if (OBJECT_BUILT_INS.has(name)) {
    return (
      `the tool name ${quoted} is a property every JavaScript object inherits (Object.prototype.${name}), ` +
      `so a lookup by name could find it where no tool is registered. Pass { name: ${JSON.stringify(suggestToolName(name))} }`
    );
  }
  return undefined;
}

