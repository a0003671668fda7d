import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import { type Context, contextOf, isExternalFileName, MARK_LITERAL, moduleSpecifiersOf, symbolAt } from "./context.js";
import { REGISTRY_MODULE } from "./messages.js";
import { type ProgramPort, sourceFileNamesOf } from "./ports.js";
import { sealedLibraries } from "./sealed-libraries.js";

/*
 * Which files can hold a registration, from the program's module graph, computed once per
 * program. A registration needs a value whose type carries the registry's mark, and a type can
 * reach a file only through what the file can name: the modules it imports (every kind the
 * compiler resolves: imports, re-exports, `import x = require()`, `require()` and `import()` in
 * JavaScript, `typeof import("…")` and JSDoc imports), and what every file sees, the global
 * declarations. A file that imports a module sees every type that module can see (an inferred
 * return type may name a type of the module's own imports), so the question is reachability:
 * a file is judged when a path of imports leads from it to a file declaring the mark. Every file
 * has an edge to every global file (a script, or a module with `declare global`, a module
 * augmentation or `export as namespace`), so one global file that reaches the mark makes every
 * file judged.
 *
 * Besides the mark, two findings need no marked type and seed the search themselves: a registry
 * import that does not resolve (`unresolvedRegistryImports`), and `x.tool(…)` on a receiver the
 * checker cannot resolve, in the file or in a const another file follows (`unverifiable-registration`).
 *
 * Conservative wherever the graph is unknown: a file whose imports the compiler did not list
 * counts as a seed and a global file, a file of the project with an import that does not resolve
 * as a seed. A program that materialises files on demand (the native one) says which files the
 * graph may be read from (`getModuleGraphFileNames`); one that cannot is judged whole. Of those,
 * the compiler's default library files (which import nothing and declare no mark, so no search
 * reaches them) and the library packages that cannot reach the mark (sealed-libraries.ts) are not
 * read.
 */

/** Source file -> whether it can reach the registry's declarations; `null` for a program judged whole. */
const reachByProgram = new WeakMap<ProgramPort, ReadonlySet<ts.SourceFile> | null>();

/** For tests only: judge every file as if no file could be skipped, to compare findings with and without. */
let pruning = true;
export function setPruningForTests(enabled: boolean): void {
  pruning = enabled;
}

/** Whether `sourceFile` can hold a registration or a finding: when false, it is judged to have none without asking the checker. */
export function mayRegister(tsInstance: TypeScript, program: ProgramPort, sourceFile: ts.SourceFile): boolean {
  if (!pruning) return true;
  let reach = reachByProgram.get(program);
  if (reach === undefined) {
    try {
      reach = computeReach(tsInstance, program);
    } catch {
      reach = null; // the graph could not be read: every file is judged, as without pruning
    }
    reachByProgram.set(program, reach);
  }
  return reach === null || reach.has(sourceFile);
}

/** Internal members of a classic source file, read defensively (absent on other programs). */
interface CompilerFileFacts {
  /** Every module name the compiler resolves for the file, in any syntax (set when the program is built). */
  readonly imports?: readonly ts.StringLiteralLike[];
  readonly externalModuleIndicator?: unknown;
  readonly commonJsModuleIndicator?: unknown;
  /** The file's canonical path, the key a native program's declarations name their file by. */
  readonly path?: string;
}

function computeReach(tsInstance: TypeScript, program: ProgramPort): ReadonlySet<ts.SourceFile> | null {
  // The analysis' own context: the module specifiers asked here are asked again about unresolved imports.
  const context = contextOf(tsInstance, program);
  const { checker } = context;
  if (program.getSourceFileNames === undefined) {
    const files = program.getSourceFiles();
    const known = new Set(files);
    return reachOver(context, files, (symbol) => symbol.declarations?.map((declaration) => ((target) => (known.has(target) ? target : undefined))(declaration.getSourceFile())));
  }
  // A program that fetches each file (the native one): reading the whole graph costs every
  // declaration file's syntax. The project's own files are read first, alone, every module outside
  // them counted as reaching the registry (as a module outside the program is below): an
  // over-approximation, so when it leaves no file out (every file registers tools, say), no file
  // can be skipped and the declaration files are never fetched.
  if (program.getModuleGraphFileNames === undefined || checker.declarationPathsOf === undefined) return null;
  const declarationPathsOf = checker.declarationPathsOf.bind(checker);
  const own = sourceFileNamesOf(program).filter((fileName) => !isExternalFileName(fileName)).flatMap((fileName) => program.getSourceFile(fileName) ?? []);
  const ownByPath = new Map(own.map((sourceFile) => [(sourceFile as ts.SourceFile & CompilerFileFacts).path, sourceFile]));
  const ownReached = reachOver(context, own, (symbol) => declarationPathsOf(symbol)?.map((path) => ownByPath.get(path)));
  if (ownReached === null || ownReached.size === own.length) return null;
  // The packages that cannot reach the mark are told from their text, before any file is asked
  // about; only then, of what is left, any other default library (a request a file on 7.0).
  const fileNames = program.getModuleGraphFileNames();
  const sealed = sealedLibraries(program, checker, fileNames);
  const files = fileNames.flatMap((fileName) => (sealed.has(fileName) || program.isDefaultLibraryFileName?.(fileName) === true ? [] : (program.getSourceFile(fileName) ?? [])));
  const byPath = new Map(files.map((sourceFile) => [(sourceFile as ts.SourceFile & CompilerFileFacts).path, sourceFile]));
  // A module of a package that cannot reach the mark (left out of the files) is an edge to nothing.
  return reachOver(context, files, (symbol) => declarationPathsOf(symbol)?.flatMap((path) => (sealed.has(path) ? [] : [byPath.get(path)])));
}

