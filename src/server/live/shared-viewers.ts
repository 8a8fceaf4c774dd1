import type { Viewer } from '../core/viewer';

/**
 * One Viewer object per session for all of its open sockets (a user with many tabs, or many users
 * behind one session in tests and benchmarks), instead of a copy of the same strings per socket.
 */
export class SharedViewers {
  private readonly bySession = new Map<string, { viewer: Viewer; sockets: number }>();

  acquire(viewer: Viewer): Viewer {
    const entry = this.bySession.get(viewer.sessionHash);
    if (entry && sameViewer(entry.viewer, viewer)) {
      entry.sockets += 1;
      return entry.viewer;
    }
    // A session whose profile changed since its other sockets opened keeps those on the old copy.
    if (!entry) this.bySession.set(viewer.sessionHash, { viewer, sockets: 1 });
    return viewer;
  }

  release(viewer: Viewer): void {
    const entry = this.bySession.get(viewer.sessionHash);
    if (entry?.viewer !== viewer) return;
    entry.sockets -= 1;
    if (entry.sockets === 0) this.bySession.delete(viewer.sessionHash);
  }
}

const sameViewer = (a: Viewer, b: Viewer): boolean =>
  a.uid === b.uid &&
  a.email === b.email &&
  a.displayName === b.displayName &&
  a.photoURL === b.photoURL &&
  a.viaToken === b.viaToken;
