import type { FindingId, FindingKind } from "./api.js";

/**
 * Every finding id with its diagnostic code. The transformer prints the code the way tsc does
 * (`TS92001`), the CLI as `SRC92001`; both read it from here so the numbers never drift apart.
 */
export const FINDING_KINDS: Readonly<Record<FindingId, FindingKind>> = Object.freeze({
  "internal-error": Object.freeze({
    id: "internal-error",
    code: 92000,
    title: "The analysis failed on this registration",
    help: "An unexpected failure while judging one registration. It is reported instead of crashing the build; please report it with the code that triggers it.",
    severity: "error",
  }),
  "missing-annotation": Object.freeze({
    id: "missing-annotation",
    code: 92001,
    title: "Registered tool has no return type annotation",
    help: "A registered tool must declare its return type explicitly (`: DataToolOutput` or `: Promise<DataToolOutput>`); an inferred type does not count.",
    severity: "error",
  }),
  "not-data-tool-output": Object.freeze({
    id: "not-data-tool-output",
    code: 92002,
    title: "Registered tool does not return DataToolOutput",
    help: "A registered tool's declared return type must be DataToolOutput, a Promise of it, or a type assignable to it; never any, unknown, never or a generator.",
    severity: "error",
  }),
  "unverifiable-registration": Object.freeze({
    id: "unverifiable-registration",
    code: 92003,
    title: "Registration cannot be verified",
    help: "The analysis cannot see which function is registered here (the decorator or the registry escapes, the value is computed or can be reassigned, or the registry's types cannot be resolved). Apply `registry.tool()` directly to a declared function.",
    severity: "error",
  }),
  "invalid-option": Object.freeze({
    id: "invalid-option",
    code: 92004,
    title: "Unknown option, or an option of the wrong type",
    help: "The options object written in `createRegistry({…})` or `registry.tool({…})` has a key its type does not know (a misspelling, such as `requireVerifed`) or a value of the wrong type. The registry refuses such options when the server starts; write the key and the value its type takes.",
    severity: "error",
  }),
  "unnamed-tool": Object.freeze({
    id: "unnamed-tool",
    code: 92005,
    title: "Registered tool has no name",
    help: "The registry serves `options.name`, else the function's name; an anonymous function or arrow registered without `name` has neither, and the registry throws at start-up. Name the function or pass `{ name }`.",
    severity: "error",
  }),
  "duplicate-tool-name": Object.freeze({
    id: "duplicate-tool-name",
    code: 92006,
    title: "Two tools with one name on one registry",
    help: "A registry serves one tool per name and throws at start-up when a second registration takes a name already registered. Give one of them another name with `{ name }`.",
    severity: "error",
  }),
  "invalid-tool-name": Object.freeze({
    id: "invalid-tool-name",
    code: 92007,
    title: "Tool name the registry refuses",
    help: "The registry enforces the MCP tool-name rule (1 to 128 characters, each A-Z, a-z, 0-9, `_`, `-` or `.`, not starting or ending with `-` or `.`) and refuses names every object inherits; it throws at start-up.",
    severity: "error",
  }),
  "invalid-source": Object.freeze({
    id: "invalid-source",
    code: 92008,
    title: "Source the run time refuses on every call",
    help: "A source written as a literal in the returned object breaks the run time's URL rule (a relative path, a bare host, a space…): every call of the tool would fail. Cite an absolute http(s) URL.",
    severity: "error",
  }),
  "strict-null-checks-off": Object.freeze({
    id: "strict-null-checks-off",
    code: 92009,
    title: "strictNullChecks is off",
    help: "Without strictNullChecks, DataToolOutput admits undefined and null, so the annotation no longer guarantees a result. Reported once per project, at its first registration.",
    severity: "warning",
  }),
  "undeclared-output-key": Object.freeze({
    id: "undeclared-output-key",
    code: 92010,
    title: "structuredContent key the run time refuses on every call",
    help: "A returned object's structuredContent carries a key (often through a spread) that the tool's declared return type does not declare, or the declared return type declares one that the tool's `output` does not: the net accepts sources, table, charts, force and the keys of the tool's `output` only. Declare it (`output` and `DataResult<Extra>`) or leave it out.",
    severity: "error",
  }),
});
