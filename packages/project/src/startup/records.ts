import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { chooseBackend } from "../backend";
import { configCoverage, directoryFingerprint } from "../config-files";
import { fingerprintOf } from "../fingerprint";
import type { ReportedFinding } from "./protocol";

/*
 * What the start-up check knows of one tsconfig, as plain data: which files it covers and, once
 * its program was analysed, every registration's span with its finding. Matching a registration
 * needs nothing more, so a record read back from `node_modules/.cache/sourced/` answers a restart
 * without TypeScript; it is used only while everything it was computed from is unchanged.
 */

/** 1-based line and column, as V8 counts them (UTF-16 code units, as TypeScript's positions). */
export type Position = readonly [line: number, column: number];

/** From `start` to `end` (exclusive). */
export interface Span {
  readonly start: Position;
  readonly end: Position;
}

/** A finding as recorded: its file absolute (messages make it relative to the working directory). */
export type RecordedFinding = ReportedFinding;

export interface RegistrationRecord {
  readonly file: string;
  /**
   * Where a stack frame executing this registration points: a call's head, from its start to its
   * first argument (V8 and the source maps of tsx and vitest place a call between the two); a
   * decorator's decorated declaration up to its body (a class body applies it there). Never the
   * registered function's body: another registration's frames may pass through it.
   */
  readonly span: Span;
  readonly finding?: RecordedFinding;
}

/** Where a registry or tool decorator escapes the analysis (a finding of its escapes family, `Finding.escaped`), and what it says. */
export interface EscapeRecord {
  readonly file: string;
  /** What escaped, as the analysis says (`Finding.escaped`): a verdict blaming the escape names it. */
  readonly escaped: "registry" | "decorator";
  /**
   * The statement the escaping value is part of (a parameter's default, an arrow's expression
   * body, a class field or a decorator where the value is in one): a frame there runs a
   * registration the value makes, wherever V8 places it in the statement (`Reflect.apply(…)` at
   * `apply`). The finding names the value itself.
   */
  readonly span: Span;
  /**
   * The code in `span` that does not run with the value, absent when none: what the functions
   * written in the statement run when called, their bodies and their parameters' defaults (a
   * callback passed beside the value runs when called, and registers through whatever it
   * reaches). A frame in one is not in the escape.
   */
  readonly excluded?: readonly Span[];
  readonly finding: RecordedFinding;
}

export interface ProjectAnalysisRecord {
  /** Every file of the program (libraries included) with its fingerprint: an edit anywhere it reads invalidates the record. */
  readonly files: Readonly<Record<string, string>>;
  /** The files the analysis judged: the project's own sources. */
  readonly judged: readonly string[];
  readonly registrations: readonly RegistrationRecord[];
  readonly escapes: readonly EscapeRecord[];
  /**
   * What module resolution depended on besides the program's files: the places an import that
   * found nothing looked in, and every package.json it read, with its fingerprint (on TypeScript 7,
   * told from the files' text: native-resolution.ts).
   * A file written there or a package installed, linked in or upgraded makes the record stale, though
   * no file of the program changed.
   */
  readonly resolution?: { readonly missing: readonly string[]; readonly packageJsons: Readonly<Record<string, string>> };
}

/**
 * What the check learnt of one file of plain tsc's output that a registration ran in, by emitting
 * its config's program again: the source it comes from and the source map of that emit (made by
 * the check, whether or not the build wrote one), or why it cannot be traced to the sources as
 * they are now. Valid while the file's fingerprint is `fingerprint` and its config's record is
 * current.
 */
export type OutputRecord =
  | { readonly file: string; readonly fingerprint: string; readonly source: string; readonly mappings: string }
  | { readonly file: string; readonly fingerprint: string; readonly failure: string };

export interface ProjectRecord {
  readonly format: typeof RECORD_FORMAT;
  readonly config: string;
  /** The sourced and TypeScript versions and the backend: another one judges differently. */
  readonly stamp: string;
  /** The config and what it extends, with their fingerprints. */
  readonly configFiles: Readonly<Record<string, string>>;
  /** The directories `include` searches, with their fingerprints (a file added there changes the project). */
  readonly directories: Readonly<Record<string, string>>;
  /** The project's root files (what `include` and `files` name). */
  readonly roots: readonly string[];
  /** The tsconfig files it references. */
  readonly references: readonly string[];
  /** Absent when the project was only read (to learn it does not hold a file), not analysed. */
  readonly analysis?: ProjectAnalysisRecord;
  /** The files of this config's tsc output that registrations ran in, traced back to their sources (only with `analysis`). */
  readonly outputs?: readonly OutputRecord[];
}

// 5: `escapes` holds only escaped registry and decorator values (format 4 held every finding no registration owned).
// 6: an escape's span is the statement its value is part of (format 5 held the value's own).
// 7: an escape's `excluded` holds the bodies of the functions in its statement (format 6 spans held them).
// 8: an escape says what escaped, a registry or a tool decorator (`escaped`; format 7 did not).
// 9: an escape's `excluded` holds the parameters' defaults of the functions in its statement too (format 8 blamed a registration there on the escape).
// 10: a record made on TypeScript 7 holds what resolution depended on (`resolution`; format 9 held it on the classic backend only, so a native record missed an import that resolved later).
export const RECORD_FORMAT = 10;

let versions: string | undefined;

