import { describe, expect, it } from 'vitest';
import { notifyPayloads, type Change } from './change-bus';

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
