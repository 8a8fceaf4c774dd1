import type { Kysely } from 'kysely';
import type pg from 'pg';
import { loadPg } from './pg-driver';
import type { LiveCollection } from '../../common';
import type { Database } from './schema';

/** A document's filterable fields, as live queries compare them (see `LiveWhere`). */
export type FilterableFields = Record<string, string | number | boolean | string[]>;

/** A committed change to one document; subscribers re-read the document, so mainly its address travels. */
export interface Change {
  /** `sessions`: the session with this id (its hash) ended; its sockets are signed out everywhere. */
  collection: LiveCollection | 'sessions';
  id: string;
  /** `presence`: only a user's `online` flag changed, which no project list shows. */
  scope?: 'presence';
  /**
   * The document's filterable fields after the change (`null`: it no longer exists), when the publisher
   * knows them. Every instance then tells which list queries the change affects without reading the
   * document back: one database round trip less between a write and its fan-out.
   */
  after?: FilterableFields | null;
}

/**
 * A NOTIFY built by the statement that makes the changes (`ChangeBus.notifyFromStatement`): its payload is
 * `head`, then `perRow`'s text of each row the statement wrote, then `]`.
 */
export interface StatementNotify {
  channel: string;
  /** `[` and the JSON of the changes sent in any case. */
  head: string;
  /** Per row key, `,` and the JSON of that row's change. */
  perRow: ReadonlyMap<string, string>;
}

/** `resync` asks every subscription to re-evaluate, e.g. after notifications may have been missed. */
export type ChangeListener = (changes: Change[] | 'resync') => void;

export interface ChangeBus {
  /** Call only after the transaction that made the changes has committed. */
  publish(changes: Change[]): Promise<void>;
  /**
   * Call inside the transaction that makes the changes; returns those still to `publish` after its commit.
   * PostgreSQL delivers a NOTIFY at commit, in commit order, so it goes inside the transaction: sent after
   * it, the NOTIFY is a transaction of its own, whose commit waits for a second sync of the WAL to disk
   * (docs/decisions/033-list-json-and-one-sync-per-write.md). In process (SQLite) nothing can wait for the commit: all of
   * them are returned.
   */
  publishAtCommit(trx: Kysely<Database>, changes: Change[]): Promise<Change[]>;
  /**
   * For a write that is one statement: the NOTIFY that statement can send itself, so that the statement's
   * own commit delivers its changes and the write needs no transaction. `always` goes out whatever the
   * statement wrote; `perRow` holds a change per key, sent only for the rows the statement reports written.
   * Null in process (SQLite: nothing can wait for the commit) and when the changes might not fit one NOTIFY.
   */
  notifyFromStatement(always: Change[], perRow: ReadonlyMap<string, Change>): StatementNotify | null;
  subscribe(listener: ChangeListener): () => void;
  close(): Promise<void>;
}

/**
 * Subscribes a cache that forgets what each change touches; after a resync, when which changes were
 * missed is unknown, it forgets everything instead.
 */
export function forgetOnChange(
  bus: ChangeBus,
  { forget, forgetAll }: { forget: (change: Change) => void; forgetAll: () => void },
): () => void {
  return bus.subscribe((changes) => {
    if (changes === 'resync') forgetAll();
    else for (const change of changes) forget(change);
  });
}

class Listeners {
  private readonly set = new Set<ChangeListener>();
  add(listener: ChangeListener): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  emit(changes: Change[] | 'resync'): void {
    for (const listener of this.set) listener(changes);
  }
}

/** One process on SQLite: changes go straight to this process's subscribers. */
export class LocalChangeBus implements ChangeBus {
  private readonly listeners = new Listeners();
  async publish(changes: Change[]): Promise<void> {
    if (changes.length > 0) this.listeners.emit(changes);
  }
  async publishAtCommit(_trx: Kysely<Database>, changes: Change[]): Promise<Change[]> {
    return changes;
  }
  notifyFromStatement(): null {
    return null;
  }
  subscribe(listener: ChangeListener): () => void {
    return this.listeners.add(listener);
  }
  async close(): Promise<void> {}
}

