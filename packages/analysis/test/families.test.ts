import { describe, expect, it } from "vitest";
import { FAMILIES } from "../src/findings/index";
import { FINDING_KINDS } from "../src/kinds";

// The list of finding families (src/findings/) is what analyze.ts runs, and each family declares
// the kinds it owns beside its detection: the frozen table every front-end reads is made of those
// declarations, so a kind declared twice, or one no family reports, would be a table that lies.
describe("the finding families", () => {
  const declared = FAMILIES.flatMap((family) => family.declares);

  it("report every kind of the table, and no other", () => {
    const reported = new Set(FAMILIES.flatMap((family) => family.kinds));
    expect([...reported].sort()).toEqual(Object.keys(FINDING_KINDS).sort());
    for (const family of FAMILIES) for (const kind of family.declares) expect(family.kinds, family.name).toContain(kind.id);
  });

  it("declare each kind once: no id and no code twice", () => {
    const ids = declared.map((kind) => kind.id);
    const codes = declared.map((kind) => kind.code);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index), "ids declared twice").toEqual([]);
    expect(codes.filter((code, index) => codes.indexOf(code) !== index), "codes declared twice").toEqual([]);
  });

  it("are the frozen table: its kinds are theirs, in the order of their codes", () => {
    const byCode = [...declared].sort((a, b) => a.code - b.code);
    expect(Object.keys(FINDING_KINDS)).toEqual(byCode.map((kind) => kind.id));
    for (const kind of byCode) expect(FINDING_KINDS[kind.id]).toBe(kind);
    expect(Object.isFrozen(FINDING_KINDS) && byCode.every((kind) => Object.isFrozen(kind))).toBe(true);
  });

  it("have one registration family and names of their own", () => {
    expect(FAMILIES.filter((family) => family.phase === "registration")).toHaveLength(1);
    const names = FAMILIES.map((family) => family.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
