import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  calendarFeedMessages,
  calendarFeedUrl,
  type CalendarFeedScope,
  type CalendarFeedState,
} from '../../common/calendar-feed';
import { apiTokenMessages } from '../../common/api-tokens';
import { hashSessionToken } from '../auth/sessions-repository';
import { AppError, forbidden, notFound } from '../core/app-error';
import { newSecretToken } from '../core/ids';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';
import type { ProjectKey } from '../projects/projects-repository';
import type { ProjectsService } from '../projects/projects-service';
import {
  deleteCalendarFeed,
  findActiveCalendarFeedByHash,
  findUserCalendarFeed,
  latestProjectChange,
  saveCalendarFeed,
  updateCalendarFeedScope,
} from './calendar-feed-repository';
import { calendarFooter, calendarHeader, projectEvent, type FeedContext } from './feed-document';

/** Projects read per query while a feed is written: a team of 10,000 never holds 10,000 rows' objects. */
const FEED_PAGE_SIZE = 500;

/** A feed as served: its bytes, a strong ETag of them, and the latest change they could reflect. */
export interface CalendarFeedDocument {
  body: Buffer;
  etag: string;
  /** Absent when the latest change is in the current second (see `lastModifiedOf`). */
  lastModified: Date | undefined;
}

/**
 * A member's private iCalendar feed (docs/decisions/068-private-calendar-feed.md): turned on, changed,
 * reset and turned off from a browser session in settings; served to whoever holds its secret while its
 * owner is an active member. Every read goes to the database, so a reset or a deactivation ends the old
 * address at once on every instance.
 */
export class CalendarFeedService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      writes: UnitOfWork;
      projects: ProjectsService;
    },
  ) {}

  async state(viewer: Viewer): Promise<CalendarFeedState> {
    requireBrowserSession(viewer);
    const feed = await findUserCalendarFeed(this.deps.db, viewer.uid);
    return feed
      ? { enabled: true, scope: feed.scope, createdAt: feed.createdAt, url: null }
      : { enabled: false, scope: null, createdAt: null, url: null };
  }

  /**
   * Turns the feed on with `scope`, answering its new address; or, when it is on, changes its scope and
   * keeps its address (which this answer cannot show: only its hash is stored).
   */
  async choose(viewer: Viewer, scope: CalendarFeedScope, origin: string): Promise<CalendarFeedState> {
    requireBrowserSession(viewer);
    return this.deps.writes.run(async (trx) => {
      const now = nowIso();
      if (await updateCalendarFeedScope(trx, viewer.uid, scope, now)) {
        const feed = await findUserCalendarFeed(trx, viewer.uid);
        return { enabled: true, scope, createdAt: feed?.createdAt ?? now, url: null };
      }
      const secret = newSecretToken();
      await saveCalendarFeed(trx, { userId: viewer.uid, tokenHash: hashSessionToken(secret), scope, now });
      return { enabled: true, scope, createdAt: now, url: calendarFeedUrl(origin, secret) };
    });
  }

  /** A new address for the feed; the old one stops answering as this commits. */
  async reset(viewer: Viewer, origin: string): Promise<CalendarFeedState> {
    requireBrowserSession(viewer);
    return this.deps.writes.run(async (trx) => {
      const feed = await findUserCalendarFeed(trx, viewer.uid);
      if (!feed) throw new AppError('conflict', calendarFeedMessages.notOn);
      const secret = newSecretToken();
      const now = nowIso();
      await saveCalendarFeed(trx, {
        userId: viewer.uid,
        tokenHash: hashSessionToken(secret),
        scope: feed.scope,
        now,
      });
      return { enabled: true, scope: feed.scope, createdAt: now, url: calendarFeedUrl(origin, secret) };
    });
  }

  /** Turns the feed off; turning off a feed that is off changes nothing. */
  async turnOff(viewer: Viewer): Promise<void> {
    requireBrowserSession(viewer);
    await this.deps.writes.run((trx) => deleteCalendarFeed(trx, viewer.uid));
  }

  /** The feed whose address ends in `secret`; not found for an unknown or ended secret or an inactive owner. */
  async document(secret: string, origin: string): Promise<CalendarFeedDocument> {
    const { db, projects } = this.deps;
    const feed = await findActiveCalendarFeedByHash(db, hashSessionToken(secret));
    if (!feed) throw notFound(calendarFeedMessages.notFound);
    // Taken before the projects are read: a change committed meanwhile is later than the date this answer
    // names, so the next request's If-Modified-Since cannot hide it.
    const readAt = Date.now();
    const lastModified = lastModifiedOf([await latestProjectChange(db), feed.updatedAt], readAt);
    const context: FeedContext = {
      origin,
      calendarName: feed.scope === 'mine' ? `The Dojo: ${feed.displayName}'s projects` : 'The Dojo: projects',
    };
    const chunks = [calendarHeader(context)];
    let after: ProjectKey | undefined;
    for (;;) {
      const page = await projects.list({
        orderBy: { column: 'due_date', direction: 'asc' },
        limit: FEED_PAGE_SIZE,
        startAfter: after,
        ...(feed.scope === 'mine' ? { assignedTo: feed.userId } : {}),
      });
      for (const project of page) chunks.push(projectEvent(project, context));
      const last = page.at(-1);
      if (page.length < FEED_PAGE_SIZE || !last) break;
      after = [last.dueDate, last.id];
    }
    chunks.push(calendarFooter());
    const body = Buffer.from(chunks.join(''), 'utf8');
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    return { body, etag, lastModified };
  }
}

/**
 * The HTTP date (whole seconds) of the latest change, rounded up. When that second has not yet ended as
 * the read began, another change may still come within it and carry the same date: then there is none,
 * and clients revalidate with the ETag alone.
 */
function lastModifiedOf(timestamps: (string | null)[], readAt: number): Date | undefined {
  const latest = Math.max(0, ...timestamps.map((timestamp) => (timestamp ? Date.parse(timestamp) : 0)));
  const roundedUp = Math.ceil(latest / 1000) * 1000;
  return roundedUp <= readAt ? new Date(roundedUp) : undefined;
}

/** The feed is account security: a personal API token may neither read its state nor change it. */
function requireBrowserSession(viewer: Viewer): void {
  if (viewer.apiToken) throw forbidden(apiTokenMessages.browserSessionOnly);
}
