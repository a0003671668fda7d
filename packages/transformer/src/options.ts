import type { PluginConfig } from "ts-patch";
import { closestMatch } from "@sourced/analysis";
/** The options of `@sourced/transformer`, read from its entry in `compilerOptions.plugins`. */
export interface TransformerOptions {
  /**
   * The category of every reported finding. Default `"error"`: a CI build fails on a tool that
   * cannot say where its data came from. tsc exits non-zero on any diagnostic, a warning included.
   */
  readonly severity: "error" | "warning";
  /**
   * Whether rejected registrations are removed from the emitted JavaScript (the function stays,
   * unregistered). Default `true`: a non-compliant tool never ships.
   */
  readonly strip: boolean;
}

export const DEFAULT_OPTIONS: TransformerOptions = { severity: "error", strip: true };

/** One wrong entry of the plugin configuration: its key and what to write instead. */
export interface OptionProblem {
  readonly key: string;
  readonly message: string;
}

/** Keys ts-patch itself reads from a plugins entry; they are not ours to judge. */
const TS_PATCH_KEYS = new Set([
  "transform",
  "transformProgram",
  "after",
  "afterDeclarations",
  "type",
  "import",
  "tsConfig",
  "resolvePathAliases",
  "name",
]);

const OUR_KEYS = ["severity", "strip"] as const;

/**
 * Validates a plugins entry. A wrong value falls back to its default, so the build still checks
 * every tool while the problem is reported.
 */
export function parseOptions(config: PluginConfig): {
  options: TransformerOptions;
  problems: OptionProblem[];
} {
  const problems: OptionProblem[] = [];
  let { severity, strip } = DEFAULT_OPTIONS;

  for (const [key, value] of Object.entries(config)) {
    if (TS_PATCH_KEYS.has(key)) continue;
    switch (key) {
      case "severity":
        if (value === "error" || value === "warning") severity = value === "error" ? "error" : "warning";
        else
          problems.push({
            key,
            message: `option "severity" must be "error" or "warning", got ${describe(value)}; write "severity": "error" (the default) or "severity": "warning".`,
          });
        break;
      case "strip":
        if (typeof value === "boolean") strip = value;
        else
          problems.push({
            key,
            message: `option "strip" must be true or false, got ${describe(value)}; write "strip": true (the default) or "strip": false.`,
          });
        break;
      default:
        problems.push({
          key,
          message: `unknown option "${key}"${suggest(key)}. The options are ${OUR_KEYS.map((k) => `"${k}"`).join(" and ")}.`,
        });
    }
  }
  return { options: { severity, strip }, problems };
}

function describe(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

function suggest(key: string): string {
  const close = closestMatch(key, OUR_KEYS);
  return close === undefined ? "" : ` (did you mean "${close}"?)`;
}
