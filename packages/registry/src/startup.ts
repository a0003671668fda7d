import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join } from "node:path";
import type { Site, SourcePlace } from "./site.js";

/*
 * The seed's start-up check where no build ran (node src/server.ts, tsx, vitest): when serving
 * starts, every registration without a verified stamp made from a TypeScript source (or checked
 * JavaScript, or JavaScript whose source map leads to TypeScript) is judged by the same analysis
 * the build runs, and one the build would strip is not served. The judging is done by the
 * project layer, `@sourced/project`, which this package does not depend on: it is loaded from the
 * user's project when a check runs, so a production install pulls in nothing (and then says once
 * that it cannot check).
 */

/** `"auto"`: check, and serve unchecked (saying so) what cannot be checked; `"require"`: refuse that instead; `false`: no check. */
export type StartupCheckMode = "auto" | "require" | false;

/** `@sourced/project/startup`, as far as the registry reads it (the layer's own types, restated: no dependency). */
interface ProjectLayer {
  readonly STARTUP_PROTOCOL: number;
  checkRegistrations(registrations: readonly { readonly tool: string; readonly frames: readonly Site[] }[], options?: { readonly cwd?: string; readonly timeoutMs?: number }): Promise<LayerOutcome>;
}

/**
 * The default of `RegistryOptions.startupCheckTimeoutMs`: how long the check may take before the
 * tools it has not judged are served unchecked (`"auto"`) or refused (`"require"`). A cold check
 * of a large project on a loaded machine takes a minute; a check that takes longer is stuck (a
 * file it reads blocks: a FIFO, a network mount that does not answer).
 */
export const DEFAULT_STARTUP_CHECK_TIMEOUT_MS = 120_000;
/** How long after the registry's deadline the project layer stops its worker. */
const LAYER_GRACE_MS = 1_000;

interface LayerOutcome {
  readonly verifier: string;
  readonly verdicts: readonly Verdict[];
  /** Per registration, per frame: the place in the sources the check traced the frame to, or `null`. Absent from an earlier layer. */
  readonly traced?: unknown;
}

/**
 * `source` of an `unverified` verdict: where in the sources the frame it was judged at lies, when
 * the code that ran is not the source (plain tsc's output, JavaScript with a source map) and the
 * check traced it there exactly: the place to edit, which the warning names. Absent from an
 * earlier layer.
 */
export type Verdict =
  | { readonly kind: "verified" }
  | { readonly kind: "refused"; readonly finding: { readonly message: string; readonly file: string; readonly line: number; readonly column: number } }
  | { readonly kind: "unverified"; readonly reason: string; readonly source?: SourcePlace }
  | { readonly kind: "unjudged"; readonly reason: string }
  | { readonly kind: "unchecked" };

const LAYER = "@sourced/project";
const PROTOCOL = 1;

