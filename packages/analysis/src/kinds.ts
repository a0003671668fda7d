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
  }),
  "missing-annotation": Object.freeze({
    id: "missing-annotation",
    code: 92001,
    title: "Registered tool has no return type annotation",
    help: "A registered tool must declare its return type explicitly (`: DataToolOutput` or `: Promise<DataToolOutput>`); an inferred type does not count.",
  }),
  "not-data-tool-output": Object.freeze({
    id: "not-data-tool-output",
    code: 92002,
    title: "Registered tool does not return DataToolOutput",
    help: "A registered tool's declared return type must be DataToolOutput, a Promise of it, or a type assignable to it; never any, unknown, never or a generator.",
  }),
  "unverifiable-registration": Object.freeze({
    id: "unverifiable-registration",
    code: 92003,
    title: "Registration cannot be verified",
    help: "The analysis cannot see which function is registered here (the decorator or the registry escapes, the value is computed or can be reassigned, or the registry's types cannot be resolved). Apply `registry.tool()` directly to a declared function.",
  }),
  "invalid-option": Object.freeze({
    id: "invalid-option",
    code: 92004,
    title: "Unknown option, or an option of the wrong type",
    help: "The options object written in `createRegistry({…})` or `registry.tool({…})` has a key its type does not know (a misspelling, such as `requireVerifed`) or a value of the wrong type. The registry refuses such options when the server starts; write the key and the value its type takes.",
  }),
});
