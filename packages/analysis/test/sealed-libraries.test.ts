import { describe, expect, it } from "vitest";
import { MARK_LITERAL } from "../src/context";
import type { CheckerPort, ProgramPort } from "../src/ports";
import { moduleNamesOf, sealedLibraries } from "../src/sealed-libraries";

/*
 * The rule that lets the module graph (reach.ts) leave a library package unread, decided from the
 * facts a port gives (a file's text, the compiler's resolution of a module name, `rootDirs`, the
 * file system's case), here given by hand: a port with them all is TypeScript 7's, whose pruning
 * tests (packages/analysis-native/test/pruning.test.ts) hold the rule against real programs.
 */

interface Given {
  /** File name -> its text on disk (`undefined`: it cannot be read). */
  readonly files: Record<string, string | undefined>;
  /** Non-relative module name -> the canonical paths of the files declaring it (absent: unresolved). */
  readonly resolves?: Record<string, readonly string[]>;
  readonly rootDirs?: readonly string[];
  readonly caseSensitive?: boolean;
  /** Whether the compiler fails to answer. */
  readonly fails?: boolean;
}

/** The files of `given` the rule seals. */
function sealed(given: Given): string[] {
  const program = {
    readFileText: (fileName: string) => given.files[fileName],
    getCompilerOptions: () => ({ rootDirs: given.rootDirs }),
    useCaseSensitiveFileNames: () => given.caseSensitive ?? true,
  } as Partial<ProgramPort> as ProgramPort;
  const checker = {
    getSymbolsAtPositions: (fileName: string, positions: readonly number[]) => {
      if (given.fails === true) throw new Error("the compiler is gone");
      const names = moduleNamesOf(given.files[fileName]!);
      return positions.map((position) => {
        const paths = given.resolves?.[names.find((name) => name.position === position)!.name];
        return paths === undefined ? undefined : { paths };
      });
    },
    declarationPathsOf: (symbol: { paths: readonly string[] }) => symbol.paths,
  } as unknown as CheckerPort;
  const rule = sealedLibraries(program, checker, Object.keys(given.files));
  return Object.keys(given.files).filter((fileName) => rule.has(fileName));
}

const QUIET = {
  "/p/node_modules/quiet/index.d.ts": `export * from "./more.js";\nexport { other } from "calm";\n`,
  "/p/node_modules/quiet/more.d.ts": `export declare const more: number;\n`,
  "/p/node_modules/calm/index.d.ts": `export declare const other: string;\n`,
};
const RESOLVES = { calm: ["/p/node_modules/calm/index.d.ts"] };

describe("library packages that cannot reach the registry's mark", () => {
  it("seals packages whose imports stay inside them or lead into other sealed packages", () => {
    expect(sealed({ files: { ...QUIET, "/p/src/use.ts": `import { more } from "quiet";\n` }, resolves: RESOLVES })).toEqual(Object.keys(QUIET));
  });

  it("keeps a package declaring the mark read, and every package whose imports lead into it", () => {
    const files = { ...QUIET, "/p/node_modules/calm/index.d.ts": `export declare const other: { readonly mark: "${MARK_LITERAL}" };\n` };
    expect(sealed({ files, resolves: RESOLVES })).toEqual([]);
  });

  it("keeps a package read when a name leads outside the packages, resolves into the project, or cannot be read whole", () => {
    const leaving = { ...QUIET, "/p/node_modules/quiet/more.d.ts": `export * from "../calm/index.js";\n` };
    expect(sealed({ files: leaving, resolves: RESOLVES })).toEqual(["/p/node_modules/calm/index.d.ts"]);
    expect(sealed({ files: QUIET, resolves: { calm: ["/p/src/shim.ts"] } })).toEqual(["/p/node_modules/calm/index.d.ts"]);
    const escaped = { ...QUIET, "/p/node_modules/quiet/more.d.ts": `export declare const more: "\\u0041";\n` };
    expect(sealed({ files: escaped, resolves: RESOLVES })).toEqual(["/p/node_modules/calm/index.d.ts"]);
    const unreadable = { ...QUIET, "/p/node_modules/quiet/more.d.ts": undefined };
    expect(sealed({ files: unreadable, resolves: RESOLVES })).toEqual(["/p/node_modules/calm/index.d.ts"]);
    const javascript = { ...QUIET, "/p/node_modules/quiet/more.js": `exports.more = 1;\n` };
    expect(sealed({ files: javascript, resolves: RESOLVES })).toEqual(["/p/node_modules/calm/index.d.ts"]);
  });

  it("an unresolved name leads nowhere", () => {
    expect(sealed({ files: QUIET })).toEqual(Object.keys(QUIET));
  });

  it("matches declarations' canonical paths, lower-cased where the case does not count", () => {
    const files = { "/P/node_modules/Quiet/index.d.ts": `export { other } from "calm";\n`, "/P/node_modules/Calm/index.d.ts": `export declare const other: string;\n` };
    const resolves = { calm: ["/p/node_modules/calm/index.d.ts"] };
    expect(sealed({ files, resolves, caseSensitive: false })).toEqual(Object.keys(files));
    expect(sealed({ files, resolves, caseSensitive: true })).toEqual(["/P/node_modules/Calm/index.d.ts"]);
  });

  it("seals nothing under `rootDirs`, or when the compiler fails to answer", () => {
    expect(sealed({ files: QUIET, resolves: RESOLVES, rootDirs: ["/p/src"] })).toEqual([]);
    expect(sealed({ files: QUIET, resolves: RESOLVES, fails: true })).toEqual([]);
  });

  it("seals nothing for a program that cannot tell the facts (the classic one reads every file)", () => {
    const rule = sealedLibraries({} as ProgramPort, {} as CheckerPort, Object.keys(QUIET));
    expect(Object.keys(QUIET).filter((fileName) => rule.has(fileName))).toEqual([]);
  });
});
