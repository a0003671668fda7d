import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { FilePlace, JudgeRequest, JudgeResult } from "./judge";
import type { Frame, StartupCheckOptions, StartupOutcome, StartupRegistration, StartupVerdict } from "./protocol";
import { Fingerprints, isCurrent, readRecord, verifierName, type EscapeRecord, type OutputRecord, type ProjectRecord, type RegistrationRecord, type Span } from "./records";
import { configsAbove, emittingConfig, isTypeScriptFile, throughOutput, sourcePositionOf, tracedByOwnMap, type LostPosition, type MappedFrame, type OutputPosition, type SourceMaps, type SourcePosition } from "./sources";

export { STARTUP_PROTOCOL } from "./protocol";
export type { Frame, ReportedFinding, StartupCheckOptions, StartupOutcome, StartupRegistration, StartupVerdict } from "./protocol";

/*
 * The registry's start-up check, as the project layer answers it: `@sourced/project/startup`,
 * which the registry loads only when it has registrations no stamp verified. This module runs in
 * the server's own thread and loads neither TypeScript nor the analysis: it maps stacks to
 * sources, answers from the records of an unchanged project (a restart), and hands the rest to a
 * worker thread that judges (judge.ts).
 */

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * Judges each registration by the stack it was made from: verified, refused with the finding
 * the build prints, or why it could not be judged. Never rejects: a failure of the check itself is
 * an `unjudged` verdict that says so.
 */
export async function checkRegistrations(registrations: readonly StartupRegistration[], options: StartupCheckOptions = {}): Promise<StartupOutcome> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const display = (file: string): string => path.relative(cwd, file).split(path.sep).join("/") || file;
  const useCache = options.cache !== false;
  const maps: SourceMaps = new Map();
  const emitters = new Map<string, string | undefined>();
  // Plain tsc's output is traced through the config that emitted it (once its record says how);
  // other JavaScript through the source map it names; TypeScript is its own source. One entry per
  // frame, `undefined` for a frame that is no source: the outcome's `traced` is given by frame.
  const located = registrations.map((registration) =>
    registration.frames.map((frame): Located | OutputPosition | undefined => {
      const config = emittingConfig(frame.file, emitters);
      if (config !== undefined && !tracedByOwnMap(frame.file, display, maps)) return { output: frame.file, config, frame };
      return sourcePositionOf(frame, display, maps);
    }),
  );

  const records = new Map<string, ProjectRecord>();
  const places = new Map<string, FilePlace>();
  const fingerprints = new Fingerprints();
  const current = (config: string): ProjectRecord | undefined => {
    if (!records.has(config)) {
      const record = useCache ? readRecord(config) : undefined;
      if (record !== undefined && isCurrent(record, fingerprints)) records.set(config, record);
      else return undefined;
    }
    return records.get(config);
  };
  const outputs = new Map<string, OutputRecord>();
  const coldOutputs: { file: string; config: string }[] = [];
  for (const { output, config } of uniqueOutputs(located)) {
    const record = current(config);
    const known = record?.analysis === undefined ? undefined : record.outputs?.find((candidate) => candidate.file === output && candidate.fingerprint === fingerprints.file(output));
    if (known === undefined) coldOutputs.push({ file: output, config });
    else {
      outputs.set(output, known);
      if ("source" in known) places.set(known.source, { file: known.source, config });
    }
  }
  const files = [...new Set(located.flat().flatMap((position) => (position === undefined || "lost" in position || "output" in position ? [] : [position.file])))];
  for (const file of files) {
    if (places.has(file)) continue;
    const place = placeFromRecords(file, current, display);
    if (place !== undefined) places.set(file, place);
  }
  const cold = files.filter((file) => !places.has(file));
  let source: StartupOutcome["source"] = files.length === 0 && outputs.size === 0 && coldOutputs.length === 0 ? "none" : "cache";
  if (cold.length > 0 || coldOutputs.length > 0) {
    source = "analysis";
    const judged = await judgeInWorker({ files: cold, outputs: coldOutputs, cwd, cache: useCache }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    if ("error" in judged) {
      const failure = `the start-up check failed (${judged.error}). Please report it`;
      for (const file of cold) places.set(file, { file, failure });
      for (const { file } of coldOutputs) outputs.set(file, { file, fingerprint: "", failure });
    } else {
      for (const record of judged.records) records.set(record.config, record);
      for (const place of judged.places) places.set(place.file, place);
      for (const output of judged.outputs) outputs.set(output.file, output);
    }
  }
  const positions = located.map((list) => list.map((position) => (position !== undefined && "output" in position ? throughOutput(position, outputs.get(position.output), display) : position)));
  const byFile = new SitesByFile(records);
  return {
    verifier: verifierName(),
    verdicts: positions.map((list) => verdictOf(list.filter((position) => position !== undefined), places, byFile, display)),
    source,
    traced: positions.map((list) => list.map((position) => (position === undefined || "lost" in position || position.mapped === undefined ? null : placeOf(position)))),
  };
}

