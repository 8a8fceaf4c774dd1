import { messages } from '../../../common';
import { Avatar } from '../../components/avatar';
import { useUsers } from './use-users';
import './users-panel.css';

export function UsersPanel() {
  const { docs: users, error, isPending, hasMore, isLoadingMore, showMore } = useUsers();

  return (
    <aside className="users-panel" aria-labelledby="users-panel-heading">
      <h2 id="users-panel-heading">All Users</h2>
      {error && <p className="error">{messages.fetchFailed}</p>}
      {isPending && <p className="users-panel-status">{messages.loadingUsers}</p>}
      {users && (
        <ul className="user-list">
          {users.map((user) => (
            <li key={user.id} className="user-list-item">
              {/* Online is announced in words, not shown by colour alone (docs/product-spec.md#flaw-17). */}
              {user.online && <span className="online-dot" role="img" aria-label="online" />}
              <span className="user-list-name">{user.displayName}</span>
              <Avatar src={user.photoURL} name={user.displayName} decorative size={40} />
            </li>
          ))}
        </ul>
      )}
      {(hasMore || isLoadingMore) && (
        <button className="btn users-panel-more" type="button" onClick={showMore} disabled={isLoadingMore}>
          {isLoadingMore ? 'Loading...' : 'Show more users'}
        </button>
      )}
    </aside>
  );
}
