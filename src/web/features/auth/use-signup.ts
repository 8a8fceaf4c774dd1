import { useState } from 'react';
import { messages, type FieldErrors, type SignupFields } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorFields, errorMessage } from '../../lib/error-message';
import { useAuthContext } from '../../hooks/use-auth-context';

export interface SignupError {
  message: string;
  fields: FieldErrors;
}

/**
 * Signup is one atomic server operation (account, thumbnail, profile, session; docs/product-spec.md#flaw-8): it
 * either succeeds completely and signs the user in, or changes nothing.
 */
export function useSignup() {
  const { dispatch } = useAuthContext();
  const [error, setError] = useState<SignupError | null>(null);
  const [isPending, setIsPending] = useState(false);
  /** Share of the signup form sent so far, 0..1; null when no upload is under way. */
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);

  const signup = async (fields: SignupFields, thumbnail: File): Promise<void> => {
    setError(null);
    setIsPending(true);
    try {
      setUploadProgress(0);
      const user = await dojo.auth.signUp({
        ...fields,
        thumbnail,
        onUploadProgress: (sent, total) => setUploadProgress(total > 0 ? sent / total : 1),
      });
      setUploadProgress(null);
      setIsPending(false);
      if (!user) {
        setError({ message: messages.signupIncomplete, fields: {} });
        return;
      }
      dispatch({ type: 'LOGIN', payload: user });
    } catch (caught) {
      setError({ message: errorMessage(caught), fields: errorFields(caught) });
      setUploadProgress(null);
      setIsPending(false);
    }
  };

  return { signup, error, isPending, uploadProgress };
}
