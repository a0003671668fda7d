import type * as ts from "typescript";
import type { TypeScript } from "./api.js";
import { type CheckerPort, type ProgramPort, sourceFileNamesOf } from "./ports.js";
import { unionMembers } from "./syntax.js";

/** The literal type of the mark's property (`RegistersToolMark` in @sourced/registry). */
export const MARK_LITERAL = "@sourced/registry:registers-tool";

/** The registry's `DataToolOutput`, found next to the mark that identified a registration. */
export interface Contract {
  /** `DataToolOutput`: a result with data (`structuredContent` required), an interface users extend. */
  readonly type: ts.Type;
  readonly symbol: ts.Symbol;
  /**
   * The member of the contract that carries data (`structuredContent` required): what a type that
   * does not fit is described against, and whose required parts may not be `any`. `type` itself,
   * unless the registry's `DataToolOutput` is a union that holds the error result too.
   */
  readonly data: ts.Type;
  /**
   * The registry's `ErrorResult` (`isError: true`, no `structuredContent` needed), declared beside
   * `DataToolOutput`: a declared return type's member fits when it is either.
   */
  readonly error: ts.Type | undefined;
  /** The registry's own `DataToolOutput`, `DataResult` and `ErrorResult`, by name: what a suggested annotation may name. */
  readonly named: ReadonlyMap<string, ts.Symbol>;
  /**
   * Types already found to fit: bit 1 as a plain return type, bit 2 as an async one. Most tools
   * share a few annotations, so each is related to the contract once per program.
   */
  readonly fits: WeakMap<ts.Type, number>;
}

/** Everything the analysis keeps per program: the checker and caches of type-level answers. */
export interface Context {
  readonly ts: TypeScript;
  readonly program: ProgramPort;
  readonly checker: CheckerPort;
  /** Every file has been type-checked: resolved signatures are cached (see `AnalyzeProgramOptions`). */
  typeChecked: boolean;
  /** Type -> the mark's property symbol (`null`: the type is not marked). */
  readonly marks: WeakMap<ts.Type, ts.Symbol | null>;
  /** Directory of a mark's declaration -> the `DataToolOutput` declared beside it. */
  readonly contracts: Map<string, Contract | null>;
  /** Source file -> the module specifiers of its imports that do not resolve. */
  readonly unresolvedImports: WeakMap<ts.SourceFile, readonly string[]>;
  /** Whether some file has such an import (see `hasUnresolvedImports`); computed once. */
  anyUnresolvedImport: boolean | undefined;
  /** Node -> the symbol the checker gives it (`null`: none), for nodes asked about more than once (see `symbolAt`). */
  readonly symbolsAt: WeakMap<ts.Node, ts.Symbol | null>;
  /** Type -> its text in messages (see `printType`). */
  readonly printed: WeakMap<ts.Type, string>;
  /** Symbol -> whether no narrowing of its declared type can carry the mark (see `markedTypeAt`). */
  readonly unmarkedSymbols: WeakMap<ts.Symbol, boolean>;
  /** Callee symbol -> what its calls return, when its declared signatures settle it (see `markedTypeAt`). */
  readonly declaredReturns: WeakMap<ts.Symbol, ts.Type | "unmarked" | null>;
  /**
   * Callee symbol -> receiver type (`null`: none) -> the calls of it whose arguments' text tells
   * their types, by that text (and the file, when the arguments read names; see `literalCallOf`).
   */
  readonly literalCalls: WeakMap<ts.Symbol, Map<ts.Type | null, Map<string, LiteralCall>>>;
  /** Call -> its record among `literalCalls` (`null`: none), found once though both its mark and its options ask. */
  readonly literalCallsAt: WeakMap<ts.CallExpression, LiteralCall | null>;
  /** Call -> its type as its callee's declared signature tells it (`null`: it does not; see `declaredTypeOfCall`). */
  readonly declaredCallTypes: WeakMap<ts.CallExpression, ts.Type | null>;
  /** Callee symbol -> whether its type is the same at every call (see `fixedCalleeOf`). */
  readonly fixedCallees: WeakMap<ts.Symbol, boolean>;
  /** Callee symbol -> receiver type (`null`: none) -> the exact decorator type its calls that infer nothing share (`null`: unmarked; see registration.ts). */
  readonly sharedDecorators: WeakMap<ts.Symbol, Map<ts.Type | null, ts.Type | null>>;
  /** File -> name -> its symbol (`null`: none), for names the file never declares in an inner scope. */
  readonly symbolsByName: WeakMap<ts.SourceFile, Map<string, ts.Symbol | null>>;
  /** Type -> what its `tool` member returns: a marked decorator (a registry's type), an unmarked value, or no `tool` (see `registryEscapeAt`). */
  readonly registryTypes: WeakMap<ts.Type, "marked" | "unmarked" | "none">;
  /** Symbol -> whether its declared type is a registry's. */
  readonly registrySymbols: WeakMap<ts.Symbol, boolean>;
  /** File -> whether it registers a tool on a recognised registry (see `isFirstFileRegistering`). */
  readonly registersTools: WeakMap<ts.SourceFile, boolean>;
  /** The program's first file, by name, that registers a tool (`null`: none); computed when a program-wide warning needs a place. */
  firstFileRegistering: string | null | undefined;
}

