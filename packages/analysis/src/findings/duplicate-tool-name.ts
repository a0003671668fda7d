import type { Finding } from "../api.js";
import type { Context } from "../context.js";
import { capitalize, quoteTool } from "../messages.js";
import { type RegistryIdentity, registryOf } from "../names.js";
import { locate } from "../syntax.js";
import { defineKind, type FileFamily, findingOf, type Judgement } from "./family.js";

/** `duplicate-tool-name`: its code, title, help and severity, as every front-end prints them. */
export const DUPLICATE_TOOL_NAME = defineKind({
  id: "duplicate-tool-name",
  code: 92006,
  title: "Two tools with one name on one registry",
  help: "A registry serves one tool per name and throws at start-up when a second registration takes a name already registered. Give one of them another name with `{ name }`.",
  severity: "error",
});

/** `duplicate-tool-name`: a second registration of a served name on one registry, where the registry throws at start-up. */
export const duplicateToolName = {
  name: "duplicate-tool-name",
  declares: [DUPLICATE_TOOL_NAME],
  kinds: ["duplicate-tool-name"],
  phase: "file",
  watch({ context }) {
    const names = new ServedNames();
    return { registered: (judgement) => names.add(context, judgement) };
  },
} satisfies FileFamily;

/**
 * The served names of a file's registrations: the second registration of a name on one registry
 * is a finding naming the first's place (the registry throws there at start-up). Within the file,
 * as every front-end judges a file at a time. Which registry a registration is made on is asked
 * only of registrations that share a name.
 */
class ServedNames {
  private readonly byName = new Map<string, { readonly judgement: Judgement; registry?: RegistryIdentity | null }[]>();

  add(context: Context, judgement: Judgement): Finding | undefined {
    const { registration, producer, nameNode } = judgement;
    const tool = registration.tool;
    if (tool === undefined || producer === undefined || nameNode === undefined) return undefined;
    const earlier = this.byName.get(tool);
    const entry: { readonly judgement: Judgement; registry?: RegistryIdentity | null } = { judgement };
    if (earlier === undefined) {
      this.byName.set(tool, [entry]);
      return undefined;
    }
    earlier.push(entry);
    const registryOfEntry = (candidate: typeof entry): RegistryIdentity | undefined => {
      if (candidate.registry === undefined) candidate.registry = registryOf(context, candidate.judgement.producer!) ?? null;
      return candidate.registry ?? undefined;
    };
    const registry = registryOfEntry(entry);
    if (registry === undefined) return undefined;
    const first = earlier.find((candidate) => candidate !== entry && registryOfEntry(candidate)?.declaration === registry.declaration);
    if (first === undefined) return undefined;
    const { site } = registration;
    return findingOf(DUPLICATE_TOOL_NAME, nameNode, site, tool, duplicateToolNameMessage(tool, registry.name, locate(first.judgement.registration.site, site.getSourceFile())));
  }
}

export function duplicateToolNameMessage(tool: string, registry: string, first: string): string {
  return (
    `${capitalize(quoteTool(tool))} is registered twice on '${registry}': first at ${first}, then here, and the registry throws at start-up. ` +
    `Give one of them another name with { name: "…" }.`
  );
}
