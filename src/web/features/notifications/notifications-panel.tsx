import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  NOTIFICATIONS_PAGE_SIZE,
  commentAnchor,
  notificationText,
  notificationsQuery,
  projectPath,
  type Notification,
} from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { useLiveQuery } from '../../hooks/use-live-query';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { relativeTime } from '../../lib/time-format';

const linkOf = (notification: Notification): string =>
  projectPath(notification.projectId) +
  (notification.commentId ? `#${commentAnchor(notification.commentId)}` : '');

/**
 * The newest notifications, live, then older pages on 'Show more'. Opening one marks it read and goes to
 * its project (and comment); the heading takes focus when the panel opens, so a screen reader starts there.
 */
export function NotificationsPanel({
  id,
  userId,
  onNavigate,
}: {
  id: string;
  userId: string;
  onNavigate: () => void;
}) {
  const newest = useLiveQuery<Notification>(notificationsQuery(userId));
  const [older, setOlder] = useState<Notification[]>([]);
  const [olderCursor, setOlderCursor] = useState<string | null | undefined>(undefined);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const live = newest.docs ?? [];
  const liveIds = new Set(live.map((notification) => notification.id));
  const shown = [...live, ...older.filter((notification) => !liveIds.has(notification.id))];
  // Until an older page was read, more exist when the live page is full.
  const hasMore = olderCursor === undefined ? live.length >= NOTIFICATIONS_PAGE_SIZE : olderCursor !== null;
  const anyUnread = shown.some((notification) => notification.readAt === null);

  const showMore = async () => {
    const last = shown.at(-1);
    if (!last || loadingMore) return;
    setLoadingMore(true);
    setError(null);
    try {
      const page = await dojo.notifications.page({ cursor: last.id });
      setOlder((previous) => [...previous, ...page.notifications]);
      setOlderCursor(page.nextCursor);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setLoadingMore(false);
    }
  };

  const markAllRead = async () => {
    setError(null);
    try {
      await dojo.notifications.markAllRead();
      const now = new Date().toISOString();
      setOlder((previous) =>
        previous.map((notification) => ({ ...notification, readAt: notification.readAt ?? now })),
      );
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const open = (notification: Notification) => {
    if (notification.readAt === null) {
      void dojo.notifications.markRead(notification.id).catch(() => undefined);
    }
    onNavigate();
  };

  return (
    <section id={id} className="notifications-panel" aria-labelledby={`${id}-heading`}>
      <div className="notifications-panel-header">
        <h2 id={`${id}-heading`} ref={heading} tabIndex={-1}>
          Notifications
        </h2>
        {anyUnread && (
          <button type="button" className="btn notifications-mark-all" onClick={() => void markAllRead()}>
            Mark all as read
          </button>
        )}
      </div>
      <ErrorAlert message={error} />
      <ErrorAlert message={newest.error ? errorMessage(newest.error) : null} />
      {newest.isPending && <p role="status">Loading notifications...</p>}
      {newest.docs && shown.length === 0 && <p>No notifications yet.</p>}
      {shown.length > 0 && (
        <ul className="notifications-list">
          {shown.map((notification) => (
            <li
              key={notification.id}
              className={notification.readAt === null ? 'notification unread' : 'notification'}
            >
              <Link to={linkOf(notification)} onClick={() => open(notification)}>
                {notification.readAt === null && <span className="visually-hidden">Unread: </span>}
                {notificationText(notification)}
              </Link>
              <time dateTime={notification.createdAt}>{relativeTime(notification.createdAt)}</time>
            </li>
          ))}
        </ul>
      )}
      {hasMore && (
        <button
          type="button"
          className="btn notifications-more"
          onClick={() => void showMore()}
          aria-disabled={loadingMore || undefined}
        >
          {loadingMore ? 'Loading more...' : 'Show more'}
        </button>
      )}
    </section>
  );
}
