import { useDocumentTitle } from '../../hooks/use-document-title';
import { CreateInvitationForm } from './create-invitation-form';
import { InvitationList } from './invitation-list';
import { SignupPolicyForm } from './signup-policy-form';
import { SecondStepPolicyForm } from './second-step-policy-form';
import { SsoPolicyForm } from './sso-policy-form';
import { useInvitations } from './use-invitations';
import './admin.css';
import { PageTitle } from '../../components/page-title';

/** Who may sign up, and invitation links (admins only). */
export function InvitationsPage() {
  useDocumentTitle('Invitations');
  const { invitations, error, add, replace } = useInvitations();
  return (
    <div className="admin-page">
      <PageTitle>Invitations</PageTitle>
      <SignupPolicyForm />
      <SecondStepPolicyForm />
      <SsoPolicyForm />
      <CreateInvitationForm onCreated={add} />
      <InvitationList invitations={invitations} loadError={error} onRevoked={replace} />
    </div>
  );
}
