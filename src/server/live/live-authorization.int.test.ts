import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  LIVE_CLOSE_CODES,
  LIVE_COLLECTIONS,
  LIVE_PATH,
  dashboardQuery,
  messages,
  notificationsQuery,
  projectCommentsQuery,
  projectViewersQuery,
  unreadNotificationsCountQuery,
  type LiveServerMessage,
  type LiveTarget,
  type Project,
} from '../../common';
import { addDays, calendarQuery } from '../../common/calendar';
import { projectAttachmentsQuery } from '../../common/attachments';
import { attachFile } from '../../../test/support/attachments';
import { createProjectAs, type SignedInClient, signUpClient, tomorrow } from '../../../test/support/clients';
import { tryLiveSocket } from '../../../test/support/fixtures';
import {
  startTestServer,
  startTwoInstances,
  testDatabaseEngine,
  type TestServer,
} from '../../../test/support/test-server';

/**
 * Every live source × every kind of viewer, subscribing first and second to a group
 * (docs/decisions/042-every-live-viewer-authorized.md). On PostgreSQL the subscribers sit on one instance
 * and the writes that change their results go through the other, so the changes cross LISTEN/NOTIFY.
 */

/** The same bound the suite gives `expect.poll`: long enough for a loaded machine, reached only on failure. */
const WAIT_MS = 20_000;

