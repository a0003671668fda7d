import type * as ts from "typescript";
import type { AnnotationFix, Finding, FindingId, FindingKind, Registration } from "../api.js";
import type { Context, Contract } from "../context.js";
import type { ServedName } from "../served.js";
import type { Placement } from "../sites.js";

/*
 * A finding family: the kinds it declares (id, code, title, help, severity: `defineKind({…})`), the words
 * it says them in, and where it looks, in one file of findings/. analyze.ts walks each file once
 * and hands every site to the families of the list (findings/index.ts), in the list's order, which
 * is the order of the findings at a site. The frozen table every front-end reads (kinds.ts) is
 * assembled from the families' declarations, so it cannot drift from them. A new kind is a new file
 * (or a `defineKind({…})` in the family that reports it), a line in the list, and its id in api.ts's
 * `FindingId`, which fails to compile until the two agree.
 *
 * A family looks at one of four moments, its `phase`:
 * - `registration`: what a call or decorator registers, and the verdict on it (one family);
 * - `registered`: a judged registration, beside its verdict (what the registry refuses at start-up
 *   or the net on every call); these run inside the registration's judgement, so one failure of
 *   either is one `internal-error` for the registration;
 * - `site`: every call, or every value reference, the walk finds, each behind its own guard;
 * - `file`: across a file's registrations (a second use of a name, a program-wide warning).
 */

interface FamilyBase {
  /** What the family is about, in a word (the file's name). */
  readonly name: string;
  /** The kinds it owns: the frozen table of kinds.ts is made of every family's, in the order of their codes. */
  readonly declares: readonly FindingKind[];
  /** Every finding id it reports: its own, and any another family declares. */
  readonly kinds: readonly FindingId[];
}

/** Judges what a call `value(…)` or a decorator `@value` registers. */
export interface RegistrationFamily extends FamilyBase {
  readonly phase: "registration";
  judge(context: Context, site: ts.CallExpression | ts.Decorator): Judgement | undefined;
}

/** Looks at a judged registration; what it finds does not change the verdict. */
export interface RegisteredFamily extends FamilyBase {
  readonly phase: "registered";
  detect(context: Context, registered: Registered): readonly Finding[];
}

/** Looks at every call (`at: "call"`) or every value reference, call included (`at: "value"`). */
export interface SiteFamily extends FamilyBase {
  readonly phase: "site";
  readonly at: "call" | "value";
  detect(context: Context, node: ts.Node, placement: Placement | undefined): readonly Finding[];
}

/** Watches a file's registrations, one file at a time. */
export interface FileFamily extends FamilyBase {
  readonly phase: "file";
  watch(scope: FileScope): FileWatch;
}

/** What a family reports when another's detection fails: one finding, never an aborted build. */
export interface GuardFamily extends FamilyBase {
  readonly phase: "guard";
}

export type Family = RegistrationFamily | RegisteredFamily | SiteFamily | FileFamily | GuardFamily;

/** A file being judged, for a family that watches across its registrations. */
export interface FileScope {
  readonly context: Context;
  readonly sourceFile: ts.SourceFile;
  /** Whether another file registers a tool (judged as its own analysis would judge it). */
  readonly registersTools: (sourceFile: ts.SourceFile) => boolean;
}

export interface FileWatch {
  /** After each site with a judged registration: a finding placed after the site's own. */
  registered?(judgement: Judgement): Finding | undefined;
  /** After the file's last site: a finding placed before all the file's others. */
  end?(): Finding | undefined;
}

/** A registration and what the analysis learnt about it beyond its verdict. */
export interface Judgement {
  readonly registration: Registration;
  /** What the registry refuses at start-up or the net on every call: a missing or invalid name, a source that cannot pass. */
  readonly startup: readonly Finding[];
  /** The registry's own DataToolOutput, when the registration is marked (not an unresolved registry's). */
  readonly contract?: Contract | undefined;
  /** The decorator that registers it (its registry is asked only when two registrations share a name). */
  readonly producer?: ts.Expression;
  /** What to underline about its served name. */
  readonly nameNode?: ts.Node;
  /** What the `registered` families read, when the registered function was judged. */
  readonly registered?: Registered;
}

/** A judged registration, as the `registered` families read it. */
export interface Registered {
  readonly site: ts.CallExpression | ts.Decorator;
  /** The call's first argument, or the decorated method. */
  readonly value: ts.Node;
  readonly served: ServedName;
  readonly tool: string | undefined;
  readonly nameNode: ts.Node;
  /** The declaration with the function's body, when it is visible: what the tool returns is read there. */
  readonly implementation: ts.SignatureDeclaration | undefined;
  readonly contract: Contract;
  /** The decorator's exact type (asked only when a family needs it). */
  readonly decoratorType: () => ts.Type | undefined;
  /** The registration mark of the decorator's type. */
  readonly mark: ts.Symbol;
  /** Whether the verdict verified the registered function (no finding of the registration's own). */
  readonly verified: boolean;
}

export const NO_FINDINGS: readonly Finding[] = [];

/**
 * A kind of finding, as the family that owns it declares it: frozen, its keys in the table's order
 * (the JSON every front-end prints). `Id` must be one of api.ts's `FindingId`.
 */
export function defineKind<const Id extends FindingId>(declared: FindingKind & { readonly id: Id }): FindingKind & { readonly id: Id } {
  const { id, code, title, help, severity } = declared;
  return Object.freeze({ id, code, title, help, severity });
}

/** A finding of `kind`, with its code, underlining `node`. */
export function findingOf(kind: FindingKind, node: ts.Node, site: ts.Node, tool: string | undefined, message: string, fix?: AnnotationFix): Finding {
  const sourceFile = site.getSourceFile();
  return {
    id: kind.id,
    code: kind.code,
    tool,
    message,
    sourceFile,
    node,
    start: node.getStart(sourceFile),
    end: node.getEnd(),
    site,
    ...(fix !== undefined ? { fix } : {}),
  };
}

/**
 * Where a finding about something the registered function does (in its body, its return type) is
 * underlined: there when it is in the registration's file, else the registration itself (the
 * decorator, or the registered value), the message then saying where.
 */
export function underlined(context: Context, registered: Registered, node: ts.Node): { readonly node: ts.Node; readonly here: boolean } {
  const { site, value } = registered;
  const here = node.getSourceFile() === site.getSourceFile();
  return { node: here ? node : context.ts.isDecorator(site) ? site : value, here };
}
