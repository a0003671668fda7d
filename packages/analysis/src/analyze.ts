import { describeSourceUrlProblem, toolNameProblem } from "@sourced/contract-rules";
import type * as ts from "typescript";
import type { AnalysisResult, AnnotationFix, Finding, FindingId, Registration, TypeScript, UnresolvedRegistryImport } from "./api.js";
import {
  type Context,
  type Contract,
  contextOf,
  contractFor,
  hasUnresolvedImports,
  isErrorType,
  isExternalFileName,
  isMarked,
  isProjectSource,
  markOf,
  moduleSpecifiersOf,
  printType,
  resolveAlias,
  unresolvedImportsOf,
} from "./context.js";
import { judgeRegistered, undeclaredErrorResultsOf } from "./judge.js";
import { FINDING_KINDS } from "./kinds.js";
import { exactMarkedType, hasAnyType, markedTypeAt, ReferenceScan, referencedSymbol } from "./marked.js";
import * as messages from "./messages.js";
import { optionProblemsAt } from "./options.js";
import { anonymousFunctionOf, nameNodeOf, type RegistryIdentity, registryOf } from "./names.js";
import { type ProgramPort, sourceFileNamesOf } from "./ports.js";
import { mayRegister } from "./reach.js";
import { registryEscapeAt } from "./registry-escape.js";
import { type ServedName, servedNameOf, takesFunctionName, toolNameOf } from "./served.js";
import { escapePlacementOf, needsTypeQuery, type Placement, placementOf } from "./sites.js";
import { type KeysBeyondOutput, keysBeyondOutputOf, outputKeysTypeOf, undeclaredOutputKeysOf } from "./output-keys.js";
import { refusedSourcesOf } from "./sources.js";
import { admitsUndefined } from "./strictness.js";
import { headOf, isConstDeclaration, locate, MAX_HOPS, skipOuterExpressions } from "./syntax.js";

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
export function analyzeProgram(tsInstance: TypeScript, program: ProgramPort, options: AnalyzeProgramOptions = {}): AnalysisResult {
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

/** Every registration and finding of one file, in source order (sites visited depth-first). */
export function analyzeSourceFile(tsInstance: TypeScript, program: ProgramPort, sourceFile: ts.SourceFile): AnalysisResult {
  // No type of the registry can reach the file (reach.ts): nothing to ask the checker.
  if (!mayRegister(tsInstance, program, sourceFile)) return NOTHING_HERE;
  const context = contextOf(tsInstance, program);
  const registrations: Registration[] = [];
  const findings: Finding[] = [];
  const names = new ServedNames();
  let first: Judgement | undefined;
  for (const { node, placement } of sitesOf(context, sourceFile, true)) {
    const result = analyzeSite(context, node, placement);
    const { judgement } = result;
    if (judgement !== undefined) {
      registrations.push(judgement.registration);
      if (judgement.contract !== undefined) first ??= judgement;
    }
    if (result.findings.length > 0) findings.push(...result.findings);
    const duplicate = judgement === undefined ? undefined : names.add(context, judgement);
    if (duplicate !== undefined) findings.push(duplicate);
  }
  context.registersTools.set(sourceFile, first !== undefined);
  if (first !== undefined && admitsUndefined(context, first.contract!) && isFirstFileRegistering(context, sourceFile)) {
    const { site } = first.registration;
    findings.unshift(makeFinding("strict-null-checks-off", site.expression, site, undefined, messages.STRICT_NULL_CHECKS_OFF));
  }
  return { registrations, findings, unresolvedRegistryImports: unresolvedRegistryImportsOf(context, sourceFile) };
}

const NOTHING_HERE: AnalysisResult = { registrations: [], findings: [], unresolvedRegistryImports: [] };

/**
 * The served names of a file's registrations: the second registration of a name on one registry
 * is a finding naming the first's place (the registry throws there at start-up). Within the file,
 * as every front-end judges a file at a time. Which registry a registration is made on is asked
 * only of registrations that share a name.
 */
class ServedNames {
  private readonly byName = new Map<string, { readonly judgement: Judgement; registry?: RegistryIdentity | null }[]>();

  add(context: Context, judgement: Judgement): Finding | undefined {
    const { registration, producer, nameNode } = judgement;
    const tool = registration.tool;
    if (tool === undefined || producer === undefined || nameNode === undefined) return undefined;
    const earlier = this.byName.get(tool);
    const entry: { readonly judgement: Judgement; registry?: RegistryIdentity | null } = { judgement };
    if (earlier === undefined) {
      this.byName.set(tool, [entry]);
      return undefined;
    }
    earlier.push(entry);
    const registryOfEntry = (candidate: typeof entry): RegistryIdentity | undefined => {
      if (candidate.registry === undefined) candidate.registry = registryOf(context, candidate.judgement.producer!) ?? null;
      return candidate.registry ?? undefined;
    };
    const registry = registryOfEntry(entry);
    if (registry === undefined) return undefined;
    const first = earlier.find((candidate) => candidate !== entry && registryOfEntry(candidate)?.declaration === registry.declaration);
    if (first === undefined) return undefined;
    const { site } = registration;
    return makeFinding("duplicate-tool-name", nameNode, site, tool, messages.duplicateToolName(tool, registry.name, locate(first.judgement.registration.site, site.getSourceFile())));
  }
}

/**
 * Whether `sourceFile` is the program's first file (in file-name order, the same on every backend)
 * that registers a tool: a program-wide warning is reported there, once. Only asked in a program
 * that has one to report, so the files before it are judged a second time only then.
 */
function isFirstFileRegistering(context: Context, sourceFile: ts.SourceFile): boolean {
  if (context.firstFileRegistering === undefined) {
    const { program } = context;
    const names = sourceFileNamesOf(program).filter((fileName) => !isExternalFileName(fileName)).sort(compareText);
    context.firstFileRegistering = null;
    for (const fileName of names) {
      const candidate = program.getSourceFile(fileName);
      if (candidate === undefined || !isProjectSource(program, candidate) || !registersTools(context, candidate)) continue;
      context.firstFileRegistering = candidate.fileName;
      break;
    }
  }
  return context.firstFileRegistering === sourceFile.fileName;
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
        if (judgementOf(context, node)?.contract !== undefined) {
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

/** Code-unit order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The file's top-level imports and re-exports of the registry whose module does not resolve. The
 * module name is the only evidence left when its types are missing; the checker is asked only
 * about specifiers that name the registry.
 */
function unresolvedRegistryImportsOf(context: Context, sourceFile: ts.SourceFile): UnresolvedRegistryImport[] {
  const { ts, checker } = context;
  const unresolved: UnresolvedRegistryImport[] = [];
  for (const specifier of moduleSpecifiersOf(ts, sourceFile)) {
    const name = specifier.text;
    if (name !== messages.REGISTRY_MODULE && !name.startsWith(`${messages.REGISTRY_MODULE}/`)) continue;
    if (checker.getSymbolAtLocation(specifier) !== undefined) continue;
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
  references.finish(sourceFile);
  // A batching checker (the native one) fetches the file's symbols in one request; classic has no prefetch.
  if (prefetch && context.checker.prefetch !== undefined) context.checker.prefetch(sourceFile, sites.map(({ node }) => node));
  return sites;
}

interface SiteResult {
  readonly judgement?: Judgement;
  readonly findings: readonly Finding[];
}

const NOTHING: SiteResult = { findings: [] };

function analyzeSite(context: Context, node: ts.Node, placement?: Placement): SiteResult {
  const { ts } = context;
  let judgement: Judgement | undefined;
  const findings: Finding[] = [];
  if (ts.isCallExpression(node) || ts.isDecorator(node)) {
    try {
      judgement = judgementOf(context, node);
    } catch (error) {
      const finding = makeFinding("internal-error", node, node, undefined, messages.internalError(error));
      judgement = { registration: { site: node, form: ts.isDecorator(node) ? "decorator" : "call", tool: undefined, pinnedName: undefined, fn: undefined, finding }, startup: NO_FINDINGS };
    }
    if (judgement?.registration.finding !== undefined) findings.push(judgement.registration.finding);
    if (judgement !== undefined && judgement.startup.length > 0) findings.push(...judgement.startup);
  }
  if (ts.isCallExpression(node)) {
    try {
      findings.push(...optionFindingsAt(context, node));
    } catch (error) {
      findings.push(makeFinding("internal-error", node, node, undefined, messages.internalError(error)));
    }
  }
  if (!ts.isDecorator(node)) {
    try {
      const escape = escapeAt(context, node as ts.Expression, placement);
      if (escape !== undefined) findings.push(escape);
    } catch (error) {
      findings.push(makeFinding("internal-error", node, node, undefined, messages.internalError(error)));
    }
  }
  return judgement === undefined && findings.length === 0 ? NOTHING : { ...(judgement ? { judgement } : {}), findings };
}

/** The `invalid-option` findings of a call's literal options (options.ts), under the tool's name when it registers one. */
function optionFindingsAt(context: Context, call: ts.CallExpression): Finding[] {
  const checked = optionProblemsAt(context, call);
  if (checked === undefined || checked.problems.length === 0) return [];
  const { ts } = context;
  let tool: string | undefined;
  if (checked.configures === "tool") {
    let outer: ts.Node = call;
    while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
    const applied = ts.isCallExpression(outer.parent) && outer.parent.expression === outer ? outer.parent.arguments[0] : ts.isDecorator(outer.parent) ? outer.parent.parent : undefined;
    tool = toolNameOf(servedNameOf(context, call), appliedName(context, applied));
  }
  return checked.problems.map((problem) => makeFinding("invalid-option", problem.node, call, tool, problem.message(tool)));
}

function makeFinding(id: FindingId, node: ts.Node, site: ts.Node, tool: string | undefined, message: string, fix?: AnnotationFix): Finding {
  const sourceFile = site.getSourceFile();
  return {
    id,
    code: FINDING_KINDS[id].code,
    tool,
    message,
    sourceFile,
    node,
    start: node.getStart(sourceFile),
    end: node.getEnd(),
    site,
    ...(fix !== undefined ? { fix } : {}),
  };
}

/** A registration and what the analysis learnt about it beyond its verdict. */
interface Judgement {
  readonly registration: Registration;
  /** What the registry refuses at start-up or the net on every call: a missing or invalid name, a source that cannot pass. */
  readonly startup: readonly Finding[];
  /** The registry's own DataToolOutput, when the registration is marked (not an unresolved registry's). */
  readonly contract?: Contract | undefined;
  /** The decorator that registers it (its registry is asked only when two registrations share a name). */
  readonly producer?: ts.Expression;
  /** What to underline about its served name. */
  readonly nameNode?: ts.Node;
}

/** A call `value(…)` or decorator `@value` whose value is marked: judge what it registers. */
function judgementOf(context: Context, site: ts.CallExpression | ts.Decorator): Judgement | undefined {
  const { ts } = context;
  const form = ts.isDecorator(site) ? "decorator" : "call";
  const producer = site.expression;
  const producerType = markedTypeAt(context, producer);
  const mark = producerType === undefined ? undefined : markOf(context, producerType);
  if (producerType === undefined || mark === undefined) {
    const registration = unresolvedRegistryAt(context, site);
    return registration === undefined ? undefined : { registration, startup: NO_FINDINGS };
  }

  const value: ts.Node | undefined = ts.isDecorator(site) ? site.parent : site.arguments[0];
  if (value !== undefined && ts.isCallExpression(site) && isDelegation(context, value as ts.Expression)) return undefined;

  const served = servedNameOf(context, producer);
  const toolName = (functionName: string | undefined): string | undefined => toolNameOf(served, functionName);
  const done = (
    tool: string | undefined,
    fn: ts.Node | undefined,
    finding?: { readonly id: FindingId; readonly node: ts.Node; readonly message: string; readonly fix?: AnnotationFix },
  ): Registration => ({
    site,
    form,
    tool,
    pinnedName: takesFunctionName(served) ? tool : undefined,
    fn,
    finding: finding === undefined ? undefined : makeFinding(finding.id, finding.node, site, tool, finding.message, finding.fix),
  });
  const unverifiable = (node: ts.Node, why: string, instead: string): Judgement => {
    const tool = toolName(undefined);
    return { registration: done(tool, undefined, { id: "unverifiable-registration", node, message: messages.unverifiable(tool, why, instead) }), startup: NO_FINDINGS };
  };

  if (value === undefined) return unverifiable(site, messages.WHY_APPLIED_TO_NOTHING, messages.REGISTER_INSTEAD_SENTENCE);
  if (ts.isSpreadElement(value)) return unverifiable(value, messages.WHY_SPREAD, messages.REGISTER_INSTEAD_SENTENCE);
  if (ts.isDecorator(site) && !ts.isMethodDeclaration(value)) return unverifiable(site, messages.WHY_NOT_ON_METHOD, messages.DECORATE_INSTEAD);
  const contract = contractFor(context, mark);
  if (contract === undefined) {
    const file = (mark.valueDeclaration ?? mark.declarations?.[0])?.getSourceFile().fileName ?? "the registry";
    return unverifiable(site, messages.noContractNextToMark(file), messages.IMPORT_REGISTRATION_INSTEAD);
  }
  // Asked only to word a missing annotation's fix: a tool with `output` is told its keys.
  const outputKeys = (): ts.Type | undefined => {
    const decorator = exactMarkedType(context, producer, producerType);
    return decorator === undefined ? undefined : outputKeysTypeOf(context, decorator, mark);
  };
  const verdict = judgeRegistered(context, contract, value, site, outputKeys);
  const tool = toolName(verdict.functionName);
  const registration =
    verdict.id === undefined
      ? done(tool, verdict.fn)
      : done(tool, verdict.fn, { id: verdict.id, node: verdict.node, message: verdict.message(tool), ...(verdict.fix !== undefined ? { fix: verdict.fix } : {}) });
  const nameNode = nameNodeOf(context, site, producer);
  return {
    registration,
    startup: startupFindings(context, site, value, served, tool, nameNode, verdict.implementation, keysBeyondOutputOf(context, contract, () => exactMarkedType(context, producer, producerType), mark, verdict.implementation), verdict.id === undefined ? undeclaredErrorResultsOf(context, contract, verdict.implementation) : undefined),
    contract,
    producer,
    nameNode,
  };
}

/**
 * What the registry refuses at start-up, or the net on every call, seen at a registration: an
 * anonymous function with no name in its options, a served name the MCP rule forbids, a source
 * literal no rule accepts. Reported beside the verdict, which they do not change.
 */
function startupFindings(
  context: Context,
  site: ts.CallExpression | ts.Decorator,
  value: ts.Node,
  served: ServedName,
  tool: string | undefined,
  nameNode: ts.Node,
  implementation: ts.SignatureDeclaration | undefined,
  beyondOutput: KeysBeyondOutput | undefined,
  errorResults: ReturnType<typeof undeclaredErrorResultsOf>,
): readonly Finding[] {
  const { ts } = context;
  let findings: Finding[] | undefined;
  const anonymous = served.kind === "function" && ts.isCallExpression(site) ? anonymousFunctionOf(ts, value) : undefined;
  if (anonymous !== undefined) {
    (findings ??= []).push(makeFinding("unnamed-tool", headOf(ts, anonymous), site, undefined, messages.unnamedTool(ts.isArrowFunction(anonymous))));
  }
  const problem = tool === undefined ? undefined : toolNameProblem(tool);
  if (tool !== undefined && problem !== undefined) (findings ??= []).push(makeFinding("invalid-tool-name", nameNode, site, tool, messages.invalidToolName(tool, problem)));
  for (const { literal, value: source } of refusedSourcesOf(context, implementation)) {
    const siteFile = site.getSourceFile();
    const here = literal.getSourceFile() === siteFile;
    const node = here ? literal : ts.isDecorator(site) ? site : value;
    (findings ??= []).push(
      makeFinding("invalid-source", node, site, tool, messages.refusedSource(tool, source, here ? undefined : locate(literal, siteFile), describeSourceUrlProblem(source))),
    );
  }
  for (const { node: structured, keys, declared } of undeclaredOutputKeysOf(context, implementation)) {
    const siteFile = site.getSourceFile();
    const here = structured.getSourceFile() === siteFile;
    const node = here ? structured : ts.isDecorator(site) ? site : value;
    (findings ??= []).push(makeFinding("undeclared-output-key", node, site, tool, messages.undeclaredOutputKeys(tool, keys, declared, here ? undefined : locate(structured, siteFile))));
  }
  if (beyondOutput !== undefined) {
    const { node: declaredType, keys, output } = beyondOutput;
    const siteFile = site.getSourceFile();
    const here = declaredType.getSourceFile() === siteFile;
    const node = here ? declaredType : ts.isDecorator(site) ? site : value;
    (findings ??= []).push(makeFinding("undeclared-output-key", node, site, tool, messages.keysBeyondOutput(tool, keys, output, here ? undefined : locate(declaredType, siteFile))));
  }
  for (const object of errorResults?.nodes ?? []) {
    const siteFile = site.getSourceFile();
    const here = object.getSourceFile() === siteFile;
    const node = here ? object : ts.isDecorator(site) ? site : value;
    (findings ??= []).push(makeFinding("not-data-tool-output", node, site, tool, messages.errorResultNotDeclared(tool, errorResults!.declared.getText(), here ? undefined : locate(object, siteFile))));
  }
  return findings ?? NO_FINDINGS;
}

const NO_FINDINGS: readonly Finding[] = [];

/**
 * `(fn) => registry.tool()(fn)` inside a platform wrapper that is itself marked: the wrapper
 * forwards its own parameter, and each call of the wrapper is judged where it is written.
 */
function isDelegation(context: Context, value: ts.Expression): boolean {
  const { ts, checker } = context;
  const argument = skipOuterExpressions(ts, value);
  if (!ts.isIdentifier(argument)) return false;
  const symbol = checker.getSymbolAtLocation(argument);
  const parameter = symbol?.valueDeclaration;
  if (parameter === undefined || !ts.isParameter(parameter)) return false;
  const wrapper = parameter.parent;
  if (!ts.isArrowFunction(wrapper) && !ts.isFunctionExpression(wrapper)) return false;
  const contextual = checker.getContextualType(wrapper);
  return contextual !== undefined && isMarked(context, contextual);
}

/**
 * `x.tool(…)` whose receiver's type cannot be resolved, in a file with an unresolved import: the
 * registry's types are missing, so whether this registers a tool is unknown. A finding, not a pass.
 * The site is what applies it (`x.tool()(fn)`, `@x.tool()`, or a const holding `x.tool()`, in
 * any module), or the bare `x.tool()` otherwise.
 */
function unresolvedRegistryAt(context: Context, site: ts.CallExpression | ts.Decorator): Registration | undefined {
  const { ts } = context;
  const producer = skipOuterExpressions(ts, site.expression);
  const applies = storedToolCallOf(context, producer, 0);
  let toolCall: ts.CallExpression | undefined;
  let unresolved = applies === undefined ? undefined : unresolvedToolReceiver(context, applies);
  let applied: ts.Node | undefined;
  if (applies !== undefined && unresolved !== undefined) {
    toolCall = applies;
    applied = ts.isDecorator(site) ? site.parent : site.arguments[0];
  } else if (ts.isCallExpression(site) && !isApplied(ts, site)) {
    toolCall = site;
    unresolved = unresolvedToolReceiver(context, site);
  }
  if (toolCall === undefined || unresolved === undefined) return undefined;
  const callee = toolCall.expression as ts.PropertyAccessExpression;
  // Applied through a const: name it, since the unresolved import may be in the module declaring it.
  const through = applied !== undefined && producer !== toolCall ? producer : undefined;
  const served = servedNameOf(context, toolCall);
  const tool = toolNameOf(served, appliedName(context, applied));
  const modules = unresolved.imports.length > 0 ? unresolved.imports : [messages.REGISTRY_MODULE];
  const message = messages.unresolvedRegistry(tool, callee.expression.getText(), modules, through?.getText());
  return {
    site,
    form: ts.isDecorator(site) ? "decorator" : "call",
    tool,
    pinnedName: takesFunctionName(served) ? tool : undefined,
    fn: undefined,
    finding: makeFinding("unverifiable-registration", through ?? callee, site, tool, message),
  };
}

/**
 * The call `x.tool(…)` that `producer` is, or that a const it names holds (followed, like
 * `servedNameOf`, through consts and `export default`, never a `let`); syntax and symbols only,
 * so every unmarked call can afford the question.
 */
function storedToolCallOf(context: Context, producer: ts.Node, hops: number): ts.CallExpression | undefined {
  const { ts } = context;
  const node = skipOuterExpressions(ts, producer);
  if (ts.isCallExpression(node)) {
    return ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "tool" ? node : undefined;
  }
  if (hops > MAX_HOPS || !(ts.isIdentifier(node) || ts.isPropertyAccessExpression(node))) return undefined;
  // Every call the analysis does not recognise asks this. Only a name whose type is unresolved
  // (`any`) can hold `x.tool()` on a registry that does not resolve, and only if some import of
  // the program does not resolve; the symbol comes from the per-file cache.
  if (!hasUnresolvedImports(context)) return undefined;
  const symbol = referencedSymbol(context, node);
  if (symbol === undefined || !hasAnyType(context, symbol)) return undefined;
  const declaration = resolveAlias(context, symbol).valueDeclaration;
  if (declaration === undefined) return undefined;
  if (ts.isVariableDeclaration(declaration)) {
    return isConstDeclaration(ts, declaration) && declaration.initializer !== undefined ? storedToolCallOf(context, declaration.initializer, hops + 1) : undefined;
  }
  return ts.isExportAssignment(declaration) ? storedToolCallOf(context, declaration.expression, hops + 1) : undefined;
}

/**
 * The receiver `x` of a call `x.tool(…)` whose type is unresolved, with the imports to blame: `x`
 * is `any` (or the error type) and an import does not resolve, in this file or in the file that
 * declares `x` (a project module re-exporting a registry whose package is missing).
 */
function unresolvedToolReceiver(context: Context, call: ts.CallExpression): { readonly receiver: ts.Expression; readonly imports: readonly string[] } | undefined {
  const { ts, checker } = context;
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== "tool") return undefined;
  const receiverType = checker.getTypeAtLocation(callee.expression);
  if (!(receiverType.flags & ts.TypeFlags.Any)) return undefined;
  const imports = [...unresolvedImportsOf(context, call.getSourceFile())];
  const symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(callee.expression) ? callee.expression.name : callee.expression);
  const declaringFile = symbol === undefined ? undefined : resolveAlias(context, symbol).valueDeclaration?.getSourceFile();
  if (declaringFile !== undefined && declaringFile !== call.getSourceFile()) {
    for (const name of unresolvedImportsOf(context, declaringFile)) if (!imports.includes(name)) imports.push(name);
  }
  if (imports.length === 0 && !isErrorType(context, receiverType)) return undefined;
  return { receiver: callee.expression, imports };
}

/** Whether the value of `node` is applied: the callee of a call, or a decorator's expression. */
function isApplied(ts: TypeScript, node: ts.Expression): boolean {
  let outer: ts.Node = node;
  while (ts.isParenthesizedExpression(outer.parent) || ts.isNonNullExpression(outer.parent)) outer = outer.parent;
  return (ts.isCallExpression(outer.parent) && outer.parent.expression === outer) || ts.isDecorator(outer.parent);
}

/** The static name of an applied function, for a registration that cannot be judged. */
function appliedName(context: Context, applied: ts.Node | undefined): string | undefined {
  const { ts } = context;
  if (applied === undefined) return undefined;
  const node = skipOuterExpressions(ts, applied);
  if (ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node)) {
    return node.name !== undefined && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  }
  if (ts.isIdentifier(node)) return node.text;
  return undefined;
}

/** A marked value at `node` that flows where the analysis cannot follow it. */
function escapeAt(context: Context, node: ts.Expression, known?: Placement): Finding | undefined {
  const { ts, checker } = context;
  const placement = known ?? placementOf(ts, node);
  if (!needsTypeQuery(placement)) return undefined;
  const type = markedTypeAt(context, node);
  if (type === undefined) {
    const lost = registryEscapeAt(context, node, placement);
    if (lost === undefined) return undefined;
    const message = lost.toAny ? messages.registryCastToAny(lost.type, lost.becomes) : messages.registryTypedAway(lost.type, lost.becomes);
    return makeFinding("unverifiable-registration", node, node, undefined, message);
  }
  // A decorator read without flowing anywhere (`(asTool as T).name`) registers nothing there.
  if (placement.slot.kind === "inert") return undefined;
  // The type a message names is the node's own: `markedTypeAt` may answer with a generic callee's declared return type.
  const printed = (): string => printType(context, checker.getTypeAtLocation(node));
  for (const wrapper of placement.typed) {
    const wrapperType = checker.getTypeAtLocation(wrapper);
    if (!isMarked(context, wrapperType)) {
      return makeFinding("unverifiable-registration", node, node, undefined, messages.typedAway(printed(), printType(context, wrapperType)));
    }
  }
  const { slot } = placement;
  if (slot.kind === "escape") {
    return makeFinding("unverifiable-registration", node, node, undefined, messages.escapes(slot.how, printed()));
  }
  if (slot.kind === "return") {
    const signature = checker.getSignatureFromDeclaration(slot.fn);
    const returned = signature === undefined ? undefined : checker.getReturnTypeOfSignature(signature);
    if (returned === undefined || !isMarked(context, returned)) {
      const how = returned === undefined ? "is returned" : `is returned as '${printType(context, returned)}'`;
      return makeFinding("unverifiable-registration", node, node, undefined, messages.escapes(how, printed()));
    }
    return undefined;
  }
  if (slot.kind === "const" && slot.declaredType !== undefined) {
    const declared = checker.getTypeAtLocation(slot.declaration.name);
    if (!isMarked(context, declared)) {
      return makeFinding("unverifiable-registration", node, node, undefined, messages.typedAway(printed(), printType(context, declared)));
    }
  }
  return undefined;
}
