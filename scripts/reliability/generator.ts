import fc from "fast-check";

/*
 * A generator of small TypeScript programs that register MCP tools, each with the verdict the
 * analysis must reach known by construction. fast-check draws a specification (plain data); a
 * renderer turns it into source text, recording for every registration the finding expected
 * (id, tool, line of the underlined node) and, for a verified one, the name it must be served
 * under once the transformer has stamped it.
 *
 * The forms and type shapes are those of the shared corpus (fixtures/cases), combined freely:
 * call form, TC39 decorators on static methods, stored and aliased decorator values, renamed and
 * namespace imports, re-export chains, destructuring, registries passed as parameters or made by a
 * factory, platform wrappers marked `RegistersTool`, decorator values kept in another module,
 * escaped decorator values, look-alikes, type aliases, subtypes, unions, promises, generics,
 * overloads, generators, and registries whose package does not resolve; and what the registry
 * refuses at start-up or the net on every call (an anonymous tool, a name taken twice or one the
 * MCP rule forbids, a source literal no rule accepts).
 *
 * Over 400 lines on purpose (test tooling): a form is a specification type, its arbitrary and its
 * rendering with the finding it earns, written and changed together; the three sections below
 * (specifications, rendering, the shared helper modules) stay in one file so that adding a form is
 * one change in one place, as a finding family is in the analysis.
 */

export type Verdict = "ok" | "missing-annotation" | "not-data-tool-output" | "unverifiable-registration";

/** What is found beside a verdict: what the registry refuses at start-up, or the net on every call. */
export type StartupFinding = "unnamed-tool" | "duplicate-tool-name" | "invalid-tool-name" | "invalid-source";

export type ExpectedId = Exclude<Verdict, "ok"> | StartupFinding;

/** What a front-end must report for one registration or escape. */
export interface ExpectedFinding {
  /** Program file, relative to the project directory (`p0001.ts`). */
  readonly file: string;
  readonly id: ExpectedId;
  /** `undefined` when the tool's name is not known statically. */
  readonly tool: string | undefined;
  /** 1-based line of the underlined node. */
  readonly line: number;
}

export interface GeneratedProgram {
  readonly index: number;
  /** `pNNNN`: the main file is `<id>.ts`, its companion (when it has one) `<id>_lib.ts`. */
  readonly id: string;
  readonly files: ReadonlyArray<{ readonly name: string; readonly text: string }>;
  readonly findings: readonly ExpectedFinding[];
  /** Verified registrations, by the name the registry serves them under, once the build stamped them. */
  readonly served: readonly string[];
  /** How many registrations (call or decorator) the program makes, verified or not. */
  readonly registrations: number;
  /** Set when loading the emitted main module must fail, with a message containing this text. */
  readonly loadError: string | undefined;
}

// ---------------------------------------------------------------------------------------------
// Specifications: what fast-check draws.

interface Import {
  readonly from: string;
  readonly names: readonly string[];
  readonly typeOnly?: boolean;
}

/** A return type, the value a function of it returns, and the verdict it earns. */
interface Shape {
  readonly key: string;
  /** The annotation; `undefined`: none (missing-annotation). */
  readonly annotation: string | undefined;
  readonly async: boolean;
  readonly generator?: boolean;
  /** The returned expression; `undefined`: the body throws. */
  readonly value: string | undefined;
  readonly verdict: Exclude<Verdict, "unverifiable-registration">;
  readonly imports?: readonly Import[];
  /** Declarations the shape needs in the same file. */
  readonly locals?: readonly string[];
}

const SHAPES_TYPES = "./lib/shapes.js";
const OUTPUT_TYPES = "./lib/output.js";

const SHAPES: readonly Shape[] = [
  // Accepted, synchronous.
  { key: "plain", annotation: "DataToolOutput", async: false, value: "sample()", verdict: "ok" },
  {
    key: "local-alias",
    annotation: "LocalResult",
    async: false,
    value: "sample()",
    verdict: "ok",
    locals: ["type LocalResult = DataToolOutput;"],
  },
  { key: "imported-alias", annotation: "ToolResult", async: false, value: "sample()", verdict: "ok", imports: [{ from: OUTPUT_TYPES, names: ["ToolResult"], typeOnly: true }] },
  { key: "renamed-reexport", annotation: "RenamedOutput", async: false, value: "sample()", verdict: "ok", imports: [{ from: OUTPUT_TYPES, names: ["RenamedOutput"], typeOnly: true }] },
  { key: "chain-alias", annotation: "Output", async: false, value: "sample()", verdict: "ok", imports: [{ from: "./lib/chain.js", names: ["Output"], typeOnly: true }] },
  { key: "interface", annotation: "CityOutput", async: false, value: "{ ...sample(), isError: false }", verdict: "ok", imports: [{ from: SHAPES_TYPES, names: ["CityOutput"], typeOnly: true }] },
  {
    key: "intersection",
    annotation: "DataToolOutput & { structuredContent: { force: string } }",
    async: false,
    value: '{ ...sample(), structuredContent: { sources: ["https://example.org/force"], force: "shown as is" } }',
    verdict: "ok",
  },
  {
    key: "structural",
    annotation: '{ content: { type: "text"; text: string }[]; structuredContent: { sources: string[] } }',
    async: false,
    value: '{ content: [{ type: "text", text: "Tokyo" }], structuredContent: { sources: ["https://example.org/structural"] } }',
    verdict: "ok",
  },
  { key: "union-accepted", annotation: "Found | NotFound", async: false, value: "{ ...sample(), isError: true }", verdict: "ok", imports: [{ from: SHAPES_TYPES, names: ["Found", "NotFound"], typeOnly: true }] },
  { key: "maybe-promise", annotation: "DataToolOutput | Promise<DataToolOutput>", async: false, value: "sample()", verdict: "ok" },
  { key: "promise-sync", annotation: "Promise<DataToolOutput>", async: false, value: "Promise.resolve(sample())", verdict: "ok" },
  { key: "promise-like", annotation: "PromiseLike<DataToolOutput>", async: false, value: "Promise.resolve(sample())", verdict: "ok" },
  // Accepted, async.
  { key: "async-promise", annotation: "Promise<DataToolOutput>", async: true, value: "sample()", verdict: "ok" },
  { key: "async-alias", annotation: "AsyncToolResult", async: true, value: "sample()", verdict: "ok", imports: [{ from: OUTPUT_TYPES, names: ["AsyncToolResult"], typeOnly: true }] },
  { key: "async-promise-alias", annotation: "Promise<ToolResult>", async: true, value: "sample()", verdict: "ok", imports: [{ from: OUTPUT_TYPES, names: ["ToolResult"], typeOnly: true }] },
  // Rejected.
  { key: "string", annotation: "string", async: false, value: '"no sources"', verdict: "not-data-tool-output" },
  { key: "number", annotation: "number", async: false, value: "42", verdict: "not-data-tool-output" },
  { key: "any", annotation: "any", async: false, value: "sample()", verdict: "not-data-tool-output" },
  { key: "unknown", annotation: "unknown", async: false, value: "sample()", verdict: "not-data-tool-output" },
  { key: "never", annotation: "never", async: false, value: undefined, verdict: "not-data-tool-output" },
  { key: "void", annotation: "void", async: false, value: "undefined", verdict: "not-data-tool-output" },
  { key: "object", annotation: "object", async: false, value: "{}", verdict: "not-data-tool-output" },
  { key: "union-string", annotation: "DataToolOutput | string", async: false, value: "sample()", verdict: "not-data-tool-output" },
  { key: "union-undefined", annotation: "DataToolOutput | undefined", async: false, value: "sample()", verdict: "not-data-tool-output" },
  { key: "no-structured", annotation: "PlainResult", async: false, value: '{ content: [{ type: "text", text: "Tokyo" }] }', verdict: "not-data-tool-output", imports: [{ from: SHAPES_TYPES, names: ["PlainResult"], typeOnly: true }] },
  {
    key: "no-sources",
    annotation: "NoSources",
    async: false,
    value: '{ content: [{ type: "text", text: "Tokyo" }], structuredContent: { table: [["City"], ["Tokyo"]] } }',
    verdict: "not-data-tool-output",
    imports: [{ from: SHAPES_TYPES, names: ["NoSources"], typeOnly: true }],
  },
  { key: "async-string", annotation: "Promise<string>", async: true, value: '"no sources"', verdict: "not-data-tool-output" },
  { key: "async-any", annotation: "Promise<any>", async: true, value: "sample()", verdict: "not-data-tool-output" },
  { key: "async-void", annotation: "Promise<void>", async: true, value: "undefined", verdict: "not-data-tool-output" },
  { key: "generator", annotation: "Generator<DataToolOutput>", async: false, generator: true, value: "sample()", verdict: "not-data-tool-output" },
  { key: "generator-untyped", annotation: undefined, async: false, generator: true, value: "sample()", verdict: "not-data-tool-output" },
  // No annotation: the inferred type does not count, whether it fits or not.
  { key: "missing-fits", annotation: undefined, async: false, value: "sample()", verdict: "missing-annotation" },
  { key: "missing-text", annotation: undefined, async: false, value: '"no sources"', verdict: "missing-annotation" },
  { key: "missing-async", annotation: undefined, async: true, value: "sample()", verdict: "missing-annotation" },
];

