import type { FindingId, FindingKind } from "./api.js";
import { type DeclaredId, FAMILIES } from "./findings/index.js";

/**
 * Every finding id with its diagnostic code, title, help and severity, in the order of their codes.
 * The transformer prints the code the way tsc does (`TS92001`), the CLI as `SRC92001`; both read it
 * from here so the numbers never drift apart. Each kind is declared by the family that owns it, in
 * its file of findings/ (`defineKind`); this table is assembled from those declarations.
 */
export const FINDING_KINDS: Readonly<Record<FindingId, FindingKind>> = Object.freeze(
  Object.fromEntries(
    FAMILIES.flatMap((family) => family.declares)
      .sort((a, b) => a.code - b.code)
      .map((kind) => [kind.id, kind]),
  ) as Record<FindingId, FindingKind>,
);

/*
 * api.ts's public `FindingId` and the ids the families declare are one list: a family's kind whose
 * id api.ts lacks, or an id of api.ts that no family declares, fails to compile here, naming it.
 */
const _everyIdDeclared: [Exclude<FindingId, DeclaredId>] extends [never] ? true : { readonly undeclared: Exclude<FindingId, DeclaredId> } = true;
const _everyDeclaredIdPublic: [Exclude<DeclaredId, FindingId>] extends [never] ? true : { readonly notInFindingId: Exclude<DeclaredId, FindingId> } = true;
