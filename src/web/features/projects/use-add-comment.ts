import { useState } from 'react';
import type { AddCommentInput, Comment } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/** Adds a comment; resolves to the server's comment, or null when it failed (`error` says why). */
export function useAddComment(projectId: string) {
  const [error, setError] = useState<string | null>(null);
  const [isPending, setIsPending] = useState(false);

  const addComment = async (input: AddCommentInput): Promise<Comment | null> => {
    setError(null);
    setIsPending(true);
    try {
      const comment = await dojo.projects.addComment(projectId, input);
      setIsPending(false);
      return comment;
    } catch (caught) {
      setError(errorMessage(caught));
      setIsPending(false);
      return null;
    }
  };

  return { addComment, error, isPending, clearError: () => setError(null) };
}
