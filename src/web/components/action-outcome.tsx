import { useState } from 'react';
import { errorMessage } from '../lib/error-message';

/**
 * Where the outcome of an action on a list's row is said: its problem in an alert region, its result in a
 * status region. Both are always there, so that what appears in them is announced.
 */
export function ActionOutcome({ error, status }: { error: string | null; status: string | null }) {
  return (
    <>
      <div className="error-region" role="alert">
        {error && <p className="error">{error}</p>}
      </div>
      <div className="form-status" role="status">
        {status && <p>{status}</p>}
      </div>
    </>
  );
}

/**
 * One action at a time on a list's rows, and its outcome for ActionOutcome. `run` does nothing while an
 * action is under way; otherwise the row's action is pending until `work` ends, what `work` returns is said
 * in the status region, and what it throws in the alert region (after `onFailure` has seen it).
 */
export function useRowAction<Action extends string>() {
  const [pending, setPending] = useState<{ id: string; action: Action } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const run = async (
    id: string,
    action: Action,
    work: () => Promise<string>,
    onFailure?: (caught: unknown) => void,
  ) => {
    if (pending) return;
    setPending({ id, action });
    setError(null);
    setStatus(null);
    try {
      setStatus(await work());
    } catch (caught) {
      setError(errorMessage(caught));
      onFailure?.(caught);
    } finally {
      setPending(null);
    }
  };
  return { pending, error, status, run };
}
