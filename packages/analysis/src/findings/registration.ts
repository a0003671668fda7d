import type * as ts from "typescript";
import type { AnnotationFix, Registration, TypeScript } from "../api.js";
import { type Context, contractFor, hasUnresolvedImports, isErrorType, isMarked, markOf, resolveAlias, unresolvedImportsOf } from "../context.js";
import { judgeRegistered } from "../judge.js";
import { exactMarkedType, fixedCalleeOf, markedTypeAt } from "../marked.js";
import { capitalize, quoteTool, REGISTER_INSTEAD_SENTENCE, REGISTRY_MODULE, unverifiable } from "../messages.js";
import { nameNodeOf } from "../names.js";
import { outputKeysTypeOf } from "../output-keys.js";
import { appliedName, servedNameOf, takesFunctionName, toolNameOf } from "../served.js";
import { hasAnyType, referencedSymbol, typeOfSymbol, unguardedSymbolOf } from "../symbols.js";
import { isConstDeclaration, MAX_HOPS, skipOuterExpressions } from "../syntax.js";
import { infersNothing } from "./declared-options.js";
import { defineKind, findingOf, type Judgement, NO_FINDINGS, type RegistrationFamily } from "./family.js";

/** `missing-annotation`: no return type written (an inferred type does not count). */
export const MISSING_ANNOTATION = defineKind({
  id: "missing-annotation",
  code: 92001,
  title: "Registered tool has no return type annotation",
  help: "A registered tool must declare its return type explicitly (`: DataToolOutput` or `: Promise<DataToolOutput>`); an inferred type does not count.",
  severity: "error",
});

/** `not-data-tool-output`: a declared return type that is not DataToolOutput. */
export const NOT_DATA_TOOL_OUTPUT = defineKind({
  id: "not-data-tool-output",
  code: 92002,
  title: "Registered tool does not return DataToolOutput",
  help: "A registered tool's declared return type must be DataToolOutput, a Promise of it, or a type assignable to it; never any, unknown, never or a generator.",
  severity: "error",
});

/** `unverifiable-registration`: a registration whose function, or whose registry, the analysis cannot see. */
export const UNVERIFIABLE_REGISTRATION = defineKind({
  id: "unverifiable-registration",
  code: 92003,
  title: "Registration cannot be verified",
  help: "The analysis cannot see which function is registered here (the decorator or the registry escapes, the value is computed or can be reassigned, or the registry's types cannot be resolved). Apply `registry.tool()` directly to a declared function.",
  severity: "error",
});

/** The registration's kinds by id: a verdict of judge.ts names its kind by id. */
const REGISTRATION_KINDS = {
  "missing-annotation": MISSING_ANNOTATION,
  "not-data-tool-output": NOT_DATA_TOOL_OUTPUT,
  "unverifiable-registration": UNVERIFIABLE_REGISTRATION,
} as const;

/**
 * What a call `value(…)` or a decorator `@value` registers, and the verdict on it:
 * `missing-annotation`, `not-data-tool-output`, or `unverifiable-registration` (the registered
 * function cannot be seen, or the registry's types do not resolve). The registered value is
 * judged by judge.ts and its pipeline (target.ts, fit.ts, fix.ts), whose words are messages.ts's.
 */
export const registration = {
  name: "registration",
  declares: [MISSING_ANNOTATION, NOT_DATA_TOOL_OUTPUT, UNVERIFIABLE_REGISTRATION],
  kinds: ["missing-annotation", "not-data-tool-output", "unverifiable-registration"],
  phase: "registration",
  judge: judgementOf,
} satisfies RegistrationFamily;

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
    finding?: { readonly id: keyof typeof REGISTRATION_KINDS; readonly node: ts.Node; readonly message: string; readonly fix?: AnnotationFix },
  ): Registration => ({
    site,
    form,
    tool,
    pinnedName: takesFunctionName(served) ? tool : undefined,
    fn,
    finding: finding === undefined ? undefined : findingOf(REGISTRATION_KINDS[finding.id], finding.node, site, tool, finding.message, finding.fix),
  });
  const unverifiableAt = (node: ts.Node, why: string, instead: string): Judgement => {
    const tool = toolName(undefined);
    return { registration: done(tool, undefined, { id: "unverifiable-registration", node, message: unverifiable(tool, why, instead) }), startup: NO_FINDINGS };
  };

  if (value === undefined) return unverifiableAt(site, WHY_APPLIED_TO_NOTHING, REGISTER_INSTEAD_SENTENCE);
  if (ts.isSpreadElement(value)) return unverifiableAt(value, WHY_SPREAD, REGISTER_INSTEAD_SENTENCE);
  if (ts.isDecorator(site) && !ts.isMethodDeclaration(value)) return unverifiableAt(site, WHY_NOT_ON_METHOD, DECORATE_INSTEAD);
  const contract = contractFor(context, mark);
  if (contract === undefined) {
    const file = (mark.valueDeclaration ?? mark.declarations?.[0])?.getSourceFile().fileName ?? "the registry";
    return unverifiableAt(site, noContractNextToMark(file), IMPORT_REGISTRATION_INSTEAD);
  }
  // Asked only to word a missing annotation's fix: a tool with `output` is told its keys.
  const outputKeys = (): ts.Type | undefined => {
    const decorator = decoratorTypeOf(context, producer, producerType);
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
    startup: NO_FINDINGS,
    contract,
    producer,
    nameNode,
    registered: {
      site,
      value,
      served,
      tool,
      nameNode,
      implementation: verdict.implementation,
      contract,
      decoratorType: () => decoratorTypeOf(context, producer, producerType),
      mark,
      verified: verdict.id === undefined,
    },
  };
}

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
  const modules = unresolved.imports.length > 0 ? unresolved.imports : [REGISTRY_MODULE];
  const message = unresolvedRegistryMessage(tool, callee.expression.getText(), modules, through?.getText());
  return {
    site,
    form: ts.isDecorator(site) ? "decorator" : "call",
    tool,
    pinnedName: takesFunctionName(served) ? tool : undefined,
    fn: undefined,
    finding: findingOf(UNVERIFIABLE_REGISTRATION, through ?? callee, site, tool, message),
  };
}

