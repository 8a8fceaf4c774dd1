import Fastify from 'fastify';
import { hashPassword } from '../../src/server/auth/passwords';
import { hashSessionToken } from '../../src/server/auth/sessions-repository';
import type { Viewer } from '../../src/server/core/viewer';
import type { AuthUser } from '../../src/common';
import { loadConfig } from '../../src/server/config/config';
import { openDatabase } from '../../src/server/db/database';
import { createServices } from '../../src/server/services';
import { LocalChangeBus } from '../../src/server/db/change-bus';
import { findUserByEmailKey } from '../../src/server/users/users-repository';
import { openBatchingDatabase, type BatchingDatabase } from './batching';
import { avatarPng, commentText, displayNameFor, projectInput } from './data';
import pMap from 'p-map';
import { Random } from './random';
import { nowMs } from './stats';

/**
 * Fills a data dir (SQLite) or a PostgreSQL database with realistic data through the server's own
 * services — `AuthService.signUp`, `ProjectsService.create`, `CommentsService.addComment` — built by the
 * same `createServices` as the app, so every row goes through the same rules, transactions and ids as an
 * API call (signup fields skip the route's form checks: the generated ones are valid by construction).
 * Nothing listens: no server may run on the same data while seeding (its live subscribers would
 * not hear of the new rows until they resubscribe).
 */
export interface SeedOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  users: number;
  projects: number;
  /** Total comments, spread over the projects made in this run (or existing ones). */
  comments: number;
  /** Put every comment on these projects instead (e.g. one long thread). */
  commentsOn?: readonly string[];
  /** PRNG seed: the same numbers make the same names, categories, dates and assignments. */
  seed?: number;
  /** Password of every seeded user (they can log in with it). */
  password?: string;
  /** Seeded users are `<emailPrefix><n>@example.com`; existing ones are reused, not duplicated. */
  emailPrefix?: string;
  /** Requests in flight at once (services are async; SQLite serialises writes itself). */
  concurrency?: number;
  /**
   * Service calls committed together (bench/lib/batching.ts): each call's own transaction becomes a
   * savepoint inside one batch transaction. 1 commits every call on its own, as the API does.
   */
  batchSize?: number;
  log?: (line: string) => void;
}

interface SeededUser {
  uid: string;
  email: string;
  password: string;
  displayName: string;
  /**
   * The session the signup opened (its raw token, the `dojo_session` cookie's value): benchmarks sign in
   * hundreds of clients with these instead of an API login each. Empty for a user reused from an earlier run.
   */
  sessionToken: string;
}

export interface SeedResult {
  users: SeededUser[];
  projectIds: string[];
  commentCount: number;
  timings: { usersMs: number; projectsMs: number; commentsMs: number };
}

export const DEFAULT_SEED_PASSWORD = 'dojo seed password';
export const DEFAULT_BATCH_SIZE = 2000;

