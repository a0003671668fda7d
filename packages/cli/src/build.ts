import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GenMapping, maybeAddMapping, toEncodedMap } from "@jridgewell/gen-mapping";
import { eachMapping, generatedPositionFor, originalPositionFor, TraceMap, type SourceMapInput } from "@jridgewell/trace-mapping";
import MagicString from "magic-string";
import type * as ts from "typescript";
import { planEdits, VERIFIED_STAMP_KEY, writeTextEdits, type Registration, type RegistrationEdit } from "@sourced/analysis";
import { isSessionFailure, projectTypeScript, ProjectSession, UsageError, type AnalysedFile } from "@sourced/project";
import { resolveConfigPath } from "./config-path";
import { indexNodes, nativeDecorators, parse, type EmittedNode, type NodeIndex } from "./emitted-javascript";
import { packageInfo } from "./package-info";

/*
 * `sourced build`: plain tsc with the transformer's result. TypeScript 7's tsc runs no
 * transformers (and TypeScript 5/6's needs ts-patch), so the project's own `tsc` builds as it
 * always does, and then the edit plan the transformer and the bundler plugin share is applied to
 * what it wrote: rejected registrations stripped, verified ones stamped, names pinned. The
 * JavaScript is edited as text at the places tsc's own source map gives for each registration
 * (the build asks tsc for one, and removes it again when the tsconfig wants none); the map and
 * the declarations stay right (the edits change no type). A finding fails the build. Where the
 * registrations stand in tsc's output is read in emitted-javascript.ts.
 */

