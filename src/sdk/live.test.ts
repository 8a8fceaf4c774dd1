import { afterEach, describe, it, expect, vi } from 'vitest';
import { dashboardQuery, type LiveChange, type LiveDoc, type LiveServerMessage } from '../common';
import { applyChanges, LiveClient, type LiveStatus, type SocketLike } from './live';

interface Doc extends LiveDoc {
  id: string;
  v: number;
}

const doc = (id: string, v = 0): Doc => ({ id, v });
const ids = (docs: LiveDoc[]): string[] => docs.map((d) => d.id);

/**
 * The server's diff, as `LiveHub.sendDiff` computes it: removed for ids gone from the new result, then
 * in new-result order `added` for unseen ids and `modified` for ids whose JSON changed, with `newIndex`.
 */
function serverDiff<T extends LiveDoc>(previous: T[], next: T[]): LiveChange<T>[] {
  const changes: LiveChange<T>[] = [];
  const nextIds = new Set(next.map((d) => d.id));
  const previousJson = new Map(previous.map((d) => [d.id, JSON.stringify(d)]));
  for (const d of previous) {
    if (!nextIds.has(d.id)) changes.push({ type: 'removed', doc: { id: d.id } as T });
  }
  next.forEach((d, index) => {
    const before = previousJson.get(d.id);
    if (before === undefined) changes.push({ type: 'added', doc: d, newIndex: index });
    else if (before !== JSON.stringify(d)) changes.push({ type: 'modified', doc: d, newIndex: index });
  });
  return changes;
}

/** mulberry32: small, seeded, deterministic. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('applyChanges', () => {
  it('inserts an added doc at its newIndex', () => {
    const result = applyChanges(
      [doc('a'), doc('b'), doc('c')],
      [{ type: 'added', doc: doc('x'), newIndex: 1 }],
    );
    expect(ids(result)).toEqual(['a', 'x', 'b', 'c']);
  });

  it('inserts an added doc at the start and at the end', () => {
    expect(ids(applyChanges([doc('a'), doc('b')], [{ type: 'added', doc: doc('x'), newIndex: 0 }]))).toEqual([
      'x',
      'a',
      'b',
    ]);
    expect(ids(applyChanges([doc('a'), doc('b')], [{ type: 'added', doc: doc('x'), newIndex: 2 }]))).toEqual([
      'a',
      'b',
      'x',
    ]);
  });

  it('adds to an empty result', () => {
    expect(applyChanges<Doc>([], [{ type: 'added', doc: doc('x', 1), newIndex: 0 }])).toEqual([doc('x', 1)]);
  });

  it('removes a doc (the removed change carries only the id)', () => {
    const result = applyChanges(
      [doc('a'), doc('b'), doc('c')],
      [{ type: 'removed', doc: { id: 'b' } as Doc }],
    );
    expect(result).toEqual([doc('a'), doc('c')]);
  });

  it('replaces a modified doc in place', () => {
    const result = applyChanges(
      [doc('a'), doc('b'), doc('c')],
      [{ type: 'modified', doc: doc('b', 7), newIndex: 1 }],
    );
    expect(result).toEqual([doc('a'), doc('b', 7), doc('c')]);
  });

  it('moves a modified doc to its new index', () => {
    const result = applyChanges(
      [doc('a'), doc('b'), doc('c'), doc('d')],
      [{ type: 'modified', doc: doc('a', 1), newIndex: 3 }],
    );
    expect(result).toEqual([doc('b'), doc('c'), doc('d'), doc('a', 1)]);
  });

  it('moves a modified doc towards the front', () => {
    const result = applyChanges(
      [doc('a'), doc('b'), doc('c'), doc('d')],
      [{ type: 'modified', doc: doc('d', 1), newIndex: 1 }],
    );
    expect(result).toEqual([doc('a'), doc('d', 1), doc('b'), doc('c')]);
  });

  it('reproduces the server order for a mixed batch: [a,b,c,d] → [d,a,x,c]', () => {
    const previous = [doc('a'), doc('b'), doc('c'), doc('d')];
    const next = [doc('d', 1), doc('a'), doc('x'), doc('c')];
    const changes: LiveChange<Doc>[] = [
      { type: 'removed', doc: { id: 'b' } as Doc },
      { type: 'modified', doc: doc('d', 1), newIndex: 0 },
      { type: 'added', doc: doc('x'), newIndex: 2 },
    ];
    expect(serverDiff(previous, next)).toEqual(changes);
    expect(applyChanges(previous, changes)).toEqual(next);
  });

  it('does not depend on the order of changes within the batch', () => {
    const previous = [doc('a'), doc('b'), doc('c'), doc('d')];
    const changes: LiveChange<Doc>[] = [
      { type: 'added', doc: doc('x'), newIndex: 2 },
      { type: 'modified', doc: doc('d', 1), newIndex: 0 },
      { type: 'removed', doc: { id: 'b' } as Doc },
    ];
    expect(applyChanges(previous, changes)).toEqual([doc('d', 1), doc('a'), doc('x'), doc('c')]);
  });

  it('returns an equal list for no changes', () => {
    const previous = [doc('a'), doc('b', 2)];
    expect(applyChanges(previous, [])).toEqual([doc('a'), doc('b', 2)]);
  });

  it('does not mutate the input docs or changes', () => {
    const previous = [doc('a'), doc('b'), doc('c'), doc('d')];
    const previousCopy = structuredClone(previous);
    const changes: LiveChange<Doc>[] = [
      { type: 'added', doc: doc('x'), newIndex: 2 },
      { type: 'removed', doc: { id: 'b' } as Doc },
      { type: 'modified', doc: doc('d', 1), newIndex: 0 },
    ];
    const changesCopy = structuredClone(changes);
    const result = applyChanges(previous, changes);
    expect(result).not.toBe(previous);
    expect(previous).toEqual(previousCopy);
    expect(changes).toEqual(changesCopy);
  });

  it('property: applying the server diff of 200 random pairs rebuilds the new result', () => {
    const random = prng(20_240_607);
    const pick = (n: number) => Math.floor(random() * n);
    let nextId = 0;

    for (let round = 0; round < 200; round++) {
      const previous: Doc[] = Array.from({ length: pick(12) }, () => doc(`d${nextId++}`, 0));

      // Each old doc is kept unchanged, kept but modified (and possibly moved), or removed.
      const unchanged: Doc[] = [];
      const floating: Doc[] = [];
      for (const d of previous) {
        const roll = random();
        if (roll < 0.5) unchanged.push(d);
        else if (roll < 0.8) floating.push({ ...d, v: d.v + 1 + pick(5) });
      }
      for (let n = pick(5); n > 0; n--) floating.push(doc(`d${nextId++}`, pick(3)));

      // Unchanged docs keep their relative order; changed and new docs land anywhere.
      const next = [...unchanged];
      for (const d of floating) next.splice(pick(next.length + 1), 0, d);

      const changes = serverDiff(previous, next);
      const snapshot = structuredClone(previous);
      expect(applyChanges(previous, changes), `round ${round}`).toEqual(next);
      expect(previous, `round ${round} input untouched`).toEqual(snapshot);
    }
  });
});

/** A socket the test opens and closes by hand; the client under test is the real one. */
class HandSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.({});
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: LiveServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

