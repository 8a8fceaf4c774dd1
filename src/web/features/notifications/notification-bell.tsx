import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import {
  UNREAD_COUNT_CAP,
  unreadNotificationsCountQuery,
  type NotificationUnreadCount,
} from '../../../common';
import { Icon } from '../../components/icon';
import { useLiveQuery } from '../../hooks/use-live-query';
import './notifications.css';

// The panel's code arrives when it is first opened: the bell is on every first page (bench: first-visit JavaScript).
const NotificationsPanel = lazy(() =>
  import('./notifications-panel').then((module) => ({ default: module.NotificationsPanel })),
);

/** The navbar's bell: the live unread count, and the panel it opens and closes (a disclosure). */
export function NotificationBell({ userId }: { userId: string }) {
  const count = useLiveQuery<NotificationUnreadCount>(unreadNotificationsCountQuery(userId));
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const unread = count.docs?.[0]?.count ?? 0;
  const label = count.error
    ? 'Notifications, unread count unavailable'
    : count.isPending
      ? 'Notifications'
      : `Notifications, ${unread >= UNREAD_COUNT_CAP ? `more than ${UNREAD_COUNT_CAP - 1}` : unread} unread`;

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  // A click outside the bell and its panel closes the panel, as does Escape inside it.
  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <div
      className="notification-bell"
      ref={container}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close(true);
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="btn notification-bell-button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        <Icon name="bell" />
        {unread > 0 && (
          <span className="notification-bell-count" aria-hidden="true">
            {unread >= UNREAD_COUNT_CAP ? `${UNREAD_COUNT_CAP - 1}+` : unread}
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={<p className="loading">Loading...</p>}>
          <NotificationsPanel id={panelId} userId={userId} onNavigate={() => close(false)} />
        </Suspense>
      )}
    </div>
  );
}
