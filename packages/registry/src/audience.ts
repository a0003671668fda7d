import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerNotifier } from "@modelcontextprotocol/server";
import { resourceUri, type ResourceUri } from "./resource-uri.js";

/** The lists a client may be told have changed. */
export type ListKind = "tools" | "resources" | "prompts";

/** Resources one connection may subscribe to at once: a client cannot grow the server's memory without bound. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1_024;

/** The words of a 2025-era request the stateless mode cannot serve: why, and what to do instead. */
export function statelessRefusal(what: string): string {
  return (
    `${what} needs a session, and this server serves 2025-era clients statelessly (serveHttp() without sessions): ` +
    "each request reaches a new server, so nothing outlives it — no stream carries a later notification, and a request to the client would be answered to a server that did not ask. " +
    "Serve with serveHttp({ sessions: true }) (behind a balancer, route on Mcp-Session-Id), or use a 2026-07-28 client."
  );
}

interface Member {
  /**
   * Resources the client subscribed to (2025-era `resources/subscribe`): by the URI the SDK reads
   * (resource-uri.ts), each with the URI as the client last wrote it, which its notifications carry.
   */
  readonly subscriptions: Map<string, ResourceUri>;
  /**
   * A 2026-07-28 connection: its entry (the SDK's stdio `serveStdio`) routes each notification to
   * the `subscriptions/listen` streams whose filter asks for it, so every one is sent to it.
   */
  readonly modern: boolean;
}

/** What the audience asks of the resources served. */
export interface ServedUris {
  /** Whether a resource of the registry's (`registry.resource()`), enabled, has the URI `uri`, or a template of its has it as an instance. */
  serves(uri: ResourceUri): boolean;
  /** Whether the registry withdrew (disabled or removed) a resource or template of `uri`, and none of the registry's serves it now. */
  withdrew(uri: ResourceUri): boolean;
  /** Whether a resource registered on `server` itself, with the SDK's `registerResource`, serves `uri`, enabled. */
  servesOwn(server: McpServer, uri: ResourceUri): boolean;
}

/**
 * Who hears of a change while a registry serves: each server that stays connected to its client
 * (a stdio connection, a session of the sessionful HTTP mode), with the resources its client
 * subscribed to; and the notifier of each 2026-07-28 HTTP handler, which writes to the
 * `subscriptions/listen` streams. A server leaves when it closes.
 */
export class Audience {
  private readonly members = new Map<McpServer, Member>();
  private readonly notifiers = new Set<ServerNotifier>();

  /** `served`: what the registry, and each server of its own registrations, serves (a subscription to anything else is refused), and what the registry withdrew. */
  constructor(private readonly served: ServedUris) {}

  /** Whether `server` serves `uri`: a resource of the registry's, or one registered on that server itself. */
  private serves(server: McpServer, uri: ResourceUri): boolean {
    return this.served.serves(uri) || this.served.servesOwn(server, uri);
  }