/** A traced position as the protocol gives it: the place alone. */
function placeOf(position: SourcePosition): Frame {
  return { file: position.file, line: position.line, column: position.column };
}

/** Each project's registrations and escapes by file, indexed once: a server registers thousands of tools. */
class SitesByFile {
  private readonly indexed = new Map<string, { readonly registrations: Map<string, RegistrationRecord[]>; readonly escapes: Map<string, EscapeRecord[]> } | undefined>();

  constructor(private readonly records: ReadonlyMap<string, ProjectRecord>) {}

  /** `undefined` when the project was not analysed. */
  of(config: string, file: string): { readonly registrations: readonly RegistrationRecord[]; readonly escapes: readonly EscapeRecord[] } | undefined {
    if (!this.indexed.has(config)) {
      const analysis = this.records.get(config)?.analysis;
      this.indexed.set(config, analysis === undefined ? undefined : { registrations: groupByFile(analysis.registrations), escapes: groupByFile(analysis.escapes) });
    }
    const index = this.indexed.get(config);
    return index === undefined ? undefined : { registrations: index.registrations.get(file) ?? [], escapes: index.escapes.get(file) ?? [] };
  }
}

function groupByFile<T extends { readonly file: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.file);
    if (group === undefined) groups.set(item.file, [item]);
    else group.push(item);
  }
  return groups;
}

/**
 * Where `file` belongs, from current records alone, as judge.ts would find it: the nearest config
 * whose files (or whose references' files) name it, else the nearest config's program when it
 * imports it. `undefined` when a record it needs is missing or stale: then the worker decides.
 */
function placeFromRecords(file: string, current: (config: string) => ProjectRecord | undefined, display: (file: string) => string): FilePlace | undefined {
  const above = configsAbove(file);
  if (above.length === 0) return isTypeScriptFile(file) ? { file, failure: `no tsconfig.json is in ${display(path.dirname(file))} or above it` } : { file, plain: true };
  for (const config of above) {
    const found = holder(config, file, current, new Set());
    if (found === undefined) return undefined;
    // The holder's record must say what its program registers; one that was only read is not enough.
    if (found !== false) return current(found)?.analysis === undefined ? undefined : { file, config: found };
  }
  const nearest = current(above[0]!);
  if (nearest?.analysis === undefined) return undefined;
  if (nearest.analysis.judged.includes(file)) return { file, config: nearest.config };
  // Not in any project: what the worker says of it, from the same facts.
  if (isTypeScriptFile(file)) return { file, failure: `no tsconfig includes ${display(file)} (looked in ${above.map(display).join(", ")})` };
  return { file, plain: true };
}

/** The config among `config` and its references (depth first) whose roots name `file`; `false` for none; `undefined` when a record is missing. */
function holder(config: string, file: string, current: (config: string) => ProjectRecord | undefined, seen: Set<string>): string | false | undefined {
  if (seen.has(config)) return false;
  seen.add(config);
  const record = current(config);
  if (record === undefined) return undefined;
  if (record.roots.includes(file)) return config;
  for (const reference of record.references) {
    const found = holder(reference, file, current, seen);
    if (found !== false) return found;
  }
  return false;
}

