import { describeOptionValue, parseBuildOptions, type BuildOptions, type OptionProblem } from "@sourced/analysis";
import type { Backend } from "@sourced/project";

/** The plugin's options: the transformer's (`severity`, `strip`, `stamp`), plus the tsconfig to analyse. */
export interface SourcedPluginOptions {
  /** The category of every finding. Default `"error"`: the build fails on a tool that cannot say where its data came from. */
  readonly severity?: "error" | "warning";
  /** Remove rejected registrations from the bundle (the function stays, unregistered). Default `true`. */
  readonly strip?: boolean;
  /** Stamp verified registrations, so a registry with `requireVerified` serves them. Default `true`. */
  readonly stamp?: boolean;
  /** The project's tsconfig, relative to the bundler's root (Vite) or the working directory. Default `"tsconfig.json"`. */
  readonly tsconfig?: string;
  /**
   * As `sourced check --backend`: `"classic"` (TypeScript 5/6's API, in process) or `"native"`
   * (TypeScript 7's compiler). Default: native exactly when the project's `tsc` is TypeScript 7.
   */
  readonly backend?: Backend;
}

export interface ResolvedOptions extends BuildOptions {
  readonly tsconfig: string;
  /** `undefined`: chosen per project, as `sourced check` chooses. */
  readonly backend: Backend | undefined;
  readonly problems: readonly OptionProblem[];
}

/** Validated as the transformer validates its plugins entry: a wrong value falls back to its default and is reported. */
export function resolveOptions(given: unknown): ResolvedOptions {
  if (given !== undefined && (given === null || typeof given !== "object" || Array.isArray(given))) {
    return {
      ...parseBuildOptions({}).options,
      tsconfig: "tsconfig.json",
      backend: undefined,
      problems: [{ key: "", message: `the options must be an object, got ${describeOptionValue(given)}; write sourced({ severity: "error", strip: true, stamp: true, tsconfig: "tsconfig.json" }) or sourced().` }],
    };
  }
  const { options, problems, extra } = parseBuildOptions((given ?? {}) as Record<string, unknown>, {
    ownOptions: {
      tsconfig: (value) =>
        typeof value === "string" && value !== ""
          ? undefined
          : `option "tsconfig" must be the path of a tsconfig file, got ${describeOptionValue(value)}; write tsconfig: "tsconfig.json" (the default) or tsconfig: "path/to/tsconfig.json".`,
      backend: (value) =>
        value === "classic" || value === "native"
          ? undefined
          : `option "backend" must be "classic" or "native", got ${describeOptionValue(value)}; leave it out to choose as \`sourced check\` does (native exactly when the project's tsc is TypeScript 7), or write backend: "classic".`,
    },
  });
  const backend = extra["backend"] === "classic" || extra["backend"] === "native" ? extra["backend"] : undefined;
  return { ...options, tsconfig: typeof extra["tsconfig"] === "string" ? extra["tsconfig"] : "tsconfig.json", backend, problems };
}
