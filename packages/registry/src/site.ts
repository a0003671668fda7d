import { readFileSync } from "node:fs";

/** A position in the user's code, as the call stack reports it. */
export interface Site {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The stack frame's function name, e.g. `<static_initializer>` for a class body. */
  readonly functionName: string | undefined;
}

/** A place in a source file: the file absolute, line and column 1-based. */
export interface SourcePlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export function formatSite(site: SourcePlace | undefined): string {
  return site ? `${site.file}:${site.line}:${site.column}` : "an unknown place";
}

const FRAME = /^\s*at (?:(?:async |new )?(.*?) \()?(.*?):(\d+):(\d+)\)?$/;
/** Decorator helpers emitted by TypeScript, tslib and esbuild: never the user's own line. */
const DECORATOR_HELPER = /^(?:__esDecorate|__runInitializers|__decorate|__decorateElement|__decoratorStart)$/;

/**
 * Where the registry was called from, read from a stack captured at registration (an `Error` made
 * in the registry's entry frame, which is the stack's first frame and skipped): the next frame
 * outside Node's own, preferring the class body that applies a decorator. Honours
 * `--enable-source-maps`. Skipping by position, not by this package's path, keeps it right when
 * the registry is bundled into the same file as its caller, and needs no `__filename` or
 * `import.meta` (one source for the CommonJS and the ES module build). Formatting and parsing the stack
 * (~40 µs) waits until an error or a warning names the site — registering 10,000 tools must stay
 * under 100 ms.
 */
export class LazySite {
  private parsed: ParsedStack | undefined;
  /** The site's place in the sources, once the start-up check traced it there (see `traceTo`). */
  private source: SourcePlace | undefined;

  constructor(private capture: { readonly stack?: string } | undefined) {}

  get(): Site | undefined {
    return this.parse().site;
  }

  /**
   * Where the registry's own messages name the registration: its place in the sources once the
   * start-up check traced the site there (plain tsc's output, JavaScript through its source map),
   * the place to edit, as a run from the sources names it; else the site that ran.
   */
  where(): string {
    return formatSite(this.source ?? this.get());
  }

  /**
   * Takes the start-up check's places for `frames()`, one per frame (`null` where it traced none):
   * the site's, when it traced the site. Malformed entries (another version's layer) are ignored.
   */
  traceTo(places: unknown): void {
    const site = this.get();
    const place = site === undefined || !Array.isArray(places) ? undefined : (places as unknown[])[this.frames().indexOf(site)];
    if (isPlace(place)) this.source = { file: place.file, line: place.line, column: place.column };
  }

  /**
   * Every frame of the capture outside Node's own and the decorator helpers, innermost first:
   * where the start-up check looks for the registration (a platform's wrapper is a frame, its
   * caller the next one).
   */
  frames(): readonly Site[] {
    return this.parse().frames;
  }

  private parse(): ParsedStack {
    if (this.capture !== undefined) {
      this.parsed = parseStack(this.capture.stack ?? "");
      this.capture = undefined;
    }
    return this.parsed ?? { site: undefined, frames: [] };
  }
}

function isPlace(value: unknown): value is SourcePlace {
  if (typeof value !== "object" || value === null) return false;
  const { file, line, column } = value as Partial<Record<keyof SourcePlace, unknown>>;
  return typeof file === "string" && Number.isInteger(line) && Number.isInteger(column);
}

interface ParsedStack {
  readonly site: Site | undefined;
  readonly frames: readonly Site[];
}

/**
 * Sets `Error.stackTraceLimit` to `frames` when it is higher and settable, and returns the value
 * to restore, else `undefined`. Each frame a capture records costs time and memory kept as long
 * as the registry.
 */
export function lowerStackTraceLimit(frames: number): number | undefined {
  const limit = Error.stackTraceLimit;
  if (!(limit > frames)) return undefined;
  try {
    Error.stackTraceLimit = frames;
  } catch {
    return undefined; // frozen (`--frozen-intrinsics`, a locked-down realm)
  }
  return limit;
}

function parseStack(stack: string): ParsedStack {
  const frames: Site[] = [];
  // The first line is the message, the second the capturing frame (the registry's own).
  for (const line of stack.split("\n").slice(2)) {
    const match = FRAME.exec(line);
    if (!match) continue;
    const [, functionName, rawFile = "", lineText = "0", columnText = "0"] = match;
    const file = rawFile.startsWith("file://") ? decodeURIComponent(new URL(rawFile).pathname) : rawFile;
    if (file.startsWith("node:")) continue;
    frames.push({ file, line: Number(lineText), column: Number(columnText), functionName });
  }
  const own = frames.filter((frame) => !DECORATOR_HELPER.test(frame.functionName ?? ""));
  return {
    // Node names a class body `<static_initializer>`, or `Function.<static_initializer>` once
    // source maps are on.
    site: frames.find((frame) => /(?:^|\.)<static_initializer>$/.test(frame.functionName ?? "")) ?? own[0],
    frames: own,
  };
}

/**
 * The name of the class whose body contains `site`, read from the source text: a method decorator
 * never sees its class (it does not exist yet while its members are decorated), so this is the
 * only way to name it at definition time. `undefined` when the text is unavailable or the class
 * is anonymous.
 */
export function enclosingClassName(site: Site | undefined): string | undefined {
  if (!site) return undefined;
  let text: string;
  try {
    text = readFileSync(site.file, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  const before = [...lines.slice(0, site.line - 1), (lines[site.line - 1] ?? "").slice(0, site.column - 1)].join("\n");
  let name: string | undefined;
  for (const match of before.matchAll(/\bclass\b(?:\s+([A-Za-z_$][\w$]*))?(?:\s+extends\b[^{]*)?\s*\{/g)) {
    name = match[1];
  }
  return name;
}
