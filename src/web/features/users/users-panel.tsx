import { messages } from '../../../common';
import { Avatar } from '../../components/avatar';
import { usePresenceAnnouncements } from './use-presence-announcements';
import { useUsers } from './use-users';
import './users-panel.css';

export function UsersPanel() {
  const { docs: users, limit, error, isPending, hasMore, isLoadingMore, showMore } = useUsers();
  usePresenceAnnouncements(users, limit);

  return (
    <aside className="users-panel" aria-labelledby="users-panel-heading">
      <h2 id="users-panel-heading">All Users</h2>
      {error && <p className="error">{messages.fetchFailed}</p>}
      {isPending && <p className="users-panel-status">{messages.loadingUsers}</p>}
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
    </aside>
  );
}
