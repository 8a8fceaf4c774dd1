import type { Kysely } from 'kysely';
import { newId } from '../core/ids';
import { nowIso } from '../core/time';
import type { Database } from '../db/schema';
import type { EventOutbox, OutgoingEvent } from '../db/unit-of-work';
import { insertDeliveries, listEnabledEventLists } from './webhooks-repository';

/**
 * The webhooks' side of the unit of work (db/unit-of-work.ts `EventOutbox`): a write's events become
 * delivery rows in the write's own transaction, so nothing is sent before the commit and nothing is lost
 * after it (docs/decisions/077-webhook-delivery-guarantees.md).
 */
export class WebhookOutbox implements EventOutbox {
  /** The events some enabled endpoint hears, as this instance last read them, and when. */
  private heard: { events: Set<string>; readAt: number } | undefined;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      /** After a commit that wrote deliveries: the dispatcher of this instance sends them. */
      onWritten: () => void;
      /**
       * How long this instance trusts what it read of the endpoints when a one-statement write asks
       * whether it may skip the outbox (0: never trusted, every such write takes a transaction).
       */
      listenersCacheMs: number;
    },
  ) {}

  async writeWithin(trx: Kysely<Database>, events: readonly OutgoingEvent[]): Promise<boolean> {
    const now = nowIso();
    let written = 0;
    // In declared order: their sequence numbers, and so their order of delivery, follow it.
    for (const event of events) {
      const id = newId();
      const payload = JSON.stringify({ id, ...event.payload });
      written += await insertDeliveries(trx, {
        id,
        type: event.type,
        projectId: event.projectId,
        payload,
        now,
      });
    }
    return written > 0;
  }

  nobodyHears(events: readonly OutgoingEvent[]): boolean {
    const heard = this.heard;
    const age = heard ? Date.now() - heard.readAt : Infinity;
    if (!heard || age >= this.deps.listenersCacheMs) {
      this.refresh();
      return false;
    }
    // Read again in the background past half the trusted time, so that a steady stream of writes keeps
    // their one statement instead of one of them taking a transaction each time the knowledge runs out.
    if (age >= this.deps.listenersCacheMs / 2) void this.refresh();
    return events.every((event) => !heard.events.has(event.type));
  }

  written(): void {
    this.deps.onWritten();
  }

  /** Reads again which events are heard (at once after this instance changed an endpoint). */
  refresh(): Promise<void> {
    this.reading ??= listEnabledEventLists(this.deps.db)
      .then((lists) => {
        const events = new Set<string>();
        for (const list of lists) for (const event of JSON.parse(list) as string[]) events.add(event);
        this.heard = { events, readAt: Date.now() };
      })
      .catch(() => {
        this.heard = undefined;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /** Forgets what it read, so that no write skips the outbox on what may be out of date. */
  forget(): void {
    this.heard = undefined;
  }
}
