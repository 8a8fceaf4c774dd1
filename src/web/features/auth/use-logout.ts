import { useState } from 'react';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { useAuthContext } from '../../hooks/use-auth-context';

export function useLogout() {
  const { dispatch } = useAuthContext();
  const [error, setError] = useState<string | null>(null);
  const [isPending, setIsPending] = useState(false);

  const logout = async (): Promise<void> => {
    setError(null);
    setIsPending(true);
    try {
      // The server marks the profile offline, then ends the session (docs/product-spec.md#43-logout).
      await dojo.auth.logOut();
      setIsPending(false);
      dispatch({ type: 'LOGOUT' });
    } catch (caught) {
      setError(errorMessage(caught));
      setIsPending(false);
    }
  };

  return { logout, error, isPending };
}