/** How the registered function is written. */
type FnForm =
  | "function-expression"
  | "anonymous-function"
  | "arrow"
  | "declaration"
  | "const-arrow"
  | "imported"
  | "imported-renamed"
  | "static-method-ref"
  | "object-method-ref"
  | "binding-type"
  | "let-untyped"
  | "generic-accepted"
  | "generic-rejected"
  | "overloads"
  | "computed"
  | "const-function-expression"
  | "default-imported"
  | "lone-param-arrow"
  | "binding-looser"
  | "as-const-object-arrow"
  | "mutable-object-arrow"
  | "loop-variable";

/** How the decorator value is obtained for a call-form registration. */
type Via =
  | "direct"
  | "stored"
  | "stored-alias"
  | "stored-typed"
  | "renamed-import"
  | "namespace"
  | "chain"
  | "destructured"
  | "parameter"
  | "factory"
  | "optional"
  | "returned"
  | "platform"
  | "platform-named"
  | "companion-const"
  | "conditional-both"
  | "conditional-named"
  | "asserted"
  | "parenthesized";

/** The decorator of a decorated static method. */
type DecoratorVia = "direct" | "parenthesized" | "stored" | "chain" | "renamed-import" | "companion-const";

/** The options passed to `registry.tool(…)`. */
type OptionsForm =
  | "none"
  | "empty"
  | "name"
  | "description"
  | "name-and-description"
  | "const"
  | "computed-name"
  | "unicode-description"
  | "name-const-string"
  | "name-after-spread"
  | "name-in-spread"
  | "name-enum"
  | "name-conditional-same"
  | "name-conditional-different";

/** The options forms that give a name (static or not): a platform wrapper's options take none. */
const NAMING_OPTIONS: ReadonlySet<OptionsForm> = new Set<OptionsForm>([
  "name",
  "name-and-description",
  "const",
  "computed-name",
  "name-const-string",
  "name-after-spread",
  "name-in-spread",
  "name-enum",
  "name-conditional-same",
  "name-conditional-different",
]);

type EscapeForm =
  | "argument"
  | "array"
  | "spread"
  | "object-property"
  | "let"
  | "assignment"
  | "class-field"
  | "bind"
  | "call"
  | "reflect-apply"
  | "cast"
  | "typed-const-without-mark"
  | "conditional-mixed"
  | "throw"
  | "template-tag"
  | "returned-unmarked"
  | "registry-to-plugin"
  | "registry-or-double"
  | "registry-as-any";

type LookalikeForm = "library" | "local-object" | "any-typed" | "local-function" | "registry-logged" | "registry-described";

type NoiseForm = "blank" | "line-comment" | "block-comment" | "string" | "jsdoc";

interface RegisterSpec {
  readonly kind: "register";
  readonly via: Via;
  readonly fn: FnForm;
  readonly shape: Shape;
  readonly options: OptionsForm;
  readonly split: boolean;
  readonly exported: boolean;
  readonly base: string;
  /** For overloads: which overload (0-based, of 2 or 3) is rejected, if any. */
  readonly rejectedOverload: number | undefined;
  /** Wrapped in `(…) satisfies ToolFunction`, or the callee followed by `!`: the same registration. */
  readonly wrapper: "none" | "satisfies" | "non-null";
  /** Where the registration statement runs. */
  readonly scope: "module" | "function" | "block" | "static-block";
}

interface DecorateSpec {
  readonly kind: "decorate";
  readonly via: DecoratorVia;
  readonly shape: Shape;
  readonly options: OptionsForm;
  readonly sameLine: boolean;
  readonly instance: boolean;
  readonly overloads: boolean;
  readonly base: string;
  /** `name()`, `"name"()`, `["name"]()` or `#name()`: the registry names the tool after what the decorator sees. */
  readonly methodName: "identifier" | "string-literal" | "computed" | "private";
  readonly classExpression: boolean;
}

/** Two registrations on one line: same line, different columns. */
interface PairSpec {
  readonly kind: "pair";
  readonly first: Shape;
  readonly second: Shape;
  readonly base: string;
}

interface EscapeSpec {
  readonly kind: "escape";
  readonly form: EscapeForm;
}

interface LookalikeSpec {
  readonly kind: "lookalike";
  readonly form: LookalikeForm;
  readonly base: string;
}

interface NoiseSpec {
  readonly kind: "noise";
  readonly form: NoiseForm;
}

/** A registration in a checked JavaScript module, where JSDoc is the declared type. */
interface CheckedJsSpec {
  readonly kind: "checked-js";
  readonly form:
    | "returns-ok"
    | "returns-async-ok"
    | "returns-string"
    | "type-ok"
    | "type-loose"
    | "no-jsdoc"
    | "described-no-returns"
    | "overloads-ok"
    | "overload-rejected"
    | "const-object-ok";
  readonly base: string;
}

/**
 * What the registry refuses at start-up (an anonymous tool, a name taken twice, a name the MCP rule
 * forbids: the main module then fails to load), or the net on every call (a source literal).
 */
interface StartupSpec {
  readonly kind: "startup";
  readonly form: "unnamed" | "duplicate" | "invalid-name" | "invalid-source";
  readonly base: string;
}

type UnitSpec = RegisterSpec | DecorateSpec | PairSpec | EscapeSpec | LookalikeSpec | NoiseSpec | CheckedJsSpec | StartupSpec;

/** How the files are laid out: line endings, a byte order mark, tabs. None of it may move a finding. */
interface Layout {
  readonly crlf: boolean;
  readonly bom: boolean;
  readonly tabs: boolean;
}

interface UnresolvedSpec {
  readonly kind: "unresolved";
  readonly throughModule: boolean;
  readonly units: ReadonlyArray<{ readonly decorator: boolean; readonly options: "none" | "name"; readonly kept: boolean; readonly base: string }>;
}

interface ResolvedSpec {
  readonly kind: "resolved";
  readonly units: readonly UnitSpec[];
  readonly layout: Layout;
}

export type ProgramSpec = ResolvedSpec | UnresolvedSpec;

const BASES = ["list_cities", "population", "forecast", "lookup", "weather", "cities", "humidity", "rates"] as const;

const shapeArb = fc.constantFrom(...SHAPES);
const baseArb = fc.constantFrom(...BASES);
const optionsArb = fc.constantFrom<OptionsForm>(
  "none",
  "none",
  "empty",
  "name",
  "description",
  "name-and-description",
  "const",
  "computed-name",
  "unicode-description",
  "name-const-string",
  "name-after-spread",
  "name-in-spread",
  "name-enum",
  "name-conditional-same",
  "name-conditional-different",
);

const registerArb: fc.Arbitrary<RegisterSpec> = fc.record({
  kind: fc.constant("register" as const),
  via: fc.constantFrom<Via>(
    "direct",
    "direct",
    "stored",
    "stored-alias",
    "stored-typed",
    "renamed-import",
    "namespace",
    "chain",
    "destructured",
    "parameter",
    "factory",
    "optional",
    "returned",
    "platform",
    "platform-named",
    "companion-const",
    "conditional-both",
    "conditional-named",
    "asserted",
    "parenthesized",
  ),
  fn: fc.constantFrom<FnForm>(
    "function-expression",
    "function-expression",
    "anonymous-function",
    "arrow",
    "arrow",
    "declaration",
    "const-arrow",
    "imported",
    "imported-renamed",
    "static-method-ref",
    "object-method-ref",
    "binding-type",
    "let-untyped",
    "generic-accepted",
    "generic-rejected",
    "overloads",
    "computed",
    "const-function-expression",
    "default-imported",
    "lone-param-arrow",
    "binding-looser",
    "as-const-object-arrow",
    "mutable-object-arrow",
    "loop-variable",
  ),
  shape: shapeArb,
  options: optionsArb,
  split: fc.boolean(),
  exported: fc.boolean(),
  base: baseArb,
  rejectedOverload: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  wrapper: fc.constantFrom<RegisterSpec["wrapper"]>("none", "none", "none", "satisfies", "non-null"),
  scope: fc.constantFrom<RegisterSpec["scope"]>("module", "module", "module", "function", "block", "static-block"),
});

const decorateArb: fc.Arbitrary<DecorateSpec> = fc.record({
  kind: fc.constant("decorate" as const),
  via: fc.constantFrom<DecoratorVia>("direct", "direct", "parenthesized", "stored", "chain", "renamed-import", "companion-const"),
  shape: shapeArb,
  options: optionsArb,
  sameLine: fc.boolean(),
  instance: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  overloads: fc.boolean(),
  base: baseArb,
  methodName: fc.constantFrom<DecorateSpec["methodName"]>("identifier", "identifier", "identifier", "string-literal", "computed", "private"),
  classExpression: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
});

const pairArb: fc.Arbitrary<PairSpec> = fc.record({
  kind: fc.constant("pair" as const),
  first: shapeArb.filter((shape) => !shape.generator),
  second: shapeArb.filter((shape) => !shape.generator),
  base: baseArb,
});

const escapeArb: fc.Arbitrary<EscapeSpec> = fc.record({
  kind: fc.constant("escape" as const),
  form: fc.constantFrom<EscapeForm>(
    "argument",
    "array",
    "spread",
    "object-property",
    "let",
    "assignment",
    "class-field",
    "bind",
    "call",
    "reflect-apply",
    "cast",
    "typed-const-without-mark",
    "conditional-mixed",
    "throw",
    "template-tag",
    "returned-unmarked",
    "registry-to-plugin",
    "registry-or-double",
    "registry-as-any",
  ),
});

const lookalikeArb: fc.Arbitrary<LookalikeSpec> = fc.record({
  kind: fc.constant("lookalike" as const),
  form: fc.constantFrom<LookalikeForm>("library", "local-object", "any-typed", "local-function", "registry-logged", "registry-described"),
  base: baseArb,
});

