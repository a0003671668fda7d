import type * as ts from "typescript";
import type { Finding } from "../api.js";
import type { Context, Contract } from "../context.js";
import { isAssignable } from "../fit.js";
import { capitalize, DATA_TOOL_OUTPUT, quoteTool, REGISTRY_MODULE } from "../messages.js";
import { returnedErrorResultsOf } from "../sources.js";
import { locate } from "../syntax.js";
import { findingOf, NO_FINDINGS, type RegisteredFamily, underlined } from "./family.js";
import { NOT_DATA_TOOL_OUTPUT } from "./registration.js";

/**
 * `not-data-tool-output` beside a verified registration: an error result (`{ content, isError:
 * true }`) returned where the declared return type admits none. `DataToolOutput` is a result with
 * data, so code written when it also held the error result fails there (TS2322).
 */
export const undeclaredErrorResult = {
  name: "undeclared-error-result",
  declares: [],
  kinds: ["not-data-tool-output"],
  phase: "registered",
  detect(context, registered): readonly Finding[] {
    if (!registered.verified) return NO_FINDINGS;
    const errorResults = undeclaredErrorResultsOf(context, registered.contract, registered.implementation);
    if (errorResults === undefined) return NO_FINDINGS;
    const { site, tool } = registered;
    return errorResults.nodes.map((object) => {
      const { node, here } = underlined(context, registered, object);
      return findingOf(NOT_DATA_TOOL_OUTPUT, node, site, tool, errorResultNotDeclared(tool, errorResults.declared.getText(), here ? undefined : locate(object, site.getSourceFile())));
    });
  },
} satisfies RegisteredFamily;

/**
 * The error results (`{ content, isError: true }`) `implementation` returns that its declared
 * return type does not admit: `DataToolOutput` is a result with data, so code written when it also
 * held the error result fails there (TS2322); the finding says what to declare instead,
 * `DataToolOutput | ErrorResult`. Nothing when the declared type admits the registry's
 * `ErrorResult`, or the returned literal fits it anyway.
 */
export function undeclaredErrorResultsOf(context: Context, contract: Contract, implementation: ts.SignatureDeclaration | undefined): { readonly nodes: readonly ts.ObjectLiteralExpression[]; readonly declared: ts.TypeNode } | undefined {
  const { checker } = context;
  const declared = implementation?.type;
  if (implementation === undefined || declared === undefined || contract.error === undefined || !contract.named.has("ErrorResult")) return undefined;
  const returned = returnedErrorResultsOf(context, implementation);
  if (returned.length === 0) return undefined;
  const type = checker.getTypeFromTypeNode(declared);
  const awaited = checker.getAwaitedType(type) ?? type;
  if (isAssignable(context, contract.error, awaited)) return undefined;
  const nodes = returned.filter((object) => !isAssignable(context, checker.getTypeAtLocation(object), awaited));
  return nodes.length === 0 ? undefined : { nodes, declared };
}

/**
 * An error result returned where the declared return type admits none: `DataToolOutput` is the
 * seed's class, a result with data; the error result is declared beside it.
 */
export function errorResultNotDeclared(tool: string | undefined, declared: string, at: string | undefined): string {
  const where = at === undefined ? "" : ` at ${at}`;
  const instead = declared.startsWith("Promise<") || declared.startsWith("PromiseLike<") ? `Promise<${DATA_TOOL_OUTPUT} | ErrorResult>` : `${DATA_TOOL_OUTPUT} | ErrorResult`;
  return (
    `${capitalize(quoteTool(tool))} returns an error result (isError: true, no sources)${where}, which its declared return type '${declared}' does not admit: ` +
    `${DATA_TOOL_OUTPUT} is a result with data. Declare ': ${instead}' (import type { ErrorResult } from "${REGISTRY_MODULE}"), or throw a ToolError.`
  );
}
