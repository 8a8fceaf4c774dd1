import { useEffect, useRef, useState } from 'react';
import { messages } from '../../../common';
import type { CalendarFeedScope, CalendarFeedState } from '../../../common/calendar-feed';
import { CalendarFeedClient } from '../../../sdk/calendar-feed';
import { ErrorAlert } from '../../components/error-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { formatDate } from '../../lib/time-format';
import './calendar-feed.css';

const calendarFeed = new CalendarFeedClient(dojo.transport);

const SCOPE_LABELS: Record<CalendarFeedScope, string> = {
  all: 'All open projects',
  mine: 'Only projects assigned to me',
};

/**
 * The private calendar feed (docs/decisions/068-private-calendar-feed.md): turned on with a choice of
 * projects, its address shown once with a copy button and a warning, the choice changed, the address
 * reset (confirmed in place) or the feed turned off.
 */
export function CalendarFeedSection() {
  const { data, failure, update } = useOneShotRead('calendar-feed', () => calendarFeed.state());
  const state = data?.value ?? null;
  // The member's pick, until saved; the feed's own scope otherwise.
  const [picked, setScope] = useState<CalendarFeedScope | null>(null);
  const scope = picked ?? state?.scope ?? 'all';
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const { say } = useAnnouncer();

  const act = async (label: string, work: () => Promise<CalendarFeedState>, done: string) => {
    setPending(label);
    setActionError(null);
    try {
      const next = await work();
      update(() => next);
      setShownUrl(next.url);
      setScope(null);
      setConfirmingReset(false);
      say(done);
    } catch (error) {
      setActionError(errorMessage(error));
    } finally {
      setPending(null);
    }
  };

  const turnOff = () =>
    act(
      'off',
      async () => {
        await calendarFeed.turnOff();
        return { enabled: false, scope: null, createdAt: null, url: null };
      },
      'Calendar feed turned off. Its address no longer works.',
    );

  return (
    <section className="card" aria-labelledby="calendar-feed-heading">
      <h2 id="calendar-feed-heading">Calendar feed</h2>
      <p className="settings-hint calendar-feed-intro">
        Subscribe to your projects&apos; due dates in Thunderbird, Apple Calendar or Google Calendar
        (&quot;From URL&quot;): each open project is an all-day event on its due date.
      </p>
      <ErrorAlert message={failure ? errorMessage(failure.error) : null} />
      {!state && !failure && <p className="loading">{messages.loading}</p>}
      {state && (
        <>
          <p className="calendar-feed-status">
            {state.enabled
              ? `On since ${formatDate(state.createdAt ?? '')}: ${SCOPE_LABELS[state.scope ?? 'all'].toLowerCase()}.`
              : 'Off.'}
          </p>
          {shownUrl && <FeedAddress url={shownUrl} onDone={() => setShownUrl(null)} />}
          {state.enabled && !shownUrl && (
            <p className="muted">
              The address was shown when it was made. Lost it? Reset the address to get a new one.
            </p>
          )}
          <fieldset className="calendar-feed-scope">
            <legend>Projects in the feed</legend>
            {(['all', 'mine'] as const).map((option) => (
              <label key={option} className="calendar-feed-option">
                <input
                  type="radio"
                  name="calendar-feed-scope"
                  value={option}
                  checked={scope === option}
                  onChange={() => setScope(option)}
                />{' '}
                {SCOPE_LABELS[option]}
              </label>
            ))}
          </fieldset>
          <div className="calendar-feed-actions">
            {!state.enabled && (
              <button
                className="btn btn-primary"
                type="button"
                disabled={pending !== null}
                onClick={() =>
                  void act(
                    'on',
                    () => calendarFeed.choose(scope),
                    'Calendar feed turned on. Copy its address now.',
                  )
                }
              >
                {pending === 'on' ? 'Turning on...' : 'Turn on calendar feed'}
              </button>
            )}
            {state.enabled && (
              <>
                <button
                  className="btn"
                  type="button"
                  disabled={pending !== null || scope === state.scope}
                  onClick={() =>
                    void act('scope', () => calendarFeed.choose(scope), 'Calendar feed choice saved.')
                  }
                >
                  {pending === 'scope' ? 'Saving...' : 'Save choice'}
                </button>
                <button
                  className="btn"
                  type="button"
                  disabled={pending !== null}
                  aria-expanded={confirmingReset}
                  onClick={() => setConfirmingReset(true)}
                >
                  Reset address
                </button>
                <button
                  className="btn btn-danger"
                  type="button"
                  disabled={pending !== null}
                  onClick={() => void turnOff()}
                >
                  {pending === 'off' ? 'Turning off...' : 'Turn off'}
                </button>
              </>
            )}
          </div>
          {confirmingReset && state.enabled && (
            <ResetConfirmation
              busy={pending !== null}
              onConfirm={() =>
                void act(
                  'reset',
                  () => calendarFeed.reset(),
                  'New calendar feed address made. The old one no longer works. Copy the new one now.',
                )
              }
              onCancel={() => setConfirmingReset(false)}
            />
          )}
          <ErrorAlert message={actionError} />
        </>
      )}
    </section>
  );
}

/** The question before a reset, focused when it opens. */
function ResetConfirmation({
  busy,
  onConfirm,
  onCancel,
}: {
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <div className="inset calendar-feed-confirm" role="group" aria-labelledby="calendar-feed-reset-question">
      <p id="calendar-feed-reset-question" className="calendar-feed-question">
        Reset the address? Calendars subscribed to the current one stop updating at once.
      </p>
      <div className="calendar-feed-actions">
        <button className="btn btn-danger" type="button" disabled={busy} onClick={onConfirm}>
          {busy ? 'Resetting...' : 'Reset address'}
        </button>
        <button ref={cancelRef} className="btn" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The feed's address, this once: focused, with a copy button and what anyone holding it can see. */
function FeedAddress({ url, onDone }: { url: string; onDone: () => void }) {
  const { say } = useAnnouncer();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyProblem, setCopyProblem] = useState<string | null>(null);

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [url]);

  const copy = async () => {
    setCopyProblem(null);
    try {
      await navigator.clipboard.writeText(url);
      say('Calendar feed address copied.');
    } catch {
      inputRef.current?.select();
      setCopyProblem('Could not copy: the address is selected, copy it with your keyboard.');
    }
  };

  return (
    <div className="inset calendar-feed-address" role="group" aria-labelledby="calendar-feed-address-heading">
      <h3 id="calendar-feed-address-heading">Your calendar feed address</h3>
      <p id="calendar-feed-warning" className="settings-warning">
        Anyone with this link can see the names, due dates, details and assignees of the projects in your
        feed, without signing in. Keep it private; if it leaks, reset it. It is shown only now.
      </p>
      <div className="form-field">
        <label htmlFor="calendar-feed-url">Address:</label>
        <input
          ref={inputRef}
          id="calendar-feed-url"
          className="calendar-feed-url"
          readOnly
          value={url}
          aria-describedby="calendar-feed-warning"
          onFocus={(event) => event.target.select()}
        />
      </div>
      <div className="calendar-feed-actions">
        <button className="btn" type="button" onClick={() => void copy()}>
          Copy address
        </button>
        <button className="btn" type="button" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
      <ErrorAlert message={copyProblem} />
    </div>
  );
}
