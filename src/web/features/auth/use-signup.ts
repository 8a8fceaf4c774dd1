import { useState } from 'react';
import { messages, type FieldErrors, type SignupFields } from '../../../common';
import { dojo } from '../../app/dojo-client';
import { errorFields, errorMessage } from '../../app/error-message';
import { useAuthContext } from './auth-context';

export interface SignupError {
  message: string;
  fields: FieldErrors;
}

/**
 * Signup is one atomic server operation (account, thumbnail, profile, session; ORIGINAL-FLAWS #8): it
 * either succeeds completely and signs the user in, or changes nothing.
 */
export function useSignup() {
  const { dispatch } = useAuthContext();
  const [error, setError] = useState<SignupError | null>(null);
  const [isPending, setIsPending] = useState(false);

  const signup = async (fields: SignupFields, thumbnail: File): Promise<void> => {
    setError(null);
    setIsPending(true);
    try {
      const user = await dojo.auth.signUp({ ...fields, thumbnail });
      setIsPending(false);
      if (!user) {
        setError({ message: messages.signupIncomplete, fields: {} });
        return;
      }
      dispatch({ type: 'LOGIN', payload: user });
    } catch (caught) {
      setError({ message: errorMessage(caught), fields: errorFields(caught) });
      setIsPending(false);
    }
  };

  return { signup, error, isPending };
}
