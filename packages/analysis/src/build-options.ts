import { closestMatch } from "@sourced/contract-rules";

/**
 * The options every build front-end takes (the ts-patch transformer in `compilerOptions.plugins`,
 * the bundler plugin as its argument), validated here once so both say the same about a wrong one.
 */
export interface BuildOptions {
  /**
   * The category of every reported finding. Default `"error"`: a CI build fails on a tool that
   * cannot say where its data came from.
   */
  readonly severity: "error" | "warning";
  /**
   * Whether rejected registrations are removed from the emitted JavaScript (the function stays,
   * unregistered). Default `true`: a non-compliant tool never ships.
   */
  readonly strip: boolean;
  /**
   * Whether verified registrations carry the verified stamp (what `requireVerified` asks for).
   * Default `true`.
   */
  readonly stamp: boolean;
}

export const DEFAULT_BUILD_OPTIONS: BuildOptions = Object.freeze({ severity: "error", strip: true, stamp: true });

/** One wrong entry of a front-end's options: its key and what to write instead. */
export interface OptionProblem {
  readonly key: string;
  readonly message: string;
}

/** A front-end's own option: checks a value, returns what is wrong with it (`undefined`: fine). */
export type OptionCheck = (value: unknown) => string | undefined;

export interface ParseBuildOptionsSettings {
  /** Keys another tool reads from the same object (ts-patch's `transform`, …): not judged. */
  readonly foreignKeys?: ReadonlySet<string>;
  /** The front-end's own options beyond the shared ones, with their checks. */
  readonly ownOptions?: Readonly<Record<string, OptionCheck>>;
}

const SHARED_KEYS = ["severity", "strip", "stamp"] as const;

/**
 * Validates a front-end's options. A wrong value falls back to its default, so the build still
 * checks every tool while the problem is reported. `extra` holds the values of the front-end's own
 * options that passed their checks.
 */
export function parseBuildOptions(
  config: Readonly<Record<string, unknown>>,
  settings: ParseBuildOptionsSettings = {},
): { options: BuildOptions; problems: OptionProblem[]; extra: Record<string, unknown> } {
  const problems: OptionProblem[] = [];
  const extra: Record<string, unknown> = {};
  let { severity, strip, stamp } = DEFAULT_BUILD_OPTIONS;
  const own = settings.ownOptions ?? {};
  const known = [...SHARED_KEYS, ...Object.keys(own)];

  for (const [key, value] of Object.entries(config)) {
    if (settings.foreignKeys?.has(key)) continue;
    switch (key) {
      case "severity":
        if (value === "error" || value === "warning") severity = value;
        else
          problems.push({
            key,
            message: `option "severity" must be "error" or "warning", got ${describe(value)}; write "severity": "error" (the default) or "severity": "warning".`,
          });
        break;
      case "strip":
        if (typeof value === "boolean") strip = value;
        else problems.push({ key, message: booleanProblem(key, value) });
        break;
      case "stamp":
        if (typeof value === "boolean") stamp = value;
        else problems.push({ key, message: booleanProblem(key, value) });
        break;
      default: {
        const check = Object.hasOwn(own, key) ? own[key] : undefined;
        if (check !== undefined) {
          const problem = check(value);
          if (problem === undefined) extra[key] = value;
          else problems.push({ key, message: problem });
          break;
        }
        const close = closestMatch(key, known);
        problems.push({
          key,
          message: `unknown option "${key}"${close === undefined ? "" : ` (did you mean "${close}"?)`}. The options are ${list(known)}.`,
        });
      }
    }
  }
  return { options: { severity, strip, stamp }, problems, extra };
}

function booleanProblem(key: string, value: unknown): string {
  return `option "${key}" must be true or false, got ${describe(value)}; write "${key}": true (the default) or "${key}": false.`;
}

/** How a wrong value is quoted in a message. */
export function describeOptionValue(value: unknown): string {
  return describe(value);
}

function describe(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

function list(keys: readonly string[]): string {
  const quoted = keys.map((key) => `"${key}"`);
  return quoted.length <= 1 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}
