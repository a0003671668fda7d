import * as path from "node:path";
import type * as ts from "typescript";
import { analyzeProgram, isAnalysedFile } from "@sourced/analysis";
import type { AnalysisResult, ProgramPort, TypeScript as SyntaxPort } from "@sourced/analysis";
import { type Backend, chooseBackend, loadNative } from "./backend";
import { UsageError } from "./errors";
import { configErrorText, createSharedHost, nativeConfigErrorText } from "./projects";
import { loadTypeScript } from "./typescript";

/** One project judged on the backend `chooseBackend` picks for it (the one `sourced check` runs). */
export interface ProjectAnalysis {
  readonly backend: Backend;
  readonly typescriptVersion: string;
  /** The syntax the result's nodes belong to: classic `ts`, or TypeScript 7's syntax port. */
  readonly ts: SyntaxPort;
  readonly program: ProgramPort;
  /** The files judged: the project's own sources (`isAnalysedFile`). */
  readonly sourceFiles: readonly ts.SourceFile[];
  readonly result: AnalysisResult;
  /** Set when the classic backend's TypeScript is a newer 6.x than sourced supports: it judged, and this says so. */
  readonly warning?: string;
  /** Ends TypeScript 7's process (native backend); the result stays readable, the checker does not. */
  close(): void;
}

export interface AnalyzeProjectOptions {
  /** The tsconfig file (absolute, or relative to `cwd`). Its references are not followed. */
  readonly tsconfig: string;
  readonly cwd?: string;
  /** As `sourced check --backend`; by default native exactly when the project's `tsc` is TypeScript 7 or later. */
  readonly backend?: Backend;
}

/**
 * Loads one project and judges it with the backend `sourced check` picks for it, the same choice
 * in the same place (`chooseBackend`): for front-ends that build without tsc (the bundler plugin,
 * the registry's start-up check) and must agree with the check. Throws {@link UsageError} for a
 * TypeScript it cannot use, and, as the check refuses it, for a tsconfig its compiler rejects.
 */
export function analyzeProject(options: AnalyzeProjectOptions): ProjectAnalysis {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const configPath = path.resolve(cwd, options.tsconfig);
  const directory = path.dirname(configPath);
  const choice = chooseBackend(directory, options.backend);
  if (choice.backend === "native") {
    const compiler = loadNative(directory, choice.typescript);
    const session = compiler.openSession([configPath], cwd);
    try {
      const project = session.project(configPath);
      if (project === undefined) throw new UsageError(`TypeScript ${compiler.version} cannot open ${configPath}.`);
      const configErrors = project.configErrors();
      if (configErrors.length > 0) throw invalidConfig(configPath, cwd, configErrors.map((error) => nativeConfigErrorText(error, cwd)));
      const { program } = project;
      const sourceFiles = project.candidateSources().filter((sourceFile) => isAnalysedFile(program, sourceFile));
      const result = analyzeProgram(project.syntax, program, { sourceFiles });
      return { backend: "native", typescriptVersion: compiler.version, ts: project.syntax, program, sourceFiles, result, close: () => session.close() };
    } catch (error) {
      session.close();
      throw error;
    }
  }
  const loaded = loadTypeScript(directory);
  const { ts: typescript } = loaded;
  const parsed = typescript.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...typescript.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new UsageError(`${configPath}: ${typescript.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
    },
  });
  if (parsed === undefined) throw new UsageError(`cannot read ${configPath}.`);
  const configErrors = typescript.getConfigFileParsingDiagnostics(parsed).filter((diagnostic) => diagnostic.category === typescript.DiagnosticCategory.Error);
  if (configErrors.length > 0) throw invalidConfig(configPath, cwd, configErrors.map((diagnostic) => configErrorText(typescript, diagnostic, cwd)));
  const program = typescript.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host: createSharedHost(typescript, parsed.options, new Map()) });
  const sourceFiles = program.getSourceFiles().filter((sourceFile) => isAnalysedFile(program, sourceFile));
  const result = analyzeProgram(typescript, program, { sourceFiles });
  return { backend: "classic", typescriptVersion: loaded.version, ts: typescript, program, sourceFiles, result, ...(loaded.warning === undefined ? {} : { warning: loaded.warning }), close: () => {} };
}

/** As `sourced check` refuses it: a judgement over a project its own compiler rejects could not be trusted. */
function invalidConfig(configPath: string, cwd: string, errors: readonly string[]): UsageError {
  const name = path.relative(cwd, configPath).split(path.sep).join("/") || configPath;
  return new UsageError(`${name} is not a valid TypeScript configuration (${errors.join("; ")}); fix it so the tools can be checked.`);
}
