import type * as ts from "typescript";
import type { Registration, TypeScript } from "./api.js";

/**
 * The edit plan: what a build does to the emitted code of each registration, decided here once.
 * The ts-patch transformer renders it as nodes (`createNodeRenderer`),
 * the bundler plugin as text (`writeTextEdits`); both renderings are written side by side below
 * so they cannot drift apart.
 *
 * - a verified call `dec(fn, …)` becomes `dec(Object.defineProperties(fn, { name, [stamp] }), …)`:
 *   the tool's static name is stated in the code, so a bundler that renames the function
 *   (esbuild's `population2`) or a minifier that drops its name cannot change what is served.
 *   Only where the registry takes the name from the function (`Registration.pinnedName`): a name
 *   in the options is in the code already, and pinning it would rename the user's function;
 * - a verified decorator `@dec` becomes `@((d => (m, ...r) => d(Object.defineProperties(m, { [stamp] }), ...r))(dec))`
 *   (a static method keeps its name: property names survive bundling and minifying);
 * - a rejected registration is removed with `strip` (`dec(fn)` becomes `(fn)`, `@dec` disappears),
 *   else kept unstamped, its name still pinned.
 */
export interface EditPlanOptions {
  /** Remove rejected registrations (the function stays, unregistered). */
  readonly strip: boolean;
  /** The verified stamp written on verified registrations; none when `undefined`. */
  readonly stamp: VerifiedStamp | undefined;
}

/** The stamp: a property keyed `Symbol.for(key)` whose value names the verifier. */
export interface VerifiedStamp {
  /** The registry's `VERIFIED_STAMP_KEY`. */
  readonly key: string;
  /** E.g. `@sourced/transformer@0.1.0`. */
  readonly value: string;
}

/** What is defined on a registered function: its name (the tool's), and the stamp. */
export interface FunctionProperties {
  readonly name: string | undefined;
  readonly stamp: VerifiedStamp | undefined;
}

export type RegistrationEdit =
  /** `dec(fn, …)` → `(fn)`: the registration and its other arguments gone, the function kept. */
  | { readonly kind: "unwrap-call"; readonly registration: Registration; readonly site: ts.CallExpression; readonly fn: ts.Expression }
  /** `@dec` removed. */
  | { readonly kind: "remove-decorator"; readonly registration: Registration; readonly site: ts.Decorator }
  /** `dec(fn, …)` → `dec(Object.defineProperties(fn, {…}), …)`. */
  | {
      readonly kind: "define-on-function";
      readonly registration: Registration;
      readonly site: ts.CallExpression;
      readonly fn: ts.Expression;
      readonly properties: FunctionProperties;
    }
  /** `@dec` → `@((d => (m, ...r) => d(Object.defineProperties(m, {…}), ...r))(dec))`. */
  | { readonly kind: "wrap-decorator"; readonly registration: Registration; readonly site: ts.Decorator; readonly properties: FunctionProperties };

/** The edits of one file's registrations, in their order (depth-first, outer before inner). */
export function planEdits(typescript: TypeScript, registrations: readonly Registration[], options: EditPlanOptions): RegistrationEdit[] {
  const edits: RegistrationEdit[] = [];
  for (const registration of registrations) {
    const edit = editOf(typescript, registration, options);
    if (edit !== undefined) edits.push(edit);
  }
  return edits;
}

function editOf(typescript: TypeScript, registration: Registration, options: EditPlanOptions): RegistrationEdit | undefined {
  const rejected = registration.finding !== undefined;
  const { site } = registration;
  if (typescript.isDecorator(site)) {
    if (rejected) return options.strip ? { kind: "remove-decorator", registration, site } : undefined;
    return options.stamp === undefined ? undefined : { kind: "wrap-decorator", registration, site, properties: { name: undefined, stamp: options.stamp } };
  }
  const fn = site.arguments[0];
  if (fn === undefined || typescript.isSpreadElement(fn)) return undefined;
  if (rejected && options.strip) return { kind: "unwrap-call", registration, site, fn };
  const properties: FunctionProperties = { name: registration.pinnedName, stamp: rejected ? undefined : options.stamp };
  if (properties.name === undefined && properties.stamp === undefined) return undefined;
  return { kind: "define-on-function", registration, site, fn, properties };
}