/**
 * The files of `files` a path of imports leads from to a seed, or `null` when a global file is
 * among them (every file sees it). `targetsOf` gives the files declaring a module's symbol
 * (`undefined` for one outside `files`), or `undefined` when the module has no declarations.
 */
function reachOver(
  context: Context,
  files: readonly ts.SourceFile[],
  targetsOf: (moduleSymbol: ts.Symbol) => readonly (ts.SourceFile | undefined)[] | undefined,
): ReadonlySet<ts.SourceFile> | null {
  const { ts: tsInstance, checker } = context;
  // Every module name of the files is asked below: a checker that batches asks them at once.
  checker.prefetchSymbols?.(files.flatMap((sourceFile) => (sourceFile as ts.SourceFile & CompilerFileFacts).imports ?? []));
  /** File -> the files that import it (the edges, reversed). */
  const importers = new Map<ts.SourceFile, ts.SourceFile[]>();
  const seeds: ts.SourceFile[] = [];
  const globals = new Set<ts.SourceFile>();
  for (const sourceFile of files) {
    const facts = sourceFile as ts.SourceFile & CompilerFileFacts;
    const imports = facts.imports;
    if (imports === undefined) {
      seeds.push(sourceFile);
      globals.add(sourceFile);
      continue;
    }
    if (isGlobal(tsInstance, sourceFile, facts)) globals.add(sourceFile);
    if (isSeed(tsInstance, sourceFile)) seeds.push(sourceFile);
    for (const specifier of imports) {
      const symbol = symbolAt(context, specifier);
      const targets = symbol === undefined ? undefined : targetsOf(symbol);
      if (targets === undefined) {
        // Unresolved: nothing travels through it. In a file of the project it is kept anyway, in
        // case the checker resolves some syntax the question above does not: the cost is a file.
        if (!sourceFile.isDeclarationFile) seeds.push(sourceFile);
        continue;
      }
      for (const target of targets) {
        if (target === undefined) {
          seeds.push(sourceFile); // a module outside the files read: unknown, so kept
          continue;
        }
        if (target === sourceFile) continue;
        let list = importers.get(target);
        if (list === undefined) importers.set(target, (list = []));
        list.push(sourceFile);
      }
    }
  }
  const reached = new Set<ts.SourceFile>();
  const pending = [...seeds];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    if (globals.has(file)) return null; // every file sees it
    for (const importer of importers.get(file) ?? []) if (!reached.has(importer)) pending.push(importer);
  }
  return reached;
}

/** Whether every file of the program sees the file's declarations. */
function isGlobal(tsInstance: TypeScript, sourceFile: ts.SourceFile, facts: CompilerFileFacts): boolean {
  if (facts.externalModuleIndicator === undefined && facts.commonJsModuleIndicator === undefined) return true; // a script
  const { SyntaxKind, NodeFlags } = tsInstance;
  return sourceFile.statements.some(
    (statement) =>
      statement.kind === SyntaxKind.NamespaceExportDeclaration ||
      (tsInstance.isModuleDeclaration(statement) &&
        (tsInstance.isStringLiteral(statement.name) ||
          (statement.flags & (NodeFlags.GlobalAugmentation ?? 0)) !== 0 ||
          // TypeScript 7 has no GlobalAugmentation flag: `declare global` is told by its name.
          (tsInstance.isIdentifier(statement.name) && statement.name.text === "global"))),
  );
}

/** Whether the file declares the mark, or holds a finding that needs no marked type (see the top of this file). */
function isSeed(tsInstance: TypeScript, sourceFile: ts.SourceFile): boolean {
  const { text } = sourceFile;
  if (text.includes(MARK_LITERAL)) return true;
  if (sourceFile.isDeclarationFile) return false;
  if (text.includes(REGISTRY_MODULE) && moduleSpecifiersOf(tsInstance, sourceFile).some(({ text: name }) => name === REGISTRY_MODULE || name.startsWith(`${REGISTRY_MODULE}/`))) {
    return true;
  }
  // An identifier may spell `tool` with escapes (`t\u006fol`): such a file is walked too.
  return (/\btool\b/.test(text) || text.includes("\\u")) && hasToolAccess(tsInstance, sourceFile);
}

/** Whether the file reads a property named `tool` (`x.tool`): what an unresolved registry's registration is made of. */
function hasToolAccess(tsInstance: TypeScript, sourceFile: ts.SourceFile): boolean {
  const pending: ts.Node[] = [sourceFile];
  const push = (child: ts.Node): void => {
    pending.push(child);
  };
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (tsInstance.isPropertyAccessExpression(node) && tsInstance.isIdentifier(node.name) && node.name.text === "tool") return true;
    tsInstance.forEachChild(node, push);
  }
  return false;
}
