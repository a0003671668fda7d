import type * as ts from "typescript";
import type { Finding } from "../api.js";
import { quoteTool } from "../messages.js";
import { findingOf, type GuardFamily } from "./family.js";

/**
 * `internal-error`: another family's detection failed on a site. It is reported there, as one
 * finding, instead of aborting the build or passing the registration.
 */
export const internalError: GuardFamily = {
  name: "internal-error",
  kinds: ["internal-error"],
  phase: "guard",
};

/** The finding that stands for a failure at `node`. */
export function internalErrorAt(node: ts.Node, error: unknown): Finding {
  return findingOf("internal-error", node, node, undefined, internalErrorMessage(error));
}

export function internalErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    `The analysis failed while judging ${quoteTool(undefined)}: ${text}. ` +
    `The registration is reported instead of being passed; please report this failure with the code around it.`
  );
}
