import { closestMatch } from "@sourced/contract-rules";
import type * as ts from "typescript";
import type { Finding } from "../api.js";
import { type Context, isMarked, type LiteralOptions, printType } from "../context.js";
import { literalCallOf, markedTypeAt } from "../marked.js";
import { quoteTool } from "../messages.js";
import { isRegistryType } from "../registry-escape.js";
import { appliedName, propertyKey, servedNameOf, toolNameOf } from "../served.js";
import { typeOfSymbol } from "../symbols.js";
import { unionMembers } from "../syntax.js";
import { declaredOptionsFit, declaredOptionsOf } from "./declared-options.js";
import { defineKind, findingOf, NO_FINDINGS, type SiteFamily } from "./family.js";

/*
 * `invalid-option`: the options object written as a literal in a call that makes a registry (`createRegistry({…})`)
 * or a tool decorator (`registry.tool({…})`): a key its parameter's type does not have (a
 * misspelling: `requireVerifed`, `descripton`), or a value its type does not take. A type check
 * reports both; ESLint, `sourced check` and a bundler run none, and the registry would refuse the
 * options only when the server starts. The known keys come from the parameter's own type, so a
 * new option of the registry (or of a platform's wrapper) is known here without a word.
 */

/** `invalid-option`: its code, title, help and severity, as every front-end prints them. */
export const INVALID_OPTION = defineKind({
  id: "invalid-option",
  code: 92004,
  title: "Unknown option, or an option of the wrong type",
  help: "The options object written in `createRegistry({…})` or `registry.tool({…})` has a key its type does not know (a misspelling, such as `requireVerifed`) or a value of the wrong type. The registry refuses such options when the server starts; write the key and the value its type takes.",
  severity: "error",
});

/** The `invalid-option` findings of a call's literal options, under the tool's name when it registers one. */
export const invalidOption = {
  name: "invalid-option",
  declares: [INVALID_OPTION],
  kinds: ["invalid-option"],
  phase: "site",
  at: "call",
  detect(context, node): readonly Finding[] {
    const call = node as ts.CallExpression;
    const checked = optionProblemsAt(context, call);
    if (checked === undefined || checked.problems.length === 0) return NO_FINDINGS;
    const { ts } = context;
    let tool: string | undefined;
    if (checked.configures === "tool") {
      let outer: ts.Node = call;
      while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
      const applied = ts.isCallExpression(outer.parent) && outer.parent.expression === outer ? outer.parent.arguments[0] : ts.isDecorator(outer.parent) ? outer.parent.parent : undefined;
      tool = toolNameOf(servedNameOf(context, call), appliedName(context, applied));
    }
    return checked.problems.map((problem) => findingOf(INVALID_OPTION, problem.node, call, tool, problem.message(tool)));
  },
} satisfies SiteFamily;

/** One problem of an options literal: the node to underline and the message, which quotes the tool when it is known. */
export interface OptionProblem {
  readonly node: ts.Node;
  readonly message: (tool: string | undefined) => string;
}

/** What the options of a call configure: a registry, or the tools a decorator registers. */
export type OptionsOf = "registry" | "tool";

/** The problems of `call`'s literal options, and what they configure; `undefined` when there is nothing to check. */
export function optionProblemsAt(context: Context, call: ts.CallExpression): { readonly configures: OptionsOf; readonly problems: readonly OptionProblem[] } | undefined {
  const { ts } = context;
  let literal: ts.Node | undefined = call.arguments[0];
  while (literal !== undefined && ts.isParenthesizedExpression(literal)) literal = literal.expression;
  // Only a literal written here: a cast or a variable opts out of the excess-property check in TypeScript too.
  if (literal === undefined || !ts.isObjectLiteralExpression(literal) || literal.properties.length === 0) return undefined;
  // The same callee, receiver and literal options as a call already checked: the same problems,
  // at the same places of this literal, without asking the checker for the options' type again.
  const shared = literalCallOf(context, call);
  const callee = calleeText(call);
  const known = shared?.options.get(callee);
  if (known !== undefined) {
    if (known === null) return undefined;
    const properties = literal.properties;
    return {
      configures: known.configures,
      problems: known.problems.map(({ property, part, message }) => ({ node: (properties[property] as ts.PropertyAssignment)[part], message })),
    };
  }
  const checked = checkOptions(context, call, literal, callee);
  if (shared !== undefined) {
    const remembered: LiteralOptions | null =
      checked === undefined
        ? null
        : {
            configures: checked.configures,
            problems: checked.problems.map(({ node, message }) => {
              // Every property of a literal call's options is `key: literal` (see `literalCallOf`).
              const property = literal.properties.findIndex((candidate) => candidate === node.parent);
              const part = (literal.properties[property] as ts.PropertyAssignment).name === node ? "name" : "initializer";
              return { property, part, message } as const;
            }),
          };
    shared.options.set(callee, remembered);
  }
  return checked;
}

