/*
 * Every message the analysis prints. Each one quotes the tool, says what is wrong in the user's
 * terms (with the type as the checker prints it) and what to write instead.
 */

/** The registry's package: where `DataToolOutput` comes from, and whose imports must resolve. */
export const REGISTRY_MODULE = "@sourced/registry";

/** The type every registered function must be declared to return, as the registry exports it. */
export const DATA_TOOL_OUTPUT = "DataToolOutput";

const SHAPE = "return { content: [{ type: \"text\", text }], structuredContent: { sources: [url] } }";

/** `tool 'list_cities'`, or a description of the registration when the name is not static. */
export function quoteTool(tool: string | undefined): string {
  return tool === undefined ? "the tool registered here" : `tool '${tool}'`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function subject(tool: string | undefined, overload: string): string {
  return capitalize(quoteTool(tool)) + overload;
}

/** The annotation to write: `: T` after a TypeScript function's parameters, `@returns {T}` in a JavaScript function's JSDoc. */
export function annotationText(typeText: string, jsdoc: boolean): string {
  return jsdoc ? `@returns {${typeText}}` : `: ${typeText}`;
}

/**
 * Where a missing annotation goes: after a TypeScript function's parameter list, in a JavaScript
 * function's JSDoc, or in the JSDoc block of the JavaScript `@overload` that lacks it.
 */
export type AnnotationPlace = "parameters" | "jsdoc" | "overload-jsdoc";

/** Where the annotation goes, in the words of the advice. */
function placeOf(place: AnnotationPlace): string {
  switch (place) {
    case "parameters":
      return "after the parameter list";
    case "jsdoc":
      return "in the function's JSDoc";
    case "overload-jsdoc":
      return "in that overload's JSDoc block";
  }
}

/** What makes `DataToolOutput` visible: an `import type` in TypeScript, a JSDoc `@import` in JavaScript. */
export function importStatement(jsdoc: boolean, names: readonly string[] = [DATA_TOOL_OUTPUT]): string {
  return jsdoc
    ? `/** @import { ${names.join(", ")} } from "${REGISTRY_MODULE}" */`
    : `import type { ${names.join(", ")} } from "${REGISTRY_MODULE}";`;
}

export function missingAnnotation(
  tool: string | undefined,
  overload: string,
  inferred: string,
  fits: boolean,
  typeText: string,
  place: AnnotationPlace,
  typeInScope = true,
  importNames: readonly string[] = [DATA_TOOL_OUTPUT],
): string {
  const jsdoc = place !== "parameters";
  const annotation = annotationText(typeText, jsdoc);
  const importIt = typeInScope ? "" : `, importing ${importNames.length > 1 ? "them" : "it"} with '${importStatement(jsdoc, importNames)}'`;
  const advice = fits
    ? `It already fits: write '${annotation}' ${placeOf(place)}${importIt}.`
    : `It does not fit: write '${annotation}' ${placeOf(place)}${importIt}, and ${SHAPE}.`;
  return (
    `${subject(tool, overload)} has no return type annotation; the registry accepts only a tool declared to return ` +
    `DataToolOutput, and an inferred type does not count. Its inferred return type is '${inferred}'. ${advice}`
  );
}

export type Rejection =
  | { readonly kind: "any" | "unknown" | "never" | "not-assignable"; readonly type: string; readonly detail?: string }
  | { readonly kind: "member"; readonly type: string; readonly member: string }
  /** A required part of the contract (`structuredContent`, `structuredContent.sources`, `content`) is `any`. */
  | { readonly kind: "any-part"; readonly type: string; readonly part: string; readonly partType: string }
  | { readonly kind: "unresolved"; readonly type: string }
  | { readonly kind: "generator"; readonly annotation: string };

/** What to write instead, for a function (`: DataToolOutput` after its parameters) or a binding's function type. */
export function insteadForFunction(annotation: string, jsdoc = false): string {
  return jsdoc ? `Declare '${annotation}' in its JSDoc instead and ${SHAPE}.` : `Declare '${annotation}' instead and ${SHAPE}.`;
}

/** Why a callback's parameter is not known: the call it is passed to decides. */
export function callbackParameter(parameter: string, callee: string): string {
  return `'${parameter}' is a parameter of the callback passed to '${callee}', so the function registered is whichever one that call passes it`;
}

/** The same, as a sentence of its own after a finding about the parameter's type. */
export function callbackParameterBecause(parameter: string, callee: string): string {
  return `The function registered through '${parameter}' is whichever one '${callee}' passes its callback`;
}

export const REGISTER_EACH_INSTEAD = "Register each function by name where it is declared (registry.tool()(cities)), not through a callback or a loop.";

/**
 * Why a declared function's parameter without a type is not known: each caller decides. (A typed
 * one is judged by its type, with `callersDecideBecause` after the finding.)
 */
export function callersDecide(parameter: string, enclosing: string | undefined): string {
  return `'${parameter}' is a parameter without a type, so each caller of ${enclosing === undefined ? "its function" : `'${enclosing}'`} decides what is registered`;
}

export function callersDecideBecause(parameter: string, enclosing: string | undefined): string {
  return `Each caller of ${enclosing === undefined ? "its function" : `'${enclosing}'`} decides what '${parameter}' registers`;
}

export function markOrTypeParameter(parameter: string, enclosing: string | undefined): string {
  return (
    `Mark ${enclosing === undefined ? "that function" : `'${enclosing}'`} with RegistersTool<…> from @sourced/registry so that each of its calls ` +
    `is judged, or type '${parameter}' as a function returning DataToolOutput.`
  );
}

export const INSTEAD_FOR_BINDING = `Give the binding a function type that returns DataToolOutput (e.g. '(input: Input) => DataToolOutput') and ${SHAPE}.`;

export function notDataToolOutput(tool: string | undefined, overload: string, rejection: Rejection, instead: string): string {
  const who = subject(tool, overload);
  switch (rejection.kind) {
    case "generator":
      return `${who} is a generator function; a tool returns one DataToolOutput, not a generator. Make it a plain (or async) function declared '${rejection.annotation}'.`;
    case "any":
      return `${who} is declared to return '${rejection.type}', which turns the check off: nothing says the result carries its sources. ${instead}`;
    case "unknown":
      return `${who} is declared to return '${rejection.type}', which says nothing about the result. ${instead}`;
    case "never":
      return `${who} is declared to return '${rejection.type}': it can never produce a result. ${instead}`;
    case "unresolved":
      return (
        `${who} is declared to return '${rejection.type}', which TypeScript cannot resolve, so the return type cannot be judged. ` +
        `Install @sourced/registry and import DataToolOutput from it: import type { DataToolOutput } from "@sourced/registry";`
      );
    case "any-part":
      return (
        `${who} is declared to return '${rejection.type}', whose '${rejection.part}' is '${rejection.partType}': it fits DataToolOutput only because ` +
        `'any' turns the check off there, and says nothing about the result's sources. Give '${rejection.part}' its type. ${instead}`
      );
    case "member":
      return `${who} is declared to return '${rejection.type}', whose member '${rejection.member}' is not DataToolOutput; every member of a union must be. ${instead}`;
    case "not-assignable":
      return `${who} is declared to return '${rejection.type}', which is not DataToolOutput${rejection.detail === undefined ? "" : `: ${rejection.detail}`}. ${instead}`;
  }
}

// Why a declared type is not DataToolOutput, in the contract's terms (the `detail` of `not-assignable`).

export function sameNameOtherType(detail: string | undefined): string {
  return `it is a type of the same name, not the one from @sourced/registry${detail === undefined ? "" : `, and ${detail}`}`;
}

/** `it has no 'structuredContent'`, `its 'structuredContent' has no 'sources'`. */
export function partHasNo(path: string | undefined, missing: readonly string[]): string {
  return `${path === undefined ? "it" : `its '${path}'`} has no ${missing.map((name) => `'${name}'`).join(" and no ")}`;
}

export function partIsOptional(path: string): string {
  return `its '${path}' is optional, and DataToolOutput requires it`;
}

export function partIsNot(path: string, actual: string, wanted: string): string {
  return `its '${path}' is '${actual}', not '${wanted}'`;
}

/** A readonly array where the contract has a mutable one: the elements fit, the array does not. */
export function partIsReadonly(path: string, actual: string, wanted: string): string {
  return `its '${path}' is '${actual}', a readonly array, where DataToolOutput has the mutable '${wanted}'; declare it '${wanted}' (or return a copy, [...list])`;
}

export function partNotAnArray(path: string, actual: string): string {
  return `its '${path}' is '${actual}', not an array`;
}

export function elementHasNo(path: string, element: string, property: string): string {
  return `its '${path}' holds '${element}', which has no '${property}'`;
}

export function elementIsNot(path: string, element: string, wanted: string): string {
  return `its '${path}' holds '${element}', which is not '${wanted}'`;
}

/** A content block whose `type` widened to `string`: name the literals it must be. */
export function elementDiscriminantWidened(path: string, property: string, actual: string, literals: string, example: string): string {
  return (
    `its '${path}' holds an element whose '${property}' is '${actual}', which is none of ${literals}; ` +
    `write the literal (e.g. '${property}: ${example} as const') or declare the element's type`
  );
}

export function escapes(how: string, type: string): string {
  return (
    `A tool decorator (of type '${type}') ${how} here, so the analysis cannot see which function it registers. ` +
    `Apply it directly — registry.tool()(fn) or @registry.tool() — or keep it in a const and apply that.`
  );
}

export function typedAway(type: string, wrapperType: string): string {
  return (
    `A tool decorator (of type '${type}') becomes '${wrapperType}' here, which no longer marks a registration, so the analysis ` +
    `cannot follow it. Apply it directly — registry.tool()(fn) or @registry.tool() — or keep it in a const with its own type.`
  );
}

export function registryTypedAway(type: string, becomes: string): string {
  return (
    `A registry (of type '${type}') becomes '${becomes}' here, whose 'tool' does not return a marked decorator, so every ` +
    `registration made through it from here on is invisible to the analysis. Keep the registry's own type where it is used ` +
    `(e.g. a parameter typed 'Registry' from @sourced/registry), or mark the other type's 'tool' with RegistersTool<…> from @sourced/registry.`
  );
}

export function registryCastToAny(type: string, becomes: string): string {
  return (
    `A registry (of type '${type}') becomes '${becomes}' here: 'any' lets anything be called on it, 'tool' included, so every ` +
    `registration made through it from here on is never judged. Keep the registry's own type where it is used ` +
    `(e.g. 'Registry' from @sourced/registry), or cast to a type whose 'tool' is marked with RegistersTool<…>.`
  );
}

export function unverifiable(tool: string | undefined, why: string, instead: string): string {
  return `${capitalize(quoteTool(tool))} cannot be verified: ${why}. ${instead}`;
}

/** Why a function stored in a mutable object cannot be judged; the fix in the file's own language. */
export function reassignableProperty(reference: string, javaScript: boolean): string {
  const fixed = javaScript ? "wrap the object in '/** @type {const} */ (…)'" : "make the object 'as const'";
  return `'${reference}' is a property of a mutable object, so it can be reassigned before it is registered; ${fixed} so that its function is fixed`;
}

export const REGISTER_INSTEAD = "Register a function declared with ': DataToolOutput' directly, or a const bound to one";
export const REGISTER_INSTEAD_SENTENCE = `${REGISTER_INSTEAD}.`;
export const DECORATE_INSTEAD = "Put @registry.tool() on a static method declared ': DataToolOutput'.";
export const IMPORT_REGISTRATION_INSTEAD = "Import the registration function from @sourced/registry, or mark platform wrappers with its RegistersTool type";

// Why a registration cannot be verified (the `why` of `unverifiable`).
export const WHY_APPLIED_TO_NOTHING = "the decorator is applied to nothing";
export const WHY_SPREAD = "the registered function is spread from an array";
export const WHY_NOT_ON_METHOD = "the decorator is not on a method";
export const WHY_TOO_MANY_ALIASES = "it is reached through too many aliases";

export function noContractNextToMark(file: string): string {
  return `the registry's DataToolOutput type cannot be found next to its registration mark (${file})`;
}

export function notADeclaration(reference: string, type: string): string {
  return `'${reference}' (of type '${type}') is not a declaration the analysis can see`;
}

export function computedAtRunTime(text: string, type: string): string {
  return `the function registered here is computed at run time ('${text}', of type '${type}'), so its declared return type cannot be seen`;
}

export function notStaticallyAFunction(text: string, type: string): string {
  return `the registered value '${text}' (of type '${type}') is not statically a function`;
}

export function noDeclaration(reference: string): string {
  return `'${reference}' has no declaration the analysis can see`;
}

export function noVisibleValue(reference: string): string {
  return `'${reference}' has no value the analysis can see`;
}

export function destructuredWithDefault(reference: string): string {
  return `'${reference}' is destructured with a default value, which may stand in for the function`;
}

export function reassignableWithoutType(reference: string): string {
  return `'${reference}' can be reassigned and has no explicit function type`;
}

export function notAFunctionType(type: string, where: string): string {
  return `its type '${type}'${where} is not a function type`;
}

export function unresolvedRegistry(tool: string | undefined, receiver: string, modules: readonly string[], through?: string): string {
  const missing = modules.map((name) => `'${name}'`).join(", ");
  const held = through === undefined ? "" : `'${through}' holds '${receiver}.tool(…)', and `;
  const importer = through === undefined ? "this file" : `the module that declares '${through}'`;
  return (
    `${capitalize(quoteTool(tool))} cannot be verified: ${held}the type of '${receiver}' cannot be resolved ` +
    `(TypeScript cannot find ${missing}, imported by ${importer} or by the module '${receiver}' comes from), so it is unknown whether '${receiver}.tool' registers a tool. ` +
    `Install @sourced/registry (and the packages named above) and check the import paths.`
  );
}

// What the registry refuses at start-up, or the net on every call.

export function unnamedTool(arrow: boolean): string {
  return (
    `${capitalize(quoteTool(undefined))} has no name: the registry serves options.name, else the function's own name, and this anonymous ` +
    `${arrow ? "arrow function" : "function"} has none, so the registry throws at start-up. Name the function ` +
    `(function list_cities() {…}) or pass { name: "list_cities" }.`
  );
}

/** `problem`: the registry's own words (@sourced/contract-rules' tool-name rule), ending with the name to pass instead. */
export function invalidToolName(tool: string, problem: string): string {
  return `${capitalize(quoteTool(tool))} has a name the registry refuses at start-up: ${problem}.`;
}

export function duplicateToolName(tool: string, registry: string, first: string): string {
  return (
    `${capitalize(quoteTool(tool))} is registered twice on '${registry}': first at ${first}, then here, and the registry throws at start-up. ` +
    `Give one of them another name with { name: "…" }.`
  );
}

/** Keys of a returned structuredContent that the declared return type does not declare: the net refuses them on every call. */
export function undeclaredOutputKeys(tool: string | undefined, keys: readonly string[], declared: readonly string[], where: string | undefined): string {
  const quoted = keys.map((key) => `'${key}'`).join(", ");
  const plural = keys.length > 1;
  return (
    `${capitalize(quoteTool(tool))} returns structuredContent with ${plural ? "the keys" : "the key"} ${quoted}${where === undefined ? "" : ` (at ${where})`}, which its declared return type does not declare ` +
    `(it declares ${declared.map((key) => `'${key}'`).join(", ")}): the registry refuses ${plural ? "them" : "it"} on every call. ` +
    `A spread copies every key of its object ({ ...graph, sources }): pick the keys you mean, or declare ${plural ? "them" : "it"} in the tool's output ` +
    `(registry.tool({ output: { ${keys[0]}: … } })) and its return type (DataResult<{ ${keys[0]}: … }>).`
  );
}

/** Keys a declared return type gives structuredContent that the registration's output does not declare: the net refuses them on every call. */
export function keysBeyondOutput(tool: string | undefined, keys: readonly string[], output: readonly string[], where: string | undefined): string {
  const quoted = keys.map((key) => `'${key}'`).join(", ");
  const plural = keys.length > 1;
  const declares = output.length === 0 ? "has no output" : `declares ${output.map((key) => `'${key}'`).join(", ")} only`;
  return (
    `${capitalize(quoteTool(tool))} is declared to return structuredContent with ${plural ? "the keys" : "the key"} ${quoted}${where === undefined ? "" : ` (at ${where})`}, ` +
    `but its registration ${declares}: the registry accepts sources, table, charts, force and the output's keys, and refuses ${plural ? "them" : "it"} on every call. ` +
    `Declare ${plural ? "them" : "it"} in the tool's output (registry.tool({ output: { ${keys[0]}: … } })), or drop ${plural ? "them" : "it"} from the return type.`
  );
}

/** `rule`: the net's own words for the refused source (@sourced/contract-rules' URL rule), with its fix when it has one. */
export function refusedSource(tool: string | undefined, source: string, where: string | undefined, rule: string): string {
  const quoted = JSON.stringify(source.length > 120 ? `${source.slice(0, 120)}…` : source);
  return (
    `${capitalize(quoteTool(tool))} returns the source ${quoted}${where === undefined ? "" : ` (at ${where})`}, which the registry refuses on every call: ` +
    `a source ${rule}. Cite where the data came from with an absolute http(s) URL, or the URI of a resource the registry serves (registry.resource()).`
  );
}

export const STRICT_NULL_CHECKS_OFF =
  "strictNullChecks is off in this project, so DataToolOutput admits undefined and null: a function declared to return it may " +
  "return nothing, and only the run-time net would catch it. Turn it on (\"strict\": true, or \"strictNullChecks\": true, in tsconfig.json). " +
  "Without it, a written '| undefined' or '| null' is still reported; an inferred or computed one is not.";

export function internalError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    `The analysis failed while judging ${quoteTool(undefined)}: ${text}. ` +
    `The registration is reported instead of being passed; please report this failure with the code around it.`
  );
}

