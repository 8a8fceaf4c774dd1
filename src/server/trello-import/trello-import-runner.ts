import type { Kysely } from 'kysely';
import type { Logger } from '../core/logger';
import { newId } from '../core/ids';
import type { Database } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';
import { planTrelloImport, type PlannedCard } from './trello-import-plan';
import {
  advanceImportJob,
  anyUnfinishedImportJob,
  claimImportJob,
  findRunnableImportJobs,
  finishImportJob,
  projectExists,
  readImportJobPayload,
  recordImported,
  releaseImportJob,
} from './trello-import-repository';
import { insertImportedComments, insertImportedProject } from '../projects/imported-projects-repository';
import { importContext, type TrelloJobPayload } from './trello-import-service';

/** The lease on a job; every card written extends it, so only a stalled instance loses it. */
const CLAIM_MS = 60_000;
const JOBS_PER_PASS = 5;
const FAILED =
  'The import stopped on an unexpected error. What it had written stays; importing the same file again goes on from there.';

/** Thrown inside a card's transaction when this instance no longer holds the job: the card is rolled back. */
class LostClaim extends Error {}

/**
 * Runs queued imports in the background (docs/decisions/081-trello-import.md). Every instance runs one; a
 * job is run only by the instance holding its lease (taken in one statement, as the webhook dispatcher
 * takes an endpoint's queue), and each card is one transaction that also counts it on the job, fenced on
 * the lease and on the number of cards done before it. So a card is written once even when a stalled
 * instance's lease runs out and another goes on with the job from the card after the last one counted.
 *
 * An idle server does nothing here (idle CPU and memory are budgets): the runner looks for jobs when one
 * is queued on this instance and once at start (a job left unfinished by a restart), and keeps a timer
 * only while a job it has seen is unfinished, to take it over if its holder's lease runs out.
 */
export class TrelloImportRunner {
  private started = false;
  /** Set only while an unfinished job exists (checked at the end of each pass). */
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      writes: UnitOfWork;
      instanceId: string;
      log: Logger;
      /** While a job is unfinished, how often to look whether its lease ran out (so another takes it over). */
      pollMs: number;
    },
  ) {}

  /** One pass at start: a job queued before a restart (here or on a stopped instance) is picked up. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.wake();
  }

  /** Stops between two cards; a job it was running is let go for another instance (or the next start). */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.again = false;
    this.stopping = true;
    await this.running;
  }

  /** Whether a timer is set: only while an unfinished job exists (the tests check an idle runner has none). */
  get watching(): boolean {
    return this.timer !== undefined;
  }

  /** Whether a pass is in progress. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Runs one pass now, or one more right after the pass in progress (a job was queued meanwhile). */
  wake(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.pass()
      .catch((error: unknown) => {
        this.deps.log.error({ err: error }, 'import pass failed');
        // Look again later rather than forget a job because of one failed read.
        return true;
      })
      .then((unfinished) => {
        this.running = undefined;
        if (!this.started) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else if (unfinished) {
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.wake();
          }, this.deps.pollMs);
          this.timer.unref();
        }
      });
  }

  /** Runs the jobs nobody holds; true when a job is still unfinished after it (held elsewhere, or stopped). */
  private async pass(): Promise<boolean> {
    const { db, instanceId } = this.deps;
    for (const id of await findRunnableImportJobs(db, new Date().toISOString(), JOBS_PER_PASS)) {
      if (this.stopping) return true;
      const now = new Date();
      if (!(await claimImportJob(db, id, instanceId, now.toISOString(), leaseFrom(now)))) continue;
      await this.run(id);
    }
    return anyUnfinishedImportJob(db);
  }

  /** Runs a job this instance holds to its end, or until it stops or loses the lease. */
  private async run(id: string): Promise<void> {
    const { db, instanceId, log } = this.deps;
    try {
      const stored = await readImportJobPayload(db, id);
      if (!stored) return;
      const payload = JSON.parse(stored.payload) as TrelloJobPayload;
      const context = await importContext(db, payload.board, new Date());
      const planned = new Map(
        planTrelloImport(payload.board, payload.choices, context).cards.map((card) => [card.cardId, card]),
      );
      const cards = payload.board.cards;
      for (let index = stored.processed_items; index < cards.length; index += 1) {
        if (this.stopping) {
          await releaseImportJob(db, id, instanceId);
          return;
        }
        await this.writeCard(id, index, planned.get(cards[index]!.id), payload.adminId);
      }
      await finishImportJob(db, id, instanceId, {
        status: 'completed',
        error: null,
        now: new Date().toISOString(),
      });
    } catch (error) {
      if (error instanceof LostClaim) {
        log.warn({ importId: id }, 'import lease lost: another instance goes on with it');
        return;
      }
      log.error({ err: error, importId: id }, 'import failed');
      await finishImportJob(db, id, instanceId, {
        status: 'failed',
        error: FAILED,
        now: new Date().toISOString(),
      });
    }
  }

  /**
   * One card in one transaction: its project (unless an earlier or concurrent run made it), its comments
   * not imported yet, and the job's count, fenced on the lease.
   */
  private async writeCard(
    importId: string,
    index: number,
    card: PlannedCard | undefined,
    adminId: string,
  ): Promise<void> {
    const { instanceId } = this.deps;
    await this.deps.writes.run(async (trx, write) => {
      const now = new Date();
      const at = now.toISOString();
      let projects = 0;
      let comments = 0;
      let skipped = card?.project ? 0 : 1;
      let projectId = card?.existingProjectId ?? null;
      if (card?.project) {
        const id = newId();
        const recorded = await recordImported(trx, {
          kind: 'trello-card',
          sourceId: card.cardId,
          targetId: id,
          importId,
          now: at,
        });
        if (recorded) {
          await insertImportedProject(trx, { ...card.project, id, createdBy: adminId, now: at });
          write.changed({ collection: 'projects', id });
          projectId = id;
          projects = 1;
        } else {
          skipped += 1;
        }
      }
      if (card && projectId && (projects === 1 || (await projectExists(trx, projectId)))) {
        for (const comment of card.comments) {
          const id = newId();
          const recorded = await recordImported(trx, {
            kind: 'trello-comment',
            sourceId: comment.actionId,
            targetId: id,
            importId,
            now: at,
          });
          if (!recorded) {
            skipped += 1;
            continue;
          }
          await insertImportedComments(trx, [
            { id, projectId, authorId: adminId, content: comment.content, createdAt: comment.createdAt },
          ]);
          write.changed({ collection: 'comments', id, after: { projectId } });
          comments += 1;
        }
      }
      const advanced = await advanceImportJob(trx, importId, {
        instance: instanceId,
        processed: index,
        projects,
        comments,
        skipped,
        now: at,
        until: leaseFrom(now),
      });
      if (!advanced) throw new LostClaim();
    });
  }
}

const leaseFrom = (now: Date): string => new Date(now.getTime() + CLAIM_MS).toISOString();
