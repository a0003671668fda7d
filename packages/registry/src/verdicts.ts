import type { Entry, RegistrationPolicy, Registrations } from "./registration.js";
import { formatSite, type SourcePlace } from "./site.js";
import { isCheckableFile, judge, unjudgedWarning, type Verdict } from "./startup.js";

/*
 * The start-up check's verdicts, applied to one registry's registrations (registration.ts): the
 * check is asked once serving starts, and a tool it refuses leaves the table before any client
 * sees it. `startup.ts` asks `@sourced/project`; this file decides what each answer does.
 */

/** The check of one registry: asked at each serving, for the registrations it has not judged yet. */
export class StartupVerdicts {
  /** The check in flight: settles once its verdicts are applied. */
  private checking: Promise<void> | undefined;

  /** `changed`: called once verdicts are applied, so the tool table is computed again. */
  constructor(
    private readonly registrations: Registrations,
    private readonly policy: RegistrationPolicy,
    private readonly changed: () => void,
  ) {}

  /** Whether a check is in flight: the tools served may still change. */
  get pending(): boolean {
    return this.checking !== undefined;
  }

  /**
   * Starts the start-up check for the registrations it has not judged yet (serving calls it);
   * returns what settles once every verdict so far is applied, or `undefined` when none is awaited.
   */
  check(): Promise<void> | undefined {
    const { entries, unjudged, undecided } = this.registrations;
    const { logger, checkMode, requireVerified } = this.policy;
    const registered = unjudged.splice(0);
    const pending = undecided.splice(0);
    if (registered.length === 0 && pending.length === 0) return this.checking;
    const judgeBatch = async (): Promise<void> => {
      // Serving starts first: reading the stacks (tens of µs each) and the cached verdicts waits a turn.
      await new Promise((resolve) => setImmediate(resolve));
      // Only registrations from sources the check reads; the rest are served as ever (or were refused under requireVerified).
      const batch = registered.filter((entry) => {
        entry.awaitingVerdict = entries.get(entry.name) === entry && isCheckableFile(entry.lazySite.get()?.file);
        return entry.awaitingVerdict;
      });
      if (batch.length === 0 && pending.length === 0) return;
      const asked = [...batch.map((entry) => ({ tool: entry.name, frames: entry.lazySite.frames() })), ...pending.map(({ name, lazySite }) => ({ tool: name, frames: lazySite.frames() }))];
      const { verifier, verdicts, traced } = await judge(asked, this.policy.startupCheckTimeoutMs);
      // Before any warning: the registry's own words name each site where the check traced it in the sources.
      [...batch.map((entry) => entry.lazySite), ...pending.map(({ lazySite }) => lazySite)].forEach((site, index) => site.traceTo(traced?.[index]));
      applyVerdicts(entries, this.policy, batch, verdicts.slice(0, batch.length), verifier);
      pending.forEach(({ name, why, entry }, index) => {
        const verdict = verdicts[batch.length + index]!;
        // The analysis' finding, as the build that strips it prints it.
        if (verdict.kind === "refused") {
          logger.warn(`tool "${name}" (${verdict.finding.file}:${verdict.finding.line}:${verdict.finding.column}) was not registered: ${verdict.finding.message}`);
        } else if (entry !== undefined && !entries.has(name) && (verdict.kind === "verified" || !(checkMode === "require" || requireVerified))) {
          // Its name was taken by a tool the check refused: it is free.
          entry.verifiedBy = verdict.kind === "verified" ? verifier : undefined;
          entries.set(name, entry);
        } else {
          logger.warn(`tool "${name}" was not registered: ${why()}`);
        }
      });
    };
    // The check never takes serving down: a failure of its own is one warning, and its tools are
    // treated as ones it could not judge (served, or refused where the check is required).
    const judged = judgeBatch().catch((error: unknown) => {
      const reason = `the start-up check failed (${error instanceof Error ? error.message : String(error)}). Please report it`;
      const left = registered.filter((entry) => entry.awaitingVerdict);
      try {
        applyVerdicts(entries, this.policy, left, left.map(() => ({ kind: "unjudged", reason })), "");
      } catch {
        process.stderr.write(`[sourced] warning: ${reason}\n`);
      }
    });
    const run: Promise<void> = Promise.all([this.checking, judged]).then(() => {
      this.changed();
      if (this.checking === run) this.checking = undefined;
    });
    this.checking = run;
    return this.checking;
  }
}

/** Applies the check's verdicts on `batch`: a refused tool leaves the table, with the finding as the build prints it. */
function applyVerdicts(entries: Map<string, Entry>, policy: RegistrationPolicy, batch: readonly Entry[], verdicts: readonly Verdict[], verifier: string): void {
  const { logger, checkMode, requireVerified } = policy;
  const required = checkMode === "require" || requireVerified;
  const refuse = (entry: Entry, why: string, source?: SourcePlace): void => {
    if (entries.get(entry.name) === entry) entries.delete(entry.name);
    logger.warn(`tool "${entry.name}" (${source === undefined ? entry.lazySite.where() : formatSite(source)}) was not registered: ${why}`);
  };
  const cannotJudge = new Map<string, Entry[]>();
  batch.forEach((entry, index) => {
    const verdict = verdicts[index]!;
    entry.awaitingVerdict = false;
    switch (verdict.kind) {
      case "verified":
        entry.verifiedBy = verifier;
        return;
      case "refused": {
        const { finding } = verdict;
        // The finding as the build prints it, where it prints it; the seed's warning.
        if (entries.get(entry.name) === entry) entries.delete(entry.name);
        logger.warn(`tool "${entry.name}" (${finding.file}:${finding.line}:${finding.column}) was not registered: ${finding.message}`);
        return;
      }
      case "unverified":
        // Named where the check traced the frame it judged in the sources (plain tsc's output): the place to edit, not the JavaScript that ran.
        if (required) refuse(entry, `the start-up check cannot verify it: ${verdict.reason}, and ${requireVerified ? "requireVerified is on." : 'startupCheck is "require".'}`, verdict.source);
        else logger.warn(`tool "${entry.name}" (${verdict.source === undefined ? entry.lazySite.where() : formatSite(verdict.source)}) is served unchecked: the start-up check cannot verify it: ${verdict.reason}.`);
        return;
      case "unjudged":
        cannotJudge.set(verdict.reason, [...(cannotJudge.get(verdict.reason) ?? []), entry]);
        return;
      case "unchecked":
        // Plain JavaScript no tsconfig checks: as without the check.
        if (requireVerified) refuse(entry, "requireVerified is on and the function carries no verified stamp, so no compile step has checked that it returns DataToolOutput. Build it with @sourced/transformer (tspc) or `sourced build` (plain tsc), or bundle it with @sourced/unplugin.");
        return;
    }
  });
  for (const [reason, unjudgedEntries] of cannotJudge) {
    if (required) for (const entry of unjudgedEntries) if (entries.get(entry.name) === entry) entries.delete(entry.name);
    logger.warn(unjudgedWarning(unjudgedEntries.map((entry) => ({ name: entry.name, where: entry.lazySite.where() })), reason, !required));
  }
}
