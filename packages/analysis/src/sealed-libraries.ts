import * as path from "node:path";
import { isDeclarationFileName, MARK_LITERAL } from "./context.js";
import type { CheckerPort, ProgramPort } from "./ports.js";

/*
 * Library packages the module graph (reach.ts) need not read. Whether a file can reach the
 * registry's mark is a question of the files it imports, and on a program that materialises files
 * on demand (TypeScript 7's) reading a file's imports costs its whole syntax tree, fetched from the
 * compiler (zod, chart.js and the SDK: 167 declaration files, a third of a realistic project's
 * fetches). A package none of whose files declares the mark, and whose imports all lead into its
 * own files or into other such packages, cannot reach the mark: none of its files is ever reached,
 * so none is fetched, and an import of it is an edge to nothing.
 *
 * What decides it is read from the files' text on disk, the text the compiler read them from
 * (`ProgramPort.readFileText`). A relative module name must stay inside the package (TypeScript
 * resolves it against the importing file's directory); any other name is resolved by the compiler
 * (`CheckerPort.getSymbolsAtPositions`), one request per file that has one, and must lead into such
 * a package. Anything else keeps the package read as before: a file that is not a declaration file
 * (JavaScript's imports may live in JSDoc), a text that cannot be read, `rootDirs` (which redirects
 * relative names), a program that cannot tell one of these facts.
 */

/** The package a file under node_modules belongs to: the last `node_modules/<name>` or `node_modules/@scope/<name>` of its name. */
const PACKAGE_ROOT = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/;
/** Trivia between a keyword and what follows it: whitespace and comments. */
const GAP = String.raw`(?:\s|/\*[\s\S]*?\*/|//[^\n]*(?:\n|$))*`;
/**
 * A string after `from`, `import`, `module` or `require`, an opening parenthesis allowed between:
 * `from "x"`, `import "x"`, `declare module "x"`, `import("x")`, `require("x")`, quoted any way.
 */
const MODULE_NAME = new RegExp(String.raw`\b(?:from|import|module|require)${GAP}(?:\(${GAP})?(["'\x60])((?:\\[\s\S]|(?!\1)[^\\\n])*)\1`, "g");
const RELATIVE = /^\.\.?(?:[\\/]|$)/;
const NODE_MODULES_SEGMENT = /(?:^|[\\/])node_modules(?:[\\/]|$)/;

export interface SealedLibraries {
  /** Whether the file of this name or canonical path (as declarations name it) is in a sealed package. */
  has(fileNameOrPath: string): boolean;
}

const NONE: SealedLibraries = { has: () => false };

/**
 * The sealed packages among `fileNames` (the program's files but the compiler's own library
 * files), or none when the program redirects relative names, cannot tell a fact the rule needs, or
 * fails to answer (every library is then read, as without this rule). Declarations name their files
 * by canonical path, lower-cased where the file system's case does not count.
 */
export function sealedLibraries(program: ProgramPort, checker: CheckerPort, fileNames: readonly string[]): SealedLibraries {
  const readText = program.readFileText?.bind(program);
  const symbolsAt = checker.getSymbolsAtPositions?.bind(checker);
  const declarationPathsOf = checker.declarationPathsOf?.bind(checker);
  if (readText === undefined || program.getCompilerOptions === undefined || program.useCaseSensitiveFileNames === undefined || symbolsAt === undefined || declarationPathsOf === undefined) return NONE;
  try {
    if (program.getCompilerOptions().rootDirs !== undefined) return NONE;
    return sealedAmong(fileNames, {
      canonical: program.useCaseSensitiveFileNames() ? (name) => name : (name) => name.toLowerCase(),
      readText,
      declarationPathsAt: (fileName, positions) => symbolsAt(fileName, positions).map((symbol) => (symbol === undefined ? undefined : declarationPathsOf(symbol))),
    });
  } catch {
    return NONE; // every library read, as before
  }
}

/** The facts the rule is decided from, as `sealedLibraries` reads them of the program. */
interface Facts {
  readonly canonical: (name: string) => string;
  readonly readText: (fileName: string) => string | undefined;
  /** For each position of the file, the canonical paths of the files declaring the symbol there. */
  readonly declarationPathsAt: (fileName: string, positions: readonly number[]) => readonly (readonly string[] | undefined)[];
}

