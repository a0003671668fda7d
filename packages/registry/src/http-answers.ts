import { SUBSCRIPTION_ID_META_KEY } from "@modelcontextprotocol/server";
import type { SerialisedLists } from "./tools-list.js";

/*
 * What serveHttp does to the SDK's answers on their way to the client: a `tools/list` answer gets
 * the tools serialised once per tool table, and a `subscriptions/listen` stream is bounded by
 * the idle policy and ended gracefully on shutdown.
 */

/**
 * A `tools/list` answer as the SDK wrote it — with the table's placeholder in place of the tools
 * — and the serialised tools put back (`lists.splice`). Any other answer (an error, say)
 * passes unchanged.
 */
export async function withSerialisedTools(response: Response, lists: SerialisedLists): Promise<Response> {
  if (response.body === null) return response;
  const text = await response.text();
  const chunks = lists.splice(text);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  const body =
    chunks === undefined
      ? text
      : new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(chunk);
            controller.close();
          },
        });
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

const COLON = 0x3a;
/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The `subscriptions/listen` streams of one serving. Each ends after `idleMs` without a
 * notification (the SDK's keep-alive comments do not count), and all of them at shutdown, the
 * way the SDK ends a subscription gracefully: with the listen request's result (`resultType:
 * "complete"`), then the end of the stream. A client that still wants changes listens again.
 */
export class ListenStreams {
  private readonly ends = new Set<() => void>();

  constructor(private readonly idleMs: number) {}

  /** `response`, the SDK's answer to the listen request `id`, bounded; an answer that is no stream passes unchanged. */
  bound(response: Response, id: string | number): Response {
    if (response.body === null || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return response;
    const reader = response.body.getReader();
    const ends = this.ends;
    const idleMs = this.idleMs;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    let end = (): void => {};
    const finish = (): void => {
      finished = true;
      clearTimeout(timer);
      ends.delete(end);
    };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        end = () => {
          if (finished) return;
          finish();
          const result = { jsonrpc: "2.0", id, result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } };
          controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${JSON.stringify(result)}\n\n`));
          controller.close();
          // The SDK tears its subscription down when its stream is cancelled.
          reader.cancel().catch(() => {});
        };
        ends.add(end);
        timer = setTimeout(end, Math.min(idleMs, MAX_TIMER_MS));
      },
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch {
          chunk = { done: true, value: undefined };
        }
        if (finished) return;
        if (chunk.done) {
          finish();
          controller.close();
          return;
        }
        // A notification restarts the idle clock; a keep-alive comment (":") does not.
        if (chunk.value[0] !== COLON) timer?.refresh();
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** Ends every stream now (shutdown). */
  endAll(): void {
    for (const end of [...this.ends]) end();
  }
}
