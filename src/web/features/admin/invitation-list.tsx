import { useState } from 'react';
import { messages, type Invitation, type InvitationStatus } from '../../../common';
import { ActionOutcome } from '../../components/action-outcome';
import { ErrorAlert } from '../../components/error-alert';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { absoluteTime, formatDate } from '../../lib/time-format';
import { AdminTable } from './admin-table';

const INVITATION_COLUMNS = ['For', 'Status', 'Uses', 'Expires', 'Created by', 'Actions'];

const STATUS_LABELS: Record<InvitationStatus, string> = {
  open: 'Open',
  used: 'Used',
  expired: 'Expired',
  revoked: 'Revoked',
};

interface InvitationListProps {
  invitations: Invitation[] | null;
  loadError: string | null;
  onRevoked: (invitation: Invitation) => void;
}

/** Every invitation and what became of it; open ones can be revoked. */
export function InvitationList({ invitations, loadError, onRevoked }: InvitationListProps) {
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const revoke = async (invitation: Invitation) => {
    if (pending) return;
    setPending(invitation.id);
    setError(null);
    setStatus(null);
    try {
      onRevoked(await dojo.admin.revokeInvitation(invitation.id));
      setStatus('Invitation revoked: its link no longer works.');
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="card" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invitations</h2>
      <ErrorAlert message={loadError} />
      {!invitations && !loadError && <p className="loading">{messages.loading}</p>}
      <p className="admin-hint">
        An invitation works only while the admin who made it is an admin: it is revoked when they are made a
        member, deactivated or delete their account.
      </p>
      {invitations && invitations.length === 0 && <p>No invitations yet.</p>}
      <ActionOutcome error={error} status={status} />
      {invitations && invitations.length > 0 && (
        <AdminTable id="invitations" caption="All invitations, newest first" columns={INVITATION_COLUMNS}>
          {invitations.map((invitation) => (
            <tr key={invitation.id} role="row">
              <th scope="row" role="rowheader">
                {invitation.email ?? 'Anyone'}
              </th>
              <td role="cell" data-label="Status">
                <span className={`invitation-status invitation-${invitation.status}`}>
                  {STATUS_LABELS[invitation.status]}
                </span>
              </td>
              <td role="cell" data-label="Uses">{`${invitation.uses} of ${invitation.maxUses}`}</td>
              <td role="cell" data-label="Expires">
                <time dateTime={invitation.expiresAt} title={absoluteTime(invitation.expiresAt)}>
                  {formatDate(invitation.expiresAt)}
                </time>
              </td>
              <td role="cell" data-label="Created by">
                {invitation.createdBy.displayName}
              </td>
              <td role="cell" data-label="Actions">
                {invitation.status === 'open' && (
                  <button
                    className="btn btn-small"
                    type="button"
                    aria-disabled={pending !== null || undefined}
                    onClick={() => void revoke(invitation)}
                  >
                    {pending === invitation.id ? 'Revoking...' : 'Revoke'}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}
