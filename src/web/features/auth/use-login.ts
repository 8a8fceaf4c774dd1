import { useState } from 'react';
import type { LoginInput } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { useAuthContext } from '../../hooks/use-auth-context';

export function useLogin() {
  const { dispatch } = useAuthContext();
  const [error, setError] = useState<string | null>(null);
  const [isPending, setIsPending] = useState(false);

  const login = async (input: LoginInput): Promise<void> => {
    setError(null);
    setIsPending(true);
    try {
      // The server marks the profile online (docs/product-spec.md#42-login).
      const user = await dojo.auth.logIn(input);
      setIsPending(false);
      dispatch({ type: 'LOGIN', payload: user });
    } catch (caught) {
      setError(errorMessage(caught));
      setIsPending(false);
    }
  };

  return { login, error, isPending };
}
