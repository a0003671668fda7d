import { readFileSync } from "node:fs";
import * as path from "node:path";
import MagicString from "magic-string";
import { createUnplugin, type UnpluginFactory, type UnpluginOptions } from "unplugin";
import { planEdits, VERIFIED_STAMP_KEY, writeTextEdits, type TextSink } from "@sourced/analysis";
import { resolveOptions, type SourcedPluginOptions } from "./options.js";
import { formatDiagnostic, internalDiagnostic, reportToEsbuild, reportToRollup, reportToWebpack, type RollupLikeContext } from "./report.js";
import { ProjectSession, type Analysis, type Diagnostic } from "./session.js";

export type { SourcedPluginOptions } from "./options.js";
export type { Analysis, Diagnostic, Location } from "./session.js";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { name: string; version: string };

/** The value of the verified stamp this plugin writes: `@sourced/unplugin@<version>`. */
export const VERIFIER = `${manifest.name}@${manifest.version}`;

/** Sources the analysis reads and the transform edits: TypeScript and JavaScript, never dependencies. */
const SOURCE = /\.[cm]?[jt]sx?$/;
const DEPENDENCY = /[\\/]node_modules[\\/]/;

const factory: UnpluginFactory<SourcedPluginOptions | undefined, false> = (given, meta) => {
  const options = resolveOptions(given === undefined ? undefined : withoutUndefined(given));
  const optionDiagnostics: Diagnostic[] = options.problems.map((problem) => internalDiagnostic(problem.message));
  const stamp = options.stamp ? { key: VERIFIED_STAMP_KEY, value: VERIFIER } : undefined;
  let root = process.cwd();
  let session: ProjectSession | undefined;
  /** Vite's dev server: no build to fail, so findings go to the overlay from the transform of their file. */
  let serving = false;

  const sessionOf = (): ProjectSession => (session ??= new ProjectSession(path.resolve(root, options.tsconfig), options.severity, options.backend));
  /** At build start: the program re-checked for changes (watch rebuilds start here too). */
  const analyse = (): { analysis: Analysis; diagnostics: Diagnostic[] } => {
    const analysis = sessionOf().refresh();
    return { analysis, diagnostics: [...optionDiagnostics, ...analysis.diagnostics] };
  };

  const transform = function (this: { warn(message: string): void }, code: string, id: string) {
    const file = path.resolve(id.replace(/[?#].*$/, ""));
    // The analysis of this build (or, after a change the bundler announced, a fresh one).
    let analysed = sessionOf().current().files.get(file);
    // Changed since, unannounced (Vite serves a file it has not told about yet): look again.
    if (analysed !== undefined && offsetOf(code, analysed.sourceFile.text) === undefined) analysed = sessionOf().refresh().files.get(file);
    if (analysed === undefined || analysed.registrations.length === 0) return undefined;
    const offset = offsetOf(code, analysed.sourceFile.text);
    if (offset === undefined) {
      // Edits are positions in the text the analysis read: another plugin changed it first.
      this.warn(
        formatDiagnostic(
          internalDiagnostic(
            `${path.relative(root, file)} reached the plugin already changed by another plugin, so its tool registrations were neither stripped nor stamped ` +
              `(a registry with requireVerified refuses them). Put the sourced plugin first in the plugins list.`,
          ),
        ),
      );
      return undefined;
    }
    // The plan is the analysis' own, the one the transformer renders as nodes; written here as text.
    const plan = planEdits(analysed.ts, analysed.registrations, { strip: options.strip, stamp });
    if (plan.length === 0) return undefined;
    const output = new MagicString(code);
    writeTextEdits(plan, analysed.sourceFile, offset === 0 ? output : shifted(output, offset));
    return { code: output.toString(), map: output.generateMap({ source: file, includeContent: true, hires: true }) };
  };

  const plugin: UnpluginOptions = {
    name: "sourced",
    enforce: "pre",
    transform: {
      filter: { id: { include: SOURCE, exclude: DEPENDENCY } },
      handler(code, id) {
        try {
          const result = transform.call(this, code, id);
          if (serving) reportInFile(this, id);
          return result;
        } catch (error) {
          if (isReported(error)) throw error;
          this.warn(formatDiagnostic(internalDiagnostic(`could not rewrite ${id} (internal error: ${messageOf(error)}); its registrations are emitted as written and unstamped.`)));
          return undefined;
        }
      },
    },
  };

  /** Dev server: the findings located in `id` fail its transform, so Vite's overlay shows them; the others are warnings. */
  const reportInFile = (context: { error(message: unknown): void; warn(message: unknown): void }, id: string): void => {
    const file = path.resolve(id.replace(/[?#].*$/, ""));
    const diagnostics = [...optionDiagnostics, ...sessionOf().current().diagnostics];
    const here = diagnostics.filter((diagnostic) => diagnostic.location?.file === file);
    for (const diagnostic of here.filter((d) => d.category === "warning")) context.warn(formatDiagnostic(diagnostic));
    const errors = here.filter((d) => d.category === "error");
    if (errors.length > 0) reportToRollup(context as RollupLikeContext, errors, { throwErrors: true });
  };

  if (meta.framework === "esbuild") {
    plugin.esbuild = {
      setup(build) {
        root = build.initialOptions.absWorkingDir ?? process.cwd();
        build.onStart(() => reportToEsbuild(analyse().diagnostics));
      },
    };
  } else if (meta.framework === "webpack" || meta.framework === "rspack") {
    plugin.buildStart = function () {
      const native = this.getNativeBuildContext?.();
      if (native === undefined || (native.framework !== "webpack" && native.framework !== "rspack")) return;
      // Typed loosely: webpack and rspack are optional peers, their types may not be installed.
      root = (native.compiler as { context?: string }).context ?? process.cwd();
      reportToWebpack(native.compiler, native.compilation, analyse().diagnostics);
    };
  } else {
    // Rollup, Rolldown and Vite: their plugin context is `this`.
    plugin.buildStart = function () {
      const context = this as unknown as RollupLikeContext;
      const { diagnostics } = analyse();
      // The dev server's findings reach the overlay through the transform of their file; build
      // start only warns, so a server with a broken tool still starts.
      reportToRollup(context, diagnostics, { throwErrors: !serving });
    };
    // Vite's dev server has no build start per change: the next transform re-checks.
    plugin.watchChange = () => session?.invalidate();
    plugin.vite = {
      configResolved(config) {
        root = config.root;
        serving = config.command === "serve";
      },
    };
  }
  return plugin;
};

/**
 * Where the text the analysis read starts in the code the bundler hands over: 0, or 1 after a
 * byte order mark (TypeScript drops it, bundlers keep it); `undefined` when they differ otherwise.
 */
function offsetOf(code: string, text: string): number | undefined {
  if (code === text) return 0;
  return code.charCodeAt(0) === 0xfeff && code.length === text.length + 1 && code.endsWith(text) ? 1 : undefined;
}

/** `sink` with every position moved by `offset`. */
function shifted(sink: TextSink, offset: number): TextSink {
  return {
    overwrite: (start, end, content) => sink.overwrite(start + offset, end + offset, content),
    appendLeft: (index, content) => sink.appendLeft(index + offset, content),
    appendRight: (index, content) => sink.appendRight(index + offset, content),
    remove: (start, end) => sink.remove(start + offset, end + offset),
  };
}

function withoutUndefined(given: SourcedPluginOptions): SourcedPluginOptions {
  if (given === null || typeof given !== "object") return given;
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
}

function isReported(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { plugin?: unknown }).plugin === "sourced";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The plugin for every bundler unplugin supports; `@sourced/unplugin/<bundler>` is each one alone. */
export const sourced = createUnplugin(factory);
export default sourced;