const noiseArb: fc.Arbitrary<NoiseSpec> = fc.record({
  kind: fc.constant("noise" as const),
  form: fc.constantFrom<NoiseForm>("blank", "line-comment", "block-comment", "string", "jsdoc"),
});

const checkedJsArb: fc.Arbitrary<CheckedJsSpec> = fc.record({
  kind: fc.constant("checked-js" as const),
  form: fc.constantFrom<CheckedJsSpec["form"]>(
    "returns-ok",
    "returns-async-ok",
    "returns-string",
    "type-ok",
    "type-loose",
    "no-jsdoc",
    "described-no-returns",
    "overloads-ok",
    "overload-rejected",
    "const-object-ok",
  ),
  base: baseArb,
});

const startupArb: fc.Arbitrary<StartupSpec> = fc.record({
  kind: fc.constant("startup" as const),
  form: fc.constantFrom<StartupSpec["form"]>("unnamed", "duplicate", "invalid-name", "invalid-source", "invalid-source"),
  base: baseArb,
});

const unitArb: fc.Arbitrary<UnitSpec> = fc.oneof(
  { weight: 10, arbitrary: registerArb },
  { weight: 4, arbitrary: decorateArb },
  { weight: 1, arbitrary: pairArb },
  { weight: 2, arbitrary: escapeArb },
  { weight: 1, arbitrary: lookalikeArb },
  { weight: 2, arbitrary: noiseArb },
  { weight: 1, arbitrary: checkedJsArb },
  { weight: 1, arbitrary: startupArb },
);

const unresolvedArb: fc.Arbitrary<UnresolvedSpec> = fc.record({
  kind: fc.constant("unresolved" as const),
  throughModule: fc.boolean(),
  units: fc.array(
    fc.record({ decorator: fc.boolean(), options: fc.constantFrom<"none" | "name">("none", "name"), kept: fc.integer({ min: 0, max: 3 }).map((n) => n === 0), base: baseArb }),
    { minLength: 1, maxLength: 3 },
  ),
});

/** One program: mostly registrations on a resolving registry, now and then one whose registry package does not resolve. */
export const programSpecArb: fc.Arbitrary<ProgramSpec> = fc.oneof(
  {
    weight: 19,
    arbitrary: fc.record({
      kind: fc.constant("resolved" as const),
      units: fc.array(unitArb, { minLength: 1, maxLength: 7 }),
      layout: fc.record({ crlf: fc.integer({ min: 0, max: 4 }).map((n) => n === 0), bom: fc.integer({ min: 0, max: 9 }).map((n) => n === 0), tabs: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) }),
    }),
  },
  { weight: 1, arbitrary: unresolvedArb },
);

/** `count` programs drawn from `seed`, rendered with indexes starting at `firstIndex`. */
export function samplePrograms(seed: number, count: number, firstIndex = 0): GeneratedProgram[] {
  const specs = fc.sample(programSpecArb, { seed, numRuns: count });
  return specs.map((spec, offset) => renderProgram(spec, firstIndex + offset));
}

// ---------------------------------------------------------------------------------------------
// Rendering.

/** Written into comments and strings as noise: the analysis asks the checker, never the text. */
const REGISTRATION_TEXT = "registry.tool()";

/** Collects a file's imports and lines, and the line of each expected finding. */
class FileBuilder {
  private readonly imports = new Map<string, { names: Set<string>; typeNames: Set<string> }>();
  /** Namespace and default imports, written as they are. */
  private readonly rawImports = new Set<string>();
  private readonly locals = new Set<string>();
  readonly lines: string[] = [];
  /** Findings by body line index (0-based, before the header is prepended). */
  readonly marks: Array<{ index: number; id: ExpectedId; tool: string | undefined }> = [];

  constructor(readonly name: string) {}

  import(from: string, name: string, typeOnly = false): void {
    const entry = this.imports.get(from) ?? { names: new Set<string>(), typeNames: new Set<string>() };
    (typeOnly ? entry.typeNames : entry.names).add(name);
    this.imports.set(from, entry);
  }

  importAll(imports: readonly Import[] | undefined): void {
    for (const i of imports ?? []) for (const name of i.names) this.import(i.from, name, i.typeOnly);
  }

  rawImport(line: string): void {
    this.rawImports.add(line);
  }

  local(declaration: string): void {
    this.locals.add(declaration);
  }

  push(...lines: string[]): number {
    this.lines.push(...lines);
    return this.lines.length - lines.length;
  }

  mark(index: number, id: ExpectedId, tool: string | undefined): void {
    this.marks.push({ index, id, tool });
  }

  /** The header: import declarations, then shape-local declarations. */
  header(): string[] {
    const header: string[] = [];
    header.push(...[...this.rawImports].sort());
    for (const [from, { names, typeNames }] of [...this.imports].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const specifiers = [...[...names].sort(), ...[...typeNames].filter((n) => !names.has(n)).sort().map((n) => (names.size > 0 ? `type ${n}` : n))];
      const typeOnly = names.size === 0;
      header.push(`import ${typeOnly ? "type " : ""}{ ${specifiers.join(", ")} } from "${from}";`);
    }
    header.push("", ...this.locals, "");
    return header;
  }

  text(layout: Layout = { crlf: false, bom: false, tabs: false }): { text: string; offset: number } {
    const header = this.header();
    let lines = [...header, ...this.lines, ""];
    if (layout.tabs) lines = lines.map((line) => line.replace(/^(?: {2})+/, (indent) => "\t".repeat(indent.length / 2)));
    const text = lines.join(layout.crlf ? "\r\n" : "\n");
    return { text: layout.bom ? `\uFEFF${text}` : text, offset: header.length };
  }
}

interface Rendered {
  /** Lines before the registration statement (declarations it refers to). */
  readonly before: string[];
  /** The registered function as it appears in the argument: one or more lines. */
  readonly argument: string[];
  /** Where the underlined node is: a line of `before` or of `argument`. */
  readonly node: { readonly in: "before" | "argument"; readonly index: number };
  /** Its static name, if any. */
  readonly name: string | undefined;
  /** The name `fn.name` has at run time ("" for anonymous). */
  readonly runtimeName: string;
  /** The verdict of the function itself. */
  readonly verdict: Verdict;
  /** The registration runs in `for (const <variable> of [<list>]) { … }`: the function is a loop variable. */
  readonly loop?: { readonly variable: string; readonly list: string };
}

function body(shape: Shape): string {
  if (shape.generator) return `yield ${shape.value};`;
  return shape.value === undefined ? 'throw new Error("always fails");' : `return ${shape.value};`;
}

function annotation(shape: Shape): string {
  return shape.annotation === undefined ? "" : `: ${shape.annotation}`;
}

/** `async function name(): T {` … the head of a function written with the `function` keyword. */
function functionHead(shape: Shape, name: string, exported = false): string {
  return `${exported ? "export " : ""}${shape.async ? "async " : ""}function${shape.generator ? "*" : ""}${name ? ` ${name}` : " "}()${annotation(shape)} {`;
}

/** An arrow's text; generators have no arrow form (callers pick another shape). */
function arrow(shape: Shape): string {
  const head = `${shape.async ? "async " : ""}()${annotation(shape)} =>`;
  if (shape.value === undefined) return `${head} { ${body(shape)} }`;
  return `${head} ${shape.value.startsWith("{") ? `(${shape.value})` : shape.value}`;
}

/** A function written inline, on one line or spread over three. */
function inlineFunction(shape: Shape, name: string, split: boolean): string[] {
  const head = functionHead(shape, name);
  return split ? [head, `  ${body(shape)}`, "}"] : [`${head} ${body(shape)} }`];
}

class ProgramRenderer {
  readonly main: FileBuilder;
  readonly companion: FileBuilder;
  readonly served: string[] = [];
  readonly localRegistries: string[] = [];
  registrations = 0;
  private unit = 0;
  /** Modules with a default export, one per unit that imports one; the checked JavaScript module. */
  private readonly extraFiles: FileBuilder[] = [];
  private javascript: FileBuilder | undefined;
  layout: Layout = { crlf: false, bom: false, tabs: false };
  /** What the registry throws at start-up, from the first unit that makes it throw: loading the main module fails on it. */
  loadError: string | undefined;

  constructor(readonly id: string) {
    this.main = new FileBuilder(`${id}.ts`);
    this.companion = new FileBuilder(`${id}_lib.ts`);
  }

  /** A name unique in the whole batch: tools of every program share one registry. */
  unique(base: string): string {
    return `${base}_${this.id.slice(1)}_${this.unit}`;
  }

  nextUnit(): void {
    this.unit++;
  }

