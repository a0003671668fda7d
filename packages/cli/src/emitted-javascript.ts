import * as acorn from "acorn";
import type * as ts from "typescript";
import type { AnalysedFile } from "@sourced/project";

/*
 * The JavaScript tsc emitted, read for `sourced build` (build.ts): where tsc's output holds the
 * calls, decorator helpers' lists and decorators the edit plan reaches. Apart from the build and
 * its edits because it is the part that knows acorn and the shapes tsc writes (decorators listed in
 * its helpers up to ES2022, kept as written above it, a decorator's type arguments dropped): what
 * changes when a TypeScript release emits otherwise, read without the build around it.
 */

export interface EmittedNode {
  readonly start: number;
  readonly end: number;
}

export interface NodeIndex {
  /** Calls by the offset their first argument starts at. */
  readonly callsByFirstArgument: Map<number, acorn.CallExpression>;
  /** Elements of array literals (TypeScript's decorator helpers list decorators in one) by offset. */
  readonly arrayElements: Map<number, { readonly array: acorn.ArrayExpression; readonly element: acorn.Expression }>;
  /** Decorators tsc kept as they are (a target above ES2022): by the offset of their `@`. */
  readonly native: ReadonlyMap<number, NativeDecorator>;
}

/** A decorator in the emitted JavaScript, written as in the source: `@` to its end, and its expression. */
export interface NativeDecorator {
  readonly start: number;
  readonly end: number;
  readonly expression: EmittedNode;
}

/**
 * The source's decorators that tsc emitted as decorators (target ESNext keeps them): each found
 * where the source map puts its `@`. Most are the source's own text there (the expression is plain
 * JavaScript); one holding TypeScript (`@registry.tool<Options>()`) tsc writes without it, and is
 * read from the emitted text by the decorator's grammar.
 */
export function nativeDecorators(analysed: AnalysedFile, body: string, generated: (node: ts.Node) => number | undefined): Map<number, NativeDecorator> {
  const { ts: syntax, sourceFile } = analysed;
  const found = new Map<number, NativeDecorator>();
  const visit = (node: ts.Node): void => {
    if (syntax.isDecorator(node)) {
      const start = node.getStart(sourceFile);
      const text = sourceFile.text.slice(start, node.end);
      const at = generated(node);
      if (at !== undefined && body.startsWith(text, at)) {
        const expressionStart = at + (node.expression.getStart(sourceFile) - start);
        found.set(at, { start: at, end: at + text.length, expression: { start: expressionStart, end: at + (node.expression.end - start) } });
      } else if (at !== undefined && body[at] === "@") {
        const expression = emittedDecoratorExpression(body, at + 1);
        if (expression !== undefined) found.set(at, { start: at, end: expression.end, expression });
      }
    }
    syntax.forEachChild(node, visit);
  };
  if (sourceFile.text.includes("@")) visit(sourceFile);
  return found;
}

/**
 * The expression of the decorator whose `@` ends at `from`, by the grammar of a decorator: a
 * parenthesized expression, or a dotted name (private names too) with one optional argument
 * list. Read with acorn's tokenizer, which knows strings, templates and regular expressions;
 * `undefined` when the text there is no decorator.
 */
function emittedDecoratorExpression(body: string, from: number): EmittedNode | undefined {
  const tokens: acorn.Token[] = [];
  try {
    for (const token of acorn.tokenizer(body.slice(from), { ecmaVersion: "latest" })) {
      tokens.push(token);
      if (tokens.length > 10_000) return undefined;
      // Enough to end the decorator: what follows it is the decorated member's own tokens.
      if (tokens.length > 1 && balancedEnd(tokens) !== undefined) break;
    }
  } catch {
    return undefined;
  }
  const end = balancedEnd(tokens);
  return end === undefined ? undefined : { start: from + tokens[0]!.start, end: from + end };
}

/** Where the decorator expression of `tokens` ends, once they hold all of it. */
function balancedEnd(tokens: readonly acorn.Token[]): number | undefined {
  const label = (index: number): string | undefined => tokens[index]?.type.label;
  const group = (index: number): number | undefined => {
    let depth = 0;
    for (let at = index; at < tokens.length; at++) {
      const kind = label(at)!;
      if (kind === "(" || kind === "[" || kind === "{" || kind === "${") depth++;
      else if (kind === ")" || kind === "]" || kind === "}") depth--;
      if (depth === 0) return at;
    }
    return undefined;
  };
  if (label(0) === "(") {
    const close = group(0);
    return close === undefined ? undefined : tokens[close]!.end;
  }
  if (label(0) !== "name" && label(0) !== "privateId") return undefined;
  let last = 0;
  while (label(last + 1) === "." && (label(last + 2) === "name" || label(last + 2) === "privateId")) last += 2;
  // The token after the name decides: an argument list, or the member (so the whole name is read).
  if (tokens.length <= last + 2) return undefined;
  if (label(last + 1) !== "(") return tokens[last]!.end;
  const close = group(last + 1);
  return close === undefined ? undefined : tokens[close]!.end;
}

export function indexNodes(program: acorn.Program): Omit<NodeIndex, "native"> {
  const callsByFirstArgument = new Map<number, acorn.CallExpression>();
  const arrayElements = new Map<number, { array: acorn.ArrayExpression; element: acorn.Expression }>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const typed = node as acorn.Node;
    if (typed.type === "CallExpression") {
      const first = (typed as acorn.CallExpression).arguments[0];
      if (first !== undefined && first.type !== "SpreadElement" && !callsByFirstArgument.has(first.start)) callsByFirstArgument.set(first.start, typed as acorn.CallExpression);
    } else if (typed.type === "ArrayExpression") {
      for (const element of (typed as acorn.ArrayExpression).elements) {
        if (element !== null && element.type !== "SpreadElement") arrayElements.set(element.start, { array: typed as acorn.ArrayExpression, element });
      }
    }
    for (const [key, value] of Object.entries(typed)) if (key !== "type" && key !== "start" && key !== "end" && typeof value === "object") visit(value);
  };
  visit(program);
  return { callsByFirstArgument, arrayElements };
}

export function parse(code: string): acorn.Program {
  const options = { ecmaVersion: "latest", preserveParens: true, allowHashBang: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true } as const;
  try {
    return acorn.parse(code, { ...options, sourceType: "script" });
  } catch {
    return acorn.parse(code, { ...options, sourceType: "module" });
  }
}
