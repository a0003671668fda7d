import type * as ts from "typescript";
import type { TypeScript } from "../api.js";
import { type Context, isMarked } from "../context.js";
import { propertyKey } from "../served.js";
import { declaredTypeOfCall, typeOfSymbol, unguardedSymbolOf } from "../symbols.js";
import { mentionsTypeParameter, skipParentheses, unionMembers } from "../syntax.js";

/*
 * The options check read from the callee's declaration, once per callee, instead of from each
 * call's contextual type. Asking `getContextualType` of a call's options literal resolves the call
 * (its type arguments inferred from the literal: `registry.tool<I, O>(options?: ToolOptions<I, O>)`),
 * and in a program nobody has checked (the ESLint rule, `sourced check`) that was the largest
 * single cost of the judgement, once per registration: ~0.3–1 ms each, 500 ms of 2.9 s on the
 * mid-size project (docs/performance.md). On TypeScript 7 each is a round trip too.
 *
 * The declaration settles the check whenever it cannot differ from the call's: the options type
 * declared for the first parameter (one object type, no index signature) has the same keys whatever
 * its type arguments, and an option whose declared type mentions no type parameter has, in every
 * instantiation, the very type it is declared with. An option typed by a type parameter of the
 * callee alone (`input?: I`) is inferred from the value written, so the value fits it when it fits
 * the parameter's constraint. This path only ever says "no problem": anything else it meets (an
 * unknown key, a value that does not fit, an option typed otherwise, overloads, explicit type
 * arguments) sends the call to the exact check, which words every problem as before.
 */

/** The options type a callee declares, read once per callee symbol. */
export interface DeclaredOptions {
  /** The callee's declaration (its type parameters are the ones a call infers). */
  readonly declaration: ts.SignatureDeclaration;
  /** The one object type its first parameter declares. */
  readonly member: ts.Type;
  /** Its keys, in the order the exact check lists them. */
  readonly known: readonly string[];
  /** By key: how an option's value is judged from the declaration (`null`: it cannot be). */
  readonly options: Map<string, DeclaredOption | null>;
}

type DeclaredOption =
  /** Declared with a type that no instantiation changes. */
  | { readonly free: true; readonly property: ts.Symbol }
  /**
   * Declared as one of the callee's type parameters (with `undefined`): the value must fit its
   * constraint. `shapeOf`: the value type of the constraint's member that is a string index
   * signature alone (`{ readonly [key: string]: ZodField }`), when it has one.
   */
  | { readonly free: false; readonly property: ts.Symbol; readonly parameter: ts.Type; readonly constraint: ts.Type; readonly shapeOf: ts.Type | undefined };

const declaredOptions = new WeakMap<Context, WeakMap<ts.Symbol, DeclaredOptions | null>>();

/** The options type `call`'s callee declares, when the declaration can stand for the call's contextual type. */
export function declaredOptionsOf(context: Context, call: ts.CallExpression): DeclaredOptions | undefined {
  // Type arguments written at the call are not the declaration's; nor is a second argument judged here.
  if (call.typeArguments !== undefined || call.arguments.length !== 1) return undefined;
  const symbol = unguardedSymbolOf(context, call.expression);
  if (symbol === undefined) return undefined;
  let bySymbol = declaredOptions.get(context);
  if (bySymbol === undefined) declaredOptions.set(context, (bySymbol = new WeakMap()));
  let known = bySymbol.get(symbol);
  if (known === undefined) {
    known = computeDeclaredOptions(context, symbol) ?? null;
    bySymbol.set(symbol, known);
  }
  return known ?? undefined;
}