/** "a, b and c", each quoted. */
function quotedList(words: readonly string[]): string {
  const quoted = words.map((word) => `'${word}'`);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)!}`;
}

/** A key the options' type does not have: a misspelling, most often. */
export function unknownOption(callee: string, tool: string | undefined, key: string, nearest: string | undefined, known: readonly string[]): string {
  const guess = nearest === undefined ? "." : `: did you mean '${nearest}'?`;
  const whose = tool === undefined ? callee : `${callee} for ${quoteTool(tool)}`;
  return `${whose} has no option '${key.length > 80 ? `${key.slice(0, 80)}…` : key}'${guess} It takes ${quotedList(known)}; the registry refuses any other key when the server starts.`;
}

/** A value the option's type does not take. */
export function wrongOptionValue(callee: string, tool: string | undefined, key: string, takes: string, given: string): string {
  const whose = tool === undefined ? callee : `${callee} for ${quoteTool(tool)}`;
  return `Option '${key}' of ${whose} takes '${takes}', not '${given}'; the registry refuses it when the server starts.`;
}

/**
 * An `output` whose schema describes no object (an array, as the MCP quickstart's `outputSchema:
 * z.array(…)`): the registry refuses it in these words when the server starts, since the keys it
 * declares sit in structuredContent beside `sources`.
 */
export function outputNotAnObject(callee: string, tool: string | undefined, described: string): string {
  const whose = tool === undefined ? callee : `${callee} for ${quoteTool(tool)}`;
  return `Option 'output' of ${whose}: output describes ${JSON.stringify(described)}, not an object: it declares the keys structuredContent carries beside sources. Wrap it: z.object({ entities: … }). The registry refuses it when the server starts.`;
}

/**
 * An error result returned where the declared return type admits none: `DataToolOutput` is the
 * seed's class, a result with data; the error result is declared beside it.
 */
export function errorResultNotDeclared(tool: string | undefined, declared: string, at: string | undefined): string {
  const where = at === undefined ? "" : ` at ${at}`;
  const instead = declared.startsWith("Promise<") || declared.startsWith("PromiseLike<") ? `Promise<${DATA_TOOL_OUTPUT} | ErrorResult>` : `${DATA_TOOL_OUTPUT} | ErrorResult`;
  return (
    `${subject(tool, "")} returns an error result (isError: true, no sources)${where}, which its declared return type '${declared}' does not admit: ` +
    `${DATA_TOOL_OUTPUT} is a result with data. Declare ': ${instead}' (import type { ErrorResult } from "${REGISTRY_MODULE}"), or throw a ToolError.`
  );
}
