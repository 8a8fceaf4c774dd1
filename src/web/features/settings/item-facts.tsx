import { absoluteTime, formatDate, relativeTime } from '../../lib/time-format';

/** The day something happened, as one of a listed item's facts: 'Created 3 Nov 2026'. */
export function DayFact({ label, at }: { label: string; at: string }) {
  return (
    <span className="session-seen">
      {label} <time dateTime={at}>{formatDate(at)}</time>
    </span>
  );
}

/**
 * When something last happened, as one of a listed item's facts: 'Last used 5 minutes ago', with the exact
 * time as its title; `never` when it has not happened yet.
 */
export function LastTimeFact({ label, at, never }: { label: string; at: string | null; never?: string }) {
  return (
    <span className="session-seen">
      {at ? (
        <>
          {label}{' '}
          <time dateTime={at} title={absoluteTime(at)}>
            {relativeTime(at)}
          </time>
        </>
      ) : (
        never
      )}
    </span>
  );
}