function computeDeclaredOptions(context: Context, symbol: ts.Symbol): DeclaredOptions | undefined {
  const { ts, checker } = context;
  const declarations = symbol.declarations ?? [];
  const declaration = declarations[0];
  if (declarations.length !== 1 || declaration === undefined) return undefined;
  if (!ts.isMethodSignature(declaration) && !ts.isMethodDeclaration(declaration) && !ts.isFunctionDeclaration(declaration)) return undefined;
  // One signature: the call resolves to this declaration's, instantiated.
  if (typeOfSymbol(context, symbol).getCallSignatures().length !== 1) return undefined;
  const parameter = declaration.parameters[0];
  if (parameter === undefined || parameter.dotDotDotToken !== undefined || parameter.type === undefined) return undefined;
  if (ts.isIdentifier(parameter.name) && parameter.name.text === "this") return undefined;
  const members = unionMembers(ts, checker.getTypeFromTypeNode(parameter.type)).filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
  // One object type: a union's members are ordered anew in each instantiation, and the check lists keys in their order.
  const member = members[0];
  if (members.length !== 1 || member === undefined || !(member.flags & ts.TypeFlags.Object) || (member as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) return undefined;
  if (isMarked(context, member) || checker.getIndexTypeOfType(member, ts.IndexKind.String) !== undefined) return undefined;
  const properties = checker.getPropertiesOfType(member);
  if (properties.length === 0) return undefined;
  return { declaration, member, known: [...new Set(properties.map((property) => property.name))], options: new Map() };
}

/**
 * Whether no argument of `call` can infer a type argument of its callee: it has no argument, or
 * one options literal each of whose properties is an assignment, by name, to an option its
 * declaration types without a type parameter (`description`, `annotations`), so no inference
 * source. Asked with what `declaredOptionsOf` reads once per callee.
 */
export function infersNothing(context: Context, call: ts.CallExpression): boolean {
  const { ts } = context;
  if (call.typeArguments !== undefined) return false;
  if (call.arguments.length === 0) return true;
  const literal = call.arguments[0]!;
  if (!ts.isObjectLiteralExpression(literal)) return false;
  const declared = declaredOptionsOf(context, call);
  if (declared === undefined) return false;
  return literal.properties.every((property) => {
    if (!ts.isPropertyAssignment(property)) return false;
    const key = propertyKey(ts, property.name);
    return key !== undefined && declared.known.includes(key) && declaredOption(context, declared, key)?.free === true;
  });
}

/**
 * Whether the exact check of `literal` (the options of a call of `declared`'s callee) finds no
 * problem, told from the declaration; `false` when it may find one or the declaration cannot tell.
 * `outputNotAnObject` is the exact check's own (it reads the value alone).
 */
export function declaredOptionsFit(
  context: Context,
  declared: DeclaredOptions,
  literal: ts.ObjectLiteralExpression,
  configures: "registry" | "tool",
  outputNotAnObject: (value: ts.Expression) => string | undefined,
): boolean {
  const { ts, checker } = context;
  const inferred = new Set<ts.Type>();
  for (const property of literal.properties) {
    if (ts.isSpreadAssignment(property)) continue;
    const key = propertyKey(ts, property.name);
    if (key === undefined) continue;
    if (!declared.known.includes(key)) return false;
    if (!ts.isPropertyAssignment(property)) continue;
    const value = property.initializer;
    if (key === "output" && configures === "tool" && outputNotAnObject(value) !== undefined) return false;
    // A raw shape written in place (`input: { limit: z.number().int() }`) is judged by its
    // properties' types: the literal's own type is typed in the call's context, which resolves the
    // call (a quarter of the analysis on a project of many tools, docs/performance.md).
    const shape = declaredShapeFit(context, declared, key, value);
    if (shape !== undefined) {
      if (!shape.fits || inferred.has(shape.parameter)) return false;
      inferred.add(shape.parameter);
      continue;
    }
    const option = declaredOption(context, declared, key);
    // An object literal given to an option of a fixed type (`annotations: { readOnlyHint: true }`)
    // is judged by its properties too: its own type, like a raw shape's, is typed in the call's
    // context, which resolves the call.
    if (option !== null && option.free && literalFitsByProperties(context, option.property, value)) continue;
    // A schema made by a call (`input: z.object({ … })`) is judged by what its callee declares it
    // returns: typing the call itself types it in the call's context too.
    if (option !== null && !option.free && !inferred.has(option.parameter) && declaredReturnFits(context, value, option.constraint)) {
      inferred.add(option.parameter);
      continue;
    }
    const given = checker.getTypeAtLocation(value);
    if (given.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) continue;
    if (option === null) return false;
    if (option.free) {
      const takes = checker.getTypeOfSymbolAtLocation(option.property, value);
      if (takes.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeVariable) || relates(context, given, takes)) continue;
      return false;
    }
    // Inferred from this value alone: no other option written here names the same parameter, and
    // the value is typed the same with or without the call's context.
    if (inferred.has(option.parameter) || mayBeContextSensitive(ts, value)) return false;
    inferred.add(option.parameter);
    if (!checker.isTypeAssignableTo(given, option.constraint)) return false;
  }
  return true;
}