// --- Rendered as nodes (the transformer) ----------------------------------------------------

/** Renders edits as nodes; made per emitted file (`createNodeRenderer`). */
export interface NodeRenderer {
  /** `Object.defineProperties(fn, { name: { value: "…" }, [Symbol.for(key)]: { value: "…" } })`. */
  functionPropertiesCall(fn: ts.Expression, properties: FunctionProperties): ts.Expression;
  /** `(d => (m, ...r) => d(Object.defineProperties(m, {…}), ...r))(decorator)`, parenthesized for `@`. */
  stampingDecorator(decorator: ts.Expression, properties: FunctionProperties): ts.Expression;
}

/**
 * A renderer for the edits of one emitted file. What every registration of the file writes
 * alike (the `Object.defineProperties` callee, the stamp's member, a decorator's whole wrapper)
 * is built once and the same synthesized node is written at each edit: only what differs per
 * registration (its function, its pinned name, the calls) is built per registration. The new
 * nodes are what a build retains of the transformer until the file is printed, and most of what
 * it allocates (docs/performance.md, "Strip and stamp"). The shared nodes have no position, comments or source-map range, so
 * writing one at several places prints the same text as distinct copies would; they are not
 * shared across files, whose emit (and whatever later transformers note on a node) is separate.
 */
export function createNodeRenderer(typescript: TypeScript, factory: ts.NodeFactory): NodeRenderer {
  // One slot each, not a map: a build writes one stamp, and decorators pin no name, so every edit
  // of a file asks for the same parts; a different one replaces the slot (still correct, built anew).
  let definePropertiesCallee: ts.Expression | undefined;
  let nameIdentifier: ts.Identifier | undefined;
  let valueIdentifier: ts.Identifier | undefined;
  let stampMemberOf: { readonly stamp: VerifiedStamp; readonly member: ts.ObjectLiteralElementLike } | undefined;
  let wrapperOf: { readonly properties: FunctionProperties; readonly wrapper: ts.Expression } | undefined;

  const sameStamp = (a: VerifiedStamp | undefined, b: VerifiedStamp | undefined) => a === b || (a?.key === b?.key && a?.value === b?.value);
  const descriptor = (value: string) =>
    factory.createObjectLiteralExpression([factory.createPropertyAssignment((valueIdentifier ??= factory.createIdentifier("value")), factory.createStringLiteral(value))]);
  /** `[Symbol.for(key)]: { value: "…" }`; `Symbol.for` gives the registry's own symbol in every realm: the emitted code imports nothing. */
  const stampMember = (stamp: VerifiedStamp): ts.ObjectLiteralElementLike => {
    if (stampMemberOf === undefined || !sameStamp(stampMemberOf.stamp, stamp)) {
      const key = factory.createCallExpression(factory.createPropertyAccessExpression(factory.createIdentifier("Symbol"), "for"), undefined, [
        factory.createStringLiteral(stamp.key),
      ]);
      stampMemberOf = { stamp, member: factory.createPropertyAssignment(factory.createComputedPropertyName(key), descriptor(stamp.value)) };
    }
    return stampMemberOf.member;
  };

  const functionPropertiesCall = (fn: ts.Expression, properties: FunctionProperties): ts.Expression => {
    const members: ts.ObjectLiteralElementLike[] = [];
    if (properties.name !== undefined) members.push(factory.createPropertyAssignment((nameIdentifier ??= factory.createIdentifier("name")), descriptor(properties.name)));
    if (properties.stamp !== undefined) members.push(stampMember(properties.stamp));
    definePropertiesCallee ??= factory.createPropertyAccessExpression(factory.createIdentifier("Object"), "defineProperties");
    return factory.createCallExpression(definePropertiesCallee, undefined, [fn, factory.createObjectLiteralExpression(members)]);
  };

  /** `(d => (m, ...r) => d(Object.defineProperties(m, {…}), ...r))`: it depends on the properties alone. */
  const decoratorWrapper = (properties: FunctionProperties): ts.Expression => {
    if (wrapperOf === undefined || wrapperOf.properties.name !== properties.name || !sameStamp(wrapperOf.properties.stamp, properties.stamp)) {
      const parameter = (name: string, rest = false) =>
        factory.createParameterDeclaration(undefined, rest ? factory.createToken(typescript.SyntaxKind.DotDotDotToken) : undefined, name);
      const wrapper = factory.createParenthesizedExpression(
        factory.createArrowFunction(
          undefined,
          undefined,
          [parameter("d")],
          undefined,
          undefined,
          factory.createArrowFunction(
            undefined,
            undefined,
            [parameter("m"), parameter("r", true)],
            undefined,
            undefined,
            factory.createCallExpression(factory.createIdentifier("d"), undefined, [
              functionPropertiesCall(factory.createIdentifier("m"), properties),
              factory.createSpreadElement(factory.createIdentifier("r")),
            ]),
          ),
        ),
      );
      wrapperOf = { properties, wrapper };
    }
    return wrapperOf.wrapper;
  };

  return {
    functionPropertiesCall,
    stampingDecorator: (decorator, properties) =>
      factory.createParenthesizedExpression(factory.createCallExpression(decoratorWrapper(properties), undefined, [decorator])),
  };
}