  /** The function as registered: declarations it needs, the argument text, where its node is. */
  renderFunction(spec: RegisterSpec, name: string): Rendered {
    const { shape, split } = spec;
    const file = this.main;
    file.importAll(shape.imports);
    for (const local of shape.locals ?? []) file.local(local);
    const verdict = shape.verdict;
    switch (spec.fn) {
      case "function-expression":
        return { before: [], argument: inlineFunction(shape, name, split), node: { in: "argument", index: 0 }, name, runtimeName: name, verdict };
      case "anonymous-function":
        return { before: [], argument: inlineFunction(shape, "", split), node: { in: "argument", index: 0 }, name: undefined, runtimeName: "", verdict };
      case "arrow":
        return { before: [], argument: [arrow(shape)], node: { in: "argument", index: 0 }, name: undefined, runtimeName: "", verdict };
      case "declaration":
        return { before: inlineFunction(shape, name, split), argument: [name], node: { in: "before", index: 0 }, name, runtimeName: name, verdict };
      case "const-arrow":
        return { before: [`const ${name} = ${arrow(shape)};`], argument: [name], node: { in: "before", index: 0 }, name, runtimeName: name, verdict };
      case "imported":
      case "imported-renamed": {
        const companion = this.companion;
        companion.import("./lib/sample.js", "sample");
        companion.import("@sourced/registry", "DataToolOutput", true);
        companion.importAll(shape.imports);
        for (const local of shape.locals ?? []) companion.local(local);
        companion.push(...(split ? [functionHead(shape, name, true), `  ${body(shape)}`, "}"] : [`${functionHead(shape, name, true)} ${body(shape)} }`]));
        const local = spec.fn === "imported" ? name : `${name}_local`;
        if (spec.fn === "imported") file.import(`./${this.id}_lib.js`, name);
        else file.import(`./${this.id}_lib.js`, `${name} as ${local}`);
        // Declared in another file: the finding is underlined at the reference.
        return { before: [], argument: [local], node: { in: "argument", index: 0 }, name, runtimeName: name, verdict };
      }
      case "static-method-ref": {
        const cls = `Tools_${this.id.slice(1)}_${this.unit}`;
        const method = `  static ${shape.async ? "async " : ""}${shape.generator ? "*" : ""}${name}()${annotation(shape)} {`;
        return {
          before: [`class ${cls} {`, method, `    ${body(shape)}`, "  }", "}"],
          argument: [`${cls}.${name}`],
          node: { in: "before", index: 1 },
          name,
          runtimeName: name,
          verdict,
        };
      }
      case "object-method-ref": {
        const object = `tools_${this.id.slice(1)}_${this.unit}`;
        const method = `  ${shape.async ? "async " : ""}${shape.generator ? "*" : ""}${name}()${annotation(shape)} {`;
        return {
          before: [`const ${object} = {`, method, `    ${body(shape)}`, "  },", "};"],
          argument: [`${object}.${name}`],
          node: { in: "before", index: 1 },
          name,
          runtimeName: name,
          verdict,
        };
      }
      case "binding-type": {
        // The binding's explicit function type stands in for the arrow's missing annotation.
        const type = `Fn_${this.id.slice(1)}_${this.unit}`;
        const declared = shape.annotation ?? "DataToolOutput";
        const rendered: Shape = { ...shape, annotation: undefined };
        const bindingVerdict = shape.annotation === undefined ? "ok" : shape.verdict;
        return {
          before: [`type ${type} = () => ${shape.async ? (declared.startsWith("Promise<") || declared === "AsyncToolResult" ? declared : `Promise<${declared}>`) : declared};`, `const ${name}: ${type} = ${arrow(rendered)};`],
          argument: [name],
          node: { in: "before", index: 1 },
          name,
          runtimeName: name,
          verdict: bindingVerdict,
        };
      }
      case "let-untyped":
        // A `let` without an explicit type can hold anything by the time it is registered.
        return {
          before: [`let ${name} = (): DataToolOutput => sample();`, `${name} = (): DataToolOutput => sample("changed");`],
          argument: [name],
          node: { in: "argument", index: 0 },
          name,
          runtimeName: name,
          verdict: "unverifiable-registration",
        };
      case "generic-accepted":
        return {
          before: [`function ${name}<T extends DataToolOutput>(): T {`, "  return sample() as T;", "}"],
          argument: [name],
          node: { in: "before", index: 0 },
          name,
          runtimeName: name,
          verdict: "ok",
        };
      case "generic-rejected":
        return {
          before: [`function ${name}<T>(value?: T): T {`, "  return value as T;", "}"],
          argument: [name],
          node: { in: "before", index: 0 },
          name,
          runtimeName: name,
          verdict: "not-data-tool-output",
        };
      case "overloads": {
        const count = 2 + ((spec.rejectedOverload ?? 0) % 2);
        const rejected = spec.rejectedOverload === undefined ? undefined : spec.rejectedOverload % count;
        const signatures = Array.from({ length: count }, (_, i) => `function ${name}(${["", "limit: number", "city: string, limit: number"][i]}): ${i === rejected ? "string" : "DataToolOutput"};`);
        return {
          before: [...signatures, `function ${name}(_first?: unknown, _second?: unknown): DataToolOutput | string {`, "  return sample();", "}"],
          argument: [name],
          node: { in: "before", index: rejected ?? 0 },
          name,
          runtimeName: name,
          verdict: rejected === undefined ? "ok" : "not-data-tool-output",
        };
      }
      case "const-function-expression":
        // An anonymous function expression bound by `const` takes the binding's name.
        return { before: [`const ${name} = ${functionHead(shape, "")} ${body(shape)} };`], argument: [name], node: { in: "before", index: 0 }, name, runtimeName: name, verdict };
      case "default-imported": {
        const module = new FileBuilder(`${this.id}_d${this.unit}.ts`);
        this.extraFiles.push(module);
        module.import("./lib/sample.js", "sample");
        module.import("@sourced/registry", "DataToolOutput", true);
        module.importAll(shape.imports);
        for (const local of shape.locals ?? []) module.local(local);
        module.push(`export default ${functionHead(shape, name)} ${body(shape)} }`);
        const local = `${name}_default`;
        file.rawImport(`import ${local} from "./${this.id}_d${this.unit}.js";`);
        // The registry names it after the function, whatever the importer calls it.
        return { before: [], argument: [local], node: { in: "argument", index: 0 }, name, runtimeName: name, verdict };
      }
      case "lone-param-arrow": {
        if (shape.annotation !== undefined || shape.generator || shape.value === undefined) return this.renderFunction({ ...spec, fn: "arrow" }, name);
        // A lone parameter without parentheses: no annotation can be written there.
        const value = shape.value.startsWith("{") ? `(${shape.value})` : shape.value;
        return { before: [], argument: [`${shape.async ? "async " : ""}city => ${value}`], node: { in: "argument", index: 0 }, name: undefined, runtimeName: "", verdict };
      }
      case "binding-looser": {
        // The function's own annotation wins over the looser type of the binding that holds it; the
        // binding's type stands in only where the function declares none (then: `unknown`).
        file.import("@sourced/registry", "ToolFunction", true);
        const held = `held_${this.id.slice(1)}_${this.unit}`;
        const standsIn = shape.annotation === undefined && !shape.generator;
        return {
          before: [inlineFunction(shape, name, false)[0]!, `const ${held}: ToolFunction = ${name};`],
          argument: [held],
          node: { in: "before", index: standsIn ? 1 : 0 },
          name,
          runtimeName: name,
          verdict: standsIn ? "not-data-tool-output" : verdict,
        };
      }
      case "as-const-object-arrow": {
        // A property of an `as const` object literal is fixed: its arrow is judged, named by its key.
        const object = `fixed_${this.id.slice(1)}_${this.unit}`;
        return { before: [`const ${object} = { ${name}: ${arrow(shape)} } as const;`], argument: [`${object}.${name}`], node: { in: "before", index: 0 }, name, runtimeName: name, verdict };
      }
      case "mutable-object-arrow": {
        // In a mutable object it can be reassigned before it is registered: unverifiable, under its key.
        const object = `mutable_${this.id.slice(1)}_${this.unit}`;
        return {
          before: [`const ${object} = { ${name}: ${arrow(shape)} };`],
          argument: [`${object}.${name}`],
          node: { in: "argument", index: 0 },
          name,
          runtimeName: name,
          verdict: "unverifiable-registration",
        };
      }
      case "loop-variable": {
        // A loop variable is whichever function the list holds: unverifiable, and never its own name.
        const variable = `each_${this.id.slice(1)}_${this.unit}`;
        return {
          before: inlineFunction(shape, name, false),
          argument: [variable],
          node: { in: "argument", index: 0 },
          name: undefined,
          runtimeName: name,
          verdict: "unverifiable-registration",
          loop: { variable, list: name },
        };
      }
      case "computed": {
        const maker = `makeTool_${this.id.slice(1)}_${this.unit}`;
        // Computed at run time: its declared return type cannot be seen.
        return {
          before: [`function ${maker}(): () => DataToolOutput {`, `  return function ${name}(): DataToolOutput {`, "    return sample();", "  };", "}"],
          argument: [`${maker}()`],
          node: { in: "argument", index: 0 },
          name: undefined,
          runtimeName: name,
          verdict: "unverifiable-registration",
        };
      }
    }
  }