/**
 * Whether `value`, an option declared as a type parameter whose constraint takes a string index
 * signature alone, fits it by its properties' types: it fits when every property's type fits the
 * signature's (so the literal fits the constraint, whatever else the constraint allows), and not
 * when one does not (the exact check words it); `undefined` when its properties cannot tell (a
 * literal type, which the literal's own type may widen; a spread, a method, a shorthand, a computed
 * name; a value that is not an object literal, or one the call's context may type otherwise).
 */
function declaredShapeFit(context: Context, declared: DeclaredOptions, key: string, value: ts.Expression): { readonly fits: boolean; readonly parameter: ts.Type } | undefined {
  const { ts, checker } = context;
  if (!ts.isObjectLiteralExpression(value) || value.properties.length === 0) return undefined;
  const option = declaredOption(context, declared, key);
  if (option === null || option.free || option.shapeOf === undefined || mayBeContextSensitive(ts, value)) return undefined;
  const types: ts.Type[] = [];
  for (const property of value.properties) {
    if (!ts.isPropertyAssignment(property) || propertyKey(ts, property.name) === undefined) return undefined;
    // A schema written as a chain (`z.number().int().min(1)`) is typed from its callees' declared
    // signatures, not by resolving every call of it at every registration that writes it.
    const { initializer } = property;
    const type = (ts.isCallExpression(initializer) ? declaredTypeOfCall(context, initializer) : undefined) ?? checker.getTypeAtLocation(initializer);
    if (type.flags & (ts.TypeFlags.Literal | ts.TypeFlags.BooleanLiteral | ts.TypeFlags.EnumLiteral | ts.TypeFlags.Union)) return undefined;
    types.push(type);
  }
  const shapeOf = option.shapeOf;
  return { fits: types.every((type) => checker.isTypeAssignableTo(type, shapeOf)), parameter: option.parameter };
}

/**
 * Whether `value`, given to an option declared with a fixed type (`property`'s), surely fits it,
 * told from its properties' types: the declared type is one object type (with `undefined`, as an
 * optional option is) without signatures or index signatures, and `value` an object literal each
 * of whose properties is an assignment, by name, to one of that type's properties, of a value not
 * typed by its context whose type fits that property's; no property the type requires is missing.
 * The literal's own type then fits too (its properties' types are these, or, for a literal type
 * in a context that takes no literal of its kind, their widened types, which fit whatever takes
 * the literal: that context takes the whole primitive). `false` says only "the properties cannot
 * tell": the literal's own type is asked then, as before. A value whose type holds `undefined` is
 * left to it too (with `exactOptionalPropertyTypes` an optional property does not take it).
 * Each relation is asked once per pair of types (`true` to `boolean | undefined`, once for every
 * `readOnlyHint: true`).
 */
function literalFitsByProperties(context: Context, property: ts.Symbol, value: ts.Expression): boolean {
  const { ts, checker } = context;
  if (!ts.isObjectLiteralExpression(value) || value.properties.length === 0 || mayBeContextSensitive(ts, value)) return false;
  const members = unionMembers(ts, typeOfSymbol(context, property)).filter((member) => !(member.flags & ts.TypeFlags.Undefined));
  const target = members[0];
  if (members.length !== 1 || target === undefined || !(target.flags & ts.TypeFlags.Object)) return false;
  let plain = propertiesOnly.get(target);
  if (plain === undefined) propertiesOnly.set(target, (plain = hasPropertiesOnly(context, target)));
  if (!plain) return false;
  const written = new Set<string>();
  for (const assignment of value.properties) {
    if (!ts.isPropertyAssignment(assignment)) return false;
    const key = propertyKey(ts, assignment.name);
    if (key === undefined || written.has(key)) return false;
    written.add(key);
    const initializer = skipParentheses(ts, assignment.initializer);
    // A nested literal's own type is typed in context too: left to the literal's own type.
    if (ts.isObjectLiteralExpression(initializer) || ts.isArrayLiteralExpression(initializer)) return false;
    const takes = target.getProperty(key);
    if (takes === undefined) return false;
    const given = checker.getTypeAtLocation(initializer);
    if (unionMembers(ts, given).some((member) => member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void))) return false;
    if (!relates(context, given, typeOfSymbol(context, takes))) return false;
  }
  return checker.getPropertiesOfType(target).every((declared) => written.has(declared.name) || (declared.flags & ts.SymbolFlags.Optional) !== 0);
}