function checkOptions(
  context: Context,
  call: ts.CallExpression,
  literal: ts.ObjectLiteralExpression,
  callee: string,
): { readonly configures: OptionsOf; readonly problems: readonly OptionProblem[] } | undefined {
  const { ts, checker } = context;
  const configures = optionsOf(context, call);
  if (configures === undefined) return undefined;
  // Told from the callee's declaration when it can be (declared-options.ts): the contextual type
  // below resolves the call, the largest cost of the check on a program nobody has checked.
  const declared = declaredOptionsOf(context, call);
  if (declared !== undefined && declaredOptionsFit(context, declared, literal, configures, (value) => outputNotAnObject(context, value))) return { configures, problems: [] };
  const expected = checker.getContextualType(literal);
  const members = expected === undefined ? [] : unionMembers(ts, expected).filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
  if (members.length === 0 || !members.every((member) => isClosedObject(context, member))) return undefined;
  const known = [...new Set(members.flatMap((member) => checker.getPropertiesOfType(member).map((property) => property.name)))];
  const problems: OptionProblem[] = [];
  for (const property of literal.properties) {
    if (ts.isSpreadAssignment(property)) continue;
    const key = propertyKey(ts, property.name);
    if (key === undefined) continue; // a computed key: TypeScript does not know it either
    if (!known.includes(key)) {
      const nearest = closestMatch(key, known);
      problems.push({ node: property.name ?? property, message: (tool) => unknownOptionMessage(callee, tool, key, nearest, known) });
      continue;
    }
    if (!ts.isPropertyAssignment(property)) continue;
    if (key === "output" && configures === "tool") {
      const described = outputNotAnObject(context, property.initializer);
      if (described !== undefined) {
        problems.push({ node: property.initializer, message: (tool) => outputNotAnObjectMessage(callee, tool, described) });
        continue;
      }
    }
    const wrong = wrongValue(context, members, key, property.initializer);
    if (wrong !== undefined) problems.push({ node: property.initializer, message: (tool) => wrongOptionValueMessage(callee, tool, key, wrong.takes, wrong.given) });
  }
  return { configures, problems };
}

/** Whether `call` makes a tool decorator (it returns a marked value) or a registry (its `tool` returns one). */
function optionsOf(context: Context, call: ts.CallExpression): OptionsOf | undefined {
  if (markedTypeAt(context, call) !== undefined) return "tool";
  const { checker } = context;
  // Only a callee some of whose declared signatures may return a registry is resolved.
  const symbol = checker.getSymbolAtLocation(call.expression);
  if (symbol !== undefined && typeof (checker as { getTypeOfSymbol?: unknown }).getTypeOfSymbol === "function") {
    const signatures = unionMembers(context.ts, typeOfSymbol(context, symbol)).flatMap((member) => member.getCallSignatures());
    if (!signatures.some((signature) => mayBeRegistry(context, checker.getReturnTypeOfSignature(signature)))) return undefined;
  }
  const signature = checker.getResolvedSignature(call);
  return signature !== undefined && isRegistryType(context, checker.getReturnTypeOfSignature(signature)) ? "registry" : undefined;
}

function mayBeRegistry(context: Context, type: ts.Type): boolean {
  const { ts } = context;
  return (type.flags & (ts.TypeFlags.TypeVariable | ts.TypeFlags.Conditional)) !== 0 || isRegistryType(context, type);
}

/** An object type whose keys are all known: no index signature, not `object`, `any` or a type parameter. */
function isClosedObject(context: Context, type: ts.Type): boolean {
  const { ts, checker } = context;
  if (!(type.flags & ts.TypeFlags.Object) || isMarked(context, type)) return false;
  return checker.getIndexTypeOfType(type, ts.IndexKind.String) === undefined && checker.getPropertiesOfType(type).length > 0;
}

