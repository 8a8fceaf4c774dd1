import { WebSocket } from 'ws';
import {
  dashboardQuery,
  type AuthUser,
  type CreateProjectInput,
  type DashboardFilter,
  type LiveDoc,
  type LiveTarget,
  type Project,
} from '../../src/common';
import { createDojoClient, DojoError, type DojoClient, type WebSocketConstructor } from '../../src/sdk';
import { makePng, uniqueEmail } from './fixtures';
import { WAIT_MS } from './poll';

export interface SignedInClient {
  client: DojoClient;
  user: AuthUser;
  email: string;
  password: string;
}

/** A real SDK client in Node (cookies kept by the SDK, `ws` for the live socket). */
export function newClient(baseUrl: string): DojoClient {
  return createDojoClient({ baseUrl, WebSocket: WebSocket as unknown as WebSocketConstructor });
}

export async function signUpClient(baseUrl: string, displayName = 'user'): Promise<SignedInClient> {
  const client = newClient(baseUrl);
  await client.auth.whenReady();
  const email = uniqueEmail(displayName.replace(/\W/g, ''));
  const password = 'correct horse battery';
  const user = await client.auth.signUp({
    email,
    password,
    displayName,
    thumbnail: new Blob([new Uint8Array(makePng())], { type: 'image/png' }),
    fileName: 'avatar.png',
  });
  return { client, user, email, password };
}

/**
 * A project made by `member` for a test: due tomorrow, in design, assigned to its maker, unless `fields`
 * say otherwise (so a test names only what it is about).
 */
export function createProjectAs(
  member: SignedInClient,
  fields: Partial<CreateProjectInput>,
): Promise<Project> {
  return member.client.projects.create({
    name: 'A test project',
    details: 'Made by a test.',
    dueDate: tomorrow(),
    category: 'design',
    assignedUserIds: [member.user.uid],
    ...fields,
  });
}

/** Records a live subscription's results; `until` waits (event-driven, with a timeout) for a condition. */
export class LiveRecorder<T extends LiveDoc = LiveDoc> {
  docs: T[] | undefined;
  readonly history: T[][] = [];
  error: Error | undefined;
  private waiters: (() => void)[] = [];
  readonly unsubscribe: () => void;

  constructor(client: DojoClient, target: LiveTarget) {
    this.unsubscribe = client.subscribe<T>(target, {
      next: (docs) => {
        this.docs = docs;
        this.history.push(docs);
        this.notify();
      },
      error: (error) => {
        this.error = error;
        this.notify();
      },
    });
  }

  until(condition: (docs: T[]) => boolean, timeoutMs = WAIT_MS, what = 'live condition'): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.docs && condition(this.docs)) {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((waiter) => waiter !== check);
          resolve(this.docs);
        }
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== check);
        reject(
          new Error(`timed out waiting for ${what}; last docs: ${JSON.stringify(this.docs)?.slice(0, 500)}`),
        );
      }, timeoutMs);
      this.waiters.push(check);
      check();
    });
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/**
 * `member`'s live dashboard under each of `filters` (its first page of 50), once every one has its first
 * snapshot: `const { all, mine } = await dashboardsOf(ada, ['all', 'mine'])`.
 */
export async function dashboardsOf<Filter extends DashboardFilter>(
  member: SignedInClient,
  filters: readonly Filter[],
): Promise<Record<Filter, LiveRecorder<Project>>> {
  const lists = filters.map(
    (filter) =>
      [
        filter,
        new LiveRecorder<Project>(member.client, dashboardQuery(filter, member.user.uid, 50)),
      ] as const,
  );
  await Promise.all(lists.map(([, list]) => list.until(() => true)));
  return Object.fromEntries(lists) as Record<Filter, LiveRecorder<Project>>;
}

export const tomorrow = (): string => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** The SDK error a call fails with; throws when it succeeds (a test that expects a refusal). */
export async function errorOf(call: () => Promise<unknown>): Promise<DojoError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof DojoError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
