export type { RegistersTool, RegistersToolMark } from "./brand.js";
export { dataToolOutputSchema, structuredContentSchema } from "./contract.js";
export type { DataResult, DataToolOutput, ErrorResult, NoExtra, StructuredData } from "./contract.js";
export { stderrLogger } from "./logger.js";
export type { Logger } from "./logger.js";
export { DATA_VIEW_URI, MCP_APP_MIME_TYPE } from "./gateway.js";
export { createRegistry } from "./registry.js";
export type { PromptConfig, RegisteredOffering, RegisteredTool, Registry, RegistryOptions, ToolCallExtra } from "./registry.js";
export type { StartupCheckMode } from "./startup.js";
export type { AuthenticationRequest, HttpLimits, HttpServeOptions, HttpServing, HttpSessionOptions, StdioServeOptions, StdioServing } from "./serve.js";
export { VERIFIED_STAMP_KEY } from "./stamp.js";
export type { NoOutputKeys, OutputKeys, ToolDecorator, ToolDecoratorFor, ToolFunction, ToolOptions, ToolOutput, ToolResult, TypedToolDecorator } from "./types.js";
export { VERIFIED_STAMP, isVerified, markVerified, verifiedBy } from "./verified.js";
export type { VerifiedFunction } from "./verified.js";
export { ERROR_TEXT_LIMIT } from "./answers.js";
export { ToolError } from "./tool-error.js";
export { isSourceUrl, SOURCE_URL_PATTERN, TOOL_NAME_PATTERN, toSourceUrl } from "@sourced/contract-rules";
export { WIRE_LIMITS } from "./wire.js";
// Everything a server author writes beside registry.tool(), from this one package: templates and
// completion (resources, prompts), the 2026-07-28 way to ask the client (`throw inputRequired(…)`),
// the 2025-era URL elicitation (`throw new UrlElicitationRequiredError(…)`), the coded errors a
// prompt or a read answers with (`throw new ResourceNotFoundError(uri)`, a `ProtocolError`), a JSON
// Schema as a tool's input, and the SDK's types of what they take and return.
export {
  acceptedContent,
  completable,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  UrlElicitationRequiredError,
} from "@modelcontextprotocol/server";
export type {
  AuthInfo,
  CompleteResourceTemplateCallback,
  EventStore,
  GetPromptResult,
  InputRequiredResult,
  ListResourcesCallback,
  LoggingLevel,
  PromptCallback,
  ReadResourceCallback,
  ReadResourceResult,
  ReadResourceTemplateCallback,
  ResourceMetadata,
  ServerContext,
} from "@modelcontextprotocol/server";
export { MemoryEventStore } from "./event-store.js";
export type { MemoryEventStoreLimits } from "./event-store.js";
