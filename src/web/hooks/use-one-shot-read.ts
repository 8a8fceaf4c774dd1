import { useEffect, useEffectEvent, useState } from 'react';

/** A value read, and the key it answers. */
interface ReadValue<T> {
  key: string;
  value: T;
}

/** Why a read failed, and the key it was for. */
interface ReadFailure {
  key: string;
  error: unknown;
}

export interface OneShotRead<T> {
  /**
   * The newest value read, with its key: the current key's, or an earlier key's while the current one is
   * on its way (to keep on screen, or to ignore: compare the key). A failed reload of the same key keeps it.
   */
  data: ReadValue<T> | null;
  /** Why the newest read failed, with its key; null once a read succeeds. */
  failure: ReadFailure | null;
  /** Reads the current key again; its earlier answer stays until the new one arrives. */
  reload: () => void;
  /**
   * The page's own change to what it read (an item it added, the server's answer to a save), applied to the
   * current key's value (`undefined` before it arrived); returning `undefined` forgets the value. A read
   * still on its way replaces it when it arrives.
   */
  update: (change: (value: T | undefined) => T | undefined) => void;
}

interface Answers<T> {
  data: ReadValue<T> | null;
  failure: ReadFailure | null;
}

/**
 * The one pattern for a read the web app makes once (docs/decisions/060-one-pattern-for-one-shot-reads.md):
 * `read(key)` runs when the component mounts and again whenever `key` changes (`null`: nothing to read),
 * and an answer that arrives after its key has changed, after a reload or after unmount is dropped, so
 * what is shown is always the answer to the newest request. A key is loading while neither `data` nor
 * `failure` carries it. What changes live uses `useLiveQuery` instead.
 */
export function useOneShotRead<T>(key: string | null, read: (key: string) => Promise<T>): OneShotRead<T> {
  const [answers, setAnswers] = useState<Answers<T>>({ data: null, failure: null });
  const [round, setRound] = useState(0);
  // The newest `read` the component rendered with, without making a new function a new request.
  const readKey = useEffectEvent(read);

  useEffect(() => {
    if (key === null) return undefined;
    let current = true;
    readKey(key).then(
      (value) => {
        if (current) setAnswers({ data: { key, value }, failure: null });
      },
      (error: unknown) => {
        if (!current) return;
        setAnswers((before) => ({
          data: before.data?.key === key ? before.data : null,
          failure: { key, error },
        }));
      },
    );
    return () => {
      current = false;
    };
  }, [key, round]);

  return {
    ...answers,
    reload: () => setRound((value) => value + 1),
    update: (change) => {
      if (key === null) return;
      setAnswers(({ data, failure }) => {
        const value = change(data?.key === key ? data.value : undefined);
        return { data: value === undefined ? null : { key, value }, failure };
      });
    },
  };
}
