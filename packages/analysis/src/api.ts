import type * as ts from "typescript";
import type { SyntaxPort } from "./ports.js";

/**
 * The public surface of the one judgement. Front-ends (transformer, ESLint rule, CLI) use only
 * this; none of them judges anything on its own. `ts` always comes from the caller: this package
 * never loads its own copy of `typescript`. Classic `typeof ts` is a `TypeScript`; so is the
 * syntax port of TypeScript 7's native API (see ports.ts).
 */
export type TypeScript = SyntaxPort;

/** Stable finding ids. Each is documented in docs/analysis.md. */
export type FindingId =
  | "missing-annotation"
  | "not-data-tool-output"
  | "unverifiable-registration"
  | "invalid-option"
  | "internal-error"
  | "unnamed-tool"
  | "duplicate-tool-name"
  | "invalid-tool-name"
  | "invalid-source"
  | "strict-null-checks-off"
  | "undeclared-output-key";

/**
 * Per finding id: the numeric diagnostic code shared by the transformer (TSnnnnn) and the CLI
 * (SRCnnnnn), a title, help text, and its severity: an `error` is a tool that is refused, never
 * served or never answers; a `warning` is a weaker guarantee (a front-end reports it as a warning
 * whatever its own severity setting).
 */
export interface FindingKind {
  readonly id: FindingId;
  readonly code: number;
  readonly title: string;
  readonly help: string;
  readonly severity: "error" | "warning";
}

/** For `missing-annotation`: what to insert so a front-end can offer a fix without computing it. */
export interface AnnotationFix {
  /** Whether the inferred return type already fits DataToolOutput (only then is a fix offered). */
  readonly inferredFits: boolean;
  /**
   * The annotation's type alone: `DataToolOutput` or `Promise<DataToolOutput>`; for a tool whose
   * `output` declares keys, `DataResult<{ … }>`; `| ErrorResult` beside it when the function
   * returns an error result too.
   */
  readonly typeText: string;
  /**
   * Every insertion the fix needs, in ascending order. In TypeScript, `: T` after the parameter
   * list's `)` (an arrow whose lone parameter has no parentheses, `x => …`, also needs `(` before
   * it). In JavaScript (`jsdoc`), `@returns {T}` in the function's JSDoc: a line added to the
   * JSDoc it has, or a new JSDoc comment before it.
   */
  readonly edits: readonly { readonly position: number; readonly text: string }[];
  /** The function is in a JavaScript file: the annotation and the import are JSDoc. */
  readonly jsdoc: boolean;
  /** Whether every name of the annotation (`DataToolOutput`, …) already resolves, at the function, to the registry's type. */
  readonly typeInScope: boolean;
  /** The first name to import when not every name of the annotation is in scope (see `importNames`). */
  readonly importName: string;
  /**
   * The names the annotation uses that are not in scope at the function, to import together:
   * `DataToolOutput`; `DataResult` for a tool whose `output` declares keys; `ErrorResult` beside
   * either when the function also returns an error result.
   */
  readonly importNames: readonly string[];
  /** The module to import it from. */
  readonly module: "@sourced/registry";
  /**
   * The import to add when the name is not in scope: `import type { DataToolOutput } from "@sourced/registry";`,
   * or in JavaScript `/** @import { DataToolOutput } from "@sourced/registry" *\/`.
   */
  readonly importStatement: string;
  /**
   * Whether the import can be added to the file and then names the registry's type at the
   * function: false when the file's top level already declares or imports that name (the import
   * would clash with it), or when a declaration of it in a scope around the function (a namespace,
   * a type parameter) would shadow the import there; in JavaScript, when any `DataToolOutput` is
   * in scope there. A front-end offers the import only when `typeInScope` is false and this is true.
   */
  readonly importable: boolean;
}

export interface Finding {
  readonly id: FindingId;
  readonly code: number;
  /** The tool's name when it is known statically. */
  readonly tool: string | undefined;
  /** Quotes the tool (`tool 'list_cities'`), says what is wrong and what to write instead. */
  readonly message: string;
  readonly sourceFile: ts.SourceFile;
  /** The node to underline: the annotation when there is one, else the function's name or head. */
  readonly node: ts.Node;
  /** `node.getStart(sourceFile)` and its end: what every front-end reports. */
  readonly start: number;
  readonly end: number;
  /** The registration (call or decorator), or the escape site, the finding belongs to. */
  readonly site: ts.Node;
  readonly fix?: AnnotationFix;
  /**
   * Set only on the findings of the escapes family (an `unverifiable-registration` at a value, no
   * registration's own): what escaped the analysis there. `"decorator"`: a tool decorator (a
   * marked value) flows where the analysis cannot follow it (an argument, a `let`, a value typed
   * away), so the function it registers is never seen. `"registry"`: a registry's type is lost
   * (cast to `any`, or to a type whose `tool` is not marked), so every registration made through
   * it from there on is never judged. A front-end that blames a registration it cannot see on an
   * escape words it by this, and tells escapes from every other finding by it.
   */
  readonly escaped?: "registry" | "decorator";
}

export interface Registration {
  /** The call `decorator(fn)` or the decorator `@registry.tool()`. */
  readonly site: ts.CallExpression | ts.Decorator;
  readonly form: "call" | "decorator";
  readonly tool: string | undefined;
  /**
   * The name a build pins on the function (so bundling or minifying cannot change what is
   * served): the tool's name where the registry takes it from the function, `undefined` where the
   * options name the tool. The options then carry the name in the code; pinning it would rename
   * the user's function (one function registered under two names).
   */
  readonly pinnedName: string | undefined;
  /** The registered function's node when it is visible statically. */
  readonly fn: ts.Node | undefined;
  /** `undefined` when the registration is verified. */
  readonly finding: Finding | undefined;
}

/**
 * An import of the registry (`@sourced/registry` or a subpath of it) that does not resolve: every
 * registration made through it is invisible to the type checker. The analysis reports what it can
 * still see (`x.tool(…)` on an unresolved value, as `unverifiable-registration`); a front-end whose
 * build does not report the import itself (tsc does, as TS2307) reports it from this.
 */
export interface UnresolvedRegistryImport {
  readonly sourceFile: ts.SourceFile;
  /** The module name as written, e.g. `@sourced/registry`. */
  readonly specifier: string;
  /** The module specifier's string literal, to underline. */
  readonly node: ts.StringLiteral;
  /** `node.getStart(sourceFile)` and its end. */
  readonly start: number;
  readonly end: number;
}

export interface AnalysisResult {
  readonly registrations: readonly Registration[];
  /** Every finding: those of registrations plus those of escaped decorator values, in source order. */
  readonly findings: readonly Finding[];
  /** The registry imports that do not resolve, in source order. */
  readonly unresolvedRegistryImports: readonly UnresolvedRegistryImport[];
}
