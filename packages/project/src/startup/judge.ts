import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import { analyzeProgram, isAnalysedFile, sourceFileNamesOf, type AnalysisResult, type Finding, type TypeScript as SyntaxPort } from "@sourced/analysis";
import type { NativeSession, NativeTypeScript } from "@sourced/analysis-native";
import { chooseBackend, loadClassicInstead, loadNative, NativeBackendUnavailable } from "../backend";
import { ConfigError, createSharedHost, readNativeProjects, readProjects } from "../projects";
import { nativeResolutionInputs } from "../native-resolution";
import { resolutionInputsOf, type ResolutionInputs } from "../resolution-watch";
import { loadTypeScript, type TypeScript } from "../typescript";
import { configCoverage } from "../config-files";
import { emitClassic, emitNative, tracingOptions, traceOutputs, type Emission } from "./outputs";
import { coverageOf, Fingerprints, RECORD_FORMAT, writeRecord, type EscapeRecord, type OutputRecord, type ProjectRecord, type RecordedFinding, type RegistrationRecord } from "./records";
import { configsAbove, isTypeScriptFile } from "./sources";
import { escapeSpansOf, headOf } from "./statements";

/*
 * The start-up check's heavy half, run in a worker thread (or TypeScript 7's own process): finds
 * the project of each source file — the nearest tsconfig that holds it, as an editor finds it —
 * loads that project's own TypeScript, judges it on the backend `sourced check` would choose,
 * and keeps what it learnt as records (see records.ts).
 */

export interface JudgeRequest {
  /** Absolute paths of the source files registrations were made in. */
  readonly files: readonly string[];
  /** Files of plain tsc's output that registrations ran in, each with the config that emitted it: traced back to their sources. */
  readonly outputs: readonly { readonly file: string; readonly config: string }[];
  readonly cwd: string;
  /** Write the records to the cache. */
  readonly cache: boolean;
}

/** Where each file was found. */
export type FilePlace =
  | { readonly file: string; readonly config: string }
  | { readonly file: string; readonly failure: string }
  /** JavaScript no tsconfig holds: plain JavaScript, not the check's to judge. */
  | { readonly file: string; readonly plain: true };

export interface JudgeResult {
  readonly records: readonly ProjectRecord[];
  /** Where each file (and each source an output was traced to) was found. */
  readonly places: readonly FilePlace[];
  /** One per output asked about. */
  readonly outputs: readonly OutputRecord[];
}

/** A project opened for the check: its roots, its references, and how to analyse it. */
interface OpenedProject {
  readonly config: string;
  readonly roots: readonly string[];
  readonly references: readonly string[];
  analyse(): Analysed;
  /** The JavaScript its build writes, emitted again now (after `analyse`, whose program it reuses on the classic backend). */
  emit(): Emission;
}

interface Analysed {
  readonly ts: SyntaxPort;
  readonly result: AnalysisResult;
  readonly judged: readonly ts.SourceFile[];
  readonly programFiles: readonly string[];
  /** What resolution depended on: TypeScript's own record of it (classic), told from the files' text (TypeScript 7, which does not tell). */
  readonly resolution?: ResolutionInputs;
}

