export type { RegistersTool, RegistersToolMark } from "./brand.js";
export { dataToolOutputSchema, structuredContentSchema } from "./contract.js";
export type { DataToolOutput, StructuredData } from "./contract.js";
export type { ToolDecorator, ToolFunction, ToolOptions } from "./types.js";