export interface BuildOptions {
  readonly project?: string;
  readonly cwd: string;
  /** Arguments after `--`, passed to tsc. */
  readonly tscArguments?: readonly string[];
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** What the build did, for its tests and its summary line. */
export interface BuildReport {
  readonly exitCode: 0 | 1 | 2;
  readonly findings: number;
  /** Emitted files edited, relative to the working directory. */
  readonly edited: readonly string[];
}

interface EmitOptions {
  readonly sourceMap: boolean;
  readonly inlineSourceMap: boolean;
  readonly inlineSources: boolean;
  readonly incremental: boolean;
}

export function build(options: BuildOptions): BuildReport {
  const { cwd } = options;
  const config = resolveConfigPath(options.project ?? "tsconfig.json", cwd, options.project === undefined);
  const directory = path.dirname(config);
  const typescript = projectTypeScript(directory);
  if (typescript === undefined) throw new UsageError(`no TypeScript is installed for ${relative(cwd, config)}: 'sourced build' runs the project's own tsc. Install the one the project builds with.`);
  const tsc = path.join(typescript.directory, "bin", "tsc");
  const extra = options.tscArguments ?? [];

  // The options as tsc reads them (extends, and the arguments passed on), to restore what the tsconfig wants of source maps.
  const shown = spawnSync(process.execPath, [tsc, "-p", config, ...extra, "--showConfig"], { cwd, encoding: "utf8" });
  const wanted = emitOptionsOf(shown.stdout);
  const forced = ["--sourceMap", "--inlineSourceMap", "false", "--inlineSources", "false", "--listEmittedFiles", "--pretty", "false"];
  // An incremental build would skip what it emitted before: the edits need every file emitted anew.
  const fresh = wanted.incremental ? ["--tsBuildInfoFile", path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sourced-build-")), "build.tsbuildinfo")] : [];
  const compiled = spawnSync(process.execPath, [tsc, "-p", config, ...extra, ...forced, ...fresh], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (compiled.error !== undefined) throw compiled.error;
  const emitted = compiled.stdout
    .split("\n")
    .filter((line) => line.startsWith("TSFILE: "))
    .map((line) => path.resolve(line.slice("TSFILE: ".length).trim()));
  const tscOutput = compiled.stdout
    .split("\n")
    .filter((line) => !line.startsWith("TSFILE: "))
    .join("\n");
  if (tscOutput.trim() !== "") options.stdout(`${tscOutput.trimEnd()}\n`);
  if (compiled.stderr.trim() !== "") options.stderr(compiled.stderr);

  const session = new ProjectSession(config, undefined);
  const outcome = session.refresh();
  if (isSessionFailure(outcome)) {
    // Nothing is verified: the output keeps no stamp, and the build fails.
    for (const file of emitted) restoreMaps(file, wanted);
    options.stderr(`sourced build: error: ${outcome.message}\n`);
    return { exitCode: 2, findings: 0, edited: [] };
  }
  const stamp = { key: VERIFIED_STAMP_KEY, value: `@sourced/cli@${packageInfo().version}` };
  const edited: string[] = [];
  const problems: string[] = [];
  for (const file of emitted.filter((candidate) => /\.(?:[cm]?js|jsx)$/.test(candidate))) {
    try {
      if (editFile(file, outcome.files, stamp, wanted)) edited.push(relative(cwd, file));
    } catch (error) {
      problems.push(`${relative(cwd, file)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const file of emitted.filter((candidate) => candidate.endsWith(".map") && !wanted.sourceMap)) fs.rmSync(file, { force: true });

  const findings = outcome.result.findings;
  for (const finding of findings) {
    const { line, character } = finding.sourceFile.getLineAndCharacterOfPosition(finding.start);
    options.stdout(`${relative(cwd, finding.sourceFile.fileName)}(${line + 1},${character + 1}): error SRC${finding.code}: ${finding.message}\n`);
  }
  for (const problem of problems) options.stderr(`sourced build: error: cannot edit ${problem}. Its registrations are as tsc wrote them, unstamped (a registry with requireVerified refuses them). Please report it.\n`);
  const tscFailed = compiled.status !== 0;
  const exitCode = problems.length > 0 ? 2 : findings.length > 0 || tscFailed ? 1 : 0;
  options.stdout(
    `sourced build: ${findings.length === 0 ? "no findings" : `${findings.length} finding${findings.length === 1 ? "" : "s"} (rejected tools stripped)`}; ` +
      `${edited.length} emitted file${edited.length === 1 ? "" : "s"} stamped or stripped, by ${stamp.value}.\n`,
  );
  return { exitCode, findings: findings.length, edited };
}

function emitOptionsOf(showConfig: string): EmitOptions {
  let options: Record<string, unknown> = {};
  try {
    options = (JSON.parse(showConfig) as { compilerOptions?: Record<string, unknown> }).compilerOptions ?? {};
  } catch {
    // tsc will say what is wrong with the config when it builds
  }
  return {
    sourceMap: options["sourceMap"] === true,
    inlineSourceMap: options["inlineSourceMap"] === true,
    inlineSources: options["inlineSources"] === true,
    incremental: options["incremental"] === true || options["composite"] === true,
  };
}

const MAPPING_COMMENT = /\n?\/\/# sourceMappingURL=[^\n]*\s*$/;

/** Applies the plan to one emitted file; writes it (and its map) back as the tsconfig wants them. Whether it was edited. */
function editFile(file: string, files: ReadonlyMap<string, AnalysedFile>, stamp: { key: string; value: string }, wanted: EmitOptions): boolean {
  const mapFile = `${file}.map`;
  const code = fs.readFileSync(file, "utf8");
  const rawMap = fs.existsSync(mapFile) ? (JSON.parse(fs.readFileSync(mapFile, "utf8")) as SourceMapInput & { sources: string[]; sourceRoot?: string }) : undefined;
  const source = rawMap?.sources.length === 1 ? path.resolve(path.dirname(file), rawMap.sourceRoot ?? "", rawMap.sources[0]!) : undefined;
  const analysed = source === undefined ? undefined : files.get(source);
  const plan = analysed === undefined ? [] : planEdits(analysed.ts, analysed.registrations, { strip: true, stamp });
  if (plan.length === 0 || analysed === undefined || rawMap === undefined) {
    restoreMaps(file, wanted);
    return false;
  }
  const body = code.replace(MAPPING_COMMENT, "");
  const trace = new TraceMap(rawMap);
  const sourceName = rawMap.sources[0]!;
  const offsets = lineOffsets(body);
  /** Where tsc wrote the code of a source position, as an offset in the emitted text. */
  const generated = (node: ts.Node): number | undefined => {
    const { line, character } = analysed.sourceFile.getLineAndCharacterOfPosition(node.getStart(analysed.sourceFile));
    const position = generatedPositionFor(trace, { source: sourceName, line: line + 1, column: character, bias: 1 });
    if (position.line === null || position.column === null) return undefined;
    return offsets[position.line - 1]! + position.column;
  };
  const native = nativeDecorators(analysed, body, generated);
  // The JavaScript parser reads no decorators: parsed with each one blanked out (offsets kept), and edited where it stands.
  let blanked = body;
  for (const decorator of native.values()) blanked = blanked.slice(0, decorator.start) + " ".repeat(decorator.end - decorator.start) + blanked.slice(decorator.end);
  const program = parse(blanked);
  const index = { ...indexNodes(program), native };
  const edits = plan.map((edit) => emittedEdit(edit, generated, index, analysed.sourceFile));
  const output = new MagicString(body);
  writeTextEdits(edits, emittedFile, output);
  const editedCode = output.toString();
  // The edited file's map: each position of the edit's map (edited → as tsc wrote it) led on through tsc's (→ the source).
  const editMap = new TraceMap(output.generateMap({ source: path.basename(file), hires: true, includeContent: false }).toString());
  const composed = new GenMapping({ file: path.basename(file), sourceRoot: rawMap.sourceRoot ?? "" });
  eachMapping(editMap, (mapping) => {
    if (mapping.originalLine === null) return;
    const original = originalPositionFor(trace, { line: mapping.originalLine, column: mapping.originalColumn });
    if (original.source === null) return;
    const generatedAt = { line: mapping.generatedLine, column: mapping.generatedColumn };
    const originalAt = { line: original.line, column: original.column };
    if (original.name === null) maybeAddMapping(composed, { generated: generatedAt, source: sourceName, original: originalAt });
    else maybeAddMapping(composed, { generated: generatedAt, source: sourceName, original: originalAt, name: original.name });
  });
  writeOutput(file, editedCode, toEncodedMap(composed) as unknown as Record<string, unknown>, wanted);
  return true;
}

/** The emitted file as `writeTextEdits` reads it: only `getStart` of the nodes made below, which carry their offsets. */
const emittedFile = {} as ts.SourceFile;

/** A node of the emitted JavaScript shaped as the edit plan reads a TypeScript node: its start and end. */
function asNode(node: EmittedNode, extra: Record<string, unknown> = {}): ts.Node {
  return { ...extra, end: node.end, getStart: () => node.start } as unknown as ts.Node;
}

/** The plan's edit of a source registration, placed on the JavaScript tsc emitted for it. */
function emittedEdit(edit: RegistrationEdit, generated: (node: ts.Node) => number | undefined, index: NodeIndex, sourceFile: ts.SourceFile): RegistrationEdit {
  const where = (registration: Registration) => {
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(registration.site.getStart(sourceFile));
    return `${path.basename(sourceFile.fileName)}:${line + 1}:${character + 1}`;
  };
  switch (edit.kind) {
    case "unwrap-call":
    case "define-on-function": {
      const at = generated(edit.fn);
      const call = at === undefined ? undefined : index.callsByFirstArgument.get(at);
      if (call === undefined) throw new Error(`tsc's source map leads to no call of the registration at ${where(edit.registration)}`);
      const fn = asNode(call.arguments[0]!);
      return { ...edit, site: asNode(call) as ts.CallExpression, fn: fn as ts.Expression };
    }
    case "remove-decorator":
    case "wrap-decorator": {
      const kept = index.native.get(generated(edit.site) ?? -1);
      if (kept !== undefined) {
        const expression = asNode(kept.expression);
        return { ...edit, site: asNode(kept, { expression }) as ts.Decorator };
      }
      const at = generated(edit.site.expression);
      const found = at === undefined ? undefined : index.arrayElements.get(at);
      if (found === undefined) throw new Error(`tsc's source map leads to no decorator of the registration at ${where(edit.registration)} (decorators are edited in the helpers of a target up to ES2022, or as they are above it)`);
      if (edit.kind === "wrap-decorator") return { ...edit, site: asNode(found.element, { expression: asNode(found.element) }) as ts.Decorator };
      // Removed from the helper's list with the comma that separates it from the next (or the previous) one.
      const elements = found.array.elements;
      const position = elements.indexOf(found.element);
      const next = elements[position + 1];
      const previous = elements[position - 1];
      const span = next != null ? { start: found.element.start, end: next.start } : previous != null ? { start: previous.end, end: found.element.end } : found.element;
      return { ...edit, site: asNode(span) as ts.Decorator };
    }
  }
}

function lineOffsets(text: string): number[] {
  const offsets = [0];
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) offsets.push(index + 1);
  return offsets;
}

/** A file left as tsc wrote it: its map as the tsconfig wants it (none, inline, or beside it). */
function restoreMaps(file: string, wanted: EmitOptions): void {
  if (!/\.(?:[cm]?js|jsx)$/.test(file) || wanted.sourceMap) return;
  const mapFile = `${file}.map`;
  const code = fs.readFileSync(file, "utf8").replace(MAPPING_COMMENT, "");
  const map = fs.existsSync(mapFile) ? (JSON.parse(fs.readFileSync(mapFile, "utf8")) as Record<string, unknown>) : undefined;
  writeOutput(file, code, map, wanted);
}

function writeOutput(file: string, code: string, map: Record<string, unknown> | undefined, wanted: EmitOptions): void {
  const mapFile = `${file}.map`;
  if (map !== undefined && wanted.inlineSources) map["sourcesContent"] = (map["sources"] as string[]).map((source) => fs.readFileSync(path.resolve(path.dirname(file), (map["sourceRoot"] as string | undefined) ?? "", source), "utf8"));
  if (map !== undefined && wanted.inlineSourceMap) {
    fs.rmSync(mapFile, { force: true });
    fs.writeFileSync(file, `${code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString("base64")}`);
  } else if (map !== undefined && wanted.sourceMap) {
    fs.writeFileSync(mapFile, JSON.stringify(map));
    fs.writeFileSync(file, `${code}\n//# sourceMappingURL=${path.basename(mapFile)}`);
  } else {
    fs.rmSync(mapFile, { force: true });
    fs.writeFileSync(file, code.endsWith("\n") ? code : `${code}\n`);
  }
}

function relative(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join("/") || file;
}

export const BUILD_HELP = `sourced build: the project's own tsc, then the edit plan of the transformer applied to what it wrote.

Usage:
  sourced build [-p <tsconfig.json | directory>] [-- <tsc arguments>]

Runs the tsc of the project (TypeScript 7, or 5/6 without ts-patch), then, in the JavaScript it
emitted: rejected tool registrations stripped, verified ones stamped (createRegistry({
requireVerified: true }) serves exactly them), tool names pinned. Source maps and declarations
stay as the tsconfig asks.

Exit codes: 0 built, no findings; 1 findings (or tsc's errors); 2 usage error or a file it could not edit.
`;

/** `sourced build <argv>`: the exit code. */
export function runBuild(argv: readonly string[], io: { readonly cwd: string; readonly stdout: (text: string) => void; readonly stderr: (text: string) => void }): 0 | 1 | 2 {
  const terminator = argv.indexOf("--");
  const own = terminator < 0 ? argv : argv.slice(0, terminator);
  const tscArguments = terminator < 0 ? [] : argv.slice(terminator + 1);
  let project: string | undefined;
  for (let index = 0; index < own.length; index++) {
    const argument = own[index]!;
    if (argument === "-h" || argument === "--help") {
      io.stdout(BUILD_HELP);
      return 0;
    }
    if ((argument === "-p" || argument === "--project") && own[index + 1] !== undefined && project === undefined) project = own[++index];
    else if (argument.startsWith("--project=") && project === undefined) project = argument.slice("--project=".length);
    else {
      io.stderr(`sourced: error: 'sourced build' does not take '${argument}'. It takes -p <tsconfig.json> once; pass tsc's own arguments after '--'.\n`);
      return 2;
    }
  }
  return build({ ...(project === undefined ? {} : { project }), cwd: io.cwd, tscArguments, stdout: io.stdout, stderr: io.stderr }).exitCode;
}