/**
 * The exact type of a registration's decorator (`exactMarkedType`), shared by every call of one
 * callee on one receiver that infers nothing from its arguments (`registry.tool()`,
 * `registry.tool({ description: "…" })`) and is itself called or is a decorator: its type
 * arguments are then what its declaration gives when nothing is inferred, the same at each such
 * call (and the callee's type is the same at each, `fixedCalleeOf`), so its type is one. A
 * decorator has a contextual type, the method it decorates, but the one thing asked of this type
 * is the keys the registration's `output` declares, and those come from its options, never from
 * the method (the net reads `output`; fixtures/cases/183-decorator-output-keys.ts).
 * Why: each call resolved anew (its return type is conditional on its options) cost about a
 * millisecond a registration on a program nobody has checked, asked by every missing annotation's
 * fix and every declared return type's output keys; a decorator's, a sixth of the rule's time in
 * an editor, whose checker is warm (docs/performance.md, round 13).
 */
function decoratorTypeOf(context: Context, producer: ts.Node, producerType: ts.Type): ts.Type | undefined {
  const { ts } = context;
  if (
    ts.isCallExpression(producer) &&
    ((ts.isCallExpression(producer.parent) && producer.parent.expression === producer) || ts.isDecorator(producer.parent)) &&
    !(producer.flags & (ts.NodeFlags.OptionalChain | ts.NodeFlags.JavaScriptFile)) &&
    infersNothing(context, producer)
  ) {
    const fixed = fixedCalleeOf(context, producer);
    if (fixed !== undefined) {
      let byReceiver = context.sharedDecorators.get(fixed.callee);
      if (byReceiver === undefined) context.sharedDecorators.set(fixed.callee, (byReceiver = new Map<ts.Type | null, ts.Type | null>()));
      let shared = byReceiver.get(fixed.receiver);
      if (shared === undefined) byReceiver.set(fixed.receiver, (shared = exactMarkedType(context, producer, producerType) ?? null));
      return shared ?? undefined;
    }
  }
  return exactMarkedType(context, producer, producerType);
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
  // A receiver with no guard on it whose declared type is neither `any` nor `unknown` is not
  // `any` here either: no narrowing makes a type `any`. Its declared type is asked once per name
  // and file; its type at this place would be one more question per call.
  const receiverSymbol = unguardedSymbolOf(context, callee.expression);
  if (receiverSymbol !== undefined && !(typeOfSymbol(context, receiverSymbol).flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))) return undefined;
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

export const DECORATE_INSTEAD = "Put @registry.tool() on a static method declared ': DataToolOutput'.";

export const IMPORT_REGISTRATION_INSTEAD = "Import the registration function from @sourced/registry, or mark platform wrappers with its RegistersTool type";

// Why a registration cannot be verified (the `why` of `unverifiable`).
export const WHY_APPLIED_TO_NOTHING = "the decorator is applied to nothing";
export const WHY_SPREAD = "the registered function is spread from an array";
export const WHY_NOT_ON_METHOD = "the decorator is not on a method";

export function noContractNextToMark(file: string): string {
  return `the registry's DataToolOutput type cannot be found next to its registration mark (${file})`;
}

export function unresolvedRegistryMessage(tool: string | undefined, receiver: string, modules: readonly string[], through?: string): string {
  const missing = modules.map((name) => `'${name}'`).join(", ");
  const held = through === undefined ? "" : `'${through}' holds '${receiver}.tool(…)', and `;
  const importer = through === undefined ? "this file" : `the module that declares '${through}'`;
  return (
    `${capitalize(quoteTool(tool))} cannot be verified: ${held}the type of '${receiver}' cannot be resolved ` +
    `(TypeScript cannot find ${missing}, imported by ${importer} or by the module '${receiver}' comes from), so it is unknown whether '${receiver}.tool' registers a tool. ` +
    `Install @sourced/registry (and the packages named above) and check the import paths.`
  );
}
