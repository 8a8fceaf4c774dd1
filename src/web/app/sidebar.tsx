import { Link, NavLink } from 'react-router';
import { CLIENT_ROUTES, type AuthUser } from '../../common';
import { Avatar } from '../components/avatar';
import { Icon } from '../components/icon';
import './sidebar.css';

export function Sidebar({ user }: { user: AuthUser }) {
  return (
    <aside className="sidebar" aria-label="Sidebar">
      <div className="sidebar-content">
        {/* The picture and greeting open the account settings; the link's visible text says so too. */}
        <Link className="sidebar-user" to={CLIENT_ROUTES.settings}>
          <Avatar
            className="sidebar-avatar"
            src={user.photoURL}
            name={user.displayName}
            decorative
            size={72}
          />
          <span className="sidebar-user-text">
            <span className="sidebar-greeting">{`Hey ${user.displayName}`}</span>
            <span className="sidebar-settings-hint">Account settings</span>
          </span>
        </Link>
        <nav className="sidebar-nav" aria-label="Main">
          <ul>
            <li>
              <NavLink to={CLIENT_ROUTES.dashboard} end>
                <Icon name="dashboard" className="sidebar-icon" />
                <span>Dashboard</span>
              </NavLink>
            </li>
            <li>
              <NavLink to={CLIENT_ROUTES.createProject}>
                <Icon name="plus" className="sidebar-icon" />
                <span>New Project</span>
              </NavLink>
            </li>
            <li>
              <NavLink to={CLIENT_ROUTES.calendar}>
                <Icon name="calendar" className="sidebar-icon" />
                <span>Calendar</span>
              </NavLink>
            </li>
            <li>
              <NavLink to={CLIENT_ROUTES.completed}>
                <Icon name="check" className="sidebar-icon" />
                <span>Completed</span>
              </NavLink>
            </li>
            {user.role === 'admin' && (
              <>
                <li>
                  <NavLink to={CLIENT_ROUTES.adminMembers}>
                    <Icon name="users" className="sidebar-icon" />
                    <span>Members</span>
                  </NavLink>
                </li>
                <li>
                  <NavLink to={CLIENT_ROUTES.adminInvitations}>
                    <Icon name="mail" className="sidebar-icon" />
                    <span>Invitations</span>
                  </NavLink>
                </li>
                <li>
                  <NavLink to={CLIENT_ROUTES.adminWebhooks}>
                    <Icon name="bell" className="sidebar-icon" />
                    <span>Webhooks</span>
                  </NavLink>
                </li>
                <li>
                  <NavLink to={CLIENT_ROUTES.adminImports}>
                    <Icon name="plus" className="sidebar-icon" />
                    <span>Import</span>
                  </NavLink>
                </li>
              </>
            )}
          </ul>
        </nav>
      </div>
    </aside>
  );
}