const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
const JAVASCRIPT = /\.(?:[cm]?js|jsx)$/;
const DEPENDENCY = /[\\/]node_modules[\\/]/;
/** A `sourceMappingURL` comment on a JavaScript file's last line. */
const SOURCE_MAPPING_URL = /\/[/*][#@]\s*sourceMappingURL=\S+\s*(?:\*\/)?\s*$/;

const namesSourceMap = new Map<string, boolean>();
const hasConfigAbove = new Map<string, boolean>();

/**
 * Whether a registration made from `file` is the check's to judge: a TypeScript file, or
 * JavaScript that names a source map or lies under a tsconfig.json or jsconfig.json (it may be
 * checked JavaScript); never a dependency's file. Read from the file system once per file.
 */
export function isCheckableFile(file: string | undefined): boolean {
  if (file === undefined || !isAbsolute(file) || DEPENDENCY.test(file)) return false;
  if (TYPESCRIPT.test(file)) return true;
  if (!JAVASCRIPT.test(file)) return false;
  let named = namesSourceMap.get(file);
  if (named === undefined) {
    try {
      const text = readFileSync(file, "utf8").trimEnd();
      named = SOURCE_MAPPING_URL.test(text.slice(text.lastIndexOf("\n") + 1));
    } catch {
      named = false;
    }
    namesSourceMap.set(file, named);
  }
  return named || configAbove(dirname(file));
}

function configAbove(directory: string): boolean {
  let found = hasConfigAbove.get(directory);
  if (found === undefined) {
    const parent = dirname(directory);
    found = existsSync(join(directory, "tsconfig.json")) || existsSync(join(directory, "jsconfig.json")) || (parent !== directory && configAbove(parent));
    hasConfigAbove.set(directory, found);
  }
  return found;
}

/** What the check is asked about one registration. */
export interface Judged {
  readonly tool: string;
  readonly frames: readonly Site[];
}

/**
 * The verdicts, in the order asked, with the name of what verified the verified ones; `traced`,
 * when the layer gives it, in the order asked too: for each frame asked, its place in the sources
 * (see `LazySite.traceTo`).
 */
export interface Verdicts {
  readonly verifier: string;
  readonly verdicts: readonly Verdict[];
  readonly traced?: readonly unknown[];
}

/**
 * Loads the project layer from where the user's project resolves packages (the working
 * directory, then the registrations' own directories) and asks it. Never rejects: a layer that
 * is missing, speaks another protocol or fails is an `unjudged` verdict for every registration,
 * saying what to install or report.
 */
export async function judge(registrations: readonly Judged[], timeoutMs: number = DEFAULT_STARTUP_CHECK_TIMEOUT_MS): Promise<Verdicts> {
  const unjudged = (reason: string): Verdicts => {
    layerReasons.add(reason);
    return { verifier: LAYER, verdicts: registrations.map(() => ({ kind: "unjudged", reason })) };
  };
  const bases = [process.cwd(), ...new Set(registrations.flatMap((registration) => registration.frames.slice(0, 1).map((frame) => dirname(frame.file))))];
  let entry: string | undefined;
  for (const base of bases) {
    try {
      entry = createRequire(join(base, "noop.js")).resolve(`${LAYER}/startup`);
      break;
    } catch {
      // not installed there
    }
  }
  if (entry === undefined) return unjudged(`${LAYER}, which runs it, is not installed`);
  let layer: ProjectLayer;
  try {
    layer = createRequire(entry)(entry) as ProjectLayer;
  } catch (error) {
    return unjudged(`${LAYER} cannot be loaded (${messageOf(error)})`);
  }
  if (layer.STARTUP_PROTOCOL !== PROTOCOL) return unjudged(`the installed ${LAYER} speaks another version of the check's protocol (${String(layer.STARTUP_PROTOCOL)}, this registry ${PROTOCOL}): install matching versions of @sourced/registry and ${LAYER}`);
  try {
    // The registry keeps its deadline, whatever the layer does; the layer is told a little more, so
    // it stops its worker just after (its own words would call the stop a failure of the check).
    const outcome = await withinDeadline(layer.checkRegistrations(registrations, timeoutMs === Infinity ? {} : { timeoutMs: timeoutMs + LAYER_GRACE_MS }), timeoutMs);
    if (outcome === undefined) {
      // Not the layer's absence: the ways out are the build's and the deadline's, not an install.
      const reason =
        `the start-up check did not finish within ${timeoutMs.toLocaleString("en-US")} ms (createRegistry({ startupCheckTimeoutMs }) sets it): ` +
        "a file it reads may block (a FIFO, a network mount that does not answer), or the project takes longer to judge";
      return { verifier: LAYER, verdicts: registrations.map(() => ({ kind: "unjudged", reason })) };
    }
    if (outcome.verdicts.length !== registrations.length) return unjudged(`${LAYER} answered ${outcome.verdicts.length} verdicts for ${registrations.length} registrations. Please report it`);
    const { verifier, verdicts, traced } = outcome;
    // Places the registry only names: a layer that gives none, or not one per registration, leaves the sites as they ran.
    return Array.isArray(traced) && traced.length === registrations.length ? { verifier, verdicts, traced } : { verifier, verdicts };
  } catch (error) {
    return unjudged(`${LAYER} failed (${messageOf(error)}). Please report it`);
  }
}

/** What `promise` settles with, or `undefined` once `timeoutMs` has passed (a timer that keeps no process alive). */
function withinDeadline<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  if (timeoutMs === Infinity) return promise;
  return new Promise<T | undefined>((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), Math.min(timeoutMs, 2 ** 31 - 1));
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as the layer rejected
        reject(error);
      },
    );
  });
}

