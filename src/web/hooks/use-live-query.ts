import { useEffect, useState } from 'react';
import type { LiveDoc, LiveTarget } from '../../common';
import type { DojoError } from '../../sdk';
import { dojo } from '../lib/dojo-client';

export interface LiveQueryState<T> {
  /** The current result; null until the first snapshot has arrived (or after an error). */
  docs: T[] | null;
  /** Set when the subscription failed; the server closes a failed subscription. */
  error: DojoError | null;
  /** True until the first snapshot or an error arrives. */
  isPending: boolean;
}

interface Received<T> {
  key: string;
  docs: T[] | null;
  error: DojoError | null;
}

const nothing = { docs: null, error: null } as const;

/**
 * A live subscription (a query or one document) that follows the server for as long as the component is
 * mounted, and is closed on unmount. Pass `null` to subscribe to nothing (e.g. while an id is unknown).
 *
 * The target is compared by value, so callers may pass an object literal on every render.
 */
export function useLiveQuery<T extends LiveDoc>(target: LiveTarget | null): LiveQueryState<T> {
  const key = target === null ? '' : JSON.stringify(target);
  const [received, setReceived] = useState<Received<T>>({ key: '', ...nothing });

  useEffect(() => {
    if (key === '') return undefined;
    const current = JSON.parse(key) as LiveTarget;
    return dojo.subscribe<T>(current, {
      next: (docs) => setReceived({ key, docs, error: null }),
      error: (error) => setReceived({ key, docs: null, error }),
    });
  }, [key]);

  // Results of a previous target are never shown for a new one.
  const state = key !== '' && received.key === key ? received : nothing;
  return {
    docs: state.docs,
    error: state.error,
    isPending: key !== '' && state.docs === null && state.error === null,
  };
}
