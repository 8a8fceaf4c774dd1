import { describe, expect, it } from 'vitest';
import { notifyPayloads, statementNotify, type Change, type StatementNotify } from './change-bus';

const projectChange = (index: number, assignees = 3): Change => ({
  collection: 'projects',
  id: `project-${index}`,
  after: {
    category: 'design',
    assignedUserIds: Array.from({ length: assignees }, (_, n) => `user-${index}-${n}`),
  },
});

describe('notifyPayloads', () => {
  it('sends a small batch as one payload', () => {
    const changes = [projectChange(1), { collection: 'users', id: 'u1', scope: 'presence' } as const];
    expect(notifyPayloads(changes)).toEqual([JSON.stringify(changes)]);
  });

  it('splits a large batch into payloads PostgreSQL accepts, keeping every change in order', () => {
    const changes = Array.from({ length: 400 }, (_, index) => projectChange(index));
    const payloads = notifyPayloads(changes);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(payloads.flatMap((payload) => JSON.parse(payload) as Change[])).toEqual(changes);
  });

  it('sends a change too large to travel whole without its fields, so receivers read it instead', () => {
    const huge = projectChange(7, 1000);
    const payloads = notifyPayloads([projectChange(6), huge, projectChange(8)]);
    const received = payloads.flatMap((payload) => JSON.parse(payload) as Change[]);
    expect(received).toEqual([
      projectChange(6),
      { collection: 'projects', id: 'project-7' },
      projectChange(8),
    ]);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
  });

  it('sends nothing for no changes', () => {
    expect(notifyPayloads([])).toEqual([]);
  });
});

/** The payload a statement sends when it wrote the rows of `written`, as `insertProjectNotifying` builds it. */
const payloadFor = (notify: StatementNotify, written: string[]) =>
  `${notify.head}${written.map((key) => notify.perRow.get(key) ?? '').join('')}]`;

const bellChange = (userId: string): Change => ({
  collection: 'notifications',
  id: userId,
  after: { userId, unread: true },
});

describe('statementNotify', () => {
  it('builds the changes always sent and those of the rows written, as one JSON array', () => {
    const bells = new Map(['u1', 'u2', 'u3'].map((userId) => [userId, bellChange(userId)]));
    const notify = statementNotify('dojo_changes', [projectChange(1)], bells);
    expect(notify?.channel).toBe('dojo_changes');
    const sent = (written: string[]) => JSON.parse(payloadFor(notify!, written)) as Change[];
    expect(sent(['u1', 'u3'])).toEqual([projectChange(1), bellChange('u1'), bellChange('u3')]);
    expect(sent([])).toEqual([projectChange(1)]);
  });

  it('declines when every row written would make a payload PostgreSQL refuses', () => {
    const longId = (n: number) => `member-${n}-`.padEnd(64, 'x');
    const bells = (count: number) =>
      new Map(Array.from({ length: count }, (_, n) => [longId(n), bellChange(longId(n))]));
    const fits = statementNotify('dojo_changes', [projectChange(1)], bells(30));
    expect(Buffer.byteLength(payloadFor(fits!, [...bells(30).keys()]))).toBeLessThan(8000);
    expect(statementNotify('dojo_changes', [projectChange(1)], bells(60))).toBeNull();
  });

  it('declines a statement with no change always sent', () => {
    expect(statementNotify('dojo_changes', [], new Map([['u1', bellChange('u1')]]))).toBeNull();
  });
});
