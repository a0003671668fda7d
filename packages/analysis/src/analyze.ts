import type * as ts from "typescript";
import type { AnalysisResult, Finding, Registration, TypeScript, UnresolvedRegistryImport } from "./api.js";
import { type Context, contextOf, isProjectSource, moduleSpecifiersOf, symbolAt } from "./context.js";
import { type FileFamily, type FileScope, type Judgement, NO_FINDINGS, type RegisteredFamily, type RegistrationFamily, type SiteFamily } from "./findings/family.js";
import { FAMILIES } from "./findings/index.js";
import { internalErrorAt } from "./findings/internal-error.js";
import { REGISTRY_MODULE } from "./messages.js";
import type { ProgramPort } from "./ports.js";
import { mayRegister } from "./reach.js";
import { ReferenceScan } from "./reference-scan.js";
import { escapePlacementOf, type Placement } from "./sites.js";
import { fastSyntaxPort } from "./syntax-members.js";

export interface AnalyzeProgramOptions {
  /** Only these files (default: every file of the program but declaration files and node_modules). */
  readonly sourceFiles?: readonly ts.SourceFile[];
  /**
   * The program's semantic diagnostics have all been computed (tsc has type-checked it), so the
   * checker has every call's signature cached: the analysis reads those first. A hint for speed
   * only; it never changes a verdict.
   */
  readonly typeChecked?: boolean;
}

/**
 * Whether `analyzeProgram` judges `sourceFile`: the project's own sources, not declaration files
 * nor anything under node_modules. Front-ends that count or de-duplicate files ask this, so their
 * figures are the analysis' own.
 */
export function isAnalysedFile(program: ProgramPort, sourceFile: ts.SourceFile): boolean {
  return isProjectSource(program, sourceFile);
}

/** Every registration and finding of a program, in the files `isAnalysedFile` accepts. */
export function analyzeProgram(compiler: TypeScript, program: ProgramPort, options: AnalyzeProgramOptions = {}): AnalysisResult {
  const tsInstance = fastSyntaxPort(compiler);
  const registrations: Registration[] = [];
  const findings: Finding[] = [];
  const unresolvedRegistryImports: UnresolvedRegistryImport[] = [];
  if (options.typeChecked) contextOf(tsInstance, program).typeChecked = true;
  for (const sourceFile of options.sourceFiles ?? program.getSourceFiles()) {
    if (!isAnalysedFile(program, sourceFile)) continue;
    const result = analyzeSourceFile(tsInstance, program, sourceFile);
    registrations.push(...result.registrations);
    findings.push(...result.findings);
    unresolvedRegistryImports.push(...result.unresolvedRegistryImports);
  }
  return { registrations, findings, unresolvedRegistryImports };
}

/** The families of the list (findings/index.ts), by the moment they look at. */
const REGISTRATION = only(FAMILIES.filter((family): family is RegistrationFamily => family.phase === "registration"));
const REGISTERED = FAMILIES.filter((family): family is RegisteredFamily => family.phase === "registered");
const SITE = FAMILIES.filter((family): family is SiteFamily => family.phase === "site");
const FILE = FAMILIES.filter((family): family is FileFamily => family.phase === "file");

function only<T>(families: readonly T[]): T {
  if (families.length !== 1) throw new Error(`the list of finding families has ${families.length} registration families, not one`);
  return families[0]!;
}

/**
 * Every registration and finding of one file, in source order (sites visited depth-first): at each
 * site, the registration's verdict and what the `registered` families find beside it, then the
 * `site` families' findings, then the `file` families'.
 */
export function analyzeSourceFile(compiler: TypeScript, program: ProgramPort, sourceFile: ts.SourceFile): AnalysisResult {
  const tsInstance = fastSyntaxPort(compiler);
  // No type of the registry can reach the file (reach.ts): nothing to ask the checker.
  if (!mayRegister(tsInstance, program, sourceFile)) return NOTHING_HERE;
  const context = contextOf(tsInstance, program);
  const { ts } = context;
  const registrations: Registration[] = [];
  const findings: Finding[] = [];
  const scope: FileScope = { context, sourceFile, registersTools: (other) => registersTools(context, other) };
  const watches = FILE.map((family) => family.watch(scope));
  let registers = false;
  for (const { node, placement } of sitesOf(context, sourceFile, true)) {
    let judgement: Judgement | undefined;
    if (ts.isCallExpression(node) || ts.isDecorator(node)) {
      try {
        judgement = judgeSite(context, node);
      } catch (error) {
        const finding = internalErrorAt(node, error);
        judgement = { registration: { site: node, form: ts.isDecorator(node) ? "decorator" : "call", tool: undefined, pinnedName: undefined, fn: undefined, finding }, startup: NO_FINDINGS };
      }
      if (judgement !== undefined) {
        registrations.push(judgement.registration);
        if (judgement.registration.finding !== undefined) findings.push(judgement.registration.finding);
        if (judgement.startup.length > 0) findings.push(...judgement.startup);
        if (judgement.contract !== undefined) registers = true;
      }
    }
    for (const family of SITE) {
      if (family.at === "call" ? !ts.isCallExpression(node) : ts.isDecorator(node)) continue;
      try {
        const found = family.detect(context, node, placement);
        if (found.length > 0) findings.push(...found);
      } catch (error) {
        findings.push(internalErrorAt(node, error));
      }
    }
    if (judgement === undefined) continue;
    for (const watch of watches) {
      const found = watch.registered?.(judgement);
      if (found !== undefined) findings.push(found);
    }
  }
  context.registersTools.set(sourceFile, registers);
  for (const watch of watches) {
    const found = watch.end?.();
    if (found !== undefined) findings.unshift(found);
  }
  return { registrations, findings, unresolvedRegistryImports: unresolvedRegistryImportsOf(context, sourceFile) };
}

