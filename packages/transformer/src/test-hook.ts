/**
 * Test only: `SOURCED_TRANSFORMER_TEST_FAILURE=<step>:<subject>` makes one step throw, so the tests
 * can prove an internal failure becomes one diagnostic and the build goes on. Steps:
 * `analyze:<file name>` (the check of a file) and `transform:<tool name>` (stripping or stamping
 * one registration); several, separated by commas. Not an option: nothing else reads it, and it
 * is not part of the public API.
 */
export const TEST_FAILURE_VARIABLE = "SOURCED_TRANSFORMER_TEST_FAILURE";

export function throwIfInjected(step: "analyze" | "transform", subject: string): void {
  const value = process.env[TEST_FAILURE_VARIABLE];
  if (value === undefined || value === "") return;
  for (const entry of value.split(",")) {
    const colon = entry.indexOf(":");
    if (entry.slice(0, colon).trim() === step && entry.slice(colon + 1).trim() === subject) {
      throw new Error(`injected failure (${TEST_FAILURE_VARIABLE}=${value})`);
    }
  }
}
