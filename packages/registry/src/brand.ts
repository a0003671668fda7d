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

/** The literal type the analysis looks for on the mark's property. */
export type RegistersToolMark = "@sourced/registry:registers-tool";

/** `F`, marked as a function that registers its first argument as an MCP tool. */
export type RegistersTool<F> = F & { readonly [registersTool]?: RegistersToolMark };
