import { describe, expect, it } from 'vitest';
import type { Viewer } from '../core/viewer';
import { SharedViewers } from './shared-viewers';

const viewer = (overrides: Partial<Viewer> = {}): Viewer => ({
  uid: 'u1',
  email: 'u1@example.com',
  displayName: 'User One',
  photoURL: 'https://example.com/u1.png',
  role: 'member',
  sessionHash: 'session-1',
  viaToken: false,
  sessionExpiresAt: 1,
  ...overrides,
});

describe('SharedViewers', () => {
  it('gives every socket of a session the first equal viewer', () => {
    const viewers = new SharedViewers();
    const first = viewers.acquire(viewer());
    expect(viewers.acquire(viewer({ sessionExpiresAt: 2 }))).toBe(first);
  });

  it('keeps a changed profile on its own copy, and sessions apart', () => {
    const viewers = new SharedViewers();
    const first = viewers.acquire(viewer());
    const renamed = viewer({ displayName: 'Renamed' });
    expect(viewers.acquire(renamed)).toBe(renamed);
    const other = viewer({ sessionHash: 'session-2' });
    expect(viewers.acquire(other)).toBe(other);
    expect(viewers.acquire(viewer())).toBe(first);
  });

  it('lets go of the shared copy once its last socket is released', () => {
    const viewers = new SharedViewers();
    const first = viewers.acquire(viewer());
    viewers.acquire(viewer());
    viewers.release(first);
    expect(viewers.acquire(viewer())).toBe(first);
    viewers.release(first);
    viewers.release(first);
    const next = viewer();
    expect(viewers.acquire(next)).toBe(next);
  });
});
