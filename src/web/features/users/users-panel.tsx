import { useState } from 'react';
import { appMessages } from '../../../common/app-messages';
import { Avatar } from '../../components/avatar';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';
import { usePresenceAnnouncements } from './use-presence-announcements';
import { useUsers } from './use-users';
import './users-panel.css';

/** Where a member's collapsed panel is remembered: this browser, per account (docs/decisions/069-dark-theme-and-room-to-work.md). */
const collapsedKey = (uid: string | undefined) => `dojo.usersPanelCollapsed.${uid ?? ''}`;

/**
 * Who is in the team and online. The member may fold it to a narrow rail holding its toggle, so the page
 * gets the room (the list stays live meanwhile); the choice is remembered and announced.
 */
export function UsersPanel() {
  const { docs: users, limit, error, isPending, hasMore, isLoadingMore, showMore } = useUsers();
  usePresenceAnnouncements(users, limit);
  const { say } = useAnnouncer();
  const key = collapsedKey(useAuthContext().user?.uid);
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(key) === '1');
  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    if (next) localStorage.setItem(key, '1');
    else localStorage.removeItem(key);
    say(next ? 'Users panel hidden.' : 'Users panel shown.');
  };

  return (
    <aside
      className={collapsed ? 'users-panel users-panel-collapsed' : 'users-panel'}
      aria-labelledby="users-panel-heading"
    >
      <div className="users-panel-header">
        <button
          className="btn users-panel-toggle"
          type="button"
          aria-expanded={!collapsed}
          aria-controls="users-panel-content"
          onClick={toggle}
        >
          {collapsed ? 'Show users' : 'Hide'}
        </button>
        <h2 id="users-panel-heading">All Users</h2>
      </div>
      <div id="users-panel-content" hidden={collapsed}>
        {error && <p className="error">{appMessages.fetchFailed}</p>}
        {isPending && <p className="users-panel-status">{appMessages.loadingUsers}</p>}
        {users && (
          <ul className="user-list">
            {users.map((user) => (
              <li key={user.id} className="user-list-item">
                {/* The dot is the picture of what the word after the name says (docs/product-spec.md#flaw-17). */}
                {user.online && <span className="online-dot" aria-hidden="true" />}
                <span className="user-list-text">
                  <span className="user-list-name">{user.displayName}</span>{' '}
                  <span className="user-list-state">{user.online ? 'online' : 'offline'}</span>
                </span>
                <Avatar src={user.photoURL} name={user.displayName} decorative size={40} />
              </li>
            ))}
          </ul>
        )}
        {(hasMore || isLoadingMore) && (
          <button
            className="btn users-panel-more"
            type="button"
            onClick={() => {
              if (!isLoadingMore) showMore();
            }}
            aria-disabled={isLoadingMore || undefined}
          >
            {isLoadingMore ? 'Loading...' : 'Show more users'}
          </button>
        )}
      </div>
    </aside>
  );
}
