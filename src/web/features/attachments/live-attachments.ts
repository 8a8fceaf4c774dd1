import { useCallback, useSyncExternalStore } from 'react';
import { projectAttachmentsQuery, type Attachment } from '../../../common/attachments';
import { dojo } from '../../lib/dojo-client';

/** A project's attachments as last received: `docs` is null until the first snapshot (or after an error). */
export interface LiveAttachments {
  docs: readonly Attachment[] | null;
  failed: boolean;
}

interface Shared {
  state: LiveAttachments;
  listeners: Set<() => void>;
  unsubscribe: () => void;
}

const LOADING: LiveAttachments = { docs: null, failed: false };
const shared = new Map<string, Shared>();

/**
 * One live subscription per project, however many parts of its page show its files (the panel and every
 * comment with files): a subscription per comment would be one more server query per comment shown.
 * It is opened by the first part that shows the project's files and closed when the last one has gone.
 */
function listen(projectId: string, listener: () => void): () => void {
  let entry = shared.get(projectId);
  if (!entry) {
    const created: Shared = { state: LOADING, listeners: new Set(), unsubscribe: () => undefined };
    const publish = (state: LiveAttachments) => {
      created.state = state;
      for (const notify of created.listeners) notify();
    };
    created.unsubscribe = dojo.subscribe<Attachment>(projectAttachmentsQuery(projectId), {
      next: (docs) => publish({ docs, failed: false }),
      error: () => publish({ docs: null, failed: true }),
    });
    shared.set(projectId, created);
    entry = created;
  }
  const current = entry;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size > 0) return;
    current.unsubscribe();
    shared.delete(projectId);
  };
}

/** The project's attachments, newest first, following the server live (shared, see `listen`). */
export function useLiveAttachments(projectId: string): LiveAttachments {
  const subscribe = useCallback((listener: () => void) => listen(projectId, listener), [projectId]);
  const snapshot = useCallback(() => shared.get(projectId)?.state ?? LOADING, [projectId]);
  return useSyncExternalStore(subscribe, snapshot);
}
