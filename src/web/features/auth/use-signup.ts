import { useState } from 'react';
import { messages, type SignupFields } from '../../../common';
import { useAuthContext } from '../../hooks/use-auth-context';
import { dojo } from '../../lib/dojo-client';

/**
 * Signup is one atomic server operation (account, thumbnail, profile, session; docs/product-spec.md#flaw-8): it
 * either succeeds completely and signs the user in, or changes nothing. A failure throws the SDK's error;
 * a signup that went through without signing the user in resolves to the message that says so. Opened
 * from an invitation link or the first admin's setup link, the link's token goes with it.
 */
export function useSignup(invitation: string | null = null, setup: string | null = null) {
  const { dispatch } = useAuthContext();
  /** Share of the signup form sent so far, 0..1; null when no upload is under way. */
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);

  const signup = async (fields: SignupFields & { thumbnail: File }): Promise<string | void> => {
    setUploadProgress(0);
    try {
      const user = await dojo.auth.signUp({
        ...fields,
        ...(invitation ? { invitation } : {}),
        ...(setup ? { setup } : {}),
        onUploadProgress: (sent, total) => setUploadProgress(total > 0 ? sent / total : 1),
      });
      if (!user) return messages.signupIncomplete;
      dispatch({ type: 'LOGIN', payload: user });
    } finally {
      setUploadProgress(null);
    }
  };

  return { signup, uploadProgress };
}