  /** `registry.tool(…)`'s argument text, its static name (`null`: none given) and its run-time name. */
  renderOptions(form: OptionsForm, base: string): { text: string; before: string[]; name: string | null | undefined; runtimeName: string | undefined } {
    const name = this.unique(`${base}_tool`);
    const tag = `${this.id.slice(1)}_${this.unit}`;
    switch (form) {
      case "none":
        return { text: "", before: [], name: null, runtimeName: undefined };
      case "empty":
        return { text: "{}", before: [], name: null, runtimeName: undefined };
      case "name":
        return { text: `{ name: "${name}" }`, before: [], name, runtimeName: name };
      case "description":
        return { text: '{ description: "What the tool does, for the model." }', before: [], name: null, runtimeName: undefined };
      case "name-and-description":
        return { text: `{ name: "${name}", description: "Named and described." }`, before: [], name, runtimeName: name };
      case "const": {
        const constant = `options_${this.id.slice(1)}_${this.unit}`;
        return { text: constant, before: [`const ${constant} = { name: "${name}", description: "named through a const" } as const;`], name, runtimeName: name };
      }
      case "computed-name": {
        const compute = `computeName_${this.id.slice(1)}_${this.unit}`;
        // Not known statically: the registration is still judged, its tool is `?`.
        return { text: `{ name: ${compute}() }`, before: [`function ${compute}(): string {`, `  return "${name}";`, "}"], name: undefined, runtimeName: name };
      }
      case "unicode-description":
        // Astral characters before the function on the same line: columns count UTF-16 code units everywhere.
        return { text: '{ description: "Données 🌍 für 東京 — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢" }', before: [], name: null, runtimeName: undefined };
      case "name-const-string": {
        const constant = `NAME_${tag}`;
        return { text: `{ name: ${constant} }`, before: [`const ${constant} = "${name}";`], name, runtimeName: name };
      }
      case "name-after-spread": {
        const defaults = `defaults_${tag}`;
        return { text: `{ ...${defaults}, name: "${name}" }`, before: [`const ${defaults} = { description: "shared options" };`], name, runtimeName: name };
      }
      case "name-in-spread": {
        const named = `named_${tag}`;
        return { text: `{ description: "named by a spread", ...${named} }`, before: [`const ${named} = { name: "${name}" } as const;`], name, runtimeName: name };
      }
      case "name-enum": {
        const names = `Names_${tag}`;
        return { text: `{ name: ${names}.Tool }`, before: [`enum ${names} {`, `  Tool = "${name}",`, "}"], name, runtimeName: name };
      }
      case "name-conditional-same": {
        const flag = `named_flag_${tag}`;
        return { text: `{ name: ${flag} ? "${name}" : "${name}" }`, before: [`const ${flag} = Date.now() > 0;`], name, runtimeName: name };
      }
      case "name-conditional-different": {
        // Branches that serve different names: no name is static (the first branch runs).
        const flag = `named_flag_${tag}`;
        return { text: `(${flag} ? { name: "${name}" } : { name: "${name}_other" })`, before: [`const ${flag} = Date.now() > 0;`], name: undefined, runtimeName: name };
      }
    }
  }

  register(spec: RegisterSpec): void {
    let { fn, options: optionsForm } = spec;
    const { via } = spec;
    let shape = spec.shape;
    // Forms that would not compile or have no meaning with this shape fall back to a close one.
    if (shape.generator && (fn === "arrow" || fn === "const-arrow" || fn === "binding-type" || fn === "lone-param-arrow" || fn === "as-const-object-arrow" || fn === "mutable-object-arrow")) {
      fn = "function-expression";
    }
    if (fn === "binding-type" && shape.annotation === undefined) shape = SHAPES[0]!;
    if (fn === "binding-type" && shape.value === undefined) shape = SHAPES.find((s) => s.key === "string")!;
    // Options live where the decorator is made: these vias take none, or name-less ones.
    if (via === "returned" || via === "platform" || via === "conditional-both" || via === "conditional-named" || via === "asserted") optionsForm = "none";
    if (via === "platform-named" && NAMING_OPTIONS.has(optionsForm)) optionsForm = "description";
    const name = this.unique(spec.base);
    const options = this.renderOptions(optionsForm, spec.base);
    const rendered = this.renderFunction({ ...spec, fn, shape }, name);
    // An anonymous function registered without a name throws at run time ("cannot name the tool"):
    // the registry's own start-up error, not what this generator tests. Give it a name.
    let effectiveOptions = options;
    if (rendered.runtimeName === "" && options.runtimeName === undefined) {
      effectiveOptions = this.renderOptions(
        via === "returned" || via === "platform" || via === "conditional-both" || via === "platform-named" || via === "conditional-named" || via === "asserted" ? "none" : "name",
        spec.base,
      );
      if (effectiveOptions.runtimeName === undefined) {
        // No options can be given through this via: register a named function expression instead.
        this.register({ ...spec, fn: "function-expression" });
        return;
      }
    }
    const { text: optionsText } = effectiveOptions;
    const file = this.main;
    const before: string[] = [...effectiveOptions.before];
    let callee: string;
    let suffix = "";
    let wrapInstall: string | undefined;
    /** The served name when the via, not the options, decides it. */
    let servedOverride: { name: string | undefined; runtimeName: string | undefined } | undefined;
    const tag = `${this.id.slice(1)}_${this.unit}`;
    switch (via) {
      case "direct":
        callee = `registry.tool(${optionsText})`;
        break;
      case "parenthesized":
        callee = `(registry.tool(${optionsText}))`;
        break;
      case "stored":
        before.push(`const asTool_${tag} = registry.tool(${optionsText});`);
        callee = `asTool_${tag}`;
        break;
      case "stored-alias":
        before.push(`const asTool_${tag} = registry.tool(${optionsText});`, `const alias_${tag} = asTool_${tag};`);
        callee = `alias_${tag}`;
        break;
      case "stored-typed":
        file.import("@sourced/registry", "ToolDecorator", true);
        before.push(`const asTool_${tag}: ToolDecorator = registry.tool(${optionsText});`);
        callee = `asTool_${tag}`;
        break;
      case "renamed-import":
        file.import("@sourced/registry", "createRegistry as makeServer");
        file.import("./lib/registry.js", "logger");
        before.push(`const server_${tag} = makeServer({ name: "server_${tag}", version: "1.0.0", requireVerified: true, logger });`);
        this.localRegistries.push(`server_${tag}`);
        callee = `server_${tag}.tool(${optionsText})`;
        break;
      case "namespace":
        file.rawImport('import * as sourced from "@sourced/registry";');
        file.import("./lib/registry.js", "logger");
        before.push(`const ns_${tag} = sourced.createRegistry({ name: "ns_${tag}", version: "1.0.0", requireVerified: true, logger });`);
        this.localRegistries.push(`ns_${tag}`);
        callee = `ns_${tag}.tool(${optionsText})`;
        break;
      case "chain":
        file.import("./lib/chain.js", "sharedRegistry");
        callee = `sharedRegistry.tool(${optionsText})`;
        break;
      case "destructured":
        before.push(`const { tool: tool_${tag} } = registry;`);
        callee = `tool_${tag}(${optionsText})`;
        break;
      case "parameter":
        file.import("@sourced/registry", "Registry", true);
        callee = `target.tool(${optionsText})`;
        wrapInstall = `install_${tag}`;
        break;
      case "factory":
        file.import("./lib/factory.js", "makeRegistry");
        callee = `makeRegistry("factory_${tag}").tool(${optionsText})`;
        break;
      case "optional":
        file.import("@sourced/registry", "Registry", true);
        before.push(`const maybe_${tag}: Registry | undefined = Date.now() > 0 ? registry : undefined;`);
        callee = `maybe_${tag}?.tool(${optionsText})`;
        break;
      case "returned":
        // Made by a function: the options it was made with are not visible where it is applied,
        // so the finding has no name (the registry serves the function's own).
        file.import("@sourced/registry", "ToolDecorator", true);
        before.push(`function makeDecorator_${tag}(): ToolDecorator {`, "  return registry.tool();", "}");
        callee = `makeDecorator_${tag}()`;
        servedOverride = { name: undefined, runtimeName: undefined };
        break;
      case "platform":
        file.import("./lib/platform.js", "defineTool");
        callee = "defineTool";
        break;
      case "platform-named":
        file.import("./lib/platform.js", "defineNamedTool");
        callee = "defineNamedTool";
        if (optionsText !== "") suffix = `, ${optionsText}`;
        break;
      case "companion-const": {
        this.companion.import("./lib/registry.js", "registry");
        this.companion.push(...effectiveOptions.before.map((line) => line.replace(/^(const|function) /, "export $1 ")));
        before.splice(0, effectiveOptions.before.length);
        this.companion.push(`export const asTool_${tag} = registry.tool(${optionsText});`);
        file.import(`./${this.id}_lib.js`, `asTool_${tag}`);
        callee = `asTool_${tag}`;
        break;
      }
      case "conditional-both":
        before.push(`const flag_${tag} = Date.now() > 0;`);
        callee = `(flag_${tag} ? registry.tool() : registry.tool())`;
        break;
      case "conditional-named":
        // Both branches register, under different names: the finding carries none.
        before.push(`const flag_${tag} = Date.now() > 0;`);
        callee = `(flag_${tag} ? registry.tool({ name: "${this.unique(`${spec.base}_first`)}" }) : registry.tool())`;
        servedOverride = { name: undefined, runtimeName: this.unique(`${spec.base}_first`) };
        break;
      case "asserted":
        // Narrowed to the decorator by a type predicate nested in an assertion call. The value
        // comes from an opaque call (`any`), so nothing says which options made it: no static name.
        file.import("@sourced/registry", "ToolDecorator", true);
        before.push(
          `function assert_${tag}(condition: unknown): asserts condition {`,
          '  if (!condition) throw new Error("not a tool decorator");',
          "}",
          `function isToolDecorator_${tag}(value: unknown): value is ToolDecorator {`,
          '  return typeof value === "function";',
          "}",
          `const candidate_${tag}: Function = Reflect.apply(registry.tool as Function, registry, []);`,
          `assert_${tag}(isToolDecorator_${tag}(candidate_${tag}));`,
        );
        callee = `candidate_${tag}`;
        servedOverride = { name: undefined, runtimeName: undefined };
        break;
    }

    // The registration statement.
    let argument = rendered.argument;
    if (spec.wrapper === "satisfies") {
      file.import("@sourced/registry", "ToolFunction", true);
      argument = argument.map((line, i) => `${i === 0 ? "(" : ""}${line}${i === argument.length - 1 ? ") satisfies ToolFunction" : ""}`);
    }
    if (spec.wrapper === "non-null" && via !== "optional") callee = `${callee}!`;
    // The assertion narrows the module's flow: a function declared there would not see it.
    const scope = wrapInstall || via === "asserted" ? "module" : spec.scope;
    const head = spec.exported && !wrapInstall && scope === "module" && rendered.loop === undefined ? `export const registered_${tag} = ` : "";
    const indent = wrapInstall || scope === "function" || scope === "block" ? "  " : scope === "static-block" ? "    " : "";
    let statement: string[];
    let argumentLine: number; // index in `statement` of argument[0]
    if (spec.split || argument.length > 1) {
      statement = [`${indent}${head}${callee}(`, ...argument.map((line, i) => `${indent}  ${line}${i === argument.length - 1 ? "," : ""}`)];
      if (suffix !== "") statement.push(`${indent}  ${suffix.slice(2)},`);
      statement.push(`${indent});`);
      argumentLine = 1;
    } else {
      statement = [`${indent}${head}${callee}(${argument[0]}${suffix});`];
      argumentLine = 0;
    }
    if (rendered.loop !== undefined) {
      statement = [`${indent}for (const ${rendered.loop.variable} of [${rendered.loop.list}]) {`, ...statement.map((text) => `  ${text}`), `${indent}}`];
      argumentLine += 1;
    }
    let siteLine = 0;
    if (wrapInstall) statement = [`function ${wrapInstall}(target: Registry): void {`, ...statement, "}", `${wrapInstall}(registry);`];
    else if (scope === "function") statement = [`function setup_${tag}(): void {`, ...statement, "}", `setup_${tag}();`];
    else if (scope === "block") statement = ["{", ...statement, "}"];
    else if (scope === "static-block") statement = [`export class Setup_${tag} {`, "  static {", ...statement, "  }", "}"];
    if (scope === "static-block") siteLine = 2;
    else if (wrapInstall || scope !== "module") siteLine = 1;
    argumentLine += siteLine;

    const beforeStart = file.push(...rendered.before, ...before);
    const statementStart = file.push(...statement);
    this.registrations++;

    // Where the finding is, and its tool: the options' name, else the function's.
    const tool = servedOverride !== undefined ? servedOverride.name : effectiveOptions.name === null ? rendered.name : effectiveOptions.name;
    const verdict = rendered.verdict;
    if (verdict === "ok") {
      this.served.push(servedOverride?.runtimeName ?? effectiveOptions.runtimeName ?? rendered.runtimeName);
      return;
    }
    let line: number;
    if (rendered.node.in === "argument") line = statementStart + argumentLine + rendered.node.index;
    else line = beforeStart + rendered.node.index;
    file.mark(line, verdict, tool);
  }

