import { Suspense, useEffect, type ReactNode } from 'react';
import { appMessages } from '../../common/app-messages';
import { useAuthContext } from '../hooks/use-auth-context';
import { LiveAnnouncer } from '../components/live-announcer';
import { UsersPanel } from '../features/users/users-panel';
import { ConnectionStatus } from './connection-status';
import { Navbar } from './navbar';
import { Sidebar } from './sidebar';
import './layout.css';

export function Layout({ children }: { children: ReactNode }) {
  const { user } = useAuthContext();
  const uid = user?.uid;
  // Signed in (here, or on another device meanwhile): this browser takes the account's theme, from a lazy
  // chunk so the first page carries none of it (docs/decisions/069-dark-theme-and-room-to-work.md).
  useEffect(() => {
    if (uid) void import('../lib/apply-theme').then((theme) => theme.syncTheme());
  }, [uid]);

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
          <Suspense fallback={<p className="page-loading">{appMessages.loading}</p>}>{children}</Suspense>
        </main>
      </div>
      {user && <UsersPanel />}
      <LiveAnnouncer />
    </div>
  );
}
