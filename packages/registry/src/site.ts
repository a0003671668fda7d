import { readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";

/** A position in the user's code, as the call stack reports it. */
export interface Site {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The stack frame's function name, e.g. `<static_initializer>` for a class body. */
  readonly functionName: string | undefined;
}

export function formatSite(site: Site | undefined): string {
  return site ? `${site.file}:${site.line}:${site.column}` : "an unknown place";
}

/** This package's own frames: `dist/`, or `src/` when source maps are on. */
const ownDirectories = ["dist", "src"].map((folder) => join(dirname(__filename), "..", folder) + sep);
const FRAME = /^\s*at (?:(?:async |new )?(.*?) \()?(.*?):(\d+):(\d+)\)?$/;
/** Decorator helpers emitted by TypeScript, tslib and esbuild: never the user's own line. */
const DECORATOR_HELPER = /^(?:__esDecorate|__runInitializers|__decorate|__decorateElement|__decoratorStart)$/;

/** A call site captured now and read only when a message needs it. */
export type LazySite = () => Site | undefined;

/**
 * Where the registry was called from: the first stack frame outside this package, preferring the
 * class body that applies a decorator. Honours `--enable-source-maps`. Capturing the stack is
 * cheap; formatting and parsing it is not (~40 µs), so that waits until an error or a warning
 * names the site — registering 10,000 tools must stay well under 100 ms.
 */
export function captureSite(): LazySite {
  const capture = new Error();
  let site: Site | undefined;
  let parsed = false;
  return () => {
    if (!parsed) {
      site = siteOf(capture.stack ?? "");
      parsed = true;
    }
    return site;
  };
}

function siteOf(stack: string): Site | undefined {
  const frames: Site[] = [];
  for (const line of stack.split("\n").slice(1)) {
    const match = FRAME.exec(line);
    if (!match) continue;
    const [, functionName, rawFile = "", lineText = "0", columnText = "0"] = match;
    const file = rawFile.startsWith("file://") ? decodeURIComponent(new URL(rawFile).pathname) : rawFile;
    if (file.startsWith("node:") || ownDirectories.some((directory) => file.startsWith(directory))) continue;
    frames.push({ file, line: Number(lineText), column: Number(columnText), functionName });
  }
  return (
    frames.find((frame) => frame.functionName === "<static_initializer>") ??
    frames.find((frame) => !DECORATOR_HELPER.test(frame.functionName ?? ""))
  );
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