const NOTHING_HERE: AnalysisResult = { registrations: [], findings: [], unresolvedRegistryImports: [] };

/**
 * A registration site judged: the verdict (the registration family), then what the `registered`
 * families find beside it. One failure of any is the site's one `internal-error`.
 */
function judgeSite(context: Context, site: ts.CallExpression | ts.Decorator): Judgement | undefined {
  const judgement = REGISTRATION.judge(context, site);
  const registered = judgement?.registered;
  if (registered === undefined) return judgement;
  let startup: Finding[] | undefined;
  for (const family of REGISTERED) {
    const found = family.detect(context, registered);
    if (found.length > 0) (startup ??= []).push(...found);
  }
  return startup === undefined ? judgement : { ...judgement!, startup };
}

/** Whether a file registers a tool on a registry the analysis recognises (its answer kept from its own analysis when there was one). */
function registersTools(context: Context, sourceFile: ts.SourceFile): boolean {
  let known = context.registersTools.get(sourceFile);
  if (known === undefined) {
    known = false;
    const sites = mayRegister(context.ts, context.program, sourceFile) ? sitesOf(context, sourceFile, false) : [];
    for (const { node } of sites) {
      if (!context.ts.isCallExpression(node) && !context.ts.isDecorator(node)) continue;
      try {
        if (judgeSite(context, node)?.contract !== undefined) {
          known = true;
          break;
        }
      } catch {
        // Its own analysis reports the failure.
      }
    }
    context.registersTools.set(sourceFile, known);
  }
  return known;
}

/**
 * The file's top-level imports and re-exports of the registry whose module does not resolve. The
 * module name is the only evidence left when its types are missing; the checker is asked only
 * about specifiers that name the registry.
 */
function unresolvedRegistryImportsOf(context: Context, sourceFile: ts.SourceFile): UnresolvedRegistryImport[] {
  const { ts } = context;
  const unresolved: UnresolvedRegistryImport[] = [];
  for (const specifier of moduleSpecifiersOf(ts, sourceFile)) {
    const name = specifier.text;
    if (name !== REGISTRY_MODULE && !name.startsWith(`${REGISTRY_MODULE}/`)) continue;
    if (symbolAt(context, specifier) !== undefined) continue;
    unresolved.push({ sourceFile, specifier: name, node: specifier, start: specifier.getStart(sourceFile), end: specifier.getEnd() });
  }
  return unresolved;
}

interface Site {
  readonly node: ts.Node;
  /** For a value reference: where its value goes (computed once, while walking). */
  readonly placement?: Placement;
}

/**
 * The file's site candidates in depth-first pre-order, and, from the same walk, its
 * `ReferenceFacts`, so the file is walked once. Type-only subtrees (type annotations, interfaces,
 * type aliases, the module's imports) hold no site and are skipped. An explicit stack:
 * a generated file can nest expressions thousands deep (`1 + 1 + …`), deeper than the call stack
 * allows a recursive walk.
 */
function sitesOf(context: Context, sourceFile: ts.SourceFile, prefetch: boolean): Site[] {
  const { ts } = context;
  const { SyntaxKind } = ts;
  const sites: Site[] = [];
  const references = new ReferenceScan(ts);
  const pending: ts.Node[] = [sourceFile];
  const children: ts.Node[] = [];
  const collect = (child: ts.Node): void => {
    children.push(child);
  };
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    switch (node.kind) {
      case SyntaxKind.CallExpression:
        references.visit(node);
        sites.push({ node });
        break;
      case SyntaxKind.Decorator:
        sites.push({ node });
        break;
      case SyntaxKind.Identifier:
        references.visit(node);
      // falls through
      case SyntaxKind.PropertyAccessExpression:
      case SyntaxKind.ElementAccessExpression: {
        const placement = escapePlacementOf(ts, node);
        if (placement !== undefined) sites.push({ node, placement });
        break;
      }
      case SyntaxKind.BinaryExpression:
        references.visit(node);
        break;
      case SyntaxKind.InterfaceDeclaration:
      case SyntaxKind.TypeAliasDeclaration:
        continue;
      case SyntaxKind.ImportDeclaration:
        if (node.parent === sourceFile) continue;
        break;
      default:
        // `extends mixin(asTool)` is an ExpressionWithTypeArguments: a type node holding a value.
        if (ts.isTypeNode(node) && node.kind !== SyntaxKind.ExpressionWithTypeArguments) continue;
    }
    ts.forEachChild(node, collect);
    while (children.length > 0) pending.push(children.pop()!);
  }
  const { shadowed } = references.finish(sourceFile);
  // A batching checker (the native one) fetches the file's symbols in one request; classic has no prefetch.
  if (prefetch && context.checker.prefetch !== undefined) context.checker.prefetch(sourceFile, sites.map(({ node }) => node), shadowed);
  return sites;
}