/** The reasons `judge` gives itself: the project layer is missing or unusable, so the ways out begin with installing it. */
const layerReasons = new Set<string>();

/** How the check's warnings say what can be done when it could not judge. */
const INSTALL =
  `To check them: install ${LAYER} beside the server as a development dependency ('npm install --save-dev ${LAYER}'), with the TypeScript the project builds with (5.0 to 6.0, or 7), ` +
  "and keep its tsconfig and sources next to it; or ";
const OTHER_WAYS =
  "build with @sourced/transformer (tspc) or `sourced build` (plain tsc), or bundle with @sourced/unplugin, which check at build time and stamp what they verified; " +
  "or turn the start-up check off with createRegistry({ startupCheck: false }).";

/** One warning for every registration left unjudged for one reason: which tools, where (`LazySite.where`), why, and what to do. */
export function unjudgedWarning(tools: readonly { readonly name: string; readonly where: string }[], reason: string, served: boolean): string {
  const named = tools.slice(0, 5).map((tool) => `"${tool.name}" (${tool.where})`);
  const list = tools.length > 5 ? `${named.join(", ")} and ${tools.length - 5} more` : named.join(", ");
  const what = tools.length === 1 ? `tool ${list}` : `${tools.length} tools: ${list}`;
  const outcome = served ? "Served unchecked (the net still checks every result)." : "Not registered: the check is required.";
  const ways = layerReasons.has(reason) ? `${INSTALL}${OTHER_WAYS}` : `Or ${OTHER_WAYS}`;
  return `the start-up check could not judge ${what}: ${reason}. ${outcome} ${ways}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

let hinting = false;

/**
 * Node's type stripping does not parse decorators: `@registry.tool()` in a `.ts` file run by
 * `node` fails with a bare `SyntaxError: Invalid or unexpected token` at the `@`. When this
 * process dies of one (a module loaded after the registry: `require`, `import()`), one line on
 * stderr says why and what runs it. Once per process; it changes nothing else.
 */
export function hintAtDecoratorSyntaxErrors(): void {
  if (hinting) return;
  hinting = true;
  process.on("uncaughtExceptionMonitor", (error: unknown) => {
    const where = decoratorSyntaxError(error);
    if (where === undefined) return;
    process.stderr.write(
      `[sourced] hint: ${where === "" ? "if the line Node shows starts with @, it is" : `${where} is`} a decorator, which Node's type stripping does not parse (node src/server.ts). ` +
        "Run the server with tsx (tsx src/server.ts, or node --import tsx src/server.ts), build it (tspc, or a bundler with @sourced/unplugin), " +
        "or register the tool in the call form: registry.tool()(function my_tool(): DataToolOutput {…}).\n",
    );
  });
}

/** `file:line` of a decorator's `@` that a SyntaxError points at in a TypeScript file; `""` when the error names no place but may be one; else `undefined`. */
export function decoratorSyntaxError(error: unknown): string | undefined {
  if (!(error instanceof SyntaxError) || !(process.features as { typescript?: unknown }).typescript) return undefined;
  // CommonJS puts the place in the stack: `file.ts:2\n  @tool()\n  ^\n\nSyntaxError: …`.
  const located = /^(.+\.[cm]?tsx?):(\d+)\n(.*)\n( *)\^/.exec(error.stack ?? "");
  if (located !== null) return located[3]![located[4]!.length] === "@" ? `${located[1]!}:${located[2]!}` : undefined;
  // An ES module's place is printed by Node from a field of its own: only the message is left.
  return error.message === "Invalid or unexpected token" ? "" : undefined;
}
