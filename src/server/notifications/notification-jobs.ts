import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import { NOTIFICATION_KINDS } from '../../common';
import { afterAnswers } from '../db/after-answers';
import type { Database } from '../db/schema';
import type { ChangeBus } from '../db/change-bus';
import { UnitOfWork } from '../db/unit-of-work';
import type { Logger } from '../core/logger';
import { pendingNotificationJobs, takeNotificationJob } from './notifications-repository';
import { recipientsOf, writeNotifications, type NotificationDraft } from './notifications-service';

/** Jobs read per look at the queue. */
const BATCH = 20;

const draftsSchema = z.array(
  z.object({
    kind: z.enum(NOTIFICATION_KINDS),
    recipientIds: z.array(z.string()),
    projectId: z.string(),
    commentId: z.optional(z.string()),
    actorId: z.string(),
  }),
);

interface NotificationJobsDeps {
  db: Kysely<Database>;
  changes: ChangeBus;
  /** `DatabaseHandle.markCommits`: a queued job waits for the answer of the request that queued it. */
  markCommits: () => () => Promise<void>;
  /** How often every instance looks for jobs nobody ran (an instance that stopped before running its own). */
  sweepIntervalMs: number;
  log: Logger;
}

/**
 * Writes the notifications that actions queued (`notifyWithin`, docs/decisions/034-queued-notifications.md).
 * The instance that queued a job runs it as soon as the action's answer has left; every instance also runs
 * whatever is queued when it starts and then every `sweepIntervalMs`, so a job survives a crash or a
 * restart. Each job's notifications are inserted in the transaction that deletes it: exactly once, however
 * many instances try.
 */
export class NotificationJobs {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Before the next look at the queue: the answer of the latest action that queued a job. */
  private answerToWaitFor: (() => Promise<void>) | undefined;

  /** A job's notifications tell nobody further: its unit of work has no notifier. */
  private readonly writes: UnitOfWork;

  constructor(private readonly deps: NotificationJobsDeps) {
    this.writes = new UnitOfWork({ db: deps.db, changes: deps.changes });
  }

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.runQueued(), this.deps.sweepIntervalMs);
    this.timer.unref();
    this.runQueued();
  }

  /** Waits for the jobs being written; what is still queued waits for the next start (of any instance). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Call after the commit of an action that queued a job: it runs once that action's answer has left. */
  queued(): void {
    const durable = this.deps.markCommits();
    this.runQueued(() =>
      afterAnswers(durable, (error) =>
        this.deps.log.warn({ err: error }, 'queued notifications went on without a durable commit'),
      ),
    );
  }

  private runQueued(answerToWaitFor?: () => Promise<void>): void {
    // The latest mark covers the commits of earlier ones.
    if (answerToWaitFor) this.answerToWaitFor = answerToWaitFor;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const waitFor = this.answerToWaitFor;
        this.answerToWaitFor = undefined;
        await waitFor?.();
        await this.drain();
      } while (this.again && !this.stopped);
    })()
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'queued notifications failed'))
      .finally(() => {
        this.running = undefined;
      });
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const jobs = await pendingNotificationJobs(this.deps.db, BATCH);
      for (const seq of jobs) {
        if (this.stopped) return;
        await this.run(seq);
      }
      if (jobs.length < BATCH) return;
    }
  }

  private async run(seq: number): Promise<void> {
    await this.writes.run(async (trx, write) => {
      const stored = await takeNotificationJob(trx, seq);
      if (stored === undefined) return;
      const drafts = parseDrafts(stored);
      if (!drafts) {
        // It can never be written; keeping it would stop the queue behind it for good.
        this.deps.log.error({ seq }, 'a queued notification job was unreadable and is dropped');
        return;
      }
      write.changed(...(await writeNotifications(trx, recipientsOf(drafts))));
    });
  }
}

function parseDrafts(stored: string): NotificationDraft[] | undefined {
  try {
    const parsed = draftsSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
