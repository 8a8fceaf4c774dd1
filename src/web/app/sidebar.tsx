import { NavLink } from 'react-router';
import { CLIENT_ROUTES, type AuthUser } from '../../common';
import { Avatar } from '../components/avatar';
import { DashboardIcon, PlusIcon } from '../components/icons';
import './sidebar.css';

export function Sidebar({ user }: { user: AuthUser }) {
  return (
    <aside className="sidebar" aria-label="Sidebar">
      <div className="sidebar-content">
        <div className="sidebar-user">
          <Avatar
            className="sidebar-avatar"
            src={user.photoURL}
            name={user.displayName}
            decorative
            size={72}
          />
          <p className="sidebar-greeting">{`Hey ${user.displayName}`}</p>
        </div>
        <nav className="sidebar-nav" aria-label="Main">
          <ul>
            <li>
              <NavLink to={CLIENT_ROUTES.dashboard} end>
                <DashboardIcon className="sidebar-icon" />
                <span>Dashboard</span>
              </NavLink>
            </li>
            <li>
              <NavLink to={CLIENT_ROUTES.createProject}>
                <PlusIcon className="sidebar-icon" />
                <span>New Project</span>
              </NavLink>
            </li>
          </ul>
        </nav>
      </div>
    </aside>
  );
}