/**
 * What every call of one callee with the same literal arguments shares (see `literalCallOf`):
 * filled by the first such call the analysis asks about, read by the others.
 */
export interface LiteralCall {
  /** The call's type when it carries the mark, `null` when it does not; unset until asked. */
  type?: ts.Type | null;
  /** By the callee's text (messages quote it): the `invalid-option` problems of the options literal (`null`: none to check). */
  readonly options: Map<string, LiteralOptions | null>;
}

/** `optionProblemsAt`'s answer for a literal call, its nodes named by their place in the options literal. */
export interface LiteralOptions {
  readonly configures: "registry" | "tool";
  readonly problems: readonly { readonly property: number; readonly part: "name" | "initializer"; readonly message: (tool: string | undefined) => string }[];
}

const contexts = new WeakMap<ProgramPort, Context>();

/** One context per program, so the per-node entry point (ESLint) does not redo type-level work. */
export function contextOf(tsInstance: TypeScript, program: ProgramPort): Context {
  let context = contexts.get(program);
  if (context === undefined) {
    context = {
      ts: tsInstance,
      program,
      checker: program.getTypeChecker(),
      typeChecked: false,
      marks: new WeakMap(),
      contracts: new Map(),
      unresolvedImports: new WeakMap(),
      anyUnresolvedImport: undefined,
      symbolsAt: new WeakMap(),
      printed: new WeakMap(),
      unmarkedSymbols: new WeakMap(),
      declaredReturns: new WeakMap(),
      literalCalls: new WeakMap(),
      literalCallsAt: new WeakMap(),
      declaredCallTypes: new WeakMap(),
      fixedCallees: new WeakMap(),
      sharedDecorators: new WeakMap(),
      symbolsByName: new WeakMap(),
      registryTypes: new WeakMap(),
      registrySymbols: new WeakMap(),
      registersTools: new WeakMap(),
      firstFileRegistering: undefined,
    };
    contexts.set(program, context);
  }
  return context;
}

/**
 * The mark's property when `type` carries it: a property keyed by a unique symbol whose type is
 * the literal {@link MARK_LITERAL}. A union carries it when every member but `null`/`undefined`
 * does (so `dec?.(fn)` on an optional decorator still counts).
 */
export function markOf(context: Context, type: ts.Type): ts.Symbol | undefined {
  const cached = context.marks.get(type);
  if (cached !== undefined) return cached ?? undefined;
  context.marks.set(type, null); // guards recursive types while computing
  const mark = computeMark(context, type);
  context.marks.set(type, mark ?? null);
  return mark;
}