// --- Rendered as text (the bundler plugin) --------------------------------------------------

/** The subset of `magic-string` the text rendering writes through, so positions map back to the source. */
export interface TextSink {
  /** Replaces `[start, end)` of the original text. */
  overwrite(start: number, end: number, content: string): unknown;
  /** Inserts at `index`, after what earlier calls inserted there (closing text). */
  appendLeft(index: number, content: string): unknown;
  /** Inserts at `index`, before the original text there, after earlier such calls (opening text). */
  appendRight(index: number, content: string): unknown;
  /** Removes `[start, end)` of the original text. */
  remove(start: number, end: number): unknown;
}

/**
 * A string literal as TypeScript's printer writes it: JSON's escapes, and each non-ASCII UTF-16
 * unit as `\uXXXX`. A tool may be named `météo`: the plugin's text and the transformer's nodes
 * stay the same code, and the emitted file is ASCII whatever charset a loader assumes.
 */
function stringLiteral(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
}

function propertiesText(properties: FunctionProperties): string {
  const members: string[] = [];
  if (properties.name !== undefined) members.push(`name: { value: ${stringLiteral(properties.name)} }`);
  if (properties.stamp !== undefined) {
    members.push(`[Symbol.for(${stringLiteral(properties.stamp.key)})]: { value: ${stringLiteral(properties.stamp.value)} }`);
  }
  return `{ ${members.join(", ")} }`;
}

/**
 * Writes the plan into `sink` over the text of `sourceFile` (the text the analysis read: a caller
 * must check that the code it edits is that text). Openings are written outer first, closings
 * inner first, so nested registrations nest in the output as in the source.
 */
export function writeTextEdits(edits: readonly RegistrationEdit[], sourceFile: ts.SourceFile, sink: TextSink): void {
  const closings: Array<() => void> = [];
  for (const edit of edits) {
    switch (edit.kind) {
      case "unwrap-call": {
        // Parenthesized: `dec(function f() {})` as a statement must not become a declaration.
        const start = edit.site.getStart(sourceFile);
        const fnStart = edit.fn.getStart(sourceFile);
        sink.overwrite(start, fnStart, "(");
        closings.push(() => sink.overwrite(edit.fn.end, edit.site.end, ")"));
        break;
      }
      case "remove-decorator":
        sink.remove(edit.site.getStart(sourceFile), edit.site.end);
        break;
      case "define-on-function": {
        sink.appendRight(edit.fn.getStart(sourceFile), "Object.defineProperties(");
        const text = `, ${propertiesText(edit.properties)})`;
        closings.push(() => sink.appendLeft(edit.fn.end, text));
        break;
      }
      case "wrap-decorator": {
        const expression = edit.site.expression;
        sink.appendRight(expression.getStart(sourceFile), `((d => (m, ...r) => d(Object.defineProperties(m, ${propertiesText(edit.properties)}), ...r))(`);
        closings.push(() => sink.appendLeft(expression.end, "))"));
        break;
      }
    }
  }
  // Closings at the same position: the inner registration's first (planned later, written first).
  for (const close of closings.reverse()) close();
}
