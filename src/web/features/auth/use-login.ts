import type { LoginInput, SecondStepChallenge } from '../../../common';
import { useAuthContext } from '../../hooks/use-auth-context';
import { dojo } from '../../lib/dojo-client';

/**
 * Logs in; a failure throws the SDK's error (the form shows its message). Resolves to the second step the
 * server asks for (no session yet: decision 064), or null once signed in.
 */
export function useLogin() {
  const { dispatch } = useAuthContext();
  return async (input: LoginInput): Promise<SecondStepChallenge['secondStep'] | null> => {
    // The server marks the profile online (docs/product-spec.md#42-login).
    const result = await dojo.auth.beginLogIn(input);
    if ('secondStep' in result) return result.secondStep;
    dispatch({ type: 'LOGIN', payload: result.user });
    return null;
  };
}