function computeMark(context: Context, type: ts.Type): ts.Symbol | undefined {
  const { ts, checker } = context;
  if (type.flags & ts.TypeFlags.Union) {
    let found: ts.Symbol | undefined;
    for (const member of unionMembers(ts, type)) {
      if (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) continue;
      const mark = markOf(context, member);
      if (mark === undefined) return undefined;
      found ??= mark;
    }
    return found;
  }
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never | ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike |
        ts.TypeFlags.BooleanLike | ts.TypeFlags.ESSymbolLike | ts.TypeFlags.VoidLike | ts.TypeFlags.Null)) return undefined;
  if (declaredInDefaultLibraryOnly(context, type)) return undefined;
  for (const property of checker.getPropertiesOfType(type)) {
    // Properties keyed by a symbol have an escaped name starting with "__@"; cheap test first.
    if (!(property.escapedName as string).startsWith("__@")) continue;
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    if (declaration === undefined || !carriesMarkLiteral(context, checker.getTypeOfSymbolAtLocation(property, declaration))) continue;
    const name = (declaration as ts.NamedDeclaration).name;
    if (name !== undefined && ts.isComputedPropertyName(name)) {
      const keyType = checker.getTypeAtLocation(name.expression);
      if (keyType.flags & ts.TypeFlags.UniqueESSymbol) return property;
    }
  }
  return undefined;
}

/**
 * Whether `type` is an object type every declaration of which is in the compiler's default
 * library (an array of a module's records, `ReadonlyArray<Row>`; a `Map`): those never carry the
 * mark, so their properties are not listed to look for it. The mark is a property keyed by a
 * unique symbol whose declared type holds the mark's literal; the library declares no property
 * keyed by a symbol whose type is a type parameter, so no instantiation of its types holds the
 * literal either. A project that augments a library type (`declare global { interface Array<T>
 * {…} }`) adds a declaration of its own, and the type is read as before. On the native backend each
 * distinct array type cost a listing of its ~32 properties (docs/performance.md, issue 45).
 */
function declaredInDefaultLibraryOnly(context: Context, type: ts.Type): boolean {
  const { program, checker } = context;
  const symbol = type.getSymbol();
  if (symbol === undefined) return false;
  if (checker.declarationPathsOf !== undefined) {
    const paths = checker.declarationPathsOf(symbol);
    const isLibrary = program.isDefaultLibraryFileName?.bind(program);
    return isLibrary !== undefined && paths !== undefined && paths.length > 0 && paths.every((path) => isLibrary(path));
  }
  const declarations = symbol.declarations;
  const isLibrary = program.isSourceFileDefaultLibrary?.bind(program);
  return isLibrary !== undefined && declarations !== undefined && declarations.length > 0 && declarations.every((declaration) => isLibrary(declaration.getSourceFile()));
}

function carriesMarkLiteral(context: Context, type: ts.Type): boolean {
  const { ts } = context;
  return unionMembers(ts, type).some(
    (member) => member.flags & ts.TypeFlags.StringLiteral && (member as ts.StringLiteralType).value === MARK_LITERAL,
  );
}

/** Whether values of `type` register tools. */
export function isMarked(context: Context, type: ts.Type): boolean {
  return markOf(context, type) !== undefined;
}

/**
 * The registry's `DataToolOutput` for a registration identified by `mark`: the type exported
 * under that name by a module in the directory that declares the mark (the registry's own
 * `index`/`contract` modules). A user's local type of the same name is never consulted.
 */