type Located = SourcePosition | LostPosition;

function uniqueOutputs(located: readonly (readonly (Located | OutputPosition | undefined)[])[]): OutputPosition[] {
  const seen = new Map<string, OutputPosition>();
  for (const list of located) for (const position of list) if (position !== undefined && "output" in position && !seen.has(position.output)) seen.set(position.output, position);
  return [...seen.values()];
}

function verdictOf(positions: readonly Located[], places: ReadonlyMap<string, FilePlace>, sites: SitesByFile, display: (file: string) => string): StartupVerdict {
  /** The first frame that leads to a source decides what an unmatched registration is. */
  let first: { readonly failure: string } | { readonly judged: SourcePosition; readonly config: string } | undefined;
  /** A frame further out that could not be judged: the registration may be there (plain tsc's output of an edited source). */
  let failed: string | undefined;
  /**
   * Escapes with a frame further in inside a function written in their statement (`excluded`): a
   * frame further out in that statement only called the function (`install(registry.tool(), cb)`
   * calling `cb`), so it is not the escape's either.
   */
  const calledInto = new Set<EscapeRecord>();
  // Innermost first: the first frame at a registration's head is the registration (a platform's
  // wrapper is a frame or more inside it), the first in an escape's statement that escape's, and
  // the frames after it are not read. A frame further out is where the enclosing code was called
  // from, and a loader's wrapper can map anywhere: it decides only when no frame further in does.
  for (const position of positions) {
    if ("lost" in position) {
      first ??= { failure: position.lost };
      failed ??= position.lost;
      continue;
    }
    const place = places.get(position.file);
    if (place === undefined || "plain" in place) continue;
    if ("failure" in place) {
      first ??= { failure: place.failure };
      failed ??= place.failure;
      continue;
    }
    const inFile = sites.of(place.config, position.file);
    if (inFile === undefined) continue;
    first ??= { judged: position, config: place.config };
    const registration = innermost(inFile.registrations.filter((candidate) => contains(candidate.span, position)));
    if (registration !== undefined) {
      // The build strips a rejected registration: what it would have registered never is.
      return registration.finding === undefined ? { kind: "verified" } : { kind: "refused", finding: { ...registration.finding, file: display(registration.finding.file) } };
    }
    const escape = innermost(inFile.escapes.filter((candidate) => !calledInto.has(candidate) && inEscape(candidate, position)));
    if (escape !== undefined) {
      const { finding } = escape;
      return { kind: "unverified", reason: `it is registered through ${escapedValue(escape)} the analysis cannot follow (${display(finding.file)}:${finding.line}:${finding.column}: ${finding.message})`, ...tracedSource(position) };
    }
    for (const candidate of inFile.escapes) if (candidate.excluded?.some((body) => contains(body, position)) === true) calledInto.add(candidate);
  }
  if (first === undefined) return { kind: "unchecked" };
  if ("failure" in first) return { kind: "unjudged", reason: first.failure };
  // No registration here, but the registry lost its type earlier in this file (`registry as any`,
  // `const untyped: any = registry`), or a tool decorator escaped there: what it registers from
  // there on is never judged.
  const escapes = sites.of(first.config, first.judged.file)?.escapes ?? [];
  // Here no escape holds the frame, but one whose statement holds the function it ran in (a
  // callback passed beside the value) comes after an earlier one in text only: the function runs
  // when called and reaches whatever registry it reaches, most probably one lost earlier in the
  // file. Named only when no other escape is before the frame.
  const lost = lastBefore(escapes.filter((candidate) => !contains(candidate.span, first.judged)), first.judged) ?? lastBefore(escapes, first.judged);
  if (lost !== undefined) {
    const { finding } = lost;
    return {
      kind: "unverified",
      reason: `it is registered through ${escapedValue(lost)} the analysis cannot follow, probably the one at ${display(finding.file)}:${finding.line}:${finding.column} (${finding.message})`,
      ...tracedSource(first.judged),
    };
  }
  if (failed !== undefined) return { kind: "unjudged", reason: failed };
  const at = `${display(first.judged.file)}:${first.judged.line}:${first.judged.column}`;
  return { kind: "unverified", reason: `the analysis of ${display(first.config)} finds no registration at ${at}${tracedFrom(first.judged.mapped, display)}`, ...tracedSource(first.judged) };
}

