import { randomUUID } from "node:crypto";
import type { ListToolsResult, Tool } from "@modelcontextprotocol/server";

/*
 * A `tools/list` answer serialised once per tool table, not per request: a server built for a
 * serving layer answers with a placeholder in place of its tools, and the serving layer (stdio.ts,
 * http-answers.ts) puts the table's serialised tools back as it writes the answer. One
 * `SerialisedLists` per serving, passed down to its servers in their serving context (server.ts):
 * the serving layer holds the tables its servers answered with, and reaches back into no server.
 */

/** How a placeholder starts; the rest is random, so no tool or client can forge one. */
const PLACEHOLDER_PREFIX = "sourced:tools-list:";

/** What a placeholder stands for: a table's tools, serialised once (the first time a serving layer sends them). */
export interface SerialisableTools {
  readonly serialisedTools: Buffer;
}

/** The placeholders one serving's servers answered `tools/list` with, and the tables they stand for (kept only while a table lives). */
export class SerialisedLists {
  private readonly byPlaceholder = new Map<string, WeakRef<SerialisableTools>>();
  private readonly placeholders = new WeakMap<SerialisableTools, string>();

  /**
   * What a server answers `tools/list` with: the list with a placeholder in place of the tools of
   * `table`, which `splice` replaces as the answer is written. A placeholder left in an answer is
   * no list a client accepts.
   */
  placeholder(table: SerialisableTools): ListToolsResult {
    let placeholder = this.placeholders.get(table);
    if (placeholder === undefined) {
      placeholder = `${PLACEHOLDER_PREFIX}${randomUUID()}`;
      for (const [key, held] of this.byPlaceholder) if (held.deref() === undefined) this.byPlaceholder.delete(key);
      this.placeholders.set(table, placeholder);
      this.byPlaceholder.set(placeholder, new WeakRef(table));
    }
    return { tools: placeholder as unknown as Tool[] };
  }

  /**
   * A serialised JSON-RPC message (a `tools/list` answer) with the serialised tools put in place
   * of its table's placeholder, as the chunks to write in order (the tools' chunk is the table's
   * own, never copied); `undefined` when it carries none. Only the start of the message is
   * searched (the result comes first, its tools first in it), so any other message costs nothing.
   */
  splice(message: string): Buffer[] | undefined {
    const head = message.slice(0, 256);
    const start = head.indexOf(`"tools":"${PLACEHOLDER_PREFIX}`);
    if (start === -1) return undefined;
    const valueStart = start + '"tools":'.length;
    const valueEnd = head.indexOf('"', valueStart + 1) + 1;
    const table = valueEnd === 0 ? undefined : this.byPlaceholder.get(head.slice(valueStart + 1, valueEnd - 1))?.deref();
    if (table === undefined) return undefined;
    return [Buffer.from(message.slice(0, valueStart)), table.serialisedTools, Buffer.from(message.slice(valueEnd))];
  }
}
