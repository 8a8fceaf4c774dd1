import type { ReactNode } from 'react';
import { messages } from '../../../common';
import { ErrorAlert } from '../../components/error-alert';

/**
 * A section of the settings page: a card named by its heading (`${name}-heading`, which other parts may
 * point at), with an optional hint under it (`${name}-intro` for the section's own look).
 */
export function SettingsSection({
  name,
  title,
  hint,
  children,
}: {
  name: string;
  title: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={`${name}-heading`}>
      <h2 id={`${name}-heading`}>{title}</h2>
      {hint && <p className={`settings-hint ${name}-intro`}>{hint}</p>}
      {children}
    </section>
  );
}

/**
 * What a section read once: why the read failed, 'Loading...' until it answers, then `children` with the
 * value.
 */
export function Loaded<T>({
  value,
  loadError,
  children,
}: {
  value: T | null | undefined;
  loadError: string | null;
  children: (value: T) => ReactNode;
}) {
  return (
    <>
      <ErrorAlert message={loadError} />
      {value === null || value === undefined
        ? !loadError && <p className="loading">{messages.loading}</p>
        : children(value)}
    </>
  );
}

/**
 * A list a section read once, as `Loaded` shows it: `empty` in place of an empty list (without it, the
 * empty list), else one item per entry, the list named by `labelledBy`.
 */
export function LoadedList<T>({
  items,
  loadError,
  empty,
  labelledBy,
  children,
}: {
  items: readonly T[] | null | undefined;
  loadError: string | null;
  empty?: string;
  labelledBy?: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <Loaded value={items} loadError={loadError}>
      {(loaded) =>
        empty !== undefined && loaded.length === 0 ? (
          <p className="muted">{empty}</p>
        ) : (
          <ul className="session-list" aria-labelledby={labelledBy}>
            {loaded.map(children)}
          </ul>
        )
      }
    </Loaded>
  );
}