/** The type `key` takes and the value's, when the value is not assignable to it; `undefined` when it is or cannot be told. */
function wrongValue(context: Context, members: readonly ts.Type[], key: string, value: ts.Expression): { takes: string; given: string } | undefined {
  const { ts, checker } = context;
  const given = checker.getTypeAtLocation(value);
  if (given.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  for (const member of members) {
    const property = member.getProperty(key);
    if (property === undefined) continue;
    const takes = checker.getTypeOfSymbolAtLocation(property, value);
    // A generic option (the input schema) is checked by the call's own inference, not here.
    if (takes.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeVariable) || checker.isTypeAssignableTo(given, takes)) return undefined;
    return { takes: printType(context, checker.getNonNullableType(takes)), given: printType(context, given) };
  }
  return undefined;
}

/**
 * What a tool's `output` schema describes when it is no object (`"array"`), read from the type of
 * what it takes (its Standard Schema input type, as `OutputKeys` reads it); `undefined` for an
 * object, a raw shape, or a schema whose type does not say.
 */
function outputNotAnObject(context: Context, value: ts.Expression): string | undefined {
  const { ts, checker } = context;
  // A raw shape (`{ entities: z.array(Entity) }`) is an object by construction.
  if (ts.isObjectLiteralExpression(value)) return undefined;
  const standard = checker.getTypeAtLocation(value).getProperty("~standard");
  const types = standard === undefined ? undefined : checker.getTypeOfSymbolAtLocation(standard, value).getProperty("types");
  const typesType = types === undefined ? undefined : checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(types, value));
  const input = typesType?.getProperty("input");
  if (input === undefined) return undefined;
  const takes = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(input, value));
  if (takes.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  const isArray = (member: ts.Type): boolean => checker.getIndexTypeOfType(member, ts.IndexKind.Number) !== undefined && checker.getIndexTypeOfType(member, ts.IndexKind.String) === undefined;
  const members = unionMembers(ts, takes);
  // Primitives first: a string has a number index too (`text[0]`).
  const primitive = (flag: ts.TypeFlags): boolean => members.every((member) => (member.flags & flag) !== 0);
  if (primitive(ts.TypeFlags.StringLike)) return "string";
  if (primitive(ts.TypeFlags.NumberLike)) return "number";
  if (primitive(ts.TypeFlags.BooleanLike)) return "boolean";
  if (members.every((member) => (member.flags & ts.TypeFlags.Object) !== 0 && isArray(member))) return "array";
  return undefined;
}

/** How messages name the call: `createRegistry()`, `registry.tool()`; a long callee is "this call". */
function calleeText(call: ts.CallExpression): string {
  const text = call.expression.getText().replace(/\s+/gu, "");
  return text.length <= 40 ? `${text}()` : "this call";
}

/** "a, b and c", each quoted. */
function quotedList(words: readonly string[]): string {
  const quoted = words.map((word) => `'${word}'`);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)!}`;
}

/** A key the options' type does not have: a misspelling, most often. */
export function unknownOptionMessage(callee: string, tool: string | undefined, key: string, nearest: string | undefined, known: readonly string[]): string {
  const guess = nearest === undefined ? "." : `: did you mean '${nearest}'?`;
  const whose = tool === undefined ? callee : `${callee} for ${quoteTool(tool)}`;
  return `${whose} has no option '${key.length > 80 ? `${key.slice(0, 80)}…` : key}'${guess} It takes ${quotedList(known)}; the registry refuses any other key when the server starts.`;
}

/** A value the option's type does not take. */
export function wrongOptionValueMessage(callee: string, tool: string | undefined, key: string, takes: string, given: string): string {
  const whose = tool === undefined ? callee : `${callee} for ${quoteTool(tool)}`;
  return `Option '${key}' of ${whose} takes '${takes}', not '${given}'; the registry refuses it when the server starts.`;
}

/**
 * An `output` whose schema describes no object (an array, as the MCP quickstart's `outputSchema:
 * z.array(…)`): the registry refuses it in these words when the server starts, since the keys it
 * declares sit in structuredContent beside `sources`.
 */
export function outputNotAnObjectMessage(callee: string, tool: string | undefined, described: string): string {
  const whose = tool === undefined ? callee : `${callee} for ${quoteTool(tool)}`;
  return `Option 'output' of ${whose}: output describes ${JSON.stringify(described)}, not an object: it declares the keys structuredContent carries beside sources. Wrap it: z.object({ entities: … }). The registry refuses it when the server starts.`;
}