/**
 * Whether `value`, a call given to an option declared as a type parameter (`input: z.object({ … })`),
 * surely fits the parameter's constraint whatever the call infers: its callee, a reference no
 * guard narrows, has one signature, whose declared return type, its own type parameters left
 * open (`ZodObject<Writeable<T>, $strip>`), fits the constraint; then so does every instantiation
 * of it, the one this call makes included. `false` says only "the declaration cannot tell": the
 * call's own type is asked then, as before. Asked once per callee and constraint.
 */
function declaredReturnFits(context: Context, value: ts.Expression, constraint: ts.Type): boolean {
  const { ts, checker } = context;
  const call = skipParentheses(ts, value);
  if (!ts.isCallExpression(call) || ts.isOptionalChain(call)) return false;
  const callee = unguardedSymbolOf(context, call.expression);
  if (callee === undefined) return false;
  let byConstraint = declaredReturnFit.get(callee);
  if (byConstraint === undefined) declaredReturnFit.set(callee, (byConstraint = new Map<ts.Type, boolean>()));
  let fits = byConstraint.get(constraint);
  if (fits === undefined) {
    const signatures = typeOfSymbol(context, callee).getCallSignatures();
    const signature = signatures.length === 1 ? signatures[0] : undefined;
    fits = signature !== undefined && relates(context, checker.getReturnTypeOfSignature(signature), constraint);
    byConstraint.set(constraint, fits);
  }
  return fits;
}

/** `declaredReturnFits`' verdicts, by callee and constraint. */
const declaredReturnFit = new WeakMap<ts.Symbol, Map<ts.Type, boolean>>();

/** `hasPropertiesOnly`, once per type (the options type of every `annotations` literal is one). */
const propertiesOnly = new WeakMap<ts.Type, boolean>();

/** Whether `type`, an object type, has properties and nothing else a literal would have to match: no call, construct or index signature. */
function hasPropertiesOnly(context: Context, type: ts.Type): boolean {
  const { ts, checker } = context;
  if (type.getCallSignatures().length > 0) return false;
  if (checker.getIndexTypeOfType(type, ts.IndexKind.String) !== undefined || checker.getIndexTypeOfType(type, ts.IndexKind.Number) !== undefined) return false;
  // Construct signatures (the port has no question for them) are told from the declarations: a
  // type literal or an interface of property and method signatures, without heritage; or a
  // mapped type (zod's inferred objects), which has none.
  if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) return true;
  const declarations = type.getSymbol()?.declarations;
  if (declarations === undefined || declarations.length === 0) return false;
  return declarations.every(
    (declaration) =>
      (declaration.kind === ts.SyntaxKind.TypeLiteral || (ts.isInterfaceDeclaration(declaration) && declaration.heritageClauses === undefined)) &&
      (declaration as ts.TypeLiteralNode | ts.InterfaceDeclaration).members.every((member) => ts.isPropertySignature(member) || ts.isMethodSignature(member)),
  );
}

const relations = new WeakMap<Context, Map<ts.Type, Map<ts.Type, boolean>>>();

/**
 * `checker.isTypeAssignableTo(source, target)`, asked once per pair; a string or number literal
 * (`title: "…"`, each one a type of its own) fits a type that takes every string or number without
 * asking.
 */
function relates(context: Context, source: ts.Type, target: ts.Type): boolean {
  const { TypeFlags } = context.ts;
  for (const [literal, primitive] of [
    [TypeFlags.StringLiteral, TypeFlags.String],
    [TypeFlags.NumberLiteral, TypeFlags.Number],
  ] as const) {
    if (source.flags & literal && !(source.flags & TypeFlags.EnumLiteral) && unionMembers(context.ts, target).some((member) => member.flags & primitive)) return true;
  }
  let bySource = relations.get(context);
  if (bySource === undefined) relations.set(context, (bySource = new Map<ts.Type, Map<ts.Type, boolean>>()));
  let byTarget = bySource.get(source);
  if (byTarget === undefined) bySource.set(source, (byTarget = new Map<ts.Type, boolean>()));
  let fits = byTarget.get(target);
  if (fits === undefined) {
    fits = context.checker.isTypeAssignableTo(source, target);
    byTarget.set(target, fits);
  }
  return fits;
}