const CHANNEL = 'dojo_changes';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;

/**
 * The changes as JSON arrays that each fit in one NOTIFY, in order. A change too large to travel whole
 * travels without its `after` fields, which receivers then read from the database.
 */
export function notifyPayloads(changes: Change[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let batchBytes = 2;
  for (const change of changes) {
    let json = JSON.stringify(change);
    if (Buffer.byteLength(json) + 2 > MAX_PAYLOAD_BYTES) {
      const { after: _dropped, ...address } = change;
      json = JSON.stringify(address);
    }
    const bytes = Buffer.byteLength(json) + 1;
    if (batch.length > 0 && batchBytes + bytes > MAX_PAYLOAD_BYTES) {
      payloads.push(`[${batch.join(',')}]`);
      batch = [];
      batchBytes = 2;
    }
    batch.push(json);
    batchBytes += bytes;
  }
  if (batch.length > 0) payloads.push(`[${batch.join(',')}]`);
  return payloads;
}

/**
 * The NOTIFY of `ChangeBus.notifyFromStatement`, or null when the payload might not fit one NOTIFY (every
 * `perRow` change written): the caller then writes in a transaction and publishes at its commit, which splits.
 */
export function statementNotify(
  channel: string,
  always: Change[],
  perRow: ReadonlyMap<string, Change>,
): StatementNotify | null {
  if (always.length === 0) return null;
  const head = `[${always.map((change) => JSON.stringify(change)).join(',')}`;
  const rows = new Map([...perRow].map(([key, change]) => [key, `,${JSON.stringify(change)}`]));
  let bytes = Buffer.byteLength(head) + 1;
  for (const text of rows.values()) bytes += Buffer.byteLength(text);
  return bytes > MAX_PAYLOAD_BYTES ? null : { channel, head, perRow: rows };
}

const RECONNECT_MS = 1000;

/**
 * PostgreSQL: NOTIFY carries every change to every instance, this one included, in commit order.
 * A dedicated connection LISTENs; if it drops, it reconnects and asks for a resync because
 * notifications sent meanwhile are lost.
 */
export class PostgresChangeBus implements ChangeBus {
  private readonly listeners = new Listeners();
  private client: pg.Client | null = null;
  private closed = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    private readonly url: string,
    private readonly notify: (payload: string, within?: Kysely<Database>) => Promise<void>,
  ) {}

  /** `notify` sends one NOTIFY on the channel, inside `within` when given. */
  static async start(
    url: string,
    notify: (channel: string, payload: string, within?: Kysely<Database>) => Promise<void>,
  ): Promise<PostgresChangeBus> {
    const bus = new PostgresChangeBus(url, (payload, within) => notify(CHANNEL, payload, within));
    await bus.connect();
    return bus;
  }

  async publish(changes: Change[]): Promise<void> {
    for (const payload of notifyPayloads(changes)) await this.notify(payload);
  }

  async publishAtCommit(trx: Kysely<Database>, changes: Change[]): Promise<Change[]> {
    for (const payload of notifyPayloads(changes)) await this.notify(payload, trx);
    return [];
  }

  notifyFromStatement(always: Change[], perRow: ReadonlyMap<string, Change>): StatementNotify | null {
    return statementNotify(CHANNEL, always, perRow);
  }

  subscribe(listener: ChangeListener): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private async connect(): Promise<void> {
    const pg = await loadPg();
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        this.listeners.emit(JSON.parse(message.payload) as Change[]);
      } catch {
        this.listeners.emit('resync');
      }
    });
    client.on('error', () => this.scheduleReconnect(client));
    client.on('end', () => this.scheduleReconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
  }

  private scheduleReconnect(failed: pg.Client): void {
    if (this.closed || this.client !== failed) return;
    this.client = null;
    this.retryConnect();
  }

  private retryConnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect()
        .then(() => this.listeners.emit('resync'))
        .catch(() => this.retryConnect());
    }, RECONNECT_MS);
  }
}
