import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/** The account's signed-in sessions, loaded on mount and again after `reload()`. */
export function useSessions() {
  const { data, failure, reload } = useOneShotRead('sessions', () => dojo.account.listSessions());
  return { sessions: data?.value ?? null, loadError: failure ? errorMessage(failure.error) : null, reload };
}