function sealedAmong(fileNames: readonly string[], facts: Facts): SealedLibraries {
  const { canonical } = facts;
  /** Package (canonical root) -> its files' non-relative module names, by file, as positions. */
  const packages = new Map<string, Map<string, number[]>>();
  const unsealed = new Set<string>();
  for (const fileName of fileNames) {
    const root = PACKAGE_ROOT.exec(fileName)?.[1];
    if (root === undefined) continue; // a file of no package: read as every other
    const key = canonical(root);
    if (unsealed.has(key)) continue;
    let pending = packages.get(key);
    if (pending === undefined) packages.set(key, (pending = new Map<string, number[]>()));
    if (!sealsFile(fileName, root, pending, facts)) {
      unsealed.add(key);
      packages.delete(key);
    }
  }
  // The non-relative names, resolved by the compiler: every file declaring the module must be in a
  // package still sealed, until nothing changes (unsealing one package may unseal its importers).
  const targets = new Map<string, Set<string>>();
  for (const [key, pending] of packages) {
    const roots = new Set<string>();
    for (const [fileName, positions] of pending) {
      // Unresolved (or not a module name at all, one found in a comment): nothing travels through it.
      for (const paths of facts.declarationPathsAt(fileName, positions)) {
        for (const declarationPath of paths ?? []) {
          const target = PACKAGE_ROOT.exec(declarationPath)?.[1];
          roots.add(target === undefined ? "" : canonical(target));
        }
      }
    }
    roots.delete(key);
    targets.set(key, roots);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, roots] of targets) {
      if ([...roots].some((root) => !packages.has(root))) {
        packages.delete(key);
        targets.delete(key);
        changed = true;
      }
    }
  }
  if (packages.size === 0) return NONE;
  return {
    has: (fileNameOrPath) => {
      const root = PACKAGE_ROOT.exec(fileNameOrPath)?.[1];
      return root !== undefined && packages.has(canonical(root));
    },
  };
}

/**
 * Whether the file keeps its package sealed: a declaration file (or JSON) whose text can be read,
 * does not declare the mark, and whose relative module names stay inside the package. Its other
 * names are left in `pending` for the compiler to resolve.
 *
 * The names are found by a pattern over the whole text, comments and strings included: every string
 * after `from`, `import`, `module`, `require(` or `import(`, a superset of what the compiler resolves
 * in a declaration file (a name found in a comment resolves to nothing, or keeps the package read).
 * What the pattern cannot read keeps the package read: a Unicode escape anywhere (a keyword may be
 * spelt with one), a name with an escape or a substitution in it.
 */
function sealsFile(fileName: string, root: string, pending: Map<string, number[]>, facts: Facts): boolean {
  // Declaration files and JSON: the files whose module names the pattern below sees whole.
  if (!isDeclarationFileName(fileName) && !fileName.endsWith(".json")) return false;
  const text = facts.readText(fileName);
  if (text === undefined) return false;
  if (text.includes(MARK_LITERAL)) return false;
  if (fileName.endsWith(".json")) return true;
  if (text.includes("\\u")) return false;
  const directory = path.dirname(fileName);
  for (const { name, quote, position } of moduleNamesOf(text)) {
    if (name.includes("\\") || (quote === "`" && name.includes("${"))) return false;
    if (RELATIVE.test(name)) {
      const inside = path.relative(root, path.resolve(directory, name));
      if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside) || NODE_MODULES_SEGMENT.test(inside)) return false;
      continue;
    }
    if (path.isAbsolute(name) || /^[A-Za-z]:/.test(name)) return false; // a name that may lead anywhere
    let positions = pending.get(fileName);
    if (positions === undefined) pending.set(fileName, (positions = []));
    positions.push(position);
  }
  return true;
}

/**
 * Every string of `text` after `from`, `import`, `module`, `require(` or `import(`, with its quote
 * and the position of its opening quote (where the compiler finds the literal). Exported for its test.
 */
export function moduleNamesOf(text: string): { readonly name: string; readonly quote: string; readonly position: number }[] {
  return [...text.matchAll(MODULE_NAME)].map((match) => {
    const [whole, quote, name] = match as unknown as [string, string, string];
    return { name, quote, position: match.index + whole.length - name.length - 2 };
  });
}