export function contractFor(context: Context, mark: ts.Symbol): Contract | undefined {
  const declaration = mark.valueDeclaration ?? mark.declarations?.[0];
  if (declaration === undefined) return undefined;
  const directory = directoryOf(declaration.getSourceFile().fileName);
  const cached = context.contracts.get(directory);
  if (cached !== undefined) return cached ?? undefined;
  const { ts, checker } = context;
  let contract: Contract | undefined;
  for (const fileName of sourceFileNamesOf(context.program)) {
    if (directoryOf(fileName) !== directory) continue;
    const sourceFile = context.program.getSourceFile(fileName);
    if (sourceFile === undefined) continue;
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
    if (moduleSymbol === undefined) continue;
    const exports = checker.getExportsOfModule(moduleSymbol);
    const declared = (name: string): ts.Symbol | undefined => {
      const exported = exports.find((symbol) => symbol.name === name);
      if (exported === undefined) return undefined;
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return symbol.flags & ts.SymbolFlags.TypeAlias || symbol.flags & ts.SymbolFlags.Interface ? symbol : undefined;
    };
    const symbol = declared("DataToolOutput");
    if (symbol === undefined) continue;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const error = declared("ErrorResult");
    const named = new Map<string, ts.Symbol>([["DataToolOutput", symbol]]);
    for (const name of ["DataResult", "ErrorResult"]) {
      const other = declared(name);
      if (other !== undefined) named.set(name, other);
    }
    contract = { type, symbol, data: dataMemberOf(context, type), error: error === undefined ? undefined : checker.getDeclaredTypeOfSymbol(error), named, fits: new WeakMap() };
    break;
  }
  context.contracts.set(directory, contract ?? null);
  return contract;
}

/** The member of the contract whose `structuredContent` is required (the contract itself when it is no union). */
function dataMemberOf(context: Context, type: ts.Type): ts.Type {
  const { ts } = context;
  return (
    unionMembers(ts, type).find((member) => {
      const property = member.getProperty("structuredContent");
      return property !== undefined && !(property.flags & ts.SymbolFlags.Optional);
    }) ?? type
  );
}

function directoryOf(fileName: string): string {
  const slash = fileName.lastIndexOf("/");
  return slash < 0 ? "" : fileName.slice(0, slash);
}

/**
 * A type as messages quote it: printed without an enclosing declaration, so names read as
 * declared (`ToolDecorator`, not `import("@sourced/registry").ToolDecorator`) and the checker
 * never searches for an accessible name or a module specifier, which on a first
 * print costs more than the whole judgement of a file.
 */
export function printType(context: Context, type: ts.Type): string {
  let text = context.printed.get(type);
  if (text === undefined) {
    text = context.checker.typeToString(type);
    context.printed.set(type, text);
  }
  return text;
}

/** The module specifiers of `sourceFile`'s top-level imports, re-exports and `import x = require(…)`. */
export function moduleSpecifiersOf(ts: TypeScript, sourceFile: ts.SourceFile): ts.StringLiteral[] {
  const specifiers: ts.StringLiteral[] = [];
  for (const statement of sourceFile.statements) {
    const specifier =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
        ? statement.moduleSpecifier
        : ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)
          ? statement.moduleReference.expression
          : undefined;
    if (specifier !== undefined && ts.isStringLiteral(specifier)) specifiers.push(specifier);
  }
  return specifiers;
}

/**
 * `checker.getSymbolAtLocation(node)`, asked once per node. The checker keeps no answer for a
 * name or a module specifier: it resolves it again at every request. Several questions read the
 * same nodes: every module specifier of the project is read by reach.ts and again for the
 * unresolved imports, and a name declared again in an inner scope (`limit`, a parameter of many
 * functions), which `referencedSymbol` cannot share across its file, is read by both `markedTypeAt`
 * and `registryEscapeAt` at each reference.
 */
export function symbolAt(context: Context, node: ts.Node): ts.Symbol | undefined {
  let symbol = context.symbolsAt.get(node);
  if (symbol === undefined) {
    symbol = context.checker.getSymbolAtLocation(node) ?? null;
    context.symbolsAt.set(node, symbol);
  }
  return symbol ?? undefined;
}

