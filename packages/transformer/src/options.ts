import type { PluginConfig } from "ts-patch";
import { DEFAULT_BUILD_OPTIONS, parseBuildOptions, type BuildOptions, type OptionProblem } from "@sourced/analysis";

/**
 * The options of `@sourced/transformer`, read from its entry in `compilerOptions.plugins`: the
 * options every sourced build step takes (`severity`, `strip`, `stamp`), validated by the analysis
 * so the bundler plugin says the same about a wrong one. tsc exits non-zero on any diagnostic, a
 * `"severity": "warning"` included.
 */
export type TransformerOptions = BuildOptions;
export type { OptionProblem };

export const DEFAULT_OPTIONS: TransformerOptions = DEFAULT_BUILD_OPTIONS;

/** Keys ts-patch itself reads from a plugins entry; they are not ours to judge. */
const TS_PATCH_KEYS: ReadonlySet<string> = new Set([
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

/**
 * Validates a plugins entry. A wrong value falls back to its default, so the build still checks
 * every tool while the problem is reported.
 */
export function parseOptions(config: PluginConfig): { options: TransformerOptions; problems: OptionProblem[] } {
  const { options, problems } = parseBuildOptions(config, { foreignKeys: TS_PATCH_KEYS });
  return { options, problems };
}
