import { useState } from 'react';
import type { CalendarFeedScope, CalendarFeedState } from '../../../common/calendar-feed';
import { CalendarFeedClient } from '../../../sdk/calendar-feed';
import { ConfirmInPlace, useInPlace } from '../../components/confirm-in-place';
import { ErrorAlert } from '../../components/error-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { formatDate } from '../../lib/time-format';
import { Loaded, SettingsSection } from './settings-section';
import { ShownOnce } from './shown-once';
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
  const resetQuestion = useInPlace();
  const { trigger: resetTrigger } = resetQuestion;
  const { say } = useAnnouncer();

  const act = async (label: string, work: () => Promise<CalendarFeedState>, done: string) => {
    setPending(label);
    setActionError(null);
    try {
      const next = await work();
      update(() => next);
      setShownUrl(next.url);
      setScope(null);
      resetQuestion.done();
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
    <SettingsSection
      name="calendar-feed"
      title="Calendar feed"
      hint={`Subscribe to your projects' due dates in Thunderbird, Apple Calendar or Google Calendar ("From URL"): each open project is an all-day event on its due date.`}
    >
      <Loaded value={state} loadError={failure ? errorMessage(failure.error) : null}>
        {(feed) => (
          <>
            <p className="calendar-feed-status">
              {feed.enabled
                ? `On since ${formatDate(feed.createdAt ?? '')}: ${SCOPE_LABELS[feed.scope ?? 'all'].toLowerCase()}.`
                : 'Off.'}
            </p>
            {shownUrl && <FeedAddress url={shownUrl} onDone={() => setShownUrl(null)} />}
            {feed.enabled && !shownUrl && (
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
              {!feed.enabled && (
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
              {feed.enabled && (
                <>
                  <button
                    className="btn"
                    type="button"
                    disabled={pending !== null || scope === feed.scope}
                    onClick={() =>
                      void act('scope', () => calendarFeed.choose(scope), 'Calendar feed choice saved.')
                    }
                  >
                    {pending === 'scope' ? 'Saving...' : 'Save choice'}
                  </button>
                  <button
                    ref={resetTrigger}
                    className="btn"
                    type="button"
                    disabled={pending !== null}
                    aria-expanded={resetQuestion.open}
                    onClick={resetQuestion.show}
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
            {resetQuestion.open && feed.enabled && (
              <ConfirmInPlace
                kind="calendar-feed"
                confirmation={resetQuestion}
                question="Reset the address? Calendars subscribed to the current one stop updating at once."
                busy={pending !== null}
                action={pending !== null ? 'Resetting...' : 'Reset address'}
                onConfirm={() =>
                  void act(
                    'reset',
                    () => calendarFeed.reset(),
                    'New calendar feed address made. The old one no longer works. Copy the new one now.',
                  )
                }
              />
            )}
            <ErrorAlert message={actionError} />
          </>
        )}
      </Loaded>
    </SettingsSection>
  );
}

/** The feed's address, this once, with what anyone holding it can see. */
function FeedAddress({ url, onDone }: { url: string; onDone: () => void }) {
  return (
    <ShownOnce
      id="calendar-feed-url"
      className="calendar-feed-address"
      heading="Your calendar feed address"
      warning="Anyone with this link can see the names, due dates, details and assignees of the projects in your feed, without signing in. Keep it private; if it leaks, reset it. It is shown only now."
      label="Address:"
      noun="address"
      value={url}
      inputClassName="calendar-feed-url"
      actionsClassName="calendar-feed-actions"
      copied="Calendar feed address copied."
      onDone={onDone}
    />
  );
}