/** This package's and the analysis' versions: a record made by another judgement is not reused. */
function sourcedVersions(): string {
  if (versions === undefined) {
    const own = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { name: string; version: string };
    const analysis = JSON.parse(fs.readFileSync(require.resolve("@sourced/analysis/package.json"), "utf8")) as { name: string; version: string };
    versions = `${own.name}@${own.version}+${analysis.name}@${analysis.version}`;
  }
  return versions;
}

/** `@sourced/project@<version>`: what the registry names as the verifier of the tools the check verified. */
export function verifierName(): string {
  return sourcedVersions().split("+")[0]!;
}

function installed(name: string, directory: string): string {
  try {
    const manifest = createRequire(path.join(directory, "noop.js")).resolve(`${name}/package.json`);
    const { version } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version?: unknown };
    return `${name}@${String(version)}:${path.dirname(manifest)}`;
  } catch {
    return `${name}:-`;
  }
}

/**
 * What judges a project in `directory`, read from package manifests only: the backend
 * `chooseBackend` picks, the TypeScript it found, and the `typescript` and `@typescript/typescript6`
 * the classic backend would load; and this package's and the analysis' versions.
 */
export function judgeStamp(directory: string): string {
  let backend: string;
  try {
    const choice = chooseBackend(directory, undefined);
    backend = `${choice.backend}:${choice.typescript === undefined ? "-" : `${choice.typescript.version}:${choice.typescript.directory}`}`;
  } catch {
    backend = "-";
  }
  return [sourcedVersions(), backend, installed("typescript", directory), installed("@typescript/typescript6", directory)].join("|");
}

/** Fingerprints taken once per check: a file read by several records is read once. */
export class Fingerprints {
  private readonly files = new Map<string, string>();
  private readonly directories = new Map<string, string | undefined>();

  file(file: string): string {
    let fingerprint = this.files.get(file);
    if (fingerprint === undefined) {
      fingerprint = fingerprintOf(file);
      this.files.set(file, fingerprint);
    }
    return fingerprint;
  }

  directory(directory: string, skipped: readonly string[]): string | undefined {
    const key = `${directory}\0${skipped.join("\0")}`;
    if (!this.directories.has(key)) this.directories.set(key, directoryFingerprint(directory, skipped));
    return this.directories.get(key);
  }
}

/** The parts of a record that say which files a config covers, fingerprinted now; `undefined` when its tree is too large to fingerprint. */
export function coverageOf(
  config: string,
  fingerprints: Fingerprints,
): Pick<ProjectRecord, "format" | "config" | "stamp" | "configFiles" | "directories"> | undefined {
  const coverage = configCoverage(config);
  const directories: Record<string, string> = {};
  for (const directory of coverage.searched) {
    const fingerprint = fingerprints.directory(directory, coverage.skipped);
    if (fingerprint === undefined) return undefined;
    directories[directory] = fingerprint;
  }
  const configFiles: Record<string, string> = {};
  for (const file of coverage.configFiles) configFiles[file] = fingerprints.file(file);
  return { format: RECORD_FORMAT, config, stamp: judgeStamp(path.dirname(config)), configFiles, directories };
}

/** Whether `record` still describes its project: same judge, same configs, same searched folders, same program files. */
export function isCurrent(record: ProjectRecord, fingerprints: Fingerprints): boolean {
  if (record.format !== RECORD_FORMAT) return false;
  const now = coverageOf(record.config, fingerprints);
  if (now === undefined || now.stamp !== record.stamp) return false;
  if (!sameEntries(now.configFiles, record.configFiles) || !sameEntries(now.directories, record.directories)) return false;
  if (record.analysis === undefined) return true;
  for (const [file, fingerprint] of Object.entries(record.analysis.files)) if (fingerprints.file(file) !== fingerprint) return false;
  const { resolution } = record.analysis;
  if (resolution !== undefined) {
    for (const [file, fingerprint] of Object.entries(resolution.packageJsons)) if (fingerprints.file(file) !== fingerprint) return false;
    if (resolution.missing.some((location) => fs.existsSync(location))) return false;
  }
  return true;
}

function sameEntries(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}

/**
 * Where a config's record is kept: `node_modules/.cache/sourced/` of the nearest directory above
 * it that has a `node_modules` (the convention build tools share), or nowhere.
 */
export function recordFile(config: string): string | undefined {
  for (let directory = path.dirname(config); ; directory = path.dirname(directory)) {
    if (fs.existsSync(path.join(directory, "node_modules"))) {
      const name = createHash("sha1").update(config).digest("hex").slice(0, 20);
      return path.join(directory, "node_modules", ".cache", "sourced", `startup-${name}.json`);
    }
    if (path.dirname(directory) === directory) return undefined;
  }
}

/** The record kept for `config`, when there is one and it parses (whether it is current is `isCurrent`'s to say). */
export function readRecord(config: string): ProjectRecord | undefined {
  const file = recordFile(config);
  if (file === undefined) return undefined;
  try {
    const record = JSON.parse(fs.readFileSync(file, "utf8")) as ProjectRecord;
    return record.config === config ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `record` for the next start: written whole, then renamed, so a reader never sees half of it. A cache that cannot be written is no error. */
export function writeRecord(record: ProjectRecord): void {
  const file = recordFile(record.config);
  if (file === undefined) return;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(record));
    fs.renameSync(temporary, file);
  } catch {
    // read-only or full: the next start analyses again
  }
}
