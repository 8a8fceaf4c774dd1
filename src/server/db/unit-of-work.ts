import type { Kysely } from 'kysely';
import type { Change, ChangeBus, StatementNotify } from './change-bus';
import type { Database } from './schema';

/** What writing a write's notifications left to do once its transaction committed. */
export interface Notified {
  /** To publish with the write's own changes: the bells of those already told. */
  changes: Change[];
  /** They were queued as one job, to hand on after the commit. */
  queued: boolean;
}

/**
 * Writes the notifications a write causes. The notifications feature implements it (db/ knows no feature):
 * `Draft` says who hears of what, `Row` is one notification as a statement inserts it.
 */
export interface Notifier<Draft, Row> {
  /** Inside the write's transaction: its notifications, written or, when they are many, queued as a job. */
  writeWithin(trx: Kysely<Database>, drafts: readonly Draft[]): Promise<Notified>;
  /**
   * The notifications as rows for the write's own statement to insert, with the change of each recipient
   * whose row it writes; null when they are to be queued.
   */
  rowsForStatement(drafts: readonly Draft[]): { rows: Row[]; changes: ReadonlyMap<string, Change> } | null;
  /** After the commit of a write that queued its notifications: the job runs once its answer has left. */
  queued(): void;
}

/**
 * Something that happened, for those outside the install who asked to hear of it (outgoing webhooks,
 * docs/decisions/077-webhook-delivery-guarantees.md). db/ knows no feature: `type` and `payload` are theirs.
 */
export interface OutgoingEvent {
  type: string;
  /** Deliveries of one project's events go out in commit order; null for an event of no project. */
  projectId: string | null;
  payload: Record<string, unknown>;
}

/** Writes a write's outgoing events into a durable outbox inside its transaction (the webhooks feature). */
export interface EventOutbox {
  /** Inside the write's transaction; true when it wrote a delivery for someone. */
  writeWithin(trx: Kysely<Database>, events: readonly OutgoingEvent[]): Promise<boolean>;
  /**
   * Whether, as far as this instance knows, no endpoint hears any of `events`, so a one-statement write
   * may leave them out; false whenever unsure.
   */
  nobodyHears(events: readonly OutgoingEvent[]): boolean;
  /** After the commit of a write that wrote deliveries: they may go. */
  written(): void;
}

/** What one write declares: what changed, whom to tell, and which cached bodies no longer hold. */
export class Write<Draft = never> {
  private readonly declaredChanges: Change[] = [];
  private readonly declaredDrafts: Draft[] = [];
  private readonly declaredEvents: OutgoingEvent[] = [];
  private readonly forgets: (() => void)[] = [];

  /** Published at the commit: subscribers on every instance hear of them. */
  changed(...changes: Change[]): this {
    this.declaredChanges.push(...changes);
    return this;
  }

  /** In order of precedence: someone an earlier draft names is not told again. */
  notify(...drafts: Draft[]): this {
    this.declaredDrafts.push(...drafts);
    return this;
  }

  /** Written to the outbox in the write's transaction: sent only once it commits, never lost after. */
  emit(...events: OutgoingEvent[]): this {
    this.declaredEvents.push(...events);
    return this;
  }

  /**
   * Run on this instance right after the commit, before the write answers, so its next request reads the
   * write. In process (SQLite) the changes go out after it; on PostgreSQL the NOTIFY leaves with the commit,
   * so this instance may hear it first: the caches also forget as changes arrive (as other instances do).
   */
  forgetAfterCommit(forget: () => void): this {
    this.forgets.push(forget);
    return this;
  }

  get changes(): readonly Change[] {
    return this.declaredChanges;
  }

  get drafts(): readonly Draft[] {
    return this.declaredDrafts;
  }

  get events(): readonly OutgoingEvent[] {
    return this.declaredEvents;
  }

  /** The unit of work's: runs the declared forgets once the write has committed. */
  forgetAll(): void {
    for (const forget of this.forgets) forget();
  }
}

/** The parts a one-statement write adds to its statement: the notification rows and its own NOTIFY. */
export interface StatementParts<Row> {
  notifications: Row[];
  notify: StatementNotify;
}

/** A write whose declaration is known before it runs (`UnitOfWork.runDeclared`). */
export interface DeclaredWrite<T, Row> {
  /** The write inside the unit's transaction; null when it found it had nothing to write. */
  inTransaction(trx: Kysely<Database>): Promise<T | null>;
  /**
   * The same write as one statement that also inserts `notifications` and sends `notify` for what it
   * wrote, so that its own commit makes all of it durable and delivers the changes; null as above. Absent
   * where the engine or this write's shape allows no such statement.
   */
  asOneStatement?: ((db: Kysely<Database>, parts: StatementParts<Row>) => Promise<T | null>) | undefined;
}

