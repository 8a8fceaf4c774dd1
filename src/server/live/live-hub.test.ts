import { EventEmitter } from 'node:events';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { LiveDoc } from '../../common';
import type { Viewer } from '../auth/viewer';
import { pollUntil } from '../../../test/support/poll';
import { LocalChangeBus } from './change-bus';
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
      groupKey: () => 'all',
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