  decorate(spec: DecorateSpec): void {
    let { shape } = spec;
    const file = this.main;
    file.importAll(shape.imports);
    for (const local of shape.locals ?? []) file.local(local);
    const tag = `${this.id.slice(1)}_${this.unit}`;
    const name = this.unique(spec.base);
    // A private method's own name (`#name`) is no MCP tool name, which the registry refuses at
    // registration: a private method is registered under a name of its own.
    const nameless = spec.options === "none" || spec.options === "empty" || spec.options === "description" || spec.options === "unicode-description";
    const options = this.renderOptions(spec.methodName === "private" && nameless ? "name-and-description" : spec.options, spec.base);
    const before = [...options.before];
    // An instance method cannot be served (the registry throws while the class is defined):
    // only rejected instance methods are generated, which the build strips.
    if (spec.overloads && shape.generator) shape = SHAPES[0]!;
    const instance = spec.instance && shape.verdict !== "ok";
    let decorator: string;
    switch (spec.via) {
      case "direct":
        decorator = `@registry.tool(${options.text})`;
        break;
      case "parenthesized":
        decorator = `@(registry.tool(${options.text}))`;
        break;
      case "stored":
        before.push(`const asTool_${tag} = registry.tool(${options.text});`);
        decorator = `@asTool_${tag}`;
        break;
      case "chain":
        file.import("./lib/chain.js", "sharedRegistry");
        decorator = `@sharedRegistry.tool(${options.text})`;
        break;
      case "renamed-import":
        file.import("@sourced/registry", "createRegistry as makeServer");
        file.import("./lib/registry.js", "logger");
        before.push(`const server_${tag} = makeServer({ name: "server_${tag}", version: "1.0.0", requireVerified: true, logger });`);
        this.localRegistries.push(`server_${tag}`);
        decorator = `@server_${tag}.tool(${options.text})`;
        break;
      case "companion-const":
        this.companion.import("./lib/registry.js", "registry");
        this.companion.push(...options.before.map((line) => line.replace(/^(const|function) /, "export $1 ")));
        before.splice(0, options.before.length);
        this.companion.push(`export const asTool_${tag} = registry.tool(${options.text});`);
        file.import(`./${this.id}_lib.js`, `asTool_${tag}`);
        decorator = `@asTool_${tag}`;
        break;
    }
    const modifiers = `${instance ? "" : "static "}${shape.async ? "async " : ""}${shape.generator ? "*" : ""}`;
    // The name the decorator's context carries, hence the tool's: `#name` for a private method.
    const methodName = spec.overloads ? "identifier" : spec.methodName;
    const key = { identifier: name, "string-literal": `"${name}"`, computed: `["${name}"]`, private: `#${name}` }[methodName];
    const toolName = methodName === "private" ? `#${name}` : name;
    const lines: string[] = [spec.classExpression ? `export const Decorated_${tag} = class {` : `export class Decorated_${tag} {`];
    let nodeLine: number;
    let overloadVerdict: Verdict = shape.verdict;
    if (spec.overloads) {
      // Every overload must fit, not only the implementation the decorator sits on.
      const rejectOverload = shape.verdict !== "ok";
      // Arguments a tool without input can be called with (`{}`): typed inputs refuse any other.
      lines.push(`  ${instance ? "" : "static "}${name}(query: { city?: string }): DataToolOutput;`);
      lines.push(`  ${instance ? "" : "static "}${name}(query: { id?: number }): ${rejectOverload ? "string" : "DataToolOutput"};`);
      lines.push(`  ${decorator}`);
      lines.push(`  ${instance ? "" : "static "}${name}(key: { city?: string } | { id?: number }): DataToolOutput${rejectOverload ? " | string" : ""} {`);
      lines.push("    return sample(JSON.stringify(key));", "  }");
      nodeLine = rejectOverload ? 2 : 4;
      overloadVerdict = rejectOverload ? "not-data-tool-output" : "ok";
    } else if (spec.sameLine) {
      lines.push(`  ${decorator} ${modifiers}${key}()${annotation(shape)} { ${body(shape)} }`);
      nodeLine = 1;
    } else {
      lines.push(`  ${decorator}`, `  ${modifiers}${key}()${annotation(shape)} {`, `    ${body(shape)}`, "  }");
      nodeLine = 2;
    }
    lines.push(spec.classExpression ? "};" : "}");
    file.push(...before);
    const start = file.push(...lines);
    this.registrations++;
    const tool = options.name === null ? toolName : options.name;
    if (overloadVerdict === "ok") {
      this.served.push(options.runtimeName ?? toolName);
      return;
    }
    file.mark(start + nodeLine, overloadVerdict, tool);
  }

  pair(spec: PairSpec): void {
    const file = this.main;
    const parts: string[] = [];
    const outcomes: Array<{ verdict: Verdict; name: string }> = [];
    for (const [shape, suffix] of [[spec.first, "a"], [spec.second, "b"]] as const) {
      file.importAll(shape.imports);
      for (const local of shape.locals ?? []) file.local(local);
      const name = this.unique(`${spec.base}_${suffix}`);
      parts.push(`registry.tool()(${inlineFunction(shape, name, false)[0]});`);
      outcomes.push({ verdict: shape.verdict, name });
      this.registrations++;
    }
    const at = file.push(parts.join(" "));
    for (const { verdict, name } of outcomes) {
      if (verdict === "ok") this.served.push(name);
      else file.mark(at, verdict, name);
    }
  }

