import { useEffect, useState } from 'react';
import type { LiveDoc, LiveTarget } from '../../common';
import type { DojoError, LiveObserver } from '../../sdk';
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

type Subscribe<T extends LiveDoc> = (target: LiveTarget, observer: LiveObserver<T>) => () => void;

const subscribeThroughClient = <T extends LiveDoc>(target: LiveTarget, observer: LiveObserver<T>) =>
  dojo.subscribe(target, observer);

/**
 * A live subscription (a query or one document) that follows the server for as long as the component is
 * mounted, and is closed on unmount. Pass `null` to subscribe to nothing (e.g. while an id is unknown).
 *
 * The target is compared by value, so callers may pass an object literal on every render. `subscribe` is
 * the client's own unless a screen takes over a subscription it opened before rendering (live-preload.ts).
 */
export function useLiveQuery<T extends LiveDoc>(
  target: LiveTarget | null,
  subscribe: Subscribe<T> = subscribeThroughClient,
): LiveQueryState<T> {
  const key = target === null ? '' : JSON.stringify(target);
  const [received, setReceived] = useState<Received<T>>({ key: '', ...nothing });

  useEffect(() => {
    if (key === '') return undefined;
    return subscribe(JSON.parse(key) as LiveTarget, {
      next: (docs) => setReceived({ key, docs, error: null }),
      error: (error) => setReceived({ key, docs: null, error }),
    });
  }, [key, subscribe]);

  // Results of a previous target are never shown for a new one.
  const state = key !== '' && received.key === key ? received : nothing;
  return {
    docs: state.docs,
    error: state.error,
    isPending: key !== '' && state.docs === null && state.error === null,
  };
}
