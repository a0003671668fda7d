import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as ts from "typescript";
import { VERIFIED_STAMP_KEY } from "@sourced/analysis";
import type { OutputRecord } from "./records";

/*
 * Plain tsc's output traced back to its sources: the config that emitted a file is asked to emit
 * again, now, with a source map; when what it emits is the running file, that map leads from the
 * running positions to the source. When it is not (the sources changed after the build, the file
 * was built with other options, or by something else), the sources are not what the server runs,
 * and the check says so instead of judging them. The build's own source maps are not needed (and,
 * after an edit, would lead to the wrong lines).
 */

/** One JavaScript file a config emits: from which source, its text, and the mappings of its source map. */
export interface Emitted {
  readonly source: string;
  readonly text: string;
  readonly mappings: string;
}

/** The JavaScript a config emits, by the absolute path tsc writes it to. */
export type Emission = ReadonlyMap<string, Emitted>;

const EMITTED_JAVASCRIPT = /\.(?:[cm]?js|jsx)$/;

/**
 * What a classic program emits, with a source map whatever its options say (the JavaScript is the
 * same with or without one: only the `sourceMappingURL` comment differs, which `sameCode` ignores).
 * Written to memory, never to disk.
 */
export function emitClassic(program: ts.Program): Emission {
  const texts = new Map<string, { source: string; text: string }>();
  const maps = new Map<string, string>();
  program.emit(undefined, (fileName, text, _bom, _onError, sourceFiles) => {
    const file = path.resolve(fileName);
    if (file.endsWith(".map")) maps.set(file.slice(0, -".map".length), mappingsOf(text));
    else if (EMITTED_JAVASCRIPT.test(file) && sourceFiles !== undefined && sourceFiles.length === 1) texts.set(file, { source: path.resolve(sourceFiles[0]!.fileName), text });
  });
  const emission = new Map<string, Emitted>();
  for (const [file, { source, text }] of texts) emission.set(file, { source, text, mappings: maps.get(file) ?? "" });
  return emission;
}

/** The options the check's classic program is made with so that `emitClassic` sees the build's JavaScript with a source map. */
export function tracingOptions(options: ts.CompilerOptions): ts.CompilerOptions {
  // `composite`, `declaration` and `incremental` stay: `composite` moves the default `rootDir`, and so where files are written.
  return { ...options, sourceMap: true, inlineSourceMap: false, inlineSources: false, noEmitOnError: false, declarationMap: false };
}

/**
 * What TypeScript 7's `tsc` emits for `config` (its IPC API has no emit): run into a temporary
 * directory with a source map, read back, and moved to the places the build writes to (the
 * config's `outDir`, else beside each source).
 */
export function emitNative(typescriptDirectory: string, config: string, outDir: string | undefined): Emission {
  const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "sourced-emit-"));
  try {
    // As `tracingOptions`; an incremental build's info goes to the temporary directory too, never over the build's own.
    const flags = ["--sourceMap", "--inlineSourceMap", "false", "--declarationMap", "false", "--noEmitOnError", "false", "--tsBuildInfoFile", path.join(temporary, ".tsbuildinfo"), "--pretty", "false"];
    const run = spawnSync(process.execPath, [path.join(typescriptDirectory, "bin", "tsc"), "-p", config, "--outDir", temporary, ...flags], { cwd: path.dirname(config), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (run.error !== undefined) throw run.error;
    const emission = new Map<string, Emitted>();
    for (const file of filesUnder(temporary)) {
      if (!EMITTED_JAVASCRIPT.test(file) || !fs.existsSync(`${file}.map`)) continue;
      const map = JSON.parse(fs.readFileSync(`${file}.map`, "utf8")) as { sources?: string[]; sourceRoot?: string; mappings?: string };
      const first = map.sources?.[0];
      if (first === undefined || map.sources!.length !== 1) continue;
      const source = path.resolve(path.dirname(file), map.sourceRoot ?? "", first);
      const written = outDir === undefined ? `${source.slice(0, -path.extname(source).length)}${path.extname(file)}` : path.join(outDir, path.relative(temporary, file));
      emission.set(written, { source, text: fs.readFileSync(file, "utf8"), mappings: map.mappings ?? "" });
    }
    if (emission.size === 0 && run.status !== 0) throw new Error(`tsc exited with ${run.status ?? run.signal}: ${(run.stdout + run.stderr).trim().split("\n").slice(0, 3).join(" ")}`);
    return emission;
  } finally {
    fs.rmSync(temporary, { recursive: true, force: true });
  }
}

function filesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function mappingsOf(mapText: string): string {
  try {
    return (JSON.parse(mapText) as { mappings?: string }).mappings ?? "";
  } catch {
    return "";
  }
}

/** A `sourceMappingURL` comment closing a file, and whatever ends the file after it. */
const MAPPING_COMMENT = /\n?\/\/[#@] sourceMappingURL=[^\n]*\s*$/;

/** Whether two emits of one file are the same code: byte order mark, source map comment and trailing white space aside. */
export function sameCode(running: string, emitted: string): boolean {
  const plain = (text: string): string => text.replace(/^\uFEFF/, "").replace(MAPPING_COMMENT, "").trimEnd();
  return plain(running) === plain(emitted);
}

/**
 * The record of each of `files` (output of `config`) against what `config` emits now: the source
 * and mappings when the running file is that emit, else why not.
 */
export function traceOutputs(
  files: readonly string[],
  config: string,
  emission: Emission,
  fingerprint: (file: string) => string,
  display: (file: string) => string,
): OutputRecord[] {
  return files.map((file): OutputRecord => {
    const emitted = emission.get(file);
    const base = { file, fingerprint: fingerprint(file) };
    if (emitted === undefined) {
      return { ...base, failure: `${display(config)} emits no ${display(file)} from its sources as they are now (the source was moved or removed after the build, or another build wrote the file); rebuild and restart` };
    }
    let running: string;
    try {
      running = fs.readFileSync(file, "utf8");
    } catch (error) {
      return { ...base, failure: `${display(file)} cannot be read (${error instanceof Error ? error.message : String(error)})` };
    }
    if (!sameCode(running, emitted.text)) {
      // tspc's or `sourced build`'s output: a checking build wrote it, and left this registration unstamped.
      if (running.includes(`Symbol.for("${VERIFIED_STAMP_KEY}")`)) {
        return {
          ...base,
          failure: `${display(file)} comes from a build that checked it (it carries verified stamps: tspc or sourced build), which left this registration unstamped: that build could not verify it (it reported why)`,
        };
      }
      return {
        ...base,
        failure: `${display(file)} is not what ${display(config)} emits from ${display(emitted.source)} now: the sources changed after the build (or it was built with other options), so they are not what runs; rebuild and restart`,
      };
    }
    return { ...base, source: emitted.source, mappings: emitted.mappings };
  });
}