interface Committed {
  unpublished: Change[];
  queued: boolean;
  /** Deliveries were written to the event outbox. */
  emitted?: boolean;
}

/**
 * Every write's one path (docs/decisions/048-one-unit-of-work.md): the transaction, its changes published at
 * the commit (inside it where the bus can, the rest right after), the notifications it causes (written
 * inside, or queued and handed on after), and the cached bodies it makes stale forgotten after the commit.
 * A service only declares what changed and whom to tell. The durable wait is not here: the answer of the
 * request waits for it once, whatever the request wrote (app.ts `answerOnlyWhenDurable`), and live fan-out
 * and queued jobs wait for that same sync (`afterAnswers`).
 */
export class UnitOfWork<Draft = unknown, Row = unknown> {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      changes: ChangeBus;
      /** Absent for a unit whose writes tell nobody (such as the one that writes queued notifications). */
      notifier?: Notifier<Draft, Row>;
      /** Where declared outgoing events go; absent, they are dropped (nothing hears them). */
      events?: EventOutbox;
    },
  ) {}

  /** Runs `work` in one transaction; what it declares on `write` is carried out if it commits. */
  run<T>(work: (trx: Kysely<Database>, write: Write<Draft>) => Promise<T>): Promise<T> {
    const write = new Write<Draft>();
    return this.transact(
      write,
      (trx) => work(trx, write),
      () => true,
    );
  }

  /**
   * A write declared before it runs, carried out only if it writes (not null). Where the bus can send a
   * NOTIFY from a statement and the notifications are written inline, the write is one statement and no
   * transaction (docs/decisions/041-create-in-one-statement.md); otherwise it runs as `run` does.
   */
  async runDeclared<T>(write: Write<Draft>, statement: DeclaredWrite<T, Row>): Promise<T | null> {
    const parts = statement.asOneStatement ? this.statementParts(write) : null;
    if (statement.asOneStatement && parts) {
      const result = await statement.asOneStatement(this.deps.db, parts);
      if (result !== null) write.forgetAll();
      return result;
    }
    return this.transact(
      write,
      (trx) => statement.inTransaction(trx),
      (result) => result !== null,
    );
  }

  /**
   * For writes that are single statements committing on their own (no transaction to wait for): what
   * `work` declares goes out once it has run.
   */
  async runWithoutTransaction<T>(
    work: (db: Kysely<Database>, write: Pick<Write, 'changed' | 'forgetAfterCommit'>) => Promise<T>,
  ): Promise<T> {
    const write = new Write();
    const result = await work(this.deps.db, write);
    await this.afterCommit(write, { unpublished: [...write.changes], queued: false });
    return result;
  }

  /** `work` in a transaction; the declaration is carried out when `wrote` says it wrote. */
  private async transact<T>(
    write: Write<Draft>,
    work: (trx: Kysely<Database>) => Promise<T>,
    wrote: (result: T) => boolean,
  ): Promise<T> {
    const { result, committed } = await this.deps.db.transaction().execute(async (trx) => {
      const result = await work(trx);
      return { result, committed: wrote(result) ? await this.atCommit(trx, write) : null };
    });
    if (committed) await this.afterCommit(write, committed);
    return result;
  }

  private async atCommit(trx: Kysely<Database>, write: Write<Draft>): Promise<Committed> {
    const { notifier, changes } = this.deps;
    let notified: Notified = { changes: [], queued: false };
    if (write.drafts.length > 0) {
      if (!notifier) throw new Error('a write declared notifications to a unit of work without a notifier');
      notified = await notifier.writeWithin(trx, write.drafts);
    }
    const emitted =
      write.events.length > 0 && this.deps.events
        ? await this.deps.events.writeWithin(trx, write.events)
        : false;
    const unpublished = await changes.publishAtCommit(trx, [...write.changes, ...notified.changes]);
    return { unpublished, queued: notified.queued, emitted };
  }

  private async afterCommit(write: Write<Draft>, committed: Committed): Promise<void> {
    write.forgetAll();
    await this.deps.changes.publish(committed.unpublished);
    if (committed.queued) this.deps.notifier?.queued();
    if (committed.emitted) this.deps.events?.written();
  }

  /** The notification rows and NOTIFY of a one-statement write; null when it must be a transaction. */
  private statementParts(write: Write<Draft>): StatementParts<Row> | null {
    const { notifier, changes, events } = this.deps;
    // Deliveries are rows of the write's transaction; a statement cannot add them, so one is needed.
    if (write.events.length > 0 && events && !events.nobodyHears(write.events)) return null;
    const told = notifier ? notifier.rowsForStatement(write.drafts) : { rows: [], changes: new Map() };
    if (!told) return null;
    const notify = changes.notifyFromStatement([...write.changes], told.changes);
    return notify && { notifications: told.rows, notify };
  }
}
