/*
 * The registry's tool-name rule, as the registry enforces it when a tool is registered (its
 * `tool-name.ts`): a copy, because the analysis depends on no package of ours (a build step must
 * not install the registry, the MCP SDK and zod to judge a name). A test pins the two equal on
 * the same names, messages and suggestions included.
 */

/**
 * The MCP specification's tool-name rule: 1 to 128 characters, each A–Z, a–z, 0–9, `_`, `-` or `.`;
 * and, as the SDK warns otherwise, not starting or ending with `-` or `.`.
 */
const TOOL_NAME_PATTERN = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,126}[A-Za-z0-9_])?$/;
const TOOL_NAME_RULE = 'the MCP tool-name rule (1 to 128 characters, each A-Z, a-z, 0-9, "_", "-" or ".", not starting or ending with "-" or ".")';
const MAX_LENGTH = 128;

/** Names every plain object inherits: a tool of that name would be found where none is registered. */
const OBJECT_BUILT_INS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A valid name close to `name`: disallowed characters become `_`, built-ins get a `_tool` suffix. */
function suggestToolName(name: string): string {
  let suggestion = [...name.replace(/^#(?=.)/u, "")]
    .map((char) => (/^[A-Za-z0-9_.-]$/u.test(char) ? char : "_"))
    .join("")
    .replace(/^[.-]+/u, "")
    .slice(0, MAX_LENGTH)
    .replace(/[.-]+$/u, "");
  if (/^_*$/u.test(suggestion)) suggestion = "tool";
  if (OBJECT_BUILT_INS.has(suggestion)) suggestion = `${suggestion.replace(/^_+|_+$/gu, "")}_tool`;
  return suggestion;
}

/** What is wrong with `name` as a tool name, in the registry's words, or `undefined` when it is fine. */
export function toolNameProblem(name: string): string | undefined {
  if (TOOL_NAME_PATTERN.test(name) && !OBJECT_BUILT_INS.has(name)) return undefined;
  const quoted = JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
  if (!TOOL_NAME_PATTERN.test(name)) {
    const bad = [...name].find((char) => !/^[A-Za-z0-9_.-]$/u.test(char));
    const what =
      bad !== undefined
        ? `it contains ${bad === " " ? "a space" : JSON.stringify(bad)}`
        : name.length === 0
          ? "it is empty"
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