/** Module specifiers of `sourceFile`'s imports that the compiler cannot resolve. */
export function unresolvedImportsOf(context: Context, sourceFile: ts.SourceFile): readonly string[] {
  let unresolved = context.unresolvedImports.get(sourceFile);
  if (unresolved === undefined) {
    unresolved = moduleSpecifiersOf(context.ts, sourceFile)
      .filter((specifier) => symbolAt(context, specifier) === undefined)
      .map((specifier) => specifier.text);
    context.unresolvedImports.set(sourceFile, unresolved);
  }
  return unresolved;
}

/**
 * Whether a source file of the project itself (not a declaration file, nothing under
 * node_modules) imports a module that does not resolve: only then can a const the analysis can
 * read (it has an initializer) hold a call on an unresolved registry. Once per program.
 */
export function hasUnresolvedImports(context: Context): boolean {
  const { program } = context;
  context.anyUnresolvedImport ??= sourceFileNamesOf(program).some((fileName) => {
    if (isExternalFileName(fileName)) return false;
    const sourceFile = program.getSourceFile(fileName);
    return sourceFile !== undefined && isProjectSource(program, sourceFile) && unresolvedImportsOf(context, sourceFile).length > 0;
  });
  return context.anyUnresolvedImport;
}

/** The project's own sources: not declaration files, nor anything under node_modules. */
export function isProjectSource(program: ProgramPort, sourceFile: ts.SourceFile): boolean {
  return !(sourceFile.isDeclarationFile || isExternalFileName(sourceFile.fileName) || program.isSourceFileFromExternalLibrary(sourceFile));
}

/** A declaration file or a file under node_modules, told by its name alone (no syntax needed). */
export function isExternalFileName(fileName: string): boolean {
  return isDeclarationFileName(fileName) || /[\\/]node_modules[\\/]/.test(fileName);
}

/** A declaration file's name, as TypeScript tells one: `.d.ts`, `.d.mts`, `.d.cts`, or `.d.<extension>.ts` (arbitrary extensions). */
export function isDeclarationFileName(fileName: string): boolean {
  return /\.d\.[cm]?ts$|\.d\.[^/\\]*\.ts$/.test(fileName);
}

/**
 * The property a `const` destructures (`const { alerts } = await import("./alerts.js")` binds what
 * `module.alerts` reads at that moment), its key read as the run time reads it. `undefined` for an
 * element this does not follow: of an array or nested pattern, a parameter's, a `let`'s, one with
 * a default value, a rest element.
 */
export function destructuredProperty(context: Context, element: ts.BindingElement): ts.Symbol | undefined {
  const { ts, checker } = context;
  const pattern = element.parent;
  const variable = pattern.parent;
  if (!ts.isObjectBindingPattern(pattern) || !ts.isVariableDeclaration(variable) || variable.initializer === undefined) return undefined;
  if ((ts.getCombinedNodeFlags(variable) & ts.NodeFlags.BlockScoped) !== ts.NodeFlags.Const) return undefined;
  if (element.dotDotDotToken !== undefined || element.initializer !== undefined) return undefined;
  const key = element.propertyName ?? element.name;
  const text = ts.isIdentifier(key) || ts.isStringLiteral(key) || ts.isNumericLiteral(key) ? key.text : undefined;
  const property = text === undefined ? undefined : checker.getTypeAtLocation(variable.initializer).getProperty(text);
  return property === undefined ? undefined : resolveAlias(context, property);
}

/** The symbol behind an alias (import, re-export), or the symbol itself. */
export function resolveAlias(context: Context, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & context.ts.SymbolFlags.Alias ? context.checker.getAliasedSymbol(symbol) : symbol;
}

/** The checker's error type (what an unresolved name or module becomes). Internal name, read defensively. */
export function isErrorType(context: Context, type: ts.Type): boolean {
  return (
    (type.flags & context.ts.TypeFlags.Any) !== 0 && (type as { intrinsicName?: string }).intrinsicName === "error"
  );
}
