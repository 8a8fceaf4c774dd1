import { EventEmitter } from 'node:events';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { LiveDoc } from '../../common';
import type { Viewer } from '../core/viewer';
import { pollUntil } from '../../../test/support/poll';
import { LocalChangeBus } from '../db/change-bus';
import { forbidden } from '../core/app-error';
import { LiveHub } from './live-hub';
import type { LiveSource } from './live-sources';

/** The part of a `ws` socket the hub uses; what it sends is kept as text. */
class RecordingSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  send(data: string | Buffer): void {
    this.sent.push(String(data));
  }
  close(): void {
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
  messagesOfType(type: string): unknown[] {
    return this.sent.map((text) => JSON.parse(text) as { type: string }).filter((m) => m.type === type);
  }
}

const viewer: Viewer = {
  uid: 'ada',
  email: 'ada@example.com',
  displayName: 'Ada',
  photoURL: '',
  role: 'member',
  sessionHash: 'session-ada',
  viaToken: false,
  sessionExpiresAt: Date.now() + 3_600_000,
};

const until = (condition: () => boolean, what: string): Promise<void> =>
  pollUntil(condition, 10_000, () => `never: ${what}`);

describe('LiveHub fan-out after durability', () => {
  it("sends a change only once its commits are durable (the writer's answer goes first)", async () => {
    const docs: LiveDoc[] = [{ id: 'p1' }];
    const source: LiveSource = {
      query: async () => [...docs],
      find: async (id) => docs.find((doc) => doc.id === id) ?? null,
      authorize: () => undefined,
      resultsBelongTo: 'everyone',
    };
    let marks = 0;
    let waiting = 0;
    let makeDurable: () => void = () => undefined;
    const bus = new LocalChangeBus();
    const hub = new LiveHub({
      bus,
      sources: { projects: source },
      log: Fastify({ logger: { level: 'silent' } }).log,
      limits: { maxSubscriptionsPerSocket: 10, maxSocketsPerSession: 10, maxSocketsPerUser: 10 },
      markCommits: () => {
        marks += 1;
        return () => {
          waiting += 1;
          return new Promise<void>((resolve) => (makeDurable = resolve));
        };
      },
    });
    const socket = new RecordingSocket();
    try {
      hub.attach(socket as unknown as WebSocket, viewer);
      socket.emit(
        'message',
        JSON.stringify({ type: 'subscribe', id: 's', target: { kind: 'query', collection: 'projects' } }),
      );
      await until(() => socket.messagesOfType('snapshot').length === 1, 'the snapshot');

      docs.unshift({ id: 'p2' });
      await bus.publish([{ collection: 'projects', id: 'p2' }]);
      expect(marks).toBe(1);
      await until(() => waiting === 1, 'the hub waiting for durability');
      expect(socket.messagesOfType('changes')).toEqual([]);

      makeDurable();
      await until(() => socket.messagesOfType('changes').length === 1, 'the change once durable');
      expect(socket.messagesOfType('changes')[0]).toMatchObject({
        id: 's',
        changes: [{ type: 'added', doc: { id: 'p2' }, newIndex: 0 }],
      });
    } finally {
      hub.close();
    }
  });
});

const ben: Viewer = { ...viewer, uid: 'ben', email: 'ben@example.com', sessionHash: 'session-ben' };

/** A hub over one `notifications` source whose results are each viewer's own, as the real one's are. */
function hubWithOwnResults(
  resultsBelongTo: LiveSource['resultsBelongTo'],
  refuse: 'others' | 'nobody' = 'others',
) {
  const authorized: string[] = [];
  const evaluatedFor: string[] = [];
  const source: LiveSource = {
    authorize: (target, who) => {
      authorized.push(who.uid);
      const owner = target.kind === 'query' ? target.where?.[0]?.value : undefined;
      if (refuse === 'others' && owner !== who.uid) throw forbidden('Only your own.');
    },
    resultsBelongTo,
    query: async (_query, who) => {
      evaluatedFor.push(who.uid);
      return [{ id: `secret-of-${who.uid}` }];
    },
    find: async () => null,
  };
  const hub = new LiveHub({
    bus: new LocalChangeBus(),
    sources: { notifications: source },
    log: Fastify({ logger: { level: 'silent' } }).log,
    limits: { maxSubscriptionsPerSocket: 10, maxSocketsPerSession: 10, maxSocketsPerUser: 10 },
  });
  /**
   * Subscribes `socket` to `owner`'s notifications and waits for the one answer of `type` it expects: a
   * snapshot, or the refusal.
   */
  const subscribe = async (
    socket: RecordingSocket,
    owner: string,
    type: 'snapshot' | 'error',
    what: string,
  ) => {
    socket.emit(
      'message',
      JSON.stringify({
        type: 'subscribe',
        id: 'bell',
        target: {
          kind: 'query',
          collection: 'notifications',
          where: [{ field: 'userId', op: '==', value: owner }],
        },
      }),
    );
    await until(() => socket.messagesOfType(type).length === 1, what);
  };
  /** Two sockets, attached as Ada (`viewer`) and as Ben. */
  const attachAdaAndBen = () => {
    const sockets = [new RecordingSocket(), new RecordingSocket()] as const;
    hub.attach(sockets[0] as unknown as WebSocket, viewer);
    hub.attach(sockets[1] as unknown as WebSocket, ben);
    return sockets;
  };
  return { hub, authorized, evaluatedFor, subscribe, attachAdaAndBen };
}

describe('LiveHub authorization (decision 042)', () => {
  it("asks the source for a second subscriber too, and never hands it the group's result", async () => {
    const { hub, authorized, subscribe, attachAdaAndBen } = hubWithOwnResults('viewer');
    try {
      const [ada, intruder] = attachAdaAndBen();
      await subscribe(ada, 'ada', 'snapshot', "ada's snapshot");
      await subscribe(intruder, 'ada', 'error', "ben's refusal");
      expect(authorized).toEqual(['ada', 'ben']);
      expect(intruder.messagesOfType('snapshot')).toEqual([]);
      expect(intruder.sent.join()).not.toContain('secret-of-ada');
      expect(intruder.messagesOfType('error')[0]).toMatchObject({ id: 'bell', code: 'forbidden' });
      expect(hub.subscriptionCount).toBe(1);
    } finally {
      hub.close();
    }
  });

  it("keeps one group per viewer where results are the viewer's own, one for all where they are shared", async () => {
    for (const resultsBelongTo of ['viewer', 'everyone'] as const) {
      // Both may follow the same target; what it shows depends on who asks where results are owned.
      const { hub, evaluatedFor, subscribe, attachAdaAndBen } = hubWithOwnResults(resultsBelongTo, 'nobody');
      try {
        const [first, second] = attachAdaAndBen();
        await subscribe(first, 'ada', 'snapshot', 'the first snapshot');
        await subscribe(second, 'ada', 'snapshot', 'the second snapshot');
        if (resultsBelongTo === 'viewer') {
          expect(evaluatedFor).toEqual(['ada', 'ben']);
          expect(second.sent.join()).toContain('secret-of-ben');
          expect(second.sent.join()).not.toContain('secret-of-ada');
        } else {
          expect(evaluatedFor).toEqual(['ada']);
        }
      } finally {
        hub.close();
      }
    }
  });
});