/**
 * Where the frame that ran was, and what led from it to the source, in words: only JavaScript
 * whose file names a source map was traced through a source map. Plain tsc's output is traced
 * through the check's own emit of the source (the build may have written no map, and its maps
 * are not read); a loader's position through the map it gave Node for its transpile.
 */
function tracedFrom(mapped: MappedFrame | undefined, display: (file: string) => string): string {
  if (mapped === undefined) return "";
  const ran = `${display(mapped.file)}:${mapped.line}:${mapped.column}`;
  switch (mapped.through) {
    case "source map":
      return ` (${ran} through its source map)`;
    case "emit":
      return ` (${ran} through the check's own emit of it)`;
    case "loader":
      return ` (${ran} in the loader's transpile of it)`;
  }
}

/** An `unverified` verdict's `source` (protocol.ts): the judged position, when a map led to it from the frame that ran. */
function tracedSource(position: SourcePosition): { readonly source?: Frame } {
  return position.mapped === undefined ? {} : { source: placeOf(position) };
}

function contains(span: Span, position: SourcePosition): boolean {
  const at = [position.line, position.column] as const;
  return compare(span.start, at) <= 0 && compare(at, span.end) < 0;
}

/** What a verdict blaming `escape` says the registration went through: what escaped, as the analysis said. */
function escapedValue(escape: EscapeRecord): string {
  return escape.escaped === "decorator" ? "a tool decorator" : "a registry value";
}

/** Whether a frame at `position` runs with the escape's value: in its statement, not in a function written there (`EscapeRecord.excluded`). */
function inEscape(escape: EscapeRecord, position: SourcePosition): boolean {
  return contains(escape.span, position) && !(escape.excluded ?? []).some((body) => contains(body, position));
}

function compare(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** Of `candidates`, the one that starts last before `position`. */
function lastBefore<T extends { readonly span: Span }>(candidates: readonly T[], position: SourcePosition): T | undefined {
  const at = [position.line, position.column] as const;
  let best: T | undefined;
  for (const candidate of candidates) {
    if (compare(candidate.span.start, at) < 0 && (best === undefined || compare(candidate.span.start, best.span.start) > 0)) best = candidate;
  }
  return best;
}

/** The innermost of spans that all contain one position: the one that starts last (and, of those, ends first). */
function innermost<T extends { readonly span: Span }>(candidates: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const candidate of candidates) {
    if (best === undefined || compare(candidate.span.start, best.span.start) > 0 || (compare(candidate.span.start, best.span.start) === 0 && compare(candidate.span.end, best.span.end) < 0)) best = candidate;
  }
  return best;
}

/**
 * Runs judge.ts in a worker thread. Its standard streams go to this process's stderr (stdout
 * carries the protocol); it keeps the process alive only while it judges, and is stopped after
 * `timeoutMs`.
 */
function judgeInWorker(request: JudgeRequest, timeoutMs: number): Promise<JudgeResult | { readonly error: string }> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(path.join(__dirname, "worker.js"), { workerData: request, stdout: true, stderr: true, execArgv: [] });
    } catch (error) {
      resolve({ error: error instanceof Error ? error.message : String(error) });
      return;
    }
    worker.stdout.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    worker.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    const timer = setTimeout(() => {
      resolve({ error: `it did not finish within ${Math.round(timeoutMs / 1000)} s` });
      void worker.terminate();
    }, timeoutMs);
    timer.unref();
    const settle = (answer: JudgeResult | { readonly error: string }): void => {
      clearTimeout(timer);
      resolve(answer);
    };
    worker.once("message", (message: { result?: JudgeResult; error?: string }) => settle(message.result ?? { error: message.error ?? "no answer" }));
    worker.once("error", (error) => settle({ error: error.stack ?? error.message }));
    worker.once("exit", (code) => settle({ error: `its worker stopped (exit code ${code}) before answering` }));
  });
}