function declaredOption(context: Context, declared: DeclaredOptions, key: string): DeclaredOption | null {
  let option = declared.options.get(key);
  if (option === undefined) {
    option = computeDeclaredOption(context, declared, key) ?? null;
    declared.options.set(key, option);
  }
  return option;
}

function computeDeclaredOption(context: Context, declared: DeclaredOptions, key: string): DeclaredOption | undefined {
  const { ts, checker } = context;
  const property = declared.member.getProperty(key);
  const declarations = property?.declarations ?? [];
  const declaration = declarations[0];
  if (property === undefined || declarations.length !== 1 || declaration === undefined) return undefined;
  if (!ts.isPropertySignature(declaration) && !ts.isPropertyDeclaration(declaration)) return undefined;
  if (declaration.type === undefined) return undefined;
  if (!mentionsTypeParameter(ts, declaration.type, typeParameterNamesAround(ts, declaration))) return { free: true, property };
  // `input?: I`: the property's type, as the declared parameter type instantiates it, is one type
  // parameter of the callee's own signature (with `undefined`), constrained by a type that mentions none.
  const takes = checker.getTypeOfSymbol(property);
  const parameters = unionMembers(ts, takes).filter((member) => !(member.flags & ts.TypeFlags.Undefined));
  const parameter = parameters[0];
  if (parameters.length !== 1 || parameter === undefined || !(parameter.flags & ts.TypeFlags.TypeParameter)) return undefined;
  const parameterDeclarations = parameter.getSymbol()?.declarations ?? [];
  const parameterDeclaration = parameterDeclarations[0] as ts.TypeParameterDeclaration | undefined;
  if (parameterDeclarations.length !== 1 || parameterDeclaration?.kind !== ts.SyntaxKind.TypeParameter || parameterDeclaration.parent !== declared.declaration) return undefined;
  const constraintNode = parameterDeclaration.constraint;
  if (constraintNode === undefined || mentionsTypeParameter(ts, constraintNode, typeParameterNamesAround(ts, parameterDeclaration))) return undefined;
  const constraint = checker.getTypeFromTypeNode(constraintNode);
  const shapes = unionMembers(ts, constraint).filter((member) => member.flags & ts.TypeFlags.Object && checker.getPropertiesOfType(member).length === 0);
  const shapeOf = shapes.length === 1 ? checker.getIndexTypeOfType(shapes[0]!, ts.IndexKind.String) : undefined;
  return { free: false, property, parameter, constraint, shapeOf };
}

/** The names of every type parameter in scope at `node`: its enclosing declarations' (a class's `this` aside: see below). */
function typeParameterNamesAround(ts: TypeScript, node: ts.Node): ReadonlySet<string> {
  const names = new Set<string>();
  for (let current: ts.Node | undefined = node; current !== undefined; current = current.parent) {
    for (const parameter of (current as { typeParameters?: readonly ts.TypeParameterDeclaration[] }).typeParameters ?? []) {
      if (ts.isIdentifier(parameter.name)) names.add(parameter.name.text);
    }
  }
  return names;
}

/**
 * Whether `value` may be typed by its context (a function, or a literal holding one): its type
 * as an inference source may then differ from its type once the call is resolved.
 */
function mayBeContextSensitive(ts: TypeScript, value: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(value)) return mayBeContextSensitive(ts, value.expression);
  if (ts.isArrowFunction(value) || ts.isFunctionExpression(value) || ts.isConditionalExpression(value) || ts.isBinaryExpression(value)) return true;
  if (ts.isArrayLiteralExpression(value)) return value.elements.some((element) => mayBeContextSensitive(ts, element));
  if (ts.isObjectLiteralExpression(value)) {
    return value.properties.some((property) =>
      ts.isPropertyAssignment(property) ? mayBeContextSensitive(ts, property.initializer) : !ts.isShorthandPropertyAssignment(property),
    );
  }
  return ts.isSpreadElement(value);
}
