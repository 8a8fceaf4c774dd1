import { useEffect, useState } from 'react';
import type { InvitationCheck } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

export type InvitationState =
  | { status: 'none' }
  | { status: 'checking' }
  | { status: 'valid'; check: InvitationCheck }
  | { status: 'invalid'; message: string };

/** Whether the invitation link the signup page was opened with can still be used, and for whom. */
export function useInvitation(token: string | null): InvitationState {
  const [state, setState] = useState<{ token: string; result: InvitationState } | null>(null);

  useEffect(() => {
    if (!token) return undefined;
    let current = true;
    dojo.access.checkInvitation(token).then(
      (check) => {
        if (current) setState({ token, result: { status: 'valid', check } });
      },
      (error: unknown) => {
        if (current) setState({ token, result: { status: 'invalid', message: errorMessage(error) } });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (!token) return { status: 'none' };
  return state?.token === token ? state.result : { status: 'checking' };
}
