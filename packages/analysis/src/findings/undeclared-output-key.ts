import type { Finding } from "../api.js";
import { capitalize, quoteTool } from "../messages.js";
import { keysBeyondOutputOf, undeclaredOutputKeysOf } from "../output-keys.js";
import { locate } from "../syntax.js";
import { defineKind, findingOf, NO_FINDINGS, type RegisteredFamily, underlined } from "./family.js";

/** `undeclared-output-key`: its code, title, help and severity, as every front-end prints them. */
export const UNDECLARED_OUTPUT_KEY = defineKind({
  id: "undeclared-output-key",
  code: 92010,
  title: "structuredContent key the run time refuses on every call",
  help: "A returned object's structuredContent carries a key (often through a spread) that the tool's declared return type does not declare, or the declared return type declares one that the tool's `output` does not: the net accepts sources, table, charts, force and the keys of the tool's `output` only. Declare it (`output` and `DataResult<Extra>`) or leave it out.",
  severity: "error",
});

/**
 * `undeclared-output-key`: a structuredContent key the net refuses on every call, seen from both
 * sides: a returned object carries a key its declared return type does not declare (often through
 * a spread), or the declared return type declares a key the registration's `output` does not
 * (output-keys.ts).
 */
export const undeclaredOutputKey = {
  name: "undeclared-output-key",
  declares: [UNDECLARED_OUTPUT_KEY],
  kinds: ["undeclared-output-key"],
  phase: "registered",
  detect(context, registered): readonly Finding[] {
    let findings: Finding[] | undefined;
    const { site, tool, implementation } = registered;
    const siteFile = site.getSourceFile();
    for (const { node: structured, keys, declared } of undeclaredOutputKeysOf(context, implementation)) {
      const { node, here } = underlined(context, registered, structured);
      (findings ??= []).push(findingOf(UNDECLARED_OUTPUT_KEY, node, site, tool, undeclaredOutputKeysMessage(tool, keys, declared, here ? undefined : locate(structured, siteFile))));
    }
    const beyondOutput = keysBeyondOutputOf(context, registered.contract, registered.decoratorType, registered.mark, implementation);
    if (beyondOutput !== undefined) {
      const { node: declaredType, keys, output } = beyondOutput;
      const { node, here } = underlined(context, registered, declaredType);
      (findings ??= []).push(findingOf(UNDECLARED_OUTPUT_KEY, node, site, tool, keysBeyondOutputMessage(tool, keys, output, here ? undefined : locate(declaredType, siteFile))));
    }
    return findings ?? NO_FINDINGS;
  },
} satisfies RegisteredFamily;

/** Keys of a returned structuredContent that the declared return type does not declare: the net refuses them on every call. */
export function undeclaredOutputKeysMessage(tool: string | undefined, keys: readonly string[], declared: readonly string[], where: string | undefined): string {
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
export function keysBeyondOutputMessage(tool: string | undefined, keys: readonly string[], output: readonly string[], where: string | undefined): string {
  const quoted = keys.map((key) => `'${key}'`).join(", ");
  const plural = keys.length > 1;
  const declares = output.length === 0 ? "has no output" : `declares ${output.map((key) => `'${key}'`).join(", ")} only`;
  return (
    `${capitalize(quoteTool(tool))} is declared to return structuredContent with ${plural ? "the keys" : "the key"} ${quoted}${where === undefined ? "" : ` (at ${where})`}, ` +
    `but its registration ${declares}: the registry accepts sources, table, charts, force and the output's keys, and refuses ${plural ? "them" : "it"} on every call. ` +
    `Declare ${plural ? "them" : "it"} in the tool's output (registry.tool({ output: { ${keys[0]}: … } })), or drop ${plural ? "them" : "it"} from the return type.`
  );
}
