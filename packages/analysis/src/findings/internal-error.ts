import type * as ts from "typescript";
import type { Finding } from "../api.js";
import { quoteTool } from "../messages.js";
import { defineKind, findingOf, type GuardFamily } from "./family.js";

/** `internal-error`: its code, title, help and severity, as every front-end prints them. */
export const INTERNAL_ERROR = defineKind({
  id: "internal-error",
  code: 92000,
  title: "The analysis failed on this registration",
  help: "An unexpected failure while judging one registration. It is reported instead of crashing the build; please report it with the code that triggers it.",
  severity: "error",
});

/**
 * `internal-error`: another family's detection failed on a site. It is reported there, as one
 * finding, instead of aborting the build or passing the registration.
 */
export const internalError = {
  name: "internal-error",
  declares: [INTERNAL_ERROR],
  kinds: ["internal-error"],
  phase: "guard",
} satisfies GuardFamily;

/** The finding that stands for a failure at `node`. */
export function internalErrorAt(node: ts.Node, error: unknown): Finding {
  return findingOf(INTERNAL_ERROR, node, node, undefined, internalErrorMessage(error));
}

export function internalErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    `The analysis failed while judging ${quoteTool(undefined)}: ${text}. ` +
    `The registration is reported instead of being passed; please report this failure with the code around it.`
  );
}
