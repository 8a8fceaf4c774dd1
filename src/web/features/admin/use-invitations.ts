import type { Invitation } from '../../../common';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/** The team's invitations, newest first as the server lists them; kept up to date by this page's actions. */
export function useInvitations() {
  const { data, failure, update } = useOneShotRead('invitations', () => dojo.admin.listInvitations());
  return {
    invitations: data?.value ?? null,
    error: failure ? errorMessage(failure.error) : null,
    add: (invitation: Invitation) =>
      update((current) => [invitation, ...(current ?? []).filter((row) => row.id !== invitation.id)]),
    replace: (invitation: Invitation) =>
      update((current) => current?.map((row) => (row.id === invitation.id ? invitation : row))),
  };
}
