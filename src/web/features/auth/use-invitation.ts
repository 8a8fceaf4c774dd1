import type { InvitationCheck } from '../../../common';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

export type InvitationState =
  | { status: 'none' }
  | { status: 'checking' }
  | { status: 'valid'; check: InvitationCheck }
  | { status: 'invalid'; message: string };

/** Whether the invitation link the signup page was opened with can still be used, and for whom. */
export function useInvitation(token: string | null): InvitationState {
  const invitation = useOneShotRead(token || null, (key) => dojo.access.checkInvitation(key));
  if (!token) return { status: 'none' };
  if (invitation.failure?.key === token)
    return { status: 'invalid', message: errorMessage(invitation.failure.error) };
  return invitation.data?.key === token
    ? { status: 'valid', check: invitation.data.value }
    : { status: 'checking' };
}