describe('LiveClient reconnects', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports its status, retries with growing jittered delays, and resubscribes once back', () => {
    vi.useFakeTimers();
    const sockets: HandSocket[] = [];
    const client = new LiveClient(
      'ws://server/live',
      () => {
        const socket = new HandSocket();
        sockets.push(socket);
        return socket;
      },
      () => undefined,
    );
    const statuses: LiveStatus[] = [];
    client.onStatusChanged((status) => statuses.push(status));
    client.subscribe(dashboardQuery('all', 'u1', 50), { next: () => undefined });
    client.setEnabled(true);
    sockets[0]?.open();
    expect(sockets[0]?.sent).toHaveLength(1);

    // The server goes away: every failed attempt waits longer, within [delay / 2, delay].
    sockets[0]?.close();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const before = Date.now();
      while (sockets.length === attempt) vi.advanceTimersByTime(1);
      waits.push(Date.now() - before);
      sockets[attempt]?.close();
    }
    const ceilings = [250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000];
    waits.forEach((wait, index) => {
      expect(wait).toBeGreaterThanOrEqual((ceilings[index] ?? 0) / 2);
      expect(wait).toBeLessThanOrEqual((ceilings[index] ?? 0) + 1);
    });
    expect(client.status).toBe('reconnecting');

    // Back: the subscription is sent again on the new socket, and once the server accepts it (welcome)
    // the delays start over.
    while (sockets.length === 9) vi.advanceTimersByTime(1);
    sockets[9]?.open();
    sockets[9]?.receive({ type: 'welcome', uid: 'u1' });
    expect(sockets[9]?.sent).toEqual(sockets[0]?.sent);
    expect(statuses).toEqual(['connecting', 'online', 'reconnecting', 'online']);
    sockets[9]?.close();
    const before = Date.now();
    while (sockets.length === 10) vi.advanceTimersByTime(1);
    expect(Date.now() - before).toBeLessThanOrEqual(251);

    client.setEnabled(false);
    expect(client.status).toBe('offline');
  });
});
