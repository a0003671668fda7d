import { createRequire } from "node:module";
import * as path from "node:path";
import type * as ts from "typescript";

type TypeScript = typeof ts;

/** `ts.objectAllocator` is internal but has existed, unchanged, in every supported version. */
interface WithObjectAllocator {
  readonly objectAllocator?: { getSourceFileConstructor(): unknown };
}

const localRequire = createRequire(__filename);
const TYPESCRIPT_MAIN = /[\\/]typescript[\\/]lib[\\/]typescript\.js$/;
const byConstructor = new WeakMap<object, TypeScript>();

/**
 * The `typescript` module that built `sourceFile`'s program.
 *
 * `@sourced/analysis` takes `ts` from its caller, and it must be the very copy the parser used:
 * `SyntaxKind` values and internal constructors differ between versions, and a project may hold
 * several (a pnpm store, an editor's bundled copy). The copy is identified, not guessed: its
 * source-file constructor is the one that made `sourceFile`.
 *
 * Candidates, cheapest first: every copy already loaded (the parser loaded the right one to build
 * the program), then the one resolved next to the parser this plugin's configs use.
 */
export function typescriptOf(sourceFile: ts.SourceFile): TypeScript | undefined {
  const constructor = sourceFile.constructor;
  const known = byConstructor.get(constructor);
  if (known) return known;
  for (const load of candidates()) {
    let candidate: TypeScript | undefined;
    try {
      candidate = load();
    } catch {
      continue; // not installed there: try the next candidate
    }
    if (candidate && madeBy(candidate, constructor)) {
      byConstructor.set(constructor, candidate);
      return candidate;
    }
  }
  return undefined;
}

function madeBy(candidate: TypeScript, constructor: unknown): boolean {
  const allocator = (candidate as WithObjectAllocator).objectAllocator;
  return typeof allocator?.getSourceFileConstructor === "function" && allocator.getSourceFileConstructor() === constructor;
}

function* candidates(): Generator<() => TypeScript | undefined> {
  for (const id of Object.keys(localRequire.cache)) {
    if (TYPESCRIPT_MAIN.test(id)) yield () => localRequire.cache[id]?.exports as TypeScript | undefined;
  }
  yield () => {
    const parser = localRequire.resolve("@typescript-eslint/parser");
    const estree = localRequire.resolve("@typescript-eslint/typescript-estree", { paths: [path.dirname(parser)] });
    return localRequire(localRequire.resolve("typescript", { paths: [path.dirname(estree)] })) as TypeScript;
  };
}
