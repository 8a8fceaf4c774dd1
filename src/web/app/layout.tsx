import { Suspense, type ReactNode } from 'react';
import { messages } from '../../common';
import { useAuthContext } from '../hooks/use-auth-context';
import { LiveAnnouncer } from '../components/live-announcer';
import { UsersPanel } from '../features/users/users-panel';
import { ConnectionStatus } from './connection-status';
import { Navbar } from './navbar';
import { Sidebar } from './sidebar';
import './layout.css';

export function Layout({ children }: { children: ReactNode }) {
  const { user } = useAuthContext();

  return (
    <div className={user ? 'app app-signed-in' : 'app'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {user && <Sidebar user={user} />}
      <div className="container">
        <Navbar />
        {user && <ConnectionStatus />}
        <main id="main" className="main" tabIndex={-1}>
          <Suspense fallback={<p className="page-loading">{messages.loading}</p>}>{children}</Suspense>
        </main>
      </div>
      {user && <UsersPanel />}
      <LiveAnnouncer />
    </div>
  );
}
