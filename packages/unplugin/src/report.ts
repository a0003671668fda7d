import { FINDING_KINDS } from "@sourced/analysis";
import { display, type Diagnostic } from "./session.js";

const SELF = "@sourced/unplugin";

/** A problem with the plugin or the project rather than a tool: always an error. */
export function internalDiagnostic(message: string): Diagnostic {
  return { category: "error", code: `SRC${FINDING_KINDS["internal-error"].code}`, id: "internal-error", message: `${SELF}: ${message}`, location: undefined };
}

/** `src/tools/forecast.ts:9:24 - error SRC92002: Tool 'forecast' …`, the way `sourced check` prints it. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = diagnostic.location === undefined ? "" : `${display(diagnostic.location.file)}:${diagnostic.location.line}:${diagnostic.location.column} - `;
  return `${where}${diagnostic.category} ${diagnostic.code}: ${diagnostic.message}`;
}

interface EsbuildMessage {
  readonly id: string;
  readonly pluginName: string;
  readonly text: string;
  /** The diagnostic itself, for tools that read esbuild's messages programmatically. */
  readonly detail: Diagnostic;
  readonly location: { file: string; line: number; column: number; length: number; lineText: string } | null;
}

/** esbuild's own messages: it prints each with its file, line, column and the underlined source line. */
export function reportToEsbuild(diagnostics: readonly Diagnostic[]): { errors: EsbuildMessage[]; warnings: EsbuildMessage[] } {
  const message = (diagnostic: Diagnostic): EsbuildMessage => ({
    id: diagnostic.code,
    pluginName: "sourced",
    text: `${diagnostic.code}: ${diagnostic.message}`,
    detail: diagnostic,
    location:
      diagnostic.location === undefined
        ? null
        : {
            file: display(diagnostic.location.file),
            line: diagnostic.location.line,
            column: diagnostic.location.column - 1,
            length: diagnostic.location.length,
            lineText: diagnostic.location.lineText,
          },
  });
  return {
    errors: diagnostics.filter((d) => d.category === "error").map(message),
    warnings: diagnostics.filter((d) => d.category === "warning").map(message),
  };
}

/** What Rollup, Rolldown and Vite hand a plugin hook as `this`. */
export interface RollupLikeContext {
  warn(log: RollupLikeLog | string): void;
  error(log: RollupLikeLog | string): never;
}

interface RollupLikeLog {
  message: string;
  code?: string;
  id?: string;
  loc?: { file: string; line: number; column: number };
  frame?: string;
}

function rollupLog(diagnostic: Diagnostic, message = formatDiagnostic(diagnostic)): RollupLikeLog {
  const { location } = diagnostic;
  if (location === undefined) return { message, code: diagnostic.code };
  return {
    message,
    code: diagnostic.code,
    id: location.file,
    // Rollup's columns are 0-based.
    loc: { file: location.file, line: location.line, column: location.column - 1 },
    frame: `${location.lineText}\n${" ".repeat(location.column - 1)}${"^".repeat(Math.max(1, location.length))}`,
  };
}

/**
 * Warnings through `this.warn`; errors, when the build is to fail, as one `this.error` listing
 * them all (Rollup stops at its first error), located at the first.
 */
export function reportToRollup(context: RollupLikeContext, diagnostics: readonly Diagnostic[], { throwErrors }: { throwErrors: boolean }): void {
  const errors = diagnostics.filter((d) => d.category === "error");
  for (const diagnostic of throwErrors ? diagnostics.filter((d) => d.category === "warning") : diagnostics) context.warn(rollupLog(diagnostic));
  if (!throwErrors || errors.length === 0) return;
  const [first] = errors as [Diagnostic, ...Diagnostic[]];
  const message = errors.length === 1 ? formatDiagnostic(first) : `${errors.length} errors:\n${errors.map((d) => formatDiagnostic(d)).join("\n")}`;
  context.error(rollupLog(first, message));
}

interface WebpackLikeCompiler {
  readonly webpack?: { readonly WebpackError?: new (message: string) => Error & { file?: string } };
  readonly rspack?: { readonly WebpackError?: new (message: string) => Error & { file?: string } };
}

interface WebpackLikeCompilation {
  readonly errors: unknown[];
  readonly warnings: unknown[];
}

/** webpack's and rspack's own lists: the build fails on an error and prints each with its file. */
export function reportToWebpack(compiler: unknown, compilation: unknown, diagnostics: readonly Diagnostic[]): void {
  const { errors, warnings } = compilation as WebpackLikeCompilation;
  const native = compiler as WebpackLikeCompiler;
  const ErrorClass = native.webpack?.WebpackError ?? native.rspack?.WebpackError;
  for (const diagnostic of diagnostics) {
    const text = formatDiagnostic(diagnostic);
    const error: Error & { file?: string } = ErrorClass === undefined ? new Error(text) : new ErrorClass(text);
    if (diagnostic.location !== undefined) error.file = display(diagnostic.location.file);
    (diagnostic.category === "error" ? errors : warnings).push(error);
  }
}
