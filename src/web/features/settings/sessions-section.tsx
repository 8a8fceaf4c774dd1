import { useState } from 'react';
import type { AccountSession } from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { relativeTime } from '../../lib/time-format';
import { LastTimeFact } from './item-facts';
import { LoadedList, SettingsSection } from './settings-section';

interface SessionsSectionProps {
  sessions: AccountSession[] | null;
  loadError: string | null;
  reload: () => void;
}

/** Where the account is signed in, with a way to end any session but this one. */
export function SessionsSection({ sessions, loadError, reload }: SessionsSectionProps) {
  // The session being signed out ('others' for all of them), while the call is on its way.
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const run = async (key: string, action: () => Promise<void>, done: string) => {
    if (pending) return;
    setPending(key);
    setError(null);
    setStatus(null);
    try {
      await action();
      setStatus(done);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(null);
      reload();
    }
  };

  const others = sessions?.filter((session) => !session.current) ?? [];

  return (
    <SettingsSection name="sessions" title="Where you are signed in">
      <LoadedList items={sessions} loadError={loadError}>
        {(session) => (
          <li key={session.id} className="session-item">
            <div className="session-facts">
              <span className="session-device">{session.device}</span>
              {session.current && <span className="session-current">This device</span>}
              <LastTimeFact label="Last seen" at={session.lastSeenAt} />
            </div>
            {!session.current && (
              <button
                className="btn"
                type="button"
                aria-label={`Sign out ${session.device}, last seen ${relativeTime(session.lastSeenAt)}`}
                aria-disabled={pending !== null || undefined}
                onClick={() =>
                  void run(
                    session.id,
                    () => dojo.account.signOutSession(session.id),
                    `Signed out ${session.device}.`,
                  )
                }
              >
                {pending === session.id ? 'Signing out...' : 'Sign out'}
              </button>
            )}
          </li>
        )}
      </LoadedList>
      {others.length > 0 && (
        <button
          className="btn"
          type="button"
          aria-disabled={pending !== null || undefined}
          onClick={() =>
            void run('others', () => dojo.account.signOutOtherSessions(), 'Signed out everywhere else.')
          }
        >
          {pending === 'others' ? 'Signing out...' : 'Sign out everywhere else'}
        </button>
      )}
      <ErrorAlert message={error} />
      <div className="form-status" role="status">
        {status && <p>{status}</p>}
      </div>
    </SettingsSection>
  );
}
