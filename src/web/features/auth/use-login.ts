import type { LoginInput } from '../../../common';
import { useAuthContext } from '../../hooks/use-auth-context';
import { dojo } from '../../lib/dojo-client';

/** Logs in; a failure throws the SDK's error (the form shows its message). */
export function useLogin() {
  const { dispatch } = useAuthContext();
  return async (input: LoginInput): Promise<void> => {
    // The server marks the profile online (docs/product-spec.md#42-login).
    const user = await dojo.auth.logIn(input);
    dispatch({ type: 'LOGIN', payload: user });
  };
}