  escape(spec: EscapeSpec): void {
    const file = this.main;
    const tag = `${this.id.slice(1)}_${this.unit}`;
    const stored = `asTool_${tag}`;
    const fnName = this.unique("escaped");
    const target = [`function ${fnName}(): DataToolOutput {`, "  return sample();", "}"];
    let lines: string[];
    let at: number;
    switch (spec.form) {
      case "argument":
        lines = [`function wrap_${tag}<T>(value: T): T {`, "  return value;", "}", `export const wrapped_${tag} = wrap_${tag}(registry.tool());`];
        at = 3;
        break;
      case "array":
        lines = [`const ${stored} = registry.tool();`, `export const listed_${tag} = [${stored}];`];
        at = 1;
        break;
      case "spread":
        lines = [`const ${stored} = registry.tool();`, `export const copied_${tag} = { ...${stored} };`];
        at = 1;
        break;
      case "object-property":
        lines = [`export const inProperty_${tag} = { decorate: registry.tool() };`];
        at = 0;
        break;
      case "let":
        lines = [`let later_${tag} = registry.tool();`, `void later_${tag};`];
        at = 0;
        break;
      case "assignment":
        file.import("@sourced/registry", "ToolDecorator", true);
        lines = [`const holder_${tag}: { decorate?: ToolDecorator } = {};`, `holder_${tag}.decorate = registry.tool();`];
        at = 1;
        break;
      case "class-field":
        lines = [`export class Holder_${tag} {`, "  decorate = registry.tool();", "}"];
        at = 1;
        break;
      case "bind":
        lines = [`const ${stored} = registry.tool();`, `export const bound_${tag} = ${stored}.bind(undefined);`];
        at = 1;
        break;
      case "call":
        lines = [...target, `const ${stored} = registry.tool();`, "// @ts-expect-error: the decorator's overloads do not fit `.call`'s typing", `${stored}.call(undefined, ${fnName});`];
        at = 5;
        break;
      case "reflect-apply":
        lines = [...target, `const ${stored} = registry.tool();`, `Reflect.apply(${stored}, undefined, [${fnName}]);`];
        at = 4;
        break;
      case "cast":
        // A cast drops the mark: the call is no longer seen as a registration.
        lines = [...target, `(registry.tool() as (fn: unknown) => unknown)(${fnName});`];
        at = 3;
        break;
      case "typed-const-without-mark":
        lines = [...target, `const plain_${tag}: (fn: () => unknown) => unknown = registry.tool();`, `plain_${tag}(${fnName});`];
        at = 3;
        break;
      case "conditional-mixed":
        lines = [...target, `const flag_${tag} = Date.now() > 0;`, `(flag_${tag} ? registry.tool() : <F>(fn: F): F => fn)(${fnName});`];
        at = 4;
        break;
      case "throw":
        lines = [`const ${stored} = registry.tool();`, `export const thrower_${tag} = () => {`, `  throw ${stored};`, "};"];
        at = 2;
        break;
      case "template-tag":
        lines = [
          `function tag_${tag}(strings: TemplateStringsArray, ...values: unknown[]): string {`,
          "  return strings.join(String(values.length));",
          "}",
          `const ${stored} = registry.tool();`,
          `export const tagged_${tag} = tag_${tag}\`\${${stored}}\`;`,
        ];
        at = 4;
        break;
      case "returned-unmarked":
        lines = [`export function leak_${tag}(): (fn: () => unknown) => unknown {`, "  return registry.tool();", "}"];
        at = 1;
        break;
      case "registry-to-plugin":
        // The registry reaches a plugin's own interface: its `tool` is callable but unmarked.
        lines = [
          `interface Host_${tag} {`,
          "  tool(): (fn: () => unknown) => unknown;",
          "}",
          `function install_${tag}(host: Host_${tag}): void {`,
          "  void host;",
          "}",
          `install_${tag}(registry);`,
        ];
        at = 6;
        break;
      case "registry-or-double":
        // A union with a test double: registrations through it are invisible.
        lines = [
          `const double_${tag} = { tool: () => <F>(fn: F): F => fn };`,
          `export const chosen_${tag} = Date.now() < 0 ? double_${tag} : registry;`,
        ];
        at = 1;
        break;
      case "registry-as-any":
        // Cast to `any` where it is used: what it registers is never judged (nor stamped, so a
        // registry with requireVerified refuses it at run time).
        lines = [`(registry as any).tool()(function ${fnName}() {`, '  return "no sources";', "});"];
        at = 0;
        break;
    }
    const start = file.push(...lines);
    file.mark(start + at, "unverifiable-registration", undefined);
  }

  /** The program's checked JavaScript module (`<id>_js.js`), loaded by the main module for its registrations. */
  private javascriptModule(): FileBuilder {
    if (this.javascript === undefined) {
      const module = new FileBuilder(`${this.id}_js.js`);
      module.import("./lib/registry.js", "registry");
      module.import("./lib/sample.js", "sample");
      module.local('/** @import { DataToolOutput, ToolFunction } from "@sourced/registry" */');
      this.extraFiles.push(module);
      this.main.rawImport(`import "./${this.id}_js.js";`);
      this.javascript = module;
    }
    return this.javascript;
  }

  checkedJs(spec: CheckedJsSpec): void {
    const file = this.javascriptModule();
    const name = this.unique(spec.base);
    // Each form: the lines, the index of the underlined node (the JSDoc type, else the name) and the verdict.
    const forms: Record<CheckedJsSpec["form"], { lines: string[]; at: number; verdict: Verdict }> = {
      "returns-ok": { lines: ["/** @returns {DataToolOutput} */", `function ${name}() {`, "  return sample();", "}"], at: 0, verdict: "ok" },
      "returns-async-ok": { lines: ["/** @returns {Promise<DataToolOutput>} */", `async function ${name}() {`, "  return sample();", "}"], at: 0, verdict: "ok" },
      "returns-string": { lines: ["/** @returns {string} */", `function ${name}() {`, '  return "no sources";', "}"], at: 0, verdict: "not-data-tool-output" },
      "type-ok": { lines: ["/** @type {() => DataToolOutput} */", `const ${name} = () => sample();`], at: 0, verdict: "ok" },
      "type-loose": { lines: ["/** @type {ToolFunction} */", `const ${name} = () => sample();`], at: 0, verdict: "not-data-tool-output" },
      "no-jsdoc": { lines: [`function ${name}() {`, "  return sample();", "}"], at: 0, verdict: "missing-annotation" },
      "described-no-returns": { lines: ["/**", " * What the tool does.", " * @param {unknown} [input]", " */", `function ${name}(input) {`, "  void input;", "  return sample();", "}"], at: 4, verdict: "missing-annotation" },
      // JSDoc overloads are the signatures judged, never the implementation's JSDoc. They take no
      // arguments: a tool registered without an input is called with none (typed inputs).
      "overloads-ok": {
        lines: ["/**", " * @overload", " * @returns {DataToolOutput}", " */", "/**", " * @param {string} [city]", " * @returns {DataToolOutput | undefined}", " */", `function ${name}(city) {`, "  return sample(city);", "}"],
        at: 0,
        verdict: "ok",
      },
      "overload-rejected": {
        lines: ["/**", " * @overload", " * @returns {string}", " */", "/**", " * @param {string} [city]", " * @returns {DataToolOutput | string}", " */", `function ${name}(city) {`, '  return city ?? "no sources";', "}"],
        at: 2,
        verdict: "not-data-tool-output",
      },
      // `/** @type {const} */ (…)`: the object's functions are fixed, as with `as const`.
      "const-object-ok": {
        lines: [`const fixed_${name} = /** @type {const} */ ({`, "  /** @returns {DataToolOutput} */", `  ${name}: () => sample(),`, "});"],
        at: 0,
        verdict: "ok",
      },
    };
    const { lines, at, verdict } = forms[spec.form];
    const registered = spec.form === "const-object-ok" ? `fixed_${name}.${name}` : name;
    const start = file.push(...lines, `registry.tool()(${registered});`);
    this.registrations++;
    if (verdict === "ok") this.served.push(name);
    else file.mark(start + at, verdict, name);
  }

  startup(spec: StartupSpec): void {
    const file = this.main;
    const name = this.unique(spec.base);
    // One start-up failure per program: loading stops at the first, so later ones would not be seen.
    const form = this.loadError !== undefined && spec.form !== "invalid-source" ? "invalid-source" : spec.form;
    const returns = "  return sample();";
    switch (form) {
      case "unnamed": {
        const at = file.push("registry.tool()((): DataToolOutput => sample());");
        this.registrations++;
        file.mark(at, "unnamed-tool", undefined);
        this.loadError = "cannot name the tool";
        break;
      }
      case "duplicate": {
        const at = file.push(
          `registry.tool({ name: "${name}" })(function ${name}_first(): DataToolOutput {`,
          returns,
          "});",
          `registry.tool({ name: "${name}" })(function ${name}_second(): DataToolOutput {`,
          returns,
          "});",
        );
        this.registrations += 2;
        this.served.push(name);
        file.mark(at + 3, "duplicate-tool-name", name);
        this.loadError = `tool "${name}" is registered twice`;
        break;
      }
      case "invalid-name": {
        const refused = `${name} city`;
        const at = file.push(`registry.tool({ name: "${refused}" })(function ${name}(): DataToolOutput {`, returns, "});");
        this.registrations++;
        file.mark(at, "invalid-tool-name", refused);
        this.loadError = "breaks the MCP tool-name rule";
        break;
      }
      case "invalid-source": {
        // Served (the net refuses each call, not the registration).
        const at = file.push(
          `registry.tool()(function ${name}(): DataToolOutput {`,
          `  return { content: [{ type: "text", text: "From a file." }], structuredContent: { sources: ["data/${name}.json"] } };`,
          "});",
        );
        this.registrations++;
        this.served.push(name);
        file.mark(at + 1, "invalid-source", name);
        break;
      }
    }
  }

  lookalike(spec: LookalikeSpec): void {
    const file = this.main;
    const tag = `${this.id.slice(1)}_${this.unit}`;
    const name = this.unique(spec.base);
    switch (spec.form) {
      case "library":
        // Another library's `registry.tool()`: same shape, no mark.
        file.import("./lib/lookalike.js", "registry as lookalike");
        file.push(`export const notOurs_${tag} = lookalike.tool()(function ${name}() {`, '  return "anything";', "});");
        break;
      case "local-object":
        file.push(`const local_${tag} = {`, "  tool: () => (fn: () => string) => fn,", "};", `export const localTool_${tag} = local_${tag}.tool()(() => "anything");`);
        break;
      case "any-typed":
        file.import("./lib/lookalike.js", "registry as lookalike");
        file.push(
          `const untyped_${tag}: any = lookalike;`,
          `export const untypedTool_${tag} = untyped_${tag}.tool()(function ${name}() {`,
          '  return "anything";',
          "});",
        );
        break;
      case "local-function":
        file.push(`function tool_${tag}(options?: { name?: string }) {`, "  void options;", "  return <F>(fn: F): F => fn;", "}", `tool_${tag}({ name: "${name}" })(function ${name}() {`, '  return "anything";', "});");
        break;
      case "registry-logged":
        // Passed to `unknown`: nothing can register through it there. Not an escape.
        file.push(`function log_${tag}(value: unknown): void {`, "  void value;", "}", `log_${tag}(registry);`);
        break;
      case "registry-described":
        // A type without a callable `tool`: not an escape either.
        file.push(`function describe_${tag}(server: { readonly name: string }): string {`, "  return server.name;", "}", `export const described_${tag} = describe_${tag}(registry);`);
        break;
    }
  }

