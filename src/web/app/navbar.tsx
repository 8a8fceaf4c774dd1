import { NavLink } from 'react-router';
import { CLIENT_ROUTES } from '../../common';
import { Icon } from '../components/icon';
import { useAuthContext } from '../hooks/use-auth-context';
import { useLogout } from '../features/auth/use-logout';
import { NotificationBell } from '../features/notifications/notification-bell';
import { SearchBox } from '../features/search/search-box';
import { APP_NAME } from '../hooks/use-document-title';
import './navbar.css';

export function Navbar() {
  const { user } = useAuthContext();
  const { logout, error, isPending } = useLogout();

  return (
    <header className="navbar">
      <div className="navbar-inner">
        {/* The app's name, not a heading: each screen's own title is its h1. */}
        <p className="brand">
          <Icon name="temple" className="brand-logo" />
          <span>{APP_NAME}</span>
        </p>
        {user && <SearchBox />}
        {user ? (
          <div className="navbar-actions">
            <NotificationBell userId={user.uid} />
            <button
              className="btn"
              type="button"
              onClick={() => {
                if (!isPending) void logout();
              }}
              aria-disabled={isPending || undefined}
            >
              {isPending ? 'Logging out...' : 'Logout'}
            </button>
          </div>
        ) : (
          <nav aria-label="Account">
            <ul className="navbar-links">
              <li>
                <NavLink to={CLIENT_ROUTES.login}>Login</NavLink>
              </li>
              <li>
                <NavLink to={CLIENT_ROUTES.signup}>Signup</NavLink>
              </li>
            </ul>
          </nav>
        )}
      </div>
      {user && error && (
        <p className="error navbar-error" role="alert">
          {error}
        </p>
      )}
    </header>
  );
}
