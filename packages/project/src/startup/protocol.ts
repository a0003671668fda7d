/*
 * What the registry's start-up check and this layer say to each other. Plain data only: the
 * registry loads this package lazily from the user's project, possibly another version of it,
 * and the same shapes cross the worker thread that judges.
 */

/** Bumped when a shape below changes incompatibly; the registry refuses to use a layer that speaks another. */
export const STARTUP_PROTOCOL = 1;

/** A stack frame as V8 prints it: 1-based line and column, in the file the process ran. */
export interface Frame {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One registration the registry could not verify by its stamp. */
export interface StartupRegistration {
  /** The tool's name, as it would be served. */
  readonly tool: string;
  /**
   * The stack of the registration, innermost first, from the frame that called the registry's
   * decorator: every frame outside Node's own, so a registration through a platform's wrapper is
   * found at the wrapper's call too.
   */
  readonly frames: readonly Frame[];
}

/** A finding, as the build prints it: the file relative to the working directory, 1-based positions. */
export interface ReportedFinding {
  readonly id: string;
  readonly code: number;
  readonly tool: string | undefined;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export type StartupVerdict =
  /** The analysis judged the registration and found nothing: it counts as verified. */
  | { readonly kind: "verified" }
  /** The analysis has a finding on it: the build would strip it, so the registry refuses it. */
  | { readonly kind: "refused"; readonly finding: ReportedFinding }
  /**
   * Its file was judged, but not as a registration the analysis can vouch for (an escaped registry,
   * a site it cannot find). `source`: where in the sources the frame it was judged at lies, when
   * that frame is not in a source itself but was traced there exactly (plain tsc's output through
   * the emit it is, JavaScript through its source map, a loader's unmapped position), so that the
   * registry's warning names the place to edit, as it does for a server run from its sources, not
   * the JavaScript that ran; the file absolute, as the frames are. Absent when the frame is in a
   * source already, and from a layer of an earlier version.
   */
  | { readonly kind: "unverified"; readonly reason: string; readonly source?: Frame }
  /** The check could not judge its file: `reason` says what is missing (TypeScript, a tsconfig, the sources). */
  | { readonly kind: "unjudged"; readonly reason: string }
  /** Plain JavaScript that no tsconfig checks: not the check's to judge. */
  | { readonly kind: "unchecked" };

export interface StartupOutcome {
  /** Names what verified the tools: `@sourced/project@<version>`. */
  readonly verifier: string;
  /** One per registration, in the order given. */
  readonly verdicts: readonly StartupVerdict[];
  /**
   * One per registration, in the order given, and in it one per frame: where in the sources the
   * frame lies when it is not in a source itself but was traced there exactly (as `source` of an
   * `unverified` verdict is), else `null`. The registry names a registration it refuses in its
   * own words (a name registered twice, an anonymous function) at its site's place here, as a
   * run from the sources names it, not at the JavaScript that ran. Absent from a layer of an
   * earlier version.
   */
  readonly traced?: readonly (readonly (Frame | null)[])[];
  /** How the verdicts were reached, for the curious (and the tests): from the cache, or by the analysis in a worker. */
  readonly source: "cache" | "analysis" | "none";
}

export interface StartupCheckOptions {
  /** What messages print paths relative to. Default `process.cwd()`. */
  readonly cwd?: string;
  /** How long the analysis may take before its registrations are reported unjudged. Default 5 minutes. */
  readonly timeoutMs?: number;
  /** Skip the cache (read and write): every check analyses afresh. */
  readonly cache?: boolean;
}
