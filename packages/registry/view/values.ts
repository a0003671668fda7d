/** A JSON object: not `null`, not an array. Everything the view reads from a result is checked with it first. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
