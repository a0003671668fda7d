import { describe, expect, it } from "vitest";
import { FAMILIES } from "../src/findings/index";
import { FINDING_KINDS } from "../src/kinds";

// The list of finding families (src/findings/) is what analyze.ts runs: a kind of the frozen table
// that no family reports would be documented and never found.
describe("the finding families", () => {
  it("report every kind of the table, and no other", () => {
    const reported = new Set(FAMILIES.flatMap((family) => family.kinds));
    expect([...reported].sort()).toEqual(Object.keys(FINDING_KINDS).sort());
  });

  it("have one registration family and names of their own", () => {
    expect(FAMILIES.filter((family) => family.phase === "registration")).toHaveLength(1);
    const names = FAMILIES.map((family) => family.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