  /**
   * Follows `server` until it closes, and answers its client's `resources/subscribe` and
   * `resources/unsubscribe` (a 2025-era connection: a 2026-07-28 one subscribes through its listen
   * filter, which its entry holds).
   */
  join(server: McpServer, modern: boolean): void {
    const member: Member = { subscriptions: new Map(), modern };
    this.members.set(server, member);
    const low = server.server;
    const closed = low.onclose;
    low.onclose = () => {
      this.members.delete(server);
      closed?.();
    };
    if (modern) return;
    // A resource is subscribed to once, whichever way the client writes it (as the SDK reads it):
    // subscribed again in another spelling, its notifications carry the new one; unsubscribed in any.
    low.setRequestHandler("resources/subscribe", (request) => {
      const uri = resourceUri(request.params.uri);
      if (!this.serves(server, uri)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${uri.written.slice(0, 200)} not found: this server serves no resource of that URI`);
      if (!member.subscriptions.has(uri.read) && member.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
        throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Too many subscriptions: a connection may hold ${MAX_SUBSCRIPTIONS_PER_CONNECTION}; unsubscribe from one first`);
      }
      member.subscriptions.set(uri.read, uri);
      return {};
    });
    low.setRequestHandler("resources/unsubscribe", (request) => {
      member.subscriptions.delete(resourceUri(request.params.uri).read);
      return {};
    });
  }

  /** Hears of the changes for the 2026-07-28 HTTP path (its `subscriptions/listen` streams) until the returned function is called. */
  addNotifier(notifier: ServerNotifier): () => void {
    this.notifiers.add(notifier);
    return () => void this.notifiers.delete(notifier);
  }

  /**
   * Ends the 2025-era subscriptions a withdrawn registration served (`covers`: its URI, its
   * template's instances), where nothing serves their URI now — neither another of the registry's
   * nor one registered on that server itself: as a subscription to a URI never served is refused,
   * one to a URI the registry stopped serving is held no more, so that a resource served again —
   * enabled, or registered anew at that URI — is not announced to a subscription made to what was
   * withdrawn. The SDK keeps no subscriptions of its own (the author's `resources/subscribe`
   * handler does), and the specification says nothing of them outliving their resource; a client
   * that wants its changes again subscribes again, as to a resource new to it. A resource
   * registered on a server itself is the author's, as on the SDK's own server: the registry ends
   * no subscription when its SDK handle removes it.
   */
  withdrawn(covers: (uri: ResourceUri) => boolean): void {
    for (const [server, member] of this.members) {
      for (const [read, uri] of member.subscriptions) if (covers(uri) && !this.serves(server, uri)) member.subscriptions.delete(read);
    }
  }

  /**
   * `notifications/resources/updated` to every client subscribed to `uri` (a 2025-era
   * subscription, a 2026-07-28 listen stream's filter), as the SDK's `sendResourceUpdated` and its
   * listen streams send it: for any URI the author names, one the registry never served included.
   * Only a URI the registry withdrew (its resource or template disabled or removed) and no longer
   * serves is told to no one — no client could read it again — but on a server whose own
   * registration (the SDK's `registerResource` on it) still serves it: that one is the author's.
   * A listen stream's filter is the client's, fixed when the stream opened and matched by the SDK
   * against the URI alone: served again, the URI reaches the streams whose filter names it.
   *
   * A 2025-era subscription is matched as the SDK matches a read (resource-uri.ts), and told the
   * URI as its client wrote it: a client finds the subscription a notification is for by that
   * URI, and the specification's `uri` is the resource's, which the client named — the SDK's
   * `sendResourceUpdated` sends whatever it is given, knowing no subscription. A listen stream's
   * filter is the SDK's to match, as written.
   */
  resourceUpdated(written: string): void {
    const uri = resourceUri(written);
    const withdrawn = this.served.withdrew(uri);
    for (const [server, member] of this.members) {
      const subscribed = member.modern ? uri : member.subscriptions.get(uri.read);
      if (subscribed === undefined) continue;
      if (withdrawn && !this.served.servesOwn(server, uri)) continue;
      send(server, () => server.server.sendResourceUpdated({ uri: subscribed.written }));
    }
    // The 2026-07-28 HTTP path's servers are built per request: none has registrations of its own.
    if (withdrawn) return;
    for (const notifier of this.notifiers) notifier.resourceUpdated(written);
  }

  /**
   * How many servers that stay connected do not offer `kind`: their capabilities were fixed at
   * their handshake, so one of that kind registered while serving does not reach them.
   */
  lacking(kind: "resources" | "prompts"): number {
    let lacking = 0;
    for (const server of this.members.keys()) if (server.server.getCapabilities()[kind] === undefined) lacking++;
    return lacking;
  }

  /**
   * `notifications/<kind>/list_changed` to every client that stays connected or listens; `"notifiers"`:
   * to the listen streams only (the SDK told the connected ones itself).
   */
  listChanged(kind: ListKind, only?: "notifiers"): void {
    if (only === undefined) {
      for (const server of this.members.keys()) {
        send(server, () => (kind === "tools" ? server.server.sendToolListChanged() : kind === "resources" ? server.server.sendResourceListChanged() : server.server.sendPromptListChanged()));
      }
    }
    for (const notifier of this.notifiers) {
      if (kind === "tools") notifier.toolsChanged();
      else if (kind === "resources") notifier.resourcesChanged();
      else notifier.promptsChanged();
    }
  }
}

/** A notification to a server's client; one whose connection is going away is not a failure. */
function send(server: McpServer, notify: () => Promise<void>): void {
  if (!server.isConnected()) return;
  try {
    notify().catch(() => undefined);
  } catch {
    // Thrown before sending (the connection closed meanwhile): nothing to tell.
  }
}