export async function seed(options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? (() => undefined);
  const password = options.password ?? DEFAULT_SEED_PASSWORD;
  const emailPrefix = options.emailPrefix ?? 'seed.user';
  const random = new Random(options.seed ?? 42);
  const concurrency = options.concurrency ?? 4;
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  let batching: BatchingDatabase | undefined;

  const config = loadConfig({
    DATA_DIR: options.dataDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase(config);
  const { db } = database;
  // The services need a logger; the seeder reports progress itself.
  const logger = Fastify({ logger: false }).log;
  const bus = new LocalChangeBus();
  try {
    // One scrypt hash per distinct password (all seeded accounts share one): a real, salted hash that logs
    // in as usual, without 30 ms of CPU per account at 10,000 users.
    const hashes = new Map<string, Promise<string>>();
    const hashOnce = (plain: string): Promise<string> => {
      let hash = hashes.get(plain);
      if (!hash) hashes.set(plain, (hash = hashPassword(plain)));
      return hash;
    };
    batching = batchSize > 1 ? openBatchingDatabase(config) : undefined;
    const { auth, projects, comments } = await createServices({
      config,
      database,
      bus,
      log: logger,
      hashPassword: hashOnce,
      projectsDb: batching?.db,
    });
    /** Runs `count` service calls, committing every `batchSize` of them together. */
    const inBatches = async (count: number, task: (index: number) => Promise<void>): Promise<void> => {
      if (!batching) {
        await pMap(new Array(count).keys(), task, { concurrency });
        return;
      }
      for (let start = 0; start < count; start += batchSize) {
        const size = Math.min(batchSize, count - start);
        await batching.begin();
        try {
          await pMap(new Array(size).keys(), (offset) => task(start + offset), { concurrency });
        } catch (error) {
          await batching.rollback().catch(() => undefined);
          throw error;
        }
        await batching.commit();
      }
    };

    // Users: signup with a real PNG thumbnail, or reuse the one made by an earlier run.
    let started = nowMs();
    const viewers: Viewer[] = new Array<Viewer>(options.users);
    const users: SeededUser[] = new Array<SeededUser>(options.users);
    let created = 0;
    const signUpSeedUser = async (index: number) => {
      const email = `${emailPrefix}${index}@example.com`;
      const displayName = displayNameFor(index);
      const existing = await findUserByEmailKey(db, email.toLowerCase());
      if (existing) {
        viewers[index] = viewerOf(
          {
            uid: existing.id,
            email,
            displayName: existing.display_name,
            photoURL: existing.photo_url,
            role: existing.role,
          },
          '',
        );
        users[index] = {
          uid: existing.id,
          email,
          password,
          displayName: existing.display_name,
          sessionToken: '',
        };
        return;
      }
      const signedIn = await auth.signUp({
        fields: { email, password, displayName },
        thumbnail: { bytes: avatarPng(index), fileName: 'avatar.png' },
        invitation: undefined,
        userAgent: 'dojo-seeder',
      });
      const { uid } = signedIn.user;
      viewers[index] = viewerOf(signedIn.user, hashSessionToken(signedIn.sessionToken));
      users[index] = { uid, email, password, displayName, sessionToken: signedIn.sessionToken };
      created += 1;
    };
    // The first seeded user signs up alone, so it is the install's owner (its first admin); then the rest.
    if (options.users > 0) await signUpSeedUser(0);
    await pMap([...new Array(options.users).keys()].slice(1), signUpSeedUser, {
      concurrency: Math.min(concurrency, 4),
    });
    const usersMs = nowMs() - started;
    log(`users: ${created} signed up, ${options.users - created} reused (${Math.round(usersMs)} ms)`);
    if (options.users === 0 && (options.projects > 0 || options.comments > 0)) {
      throw new Error('projects and comments need at least one user (--users)');
    }
    const userIds = users.map((user) => user.uid);

    // Projects: the same create call as POST /api/projects, `concurrency` at a time.
    started = nowMs();
    const projectIds: string[] = new Array<string>(options.projects);
    const inputs = Array.from({ length: options.projects }, () => ({
      creator: random.int(0, viewers.length - 1),
      input: projectInput(random, userIds),
    }));
    const step = Math.max(1, Math.floor(options.projects / 10));
    let done = 0;
    await inBatches(options.projects, async (index) => {
      const job = inputs[index];
      const creator = job && viewers[job.creator];
      if (!job || !creator) return;
      const project = await projects.create(creator, job.input);
      projectIds[index] = project.id;
      done += 1;
      if (done % step === 0)
        log(`projects: ${done}/${options.projects} (${Math.round(nowMs() - started)} ms)`);
    });
    const projectsMs = nowMs() - started;
    if (options.projects > 0) {
      log(
        `projects: ${options.projects} created in ${Math.round(projectsMs)} ms ` +
          `(${((options.projects / projectsMs) * 1000).toFixed(0)}/s)`,
      );
    }

    // Comments: on this run's projects, or on existing ones when this run made none.
    started = nowMs();
    let targets: readonly string[] = options.commentsOn ?? projectIds;
    if (options.comments > 0 && targets.length === 0) {
      targets = (await db.selectFrom('projects').select('id').limit(10_000).execute()).map((row) => row.id);
      if (targets.length === 0) throw new Error('comments need at least one project (--projects)');
    }
    const commentJobs = Array.from({ length: options.comments }, () => ({
      author: random.int(0, viewers.length - 1),
      project: random.pick(targets),
      content: commentText(random),
    }));
    await inBatches(options.comments, async (index) => {
      const job = commentJobs[index];
      const author = job && viewers[job.author];
      if (!job || !author) return;
      await comments.addComment(author, job.project, { content: job.content });
    });
    const commentsMs = nowMs() - started;
    if (options.comments > 0) log(`comments: ${options.comments} added in ${Math.round(commentsMs)} ms`);

    return {
      users,
      projectIds,
      commentCount: options.comments,
      timings: { usersMs, projectsMs, commentsMs },
    };
  } finally {
    await batching?.close();
    await bus.close();
    await database.close();
  }
}

function viewerOf(user: AuthUser, sessionHash: string): Viewer {
  // Services never look at the expiry (only live sockets do).
  return { ...user, sessionHash, viaToken: false, sessionExpiresAt: Infinity };
}
