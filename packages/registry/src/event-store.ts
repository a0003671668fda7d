import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

/** Bounds of a `MemoryEventStore`. */
export interface MemoryEventStoreLimits {
  /** Events kept, over all the session's streams: past it the oldest go first. Default 1,000. */
  readonly maxEvents?: number;
  /** How long an event stays replayable, in ms. Default 5 minutes. */
  readonly maxAgeMs?: number;
}

interface StoredEvent {
  readonly id: EventId;
  readonly streamId: StreamId;
  readonly message: JSONRPCMessage;
  readonly at: number;
}

/** Between a stream's id and an event's number in an event id; the SDK's stream ids are UUIDs or `_GET_stream`. */
const SEPARATOR = "::";

/**
 * The event store of one session of `serveHttp({ sessions: true })`: what the SDK's session
 * transport writes to its event streams, kept so a client that lost a stream resumes it with
 * `Last-Event-ID` (and so the transport sends priming events). In memory and bounded: a client
 * that never comes back costs at most `maxEvents` events, each for `maxAgeMs`. An event id names
 * its stream, so a resumption replays exactly that stream's events after it.
 */
export class MemoryEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;
  /** In the order stored: ids grow, so the oldest is first. */
  private readonly events: StoredEvent[] = [];
  private next = 0;

  constructor(limits: MemoryEventStoreLimits = {}) {
    this.maxEvents = limits.maxEvents ?? 1_000;
    this.maxAgeMs = limits.maxAgeMs ?? 5 * 60_000;
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const at = Date.now();
    this.evict(at);
    // A number of fixed width: ids of one stream compare as their order.
    const id = `${streamId}${SEPARATOR}${String(this.next++).padStart(12, "0")}`;
    this.events.push({ id, streamId, message, at });
    if (this.events.length > this.maxEvents) this.events.shift();
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const cut = eventId.lastIndexOf(SEPARATOR);
    return Promise.resolve(cut === -1 ? undefined : eventId.slice(0, cut));
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    // The SDK answers a resumption it cannot place with an error of its own.
    if (streamId === undefined) throw new Error(`Last-Event-ID ${JSON.stringify(lastEventId.slice(0, 80))} names no stream of this session`);
    this.evict(Date.now());
    for (const event of this.events) {
      // The priming event stores an empty message: there is nothing to send again for it.
      if (event.streamId === streamId && event.id > lastEventId && Object.keys(event.message).length > 0) await send(event.id, event.message);
    }
    return streamId;
  }

  private evict(now: number): void {
    let expired = 0;
    while (expired < this.events.length && now - this.events[expired]!.at > this.maxAgeMs) expired++;
    if (expired > 0) this.events.splice(0, expired);
  }
}