/** A live socket spoken to in the raw protocol, so the test sees exactly what the server sends it. */
class RawLiveSocket {
  readonly received: LiveServerMessage[] = [];
  closeCode: number | undefined;
  private readonly waiters = new Set<() => void>();
  private serial = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as LiveServerMessage);
      this.wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }

  static open(baseUrl: string, cookie: string): Promise<RawLiveSocket> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${LIVE_PATH}`, { headers: { cookie } });
    const live = new RawLiveSocket(socket);
    return new Promise((resolve, reject) => {
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`live upgrade refused: ${response.statusCode}`)),
      );
      socket.once('error', reject);
      void live
        .until(() => live.received.some((m) => m.type === 'welcome'), 'welcome')
        .then(() => resolve(live));
    });
  }

  subscribe(target: LiveTarget): string {
    const id = `s${(this.serial += 1)}`;
    this.socket.send(JSON.stringify({ type: 'subscribe', id, target }));
    return id;
  }

  unsubscribe(id: string): void {
    this.socket.send(JSON.stringify({ type: 'unsubscribe', id }));
  }

  /** What the server sent about one subscription. */
  about(id: string): LiveServerMessage[] {
    return this.received.filter((message) => 'id' in message && message.id === id);
  }

  /** The first answer to a subscription: its snapshot or its error. */
  async answerTo(id: string): Promise<'snapshot' | 'forbidden'> {
    await this.until(() => this.about(id).length > 0, `an answer to ${id}`);
    const [first] = this.about(id);
    if (first?.type === 'snapshot') return 'snapshot';
    if (first?.type === 'error' && first.code === 'forbidden') {
      expect(first.message).toBe(messages.notificationsOnlyYours);
      return 'forbidden';
    }
    throw new Error(`unexpected answer to ${id}: ${JSON.stringify(first)}`);
  }

  /**
   * Everything the server wrote to this socket before now: messages on one socket arrive in order, so once
   * a fresh subscription's snapshot is here, so is every message sent before it.
   */
  async caughtUp(): Promise<void> {
    const marker = this.subscribe({ kind: 'query', collection: 'users', limit: 1 });
    await this.until(() => this.about(marker).some((m) => m.type === 'snapshot'), 'the marker snapshot');
    this.unsubscribe(marker);
  }

  until(condition: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(`timed out waiting for ${what}; received ${JSON.stringify(this.received).slice(-800)}`),
        );
      }, WAIT_MS);
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

const cookieOf = (client: SignedInClient): string => client.client.transport.cookieHeader() ?? '';

type Viewer = 'owner' | 'member' | 'admin';
type Outcome = 'snapshot' | 'forbidden';

interface Row {
  name: string;
  target: () => LiveTarget;
  /** Changes the target's result, through the instance the subscribers are not on. */
  change: () => Promise<unknown>;
  expected: Record<Viewer, Outcome>;
}

const everyMember: Record<Viewer, Outcome> = { owner: 'snapshot', member: 'snapshot', admin: 'snapshot' };
const ownerOnly: Record<Viewer, Outcome> = { owner: 'snapshot', member: 'forbidden', admin: 'forbidden' };

describe('live authorization: every source × every viewer, first and second to a group', () => {
  let stopServers: () => Promise<void>;
  /** Where every subscriber connects. */
  let subscribeOn: TestServer;
  /** Where the writes that change their results are made (the other instance on PostgreSQL). */
  let writeOn: TestServer;
  let admin: SignedInClient;
  let ada: SignedInClient;
  let ben: SignedInClient;
  /** Only ever looks at the project, so that their looking changes who is looking. */
  let cy: SignedInClient;
  let cyLooking: RawLiveSocket | undefined;
  let project: Project;
  let renames = 0;
  const clients: SignedInClient[] = [];

  beforeAll(async () => {
    if (testDatabaseEngine() === 'postgres') {
      const instances = await startTwoInstances();
      subscribeOn = instances.first;
      writeOn = instances.second;
      stopServers = () => instances.stop();
    } else {
      const server = await startTestServer();
      subscribeOn = server;
      writeOn = server;
      stopServers = () => server.stop();
    }
    admin = await signUpClient(writeOn.url, 'Admin');
    ada = await signUpClient(writeOn.url, 'Ada');
    ben = await signUpClient(writeOn.url, 'Ben');
    cy = await signUpClient(writeOn.url, 'Cy');
    clients.push(admin, ada, ben, cy);
    expect(admin.user.role).toBe('admin');
    project = await createProjectAs(ben, {
      name: 'Shared plans',
      details: 'for ada',
      assignedUserIds: [ada.user.uid],
    });
    await ada.client.projects.addComment(project.id, { content: 'on it' });
  });
  afterAll(async () => {
    cyLooking?.close();
    for (const client of clients) client.client.close();
    await stopServers();
  });

  const assignAda = () =>
    createProjectAs(ben, {
      name: `For ada ${Date.now()}`,
      details: 'another',
      assignedUserIds: [ada.user.uid],
    });

  const rows: Row[] = [
    {
      name: 'the dashboard (projects query)',
      target: () => dashboardQuery('all', ada.user.uid, 20),
      change: assignAda,
      expected: everyMember,
    },
    {
      name: 'the calendar (projects due in a range, its slim shape)',
      target: () => calendarQuery('all', ada.user.uid, tomorrow(), addDays(tomorrow(), 7)),
      change: assignAda,
      expected: everyMember,
    },
    {
      name: 'projects due in a range, whole',
      target: () => {
        const { shape: _whole, ...target } = calendarQuery(
          'all',
          ada.user.uid,
          tomorrow(),
          addDays(tomorrow(), 7),
        );
        return target;
      },
      change: assignAda,
      expected: everyMember,
    },
    {
      name: 'the calendar’s completed projects (completed, due in a range)',
      target: () =>
        calendarQuery('all', ada.user.uid, tomorrow(), addDays(tomorrow(), 7), { completed: true }),
      change: async () => {
        const project = await assignAda();
        await ben.client.projects.complete(project.id);
      },
      expected: everyMember,
    },
    {
      name: 'a project (projects doc)',
      target: () => ({ kind: 'doc', collection: 'projects', id: project.id }),
      change: async () => {
        const current = await ben.client.projects.get(project.id);
        await ben.client.projects.update(project.id, {
          name: `Shared plans ${(renames += 1)}`,
          details: current.details,
          dueDate: current.dueDate,
          category: current.category,
          assignedUserIds: current.assignedUserIds,
          version: current.version,
        });
      },
      expected: everyMember,
    },
    {
      name: "a project's comments",
      target: () => projectCommentsQuery(project.id, 20),
      change: () => ben.client.projects.addComment(project.id, { content: 'a reply' }),
      expected: everyMember,
    },
    {
      name: "a project's attachments",
      target: () => projectAttachmentsQuery(project.id),
      change: () => attachFile(ben, project.id, new File(['a file'], 'notes.txt')),
      expected: everyMember,
    },
    {
      name: 'user profiles',
      target: () => ({
        kind: 'query',
        collection: 'users',
        orderBy: { field: 'displayName', direction: 'asc' },
      }),
      change: () => ben.client.account.updateProfile({ displayName: `Ben ${(renames += 1)}` }),
      expected: everyMember,
    },
    {
      name: "ada's notifications",
      target: () => notificationsQuery(ada.user.uid, 10),
      change: assignAda,
      expected: ownerOnly,
    },
    {
      name: "ada's unread count",
      target: () => unreadNotificationsCountQuery(ada.user.uid),
      change: assignAda,
      expected: ownerOnly,
    },
    {
      name: 'who is looking at a project',
      target: () => projectViewersQuery(project.id),
      change: async () => {
        // Cy opens the project on the other instance and stays: Cy is now looking at it too.
        cyLooking?.close();
        cyLooking = await RawLiveSocket.open(writeOn.url, cookieOf(cy));
        await cyLooking.answerTo(cyLooking.subscribe(projectViewersQuery(project.id)));
      },
      expected: everyMember,
    },
  ];

  const clientOf = (viewer: Viewer): SignedInClient => ({ owner: ada, member: ben, admin })[viewer];

  it('has a row for every live collection', () => {
    const covered = new Set(rows.map((row) => row.target().collection));
    expect([...covered].sort()).toEqual([...LIVE_COLLECTIONS].sort());
  });

  describe.each(rows)('$name', (row) => {
    it.each(['owner', 'member', 'admin'] as const)('as the first subscriber: %s', async (viewer) => {
      const socket = await RawLiveSocket.open(subscribeOn.url, cookieOf(clientOf(viewer)));
      try {
        const id = socket.subscribe(row.target());
        expect(await socket.answerTo(id)).toBe(row.expected[viewer]);
        if (row.expected[viewer] === 'forbidden') {
          // The refused subscription started no group that a later change could reach.
          await row.change();
          await socket.caughtUp();
          expect(socket.about(id).map((message) => message.type)).toEqual(['error']);
        }
      } finally {
        socket.close();
      }
    });

    it('as a second subscriber to the owner’s group: each gets its own answer and nothing else', async () => {
      const owner = await RawLiveSocket.open(subscribeOn.url, cookieOf(ada));
      const others = await Promise.all(
        (['member', 'admin'] as const).map(async (viewer) => ({
          viewer,
          socket: await RawLiveSocket.open(subscribeOn.url, cookieOf(clientOf(viewer))),
        })),
      );
      try {
        const ownerId = owner.subscribe(row.target());
        expect(await owner.answerTo(ownerId)).toBe('snapshot');
        const ids = new Map<RawLiveSocket, string>();
        for (const { viewer, socket } of others) {
          const id = socket.subscribe(row.target());
          ids.set(socket, id);
          expect(await socket.answerTo(id), viewer).toBe(row.expected[viewer]);
        }
        await row.change();
        await owner.until(
          () => owner.about(ownerId).some((message) => message.type === 'changes'),
          `the owner's change on ${row.name}`,
        );
        for (const { viewer, socket } of others) {
          const id = ids.get(socket) ?? '';
          if (row.expected[viewer] === 'snapshot') {
            await socket.until(
              () => socket.about(id).some((message) => message.type === 'changes'),
              `${viewer}'s change on ${row.name}`,
            );
          } else {
            await socket.caughtUp();
            expect(
              socket.about(id).map((message) => message.type),
              viewer,
            ).toEqual(['error']);
          }
        }
      } finally {
        owner.close();
        for (const { socket } of others) socket.close();
      }
    });
  });

  it('a deactivated member and a signed-out socket lose their sockets, get nothing more, and cannot open one', async () => {
    const dee = await signUpClient(writeOn.url, 'Dee');
    const sam = await signUpClient(subscribeOn.url, 'Sam');
    clients.push(dee, sam);
    const deeCookie = cookieOf(dee);
    const samCookie = cookieOf(sam);
    const deeToken = await dee.client.auth.getIdToken();
    const owner = await RawLiveSocket.open(subscribeOn.url, cookieOf(ada));
    const leaving = await Promise.all(
      [deeCookie, samCookie].map((cookie) => RawLiveSocket.open(subscribeOn.url, cookie)),
    );
    try {
      // Both join groups the owner started (second subscribers), before they lose their access.
      const ownerId = owner.subscribe(dashboardQuery('all', ada.user.uid, 20));
      await owner.answerTo(ownerId);
      for (const socket of leaving) {
        for (const row of rows.filter((r) => r.expected.member === 'snapshot')) {
          expect(await socket.answerTo(socket.subscribe(row.target()))).toBe('snapshot');
        }
      }
      await admin.client.admin.deactivate(dee.user.uid);
      await sam.client.auth.logOut();
      for (const socket of leaving) {
        await socket.until(() => socket.closeCode !== undefined, 'the socket closed');
        expect(socket.closeCode).toBe(LIVE_CLOSE_CODES.signedOut);
        expect(socket.received.at(-1)).toEqual({ type: 'signed-out' });
      }
      const seenBefore = leaving.map((socket) => socket.received.length);
      await assignAda();
      await owner.until(() => owner.about(ownerId).some((m) => m.type === 'changes'), "the owner's change");
      expect(leaving.map((socket) => socket.received.length)).toEqual(seenBefore);

      for (const server of [subscribeOn, writeOn]) {
        expect(await tryLiveSocket(server.url, { cookie: deeCookie })).toBe(401);
        expect(await tryLiveSocket(server.url, { cookie: samCookie })).toBe(401);
        expect(await tryLiveSocket(server.url, { authorization: `Bearer ${deeToken}` })).toBe(401);
        expect(await tryLiveSocket(server.url)).toBe(401);
      }
    } finally {
      owner.close();
      for (const socket of leaving) socket.close();
    }
  });
});
