/**
 * The type-level mark of "this value registers an MCP tool".
 *
 * `@sourced/analysis` judges every call (and every decorator) whose callee's type carries this
 * mark: the first argument (or the decorated method) is the registered function. `registry.tool()`
 * returns a value of a marked type; a platform that wraps the registry marks its own registration
 * function the same way, so the check follows it whatever it is called:
 *
 * ```ts
 * export const defineTool: RegistersTool<(fn: ToolFunction) => ToolFunction> = (fn) => registry.tool()(fn);
 * ```
 *
 * It is a type, not a JSDoc tag, so it works under plain tsc (which does not parse JSDoc in `.ts`
 * files since TypeScript 5.3) and survives re-exports and aliases. The property is optional and
 * never exists at run time: any function is assignable to a marked type without a cast.
 */
declare const registersTool: unique symbol;

/**
 * Beside the mark: the keys the registered tool's `structuredContent` may carry beyond the
 * contract's (its `output`), so that the analysis holds a declared return type to exactly what the
 * net accepts. `NoOutputKeys`: none (no `output`); `unknown`: not known statically (a platform's
 * wrapper, an `output` held in a `ToolOptions` variable), and nothing is held against it.
 */
declare const declaresOutput: unique symbol;

/** The literal type the analysis looks for on the mark's property. */
export type RegistersToolMark = "@sourced/registry:registers-tool";

/** `F`, marked as a function that registers its first argument as an MCP tool whose output keys are `Output`. */
export type RegistersTool<F, Output = unknown> = F & { readonly [registersTool]?: RegistersToolMark; readonly [declaresOutput]?: Output };
