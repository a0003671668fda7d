import * as path from "node:path";
import type * as ts from "typescript";
import { FINDING_KINDS, type Finding } from "@sourced/analysis";
import { display, isSessionFailure, ProjectSession as Project, type AnalysedFile, type Backend, type SessionOutcome } from "@sourced/project";

export type { AnalysedFile } from "@sourced/project";

/** A position in a file, 1-based, as every bundler prints it. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Length of the underlined span on its first line. */
  readonly length: number;
  readonly lineText: string;
}

/** One thing the build must say: a finding, or a problem with the project or the plugin itself. */
export interface Diagnostic {
  /** `error` fails the build; `warning` is shown. Findings take the `severity` option. */
  readonly category: "error" | "warning";
  /** `SRC92001` etc.: the codes `sourced check` prints. */
  readonly code: string;
  /** The finding's id (`not-data-tool-output`, …); `unresolved-registry` for an import of the registry that does not resolve; `internal-error` for the plugin's own problems. */
  readonly id: string;
  readonly message: string;
  readonly location: Location | undefined;
  /** The finding's tool, when it is one. */
  readonly tool?: string | undefined;
}

/** What one analysis of the project produced. */
export interface Analysis {
  readonly diagnostics: readonly Diagnostic[];
  /** The findings exactly as the analysis reported them (for parity with the other front-ends). */
  readonly findings: readonly Finding[];
  /** The analysed source files by absolute path, with their registrations. */
  readonly files: ReadonlyMap<string, AnalysedFile>;
}

const SELF = "@sourced/unplugin";
const INTERNAL = `SRC${FINDING_KINDS["internal-error"].code}`;

/**
 * The project layer's session (`ProjectSession`: the program kept across builds, on the backend
 * `sourced check` chooses), its outcomes worded as the bundler reports them.
 */
export class ProjectSession {
  private readonly project: Project;
  /** Each outcome of the project session is worded once: an unchanged program gives the same Analysis back. */
  private readonly worded = new WeakMap<SessionOutcome, Analysis>();

  constructor(
    readonly configPath: string,
    private readonly severity: "error" | "warning",
    /** As the plugin's `backend` option: `undefined` chooses per project. */
    backend: Backend | undefined = undefined,
  ) {
    this.project = new Project(configPath, backend);
  }

  /** The last analysis, unless there is none or a file changed since (`invalidate`): then `refresh()`. */
  current(): Analysis {
    return this.analysisOf(this.project.current());
  }

  /** A file changed: the next `current()` re-checks the program. */
  invalidate(): void {
    this.project.invalidate();
  }

  /** The last analysis when no file of the program changed since, else a fresh one. Every build start asks this. */
  refresh(): Analysis {
    return this.analysisOf(this.project.refresh());
  }

  private analysisOf(outcome: SessionOutcome): Analysis {
    let analysis = this.worded.get(outcome);
    if (analysis === undefined) {
      analysis = this.word(outcome);
      this.worded.set(outcome, analysis);
    }
    return analysis;
  }

  private word(outcome: SessionOutcome): Analysis {
    // Said once per build: the chosen TypeScript 7 could not run, the classic backend judged instead.
    const fallback: Diagnostic[] =
      outcome.fallback === undefined
        ? []
        : [{ category: "warning", code: INTERNAL, id: "typescript-fallback", message: `${SELF}: ${outcome.fallback}; checked with the classic backend.`, location: undefined }];
    if (isSessionFailure(outcome)) {
      const message =
        outcome.failure === "missing-config"
          ? `${outcome.message} Pass the project's tsconfig as the plugin's "tsconfig" option, e.g. sourced({ tsconfig: "tsconfig.json" }).`
          : outcome.message;
      return { diagnostics: [...fallback, { category: "error", code: INTERNAL, id: "internal-error", message: `${SELF}: ${message}`, location: undefined }], findings: [], files: new Map() };
    }
    // A newer TypeScript 6 than sourced supports judged the project: said with each build's findings, as `sourced check` says it.
    if (outcome.warning !== undefined) fallback.push({ category: "warning", code: INTERNAL, id: "typescript-version", message: `${SELF}: ${outcome.warning}.`, location: undefined });
    const { result, files } = outcome;
    const diagnostics: Diagnostic[] = result.findings.map((finding) => ({
      // A weaker guarantee (strictNullChecks off) stays a warning whatever the severity option says.
      category: FINDING_KINDS[finding.id].severity === "warning" ? "warning" : this.severity,
      code: `SRC${finding.code}`,
      id: finding.id,
      message: finding.message,
      location: locate(finding.sourceFile, finding.start, finding.end),
      tool: finding.tool,
    }));
    for (const unresolved of result.unresolvedRegistryImports) {
      diagnostics.push({
        category: "error",
        code: INTERNAL,
        id: "unresolved-registry",
        message:
          `cannot resolve '${unresolved.specifier}', so registrations made through it cannot be recognised and would pass unchecked. ` +
          `Install the project's dependencies (e.g. 'npm install') before building.`,
        location: locate(unresolved.sourceFile, unresolved.start, unresolved.end),
      });
    }
    return { diagnostics: [...fallback, ...diagnostics], findings: result.findings, files };
  }
}

function locate(sourceFile: ts.SourceFile, start: number, end: number): Location {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(start);
  const lineStarts = sourceFile.getLineStarts();
  const lineStart = lineStarts[line] ?? 0;
  const lineEnd = lineStarts[line + 1] ?? sourceFile.text.length;
  const lineText = sourceFile.text.slice(lineStart, lineEnd).replace(/\r?\n$/, "");
  return { file: path.resolve(sourceFile.fileName), line: line + 1, column: character + 1, length: Math.max(0, Math.min(end, lineStart + lineText.length) - start), lineText };
}

export { display };