export function judgeFiles(request: JudgeRequest): JudgeResult {
  const display = (file: string): string => path.relative(request.cwd, file).split(path.sep).join("/") || file;
  const fingerprints = new Fingerprints();
  const candidates = new Map(request.files.map((file) => [file, configsAbove(file)]));
  const configs = [...new Set([...[...candidates.values()].flat(), ...request.outputs.map((output) => output.config)])];

  const opened = new Map<string, OpenedProject>();
  /** A config, with its references depth first: the projects it stands for. */
  const projectsOf = new Map<string, readonly OpenedProject[]>();
  const failedConfigs = new Map<string, string>();
  const sessions: NativeSession[] = [];
  try {
    openAll(configs, request.cwd, display, { opened, projectsOf, failedConfigs, sessions });

    const places: FilePlace[] = [];
    const chosen = new Map<string, OpenedProject>();
    const analysed = new Map<string, Analysed | string>();
    const analyse = (project: OpenedProject): Analysed | string => {
      let result = analysed.get(project.config);
      if (result === undefined) {
        try {
          result = project.analyse();
        } catch (error) {
          result = `internal error while analysing ${display(project.config)}: ${error instanceof Error ? error.message : String(error)}. Please report it`;
        }
        analysed.set(project.config, result);
      }
      return result;
    };

    for (const file of request.files) {
      const above = candidates.get(file)!;
      if (above.length === 0) {
        places.push(isTypeScriptFile(file) ? { file, failure: `no tsconfig.json is in ${display(path.dirname(file))} or above it` } : { file, plain: true });
        continue;
      }
      // As an editor: the nearest config whose files (or whose references' files) name it.
      let project: OpenedProject | undefined;
      let failure: string | undefined;
      for (const config of above) {
        failure ??= failedConfigs.get(config);
        project = projectsOf.get(config)?.find((candidate) => candidate.roots.includes(file));
        if (project !== undefined) break;
      }
      // Else a file the nearest config's program imports without naming it (`"files": ["src/server.ts"]`).
      if (project === undefined) {
        const nearest = projectsOf.get(above[0]!)?.[0];
        const result = nearest === undefined ? undefined : analyse(nearest);
        if (nearest !== undefined && typeof result === "object" && result.judged.some((sourceFile) => samePath(sourceFile.fileName, file))) project = nearest;
      }
      if (project !== undefined) {
        chosen.set(project.config, project);
        places.push({ file, config: project.config });
      } else if (failure !== undefined) {
        places.push({ file, failure });
      } else if (isTypeScriptFile(file)) {
        places.push({ file, failure: `no tsconfig includes ${display(file)} (looked in ${above.map(display).join(", ")})` });
      } else {
        places.push({ file, plain: true });
      }
    }

    // Plain tsc's output: the config that emitted it judges the source it was traced to.
    const outputs: OutputRecord[] = [];
    const outputsOf = new Map<string, OutputRecord[]>();
    for (const [config, files] of filesByConfig(request.outputs)) {
      const project = opened.get(config);
      /** Every file of the build on disk: see below. */
      let recorded: OutputRecord[] | undefined;
      let traced: OutputRecord[];
      const unjudged = (failure: string): OutputRecord[] => files.map((file) => ({ file, fingerprint: fingerprints.file(file), failure }));
      if (project === undefined) {
        traced = unjudged(failedConfigs.get(config) ?? `${display(config)} cannot be opened`);
      } else {
        const result = analyse(project);
        if (typeof result === "string") traced = unjudged(result);
        else {
          try {
            // Every file the build wrote, not only those asked about: a server whose registries start
            // serving one after another (each checked then) finds the others' files in the record,
            // instead of emitting the whole project again for each.
            const emission = project.emit();
            const asked = new Set(files);
            recorded = traceOutputs([...files, ...[...emission.keys()].filter((file) => !asked.has(file) && fs.existsSync(file))], config, emission, (file) => fingerprints.file(file), display);
            traced = recorded.filter((output) => asked.has(output.file));
          } catch (error) {
            traced = unjudged(`${display(config)} could not be emitted again to trace ${files.map(display).join(", ")} to its sources (${error instanceof Error ? error.message : String(error)}). Please report it`);
          }
          outputsOf.set(config, recorded ?? traced);
          chosen.set(config, project);
          for (const output of traced) if ("source" in output) places.push({ file: output.source, config });
        }
      }
      outputs.push(...traced);
    }

    const records: ProjectRecord[] = [];
    for (const project of opened.values()) {
      const coverage = coverageOf(project.config, fingerprints);
      const base = { roots: project.roots, references: project.references };
      let record: ProjectRecord | undefined;
      // Analysed when it holds a file, or when its program was searched for one: either way its record says what it registers.
      if (chosen.has(project.config) || analysed.has(project.config)) {
        const result = analyse(project);
        if (typeof result === "string") {
          for (const [index, place] of places.entries()) if ("config" in place && place.config === project.config) places[index] = { file: place.file, failure: result };
          continue;
        }
        const traced = outputsOf.get(project.config);
        record = {
          ...(coverage ?? { format: RECORD_FORMAT, config: project.config, stamp: "", configFiles: {}, directories: {} }),
          ...base,
          analysis: analysisRecord(result, fingerprints),
          ...(traced === undefined ? {} : { outputs: traced }),
        };
      } else if (coverage !== undefined) {
        record = { ...coverage, ...base };
      }
      if (record === undefined) continue;
      records.push(record);
      // A tree too large to fingerprint is never kept: a change in it could not be seen.
      if (request.cache && coverage !== undefined) writeRecord(record);
    }
    return { records, places, outputs };
  } finally {
    for (const session of sessions) session.close();
  }
}