  noise(spec: NoiseSpec): void {
    const tag = `${this.id.slice(1)}_${this.unit}`;
    switch (spec.form) {
      case "blank":
        this.main.push("");
        break;
      case "line-comment":
        this.main.push(`// ${REGISTRATION_TEXT}(function commented(): string { return "text is never matched"; });`);
        break;
      case "block-comment":
        this.main.push("/*", ` * ${REGISTRATION_TEXT}(function inComment() {});`, " */");
        break;
      case "string":
        this.main.push(`export const text_${tag} = "${REGISTRATION_TEXT}(function inString() {})";`);
        break;
      case "jsdoc":
        this.main.push("/**", ` * @example ${REGISTRATION_TEXT}(function documented() { return 1; })`, " */");
        break;
    }
  }

  renderResolved(spec: ResolvedSpec): void {
    this.layout = spec.layout;
    this.main.import("./lib/registry.js", "registry");
    this.main.import("./lib/sample.js", "sample");
    this.main.import("@sourced/registry", "DataToolOutput", true);
    for (const unit of spec.units) {
      this.nextUnit();
      switch (unit.kind) {
        case "register":
          this.register(unit);
          break;
        case "decorate":
          this.decorate(unit);
          break;
        case "pair":
          this.pair(unit);
          break;
        case "escape":
          this.escape(unit);
          break;
        case "lookalike":
          this.lookalike(unit);
          break;
        case "noise":
          this.noise(unit);
          break;
        case "checked-js":
          this.checkedJs(unit);
          break;
        case "startup":
          this.startup(unit);
          break;
      }
    }
    if (this.localRegistries.length > 0) this.main.push(`export const __registries = [${this.localRegistries.join(", ")}];`);
  }

  /** Registrations through a registry whose package does not resolve: findings, never passes. */
  renderUnresolved(spec: UnresolvedSpec): void {
    const file = this.main;
    const registry = spec.throughModule ? "brokenRegistry" : "broken";
    if (spec.throughModule) {
      file.import("./lib/unresolved.js", "brokenRegistry");
    } else {
      file.push("// @ts-ignore: the misspelt package is the point of this program", 'import { createRegistry, type DataToolOutput } from "@sourced/registy";', "");
      file.push(`const broken = createRegistry({ name: "broken_${this.id}", version: "1.0.0" });`);
    }
    const type = spec.throughModule ? "string" : "DataToolOutput";
    const value = spec.throughModule ? '"anything"' : "{ content: [], structuredContent: { sources: [] } }";
    for (const unit of spec.units) {
      this.nextUnit();
      const tag = `${this.id.slice(1)}_${this.unit}`;
      const name = this.unique(unit.base);
      const optionName = unit.options === "name" ? this.unique(`${unit.base}_tool`) : undefined;
      const options = optionName === undefined ? "" : `{ name: "${optionName}" }`;
      this.registrations++;
      if (unit.kept) {
        // Kept for later and never applied: reported where it is created. (An application of
        // such a const is reported where it occurs: corpus cases 104 and 105.)
        const keptName = optionName ?? this.unique("kept");
        const at = file.push(`export const kept_${tag} = ${registry}.tool({ name: "${keptName}" });`);
        file.mark(at, "unverifiable-registration", keptName);
        this.registrations--;
      } else if (unit.decorator) {
        const at = file.push(`export class Lost_${tag} {`, `  @${registry}.tool(${options})`, `  static ${name}(): ${type} {`, `    return ${value};`, "  }", "}");
        file.mark(at + 1, "unverifiable-registration", optionName ?? name);
      } else {
        const at = file.push(`export const lost_${tag} = ${registry}.tool(${options})(function ${name}(): ${type} {`, `  return ${value};`, "});");
        file.mark(at, "unverifiable-registration", optionName ?? name);
      }
    }
  }

  result(index: number, loadError: string | undefined): GeneratedProgram {
    const files: Array<{ name: string; text: string }> = [];
    const findings: ExpectedFinding[] = [];
    for (const builder of [this.main, this.companion, ...this.extraFiles]) {
      if (builder === this.companion && builder.lines.length === 0) continue;
      const { text, offset } = builder.text(this.layout);
      files.push({ name: builder.name, text });
      for (const mark of builder.marks) findings.push({ file: builder.name, id: mark.id, tool: mark.tool, line: offset + mark.index + 1 });
    }
    return { index, id: this.id, files, findings: sortFindings(findings), served: [...this.served].sort(), registrations: this.registrations, loadError };
  }
}

export function renderProgram(spec: ProgramSpec, index: number): GeneratedProgram {
  const renderer = new ProgramRenderer(`p${String(index).padStart(5, "0")}`);
  if (spec.kind === "resolved") {
    renderer.renderResolved(spec);
    return renderer.result(index, renderer.loadError);
  }
  renderer.renderUnresolved(spec);
  return renderer.result(index, "@sourced/registy");
}

export function sortFindings<T extends { file: string; line: number; id: string; tool: string | undefined }>(findings: readonly T[]): T[] {
  const key = (f: T) => `${f.file}\0${String(f.line).padStart(7, "0")}\0${f.id}\0${f.tool ?? "?"}`;
  return [...findings].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------
// The project every batch of programs is compiled in: helper modules shared by all programs.

export const LIB_FILES: Readonly<Record<string, string>> = {
  "lib/registry.ts": [
    'import { createRegistry, type Logger } from "@sourced/registry";',
    "",
    "/** Refusals and failed results, kept for the load check. */",
    "export const warnings: string[] = [];",
    "export const logger: Logger = { warn: (message) => void warnings.push(message) };",
    "",
    "/** The registry most programs register on: it serves only what the build verified. */",
    'export const registry = createRegistry({ name: "fuzz", version: "1.0.0", requireVerified: true, logger });',
    "",
  ].join("\n"),
  "lib/sample.ts": [
    'import type { DataResult } from "@sourced/registry";',
    "",
    "// A data result (not the error member of DataToolOutput): spread into richer shapes (lib/shapes.ts).",
    'export function sample(text = "Tokyo has 37,400,068 inhabitants."): DataResult {',
    '  return { content: [{ type: "text", text }], structuredContent: { sources: ["https://example.org/cities"] } };',
    "}",
    "",
  ].join("\n"),
  "lib/output.ts": [
    'import type { DataToolOutput } from "@sourced/registry";',
    "",
    "export type ToolResult = DataToolOutput;",
    "export type AsyncToolResult = Promise<DataToolOutput>;",
    'export type { DataToolOutput as RenamedOutput } from "@sourced/registry";',
    "",
  ].join("\n"),
  "lib/reexport.ts": ['export { registry as sharedRegistry } from "./registry.js";', 'export type { DataToolOutput as Output } from "@sourced/registry";', ""].join("\n"),
  "lib/chain.ts": 'export * from "./reexport.js";\n',
  "lib/shapes.ts": [
    'import type { DataResult, DataToolOutput } from "@sourced/registry";',
    "",
    "export interface CityOutput extends DataResult {",
    "  readonly isError?: false;",
    "}",
    "export type Found = DataToolOutput & { structuredContent: { force: string } };",
    "export type NotFound = DataToolOutput & { isError: true };",
    "export interface PlainResult {",
    '  content: { type: "text"; text: string }[];',
    "}",
    "export interface NoSources {",
    '  content: { type: "text"; text: string }[];',
    "  structuredContent: { table: string[][] };",
    "}",
    "",
  ].join("\n"),
  "lib/platform.ts": [
    'import type { RegistersTool, ToolFunction, ToolOptions } from "@sourced/registry";',
    'import { registry } from "./registry.js";',
    "",
    "export const defineTool: RegistersTool<<F extends ToolFunction>(fn: F) => F> = (fn) => registry.tool()(fn);",
    "",
    "export const defineNamedTool: RegistersTool<<F extends ToolFunction>(fn: F, options?: ToolOptions) => F> = function (fn, options) {",
    "  return registry.tool(options)(fn);",
    "};",
    "",
  ].join("\n"),
  "lib/lookalike.ts": [
    "/** Another library's `tool()`: same shape, no mark. */",
    "export const registry = {",
    "  tool(options?: { name?: string }) {",
    "    void options;",
    "    return <F>(fn: F): F => fn;",
    "  },",
    "};",
    "",
  ].join("\n"),
  "lib/factory.ts": [
    'import { createRegistry, type Registry } from "@sourced/registry";',
    'import { logger } from "./registry.js";',
    "",
    "/** Every registry made here, for the load check. */",
    "export const made: Registry[] = [];",
    "",
    "export function makeRegistry(name: string): Registry {",
    '  const registry = createRegistry({ name, version: "1.0.0", requireVerified: true, logger });',
    "  made.push(registry);",
    "  return registry;",
    "}",
    "",
  ].join("\n"),
  "lib/unresolved.ts": [
    "// @ts-ignore: the misspelt package is the point of the programs that import this module",
    'import { createRegistry } from "@sourced/registy";',
    "",
    'export const brokenRegistry = createRegistry({ name: "broken", version: "1.0.0" });',
    "",
  ].join("\n"),
};
