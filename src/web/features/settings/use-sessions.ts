import { useCallback, useEffect, useState } from 'react';
import type { AccountSession } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/** The account's signed-in sessions, loaded on mount and again after `reload()`. */
export function useSessions() {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    dojo.account.listSessions().then(
      (received) => {
        if (!current) return;
        setSessions(received);
        setLoadError(null);
      },
      (error: unknown) => {
        if (current) setLoadError(errorMessage(error));
      },
    );
    return () => {
      current = false;
    };
  }, [version]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { sessions, loadError, reload };
}