interface Opened {
  readonly opened: Map<string, OpenedProject>;
  readonly projectsOf: Map<string, readonly OpenedProject[]>;
  readonly failedConfigs: Map<string, string>;
  readonly sessions: NativeSession[];
}

/**
 * Opens every config (and what it references) on the backend `sourced check` chooses for it: one
 * classic TypeScript per install, parsing each declaration file once; one TypeScript 7 process
 * per install, every config in one snapshot. A config that cannot be read records why.
 */
function openAll(configs: readonly string[], cwd: string, display: (file: string) => string, into: Opened): void {
  const classic = new Map<string, { ts: TypeScript; declarations: Map<string, ts.SourceFile>; extended: Map<string, ts.ExtendedConfigCacheEntry>; seen: Set<string> }>();
  const native = new Map<string, { compiler: NativeTypeScript; configs: Map<string, string[]> }>();
  for (const config of configs) {
    const directory = path.dirname(config);
    let nativeProblem: NativeBackendUnavailable | undefined;
    try {
      const choice = chooseBackend(directory, undefined);
      if (choice.backend === "native") {
        try {
          const compiler = loadNative(directory, choice.typescript);
          let group = native.get(compiler.directory);
          if (group === undefined) native.set(compiler.directory, (group = { compiler, configs: new Map() }));
          group.configs.set(config, readNativeProjects(config, new Set(), cwd));
          continue;
        } catch (error) {
          // As `sourced check`: a chosen native backend that cannot run falls back to the classic
          // one, when the project has it. Else the native backend's reason stands: a TypeScript 7
          // project is never told to install TypeScript 5 or 6.
          if (!(error instanceof NativeBackendUnavailable)) throw error;
          nativeProblem = error;
        }
      }
      const loaded = nativeProblem === undefined ? loadTypeScript(directory) : loadClassicInstead(directory, nativeProblem);
      let group = classic.get(loaded.path);
      if (group === undefined) {
        classic.set(loaded.path, (group = { ts: loaded.ts, declarations: new Map(), extended: new Map(), seen: new Set() }));
        // This thread's stderr is the server's: said once per TypeScript, as typescript-eslint says it.
        if (loaded.warning !== undefined) process.stderr.write(`sourced: warning: ${loaded.warning}.\n`);
      }
      const { ts: typescript, declarations } = group;
      const projects = readProjects(typescript, config, new Set(), group.extended, cwd).reverse();
      into.projectsOf.set(
        config,
        projects.map((project) => {
          const known = into.opened.get(project.configPath);
          if (known !== undefined) return known;
          const { parsed } = project;
          const options = tracingOptions(parsed.options);
          let program: ts.Program | undefined;
          const opened: OpenedProject = {
            config: project.configPath,
            roots: parsed.fileNames.map((file) => path.resolve(file)),
            references: (parsed.projectReferences ?? []).map((reference) => path.resolve(typescript.resolveProjectReferencePath(reference))),
            analyse: () => {
              // As `sourced check`: without `projectReferences`, imports of a referenced project read its sources.
              // The build's options but for its source maps (see outputs.ts), which change no verdict.
              const made = typescript.createProgram({ rootNames: parsed.fileNames, options, host: createSharedHost(typescript, options, declarations) });
              program = made;
              const judged = made.getSourceFiles().filter((sourceFile) => isAnalysedFile(made, sourceFile));
              return {
                ts: typescript,
                result: analyzeProgram(typescript, made, { sourceFiles: judged }),
                judged,
                programFiles: made.getSourceFiles().map((sourceFile) => path.resolve(sourceFile.fileName)),
                resolution: resolutionInputsOf(made, options),
              };
            },
            emit: () => {
              if (program === undefined) throw new Error("emitted before it was analysed");
              return emitClassic(program);
            },
          };
          into.opened.set(project.configPath, opened);
          return opened;
        }),
      );
    } catch (error) {
      const detail = error instanceof ConfigError ? `${error.diagnostics.trim()}\n${error.message}` : error instanceof Error ? error.message : String(error);
      into.failedConfigs.set(config, `${display(config)} cannot be used: ${detail}`);
    }
  }
  for (const { compiler, configs: groupConfigs } of native.values()) {
    const all = [...new Set([...groupConfigs.values()].flat())];
    let session: NativeSession;
    try {
      session = compiler.openSession(all, cwd);
    } catch (error) {
      for (const config of groupConfigs.keys()) into.failedConfigs.set(config, `TypeScript ${compiler.version} cannot open ${display(config)}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    into.sessions.push(session);
    for (const [config, list] of groupConfigs) {
      const projects: OpenedProject[] = [];
      for (const configPath of [...list].reverse()) {
        const known = into.opened.get(configPath);
        if (known !== undefined) {
          projects.push(known);
          continue;
        }
        const project = session.project(configPath);
        if (project === undefined) continue;
        const errors = project.configErrors();
        if (errors.length > 0) {
          into.failedConfigs.set(config, `${display(configPath)} cannot be used: ${errors.map((error) => error.message).join("; ")}`);
          continue;
        }
        const opened: OpenedProject = {
          config: configPath,
          roots: project.rootFiles.map((file) => path.resolve(file)),
          references: list.filter((other) => other !== configPath),
          analyse: () => {
            const judged = project.candidateSources().filter((sourceFile) => isAnalysedFile(project.program, sourceFile));
            const programFiles = sourceFileNamesOf(project.program).map((file) => path.resolve(file));
            return {
              ts: project.syntax,
              result: analyzeProgram(project.syntax, project.program, { sourceFiles: judged }),
              judged,
              programFiles,
              resolution: nativeResolutionInputs(programFiles, project.compilerOptions()),
            };
          },
          emit: () => emitNative(compiler.directory, configPath, configCoverage(configPath).outDir),
        };
        into.opened.set(configPath, opened);
        projects.push(opened);
      }
      into.projectsOf.set(config, projects);
    }
  }
}

function analysisRecord(analysed: Analysed, fingerprints: Fingerprints): NonNullable<ProjectRecord["analysis"]> {
  const { ts: syntax, result } = analysed;
  const registrations: RegistrationRecord[] = [];
  for (const registration of result.registrations) {
    const sourceFile = registration.site.getSourceFile();
    const finding = registration.finding === undefined ? undefined : findingRecord(registration.finding);
    registrations.push({ file: path.resolve(sourceFile.fileName), span: headOf(syntax, sourceFile, registration.site), ...(finding === undefined ? {} : { finding }) });
  }
  // Only the escapes family's findings (those the analysis says what escaped on) say where a
  // registry or decorator escapes: an unseen registration further on is blamed on the last of
  // them. Any other finding no registration owns (a name registered twice, an invalid name, a
  // file-wide one) is about something else: naming it as that cause misleads.
  const escapes: EscapeRecord[] = [];
  for (const finding of result.findings) {
    if (finding.escaped === undefined) continue;
    escapes.push({ file: path.resolve(finding.sourceFile.fileName), escaped: finding.escaped, ...escapeSpansOf(syntax, finding.sourceFile, finding.site), finding: findingRecord(finding) });
  }
  const files: Record<string, string> = {};
  for (const file of analysed.programFiles) files[file] = fingerprints.file(file);
  const judged = analysed.judged.map((sourceFile) => path.resolve(sourceFile.fileName));
  if (analysed.resolution === undefined) return { files, judged, registrations, escapes };
  const packageJsons: Record<string, string> = {};
  for (const file of analysed.resolution.packageJsons) packageJsons[file] = fingerprints.file(file);
  return { files, judged, registrations, escapes, resolution: { missing: analysed.resolution.missing, packageJsons } };
}

function findingRecord(finding: Finding): RecordedFinding {
  const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
  return { id: finding.id, code: finding.code, tool: finding.tool, message: finding.message, file: path.resolve(finding.sourceFile.fileName), line: line + 1, column: character + 1 };
}

/** The output files asked about, by the config that emitted them. */
function filesByConfig(outputs: JudgeRequest["outputs"]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { file, config } of outputs) {
    const group = groups.get(config);
    if (group === undefined) groups.set(config, [file]);
    else if (!group.includes(file)) group.push(file);
  }
  return groups;
}

function samePath(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}
