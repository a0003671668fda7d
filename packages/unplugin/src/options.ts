import { describeOptionValue, parseBuildOptions, type BuildOptions, type OptionProblem } from "@sourced/analysis";

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
}

export interface ResolvedOptions extends BuildOptions {
  readonly tsconfig: string;
  readonly problems: readonly OptionProblem[];
}

/** Validated as the transformer validates its plugins entry: a wrong value falls back to its default and is reported. */
export function resolveOptions(given: unknown): ResolvedOptions {
  if (given !== undefined && (given === null || typeof given !== "object" || Array.isArray(given))) {
    return {
      ...parseBuildOptions({}).options,
      tsconfig: "tsconfig.json",
      problems: [{ key: "", message: `the options must be an object, got ${describeOptionValue(given)}; write sourced({ severity: "error", strip: true, stamp: true, tsconfig: "tsconfig.json" }) or sourced().` }],
    };
  }
  const { options, problems, extra } = parseBuildOptions((given ?? {}) as Record<string, unknown>, {
    ownOptions: {
      tsconfig: (value) =>
        typeof value === "string" && value !== ""
          ? undefined
          : `option "tsconfig" must be the path of a tsconfig file, got ${describeOptionValue(value)}; write tsconfig: "tsconfig.json" (the default) or tsconfig: "path/to/tsconfig.json".`,
    },
  });
  return { ...options, tsconfig: typeof extra["tsconfig"] === "string" ? extra["tsconfig"] : "tsconfig.json", problems };
}
