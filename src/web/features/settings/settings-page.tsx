import { useAuthContext } from '../../hooks/use-auth-context';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { AnnouncementsSection } from './announcements-section';
import { AppearanceSection } from './appearance-section';
import { ApiTokensSection } from './api-tokens-section';
import { CalendarFeedSection } from './calendar-feed-section';
import { DeleteAccountForm } from './delete-account-form';
import { NotificationPreferencesSection } from './notification-preferences-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { SessionsSection } from './sessions-section';
import { TwoStepSection } from './two-step-section';
import { useSessions } from './use-sessions';
import './settings.css';
import { PageTitle } from '../../components/page-title';

/** The signed-in user's own account: profile, password, sessions, deletion. */
export function SettingsPage() {
  useDocumentTitle('Account settings');
  const { user } = useAuthContext();
  const sessions = useSessions();
  if (!user) return null;

  return (
    <div className="settings">
      <PageTitle>Account settings</PageTitle>
      <ProfileForm user={user} />
      <PasswordForm onChanged={sessions.reload} />
      <PasskeysSection />
      <TwoStepSection />
      <SessionsSection {...sessions} />
      <ApiTokensSection />
      <CalendarFeedSection />
      <NotificationPreferencesSection />
      <AppearanceSection />
      <AnnouncementsSection />
      <DeleteAccountForm />
    </div>
  );
}
