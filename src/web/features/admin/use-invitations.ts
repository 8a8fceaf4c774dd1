import { useCallback, useEffect, useState } from 'react';
import type { Invitation } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/** The team's invitations, newest first as the server lists them; kept up to date by this page's actions. */
export function useInvitations() {
  const [invitations, setInvitations] = useState<Invitation[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    dojo.admin.listInvitations().then(
      (received) => {
        if (current) setInvitations(received);
      },
      (caught: unknown) => {
        if (current) setError(errorMessage(caught));
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const add = useCallback((invitation: Invitation) => {
    setInvitations((current) => [invitation, ...(current ?? []).filter((row) => row.id !== invitation.id)]);
  }, []);

  const replace = useCallback((invitation: Invitation) => {
    setInvitations((current) => current?.map((row) => (row.id === invitation.id ? invitation : row)) ?? null);
  }, []);

  return { invitations, error, add, replace };
}
