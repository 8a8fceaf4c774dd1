import { useState } from 'react';
import {
  NOTIFICATION_EMAIL_MODE_LABELS,
  NOTIFICATION_EMAIL_MODES,
  NOTIFICATION_KIND_LABELS,
  type NotificationEmailMode,
  type NotificationPreference,
} from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/**
 * Which kinds of notification the member gets, in the app and (when the server can send email) by email.
 * Each change is saved at once and applies to the next notification.
 */
export function NotificationPreferencesSection() {
  const { data, failure, update } = useOneShotRead('notification-preferences', () =>
    dojo.notifications.preferences(),
  );
  const loaded = data?.value ?? null;
  const [saveError, setError] = useState<string | null>(null);
  const error = failure ? errorMessage(failure.error) : saveError;
  const [status, setStatus] = useState('');

  // The control shows the choice at once; the server's answer then replaces it (or the old one returns).
  const save = async (preference: NotificationPreference) => {
    const before = loaded;
    update(
      (current) =>
        current && {
          ...current,
          preferences: current.preferences.map((each) => (each.kind === preference.kind ? preference : each)),
        },
    );
    setError(null);
    setStatus('Saving...');
    try {
      const saved = await dojo.notifications.updatePreferences({ preferences: [preference] });
      update(() => saved);
      setStatus('Saved.');
    } catch (failure) {
      update(() => before ?? undefined);
      setStatus('');
      setError(errorMessage(failure));
    }
  };

  return (
    <section className="card" aria-labelledby="notification-preferences-heading">
      <h2 id="notification-preferences-heading">Notifications</h2>
      {!loaded && !error && <p role="status">Loading notification settings...</p>}
      <ErrorAlert message={error} />
      {loaded && (
        <table className="notification-preferences">
          <caption className="visually-hidden">What you are told about, and how</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">In the app</th>
              {loaded.emailAvailable && <th scope="col">By email</th>}
            </tr>
          </thead>
          <tbody>
            {loaded.preferences.map((preference) => {
              const label = NOTIFICATION_KIND_LABELS[preference.kind];
              return (
                <tr key={preference.kind}>
                  <th scope="row">{label}</th>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${label}: in the app`}
                      checked={preference.inApp}
                      onChange={(event) => void save({ ...preference, inApp: event.target.checked })}
                    />
                  </td>
                  {loaded.emailAvailable && (
                    <td>
                      <select
                        aria-label={`${label}: by email`}
                        value={preference.email}
                        onChange={(event) =>
                          void save({ ...preference, email: event.target.value as NotificationEmailMode })
                        }
                      >
                        {NOTIFICATION_EMAIL_MODES.map((mode) => (
                          <option key={mode} value={mode}>
                            {NOTIFICATION_EMAIL_MODE_LABELS[mode]}
                          </option>
                        ))}
                      </select>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p role="status" className="settings-hint">
        {status}
      </p>
    </section>
  );
}
