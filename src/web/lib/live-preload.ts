import type { LiveDoc, LiveTarget } from '../../common';
import type { DojoError, LiveObserver } from '../../sdk';
import { dojo } from './dojo-client';

/** A preloaded subscription nobody took over in this time is closed. */
const UNCLAIMED_MS = 10_000;

interface Preloaded {
  docs: LiveDoc[] | null;
  error: DojoError | null;
  /** The observer that took the subscription over, once one did. */
  observer: LiveObserver | null;
  unsubscribe: () => void;
}

const preloaded = new Map<string, Preloaded>();

/**
 * Opens the live subscription to `target` before the screen that shows it has rendered (right after the
 * first auth state is known), so its snapshot is on its way while the screen renders. The first
 * `subscribeLive` to the same target takes it over.
 */
export function preloadSubscription(target: LiveTarget): void {
  const key = JSON.stringify(target);
  if (preloaded.has(key)) return;
  const entry: Preloaded = { docs: null, error: null, observer: null, unsubscribe: () => undefined };
  entry.unsubscribe = dojo.subscribe(target, {
    next: (docs, changes) => {
      entry.docs = docs;
      entry.observer?.next(docs, changes);
    },
    error: (error) => {
      entry.error = error;
      entry.observer?.error?.(error);
    },
  });
  preloaded.set(key, entry);
  setTimeout(() => {
    if (preloaded.get(key) !== entry) return;
    preloaded.delete(key);
    entry.unsubscribe();
  }, UNCLAIMED_MS);
}

/**
 * `dojo.subscribe`, except that a preloaded subscription to the same target is taken over: its current
 * result, if any, is delivered at once instead of waiting for a snapshot of a new subscription.
 */
export function subscribeLive<T extends LiveDoc>(target: LiveTarget, observer: LiveObserver<T>): () => void {
  const key = JSON.stringify(target);
  const entry = preloaded.get(key);
  if (!entry) return dojo.subscribe(target, observer);
  preloaded.delete(key);
  entry.observer = observer as unknown as LiveObserver;
  if (entry.error) observer.error?.(entry.error);
  else if (entry.docs) observer.next(entry.docs as T[], []);
  return entry.unsubscribe;
}
