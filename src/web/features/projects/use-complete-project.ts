import { useState } from 'react';
import { messages, type Project } from '../../../common';
import { dojo } from '../../lib/dojo-client';

/**
 * 'Mark as Complete' deletes the project. It waits for the server (docs/product-spec.md#flaw-3): `complete` resolves
 * true only when the project is gone, and a failure shows 'could not delete'.
 *
 * The project being completed is kept, so the page can go on showing it while the live subscription already
 * reports it deleted and the call has not returned yet.
 */
export function useCompleteProject() {
  const [error, setError] = useState<string | null>(null);
  const [completing, setCompleting] = useState<Project | null>(null);

  const complete = async (project: Project): Promise<boolean> => {
    setError(null);
    setCompleting(project);
    try {
      await dojo.projects.complete(project.id);
      return true;
    } catch {
      setError(messages.deleteFailed);
      setCompleting(null);
      return false;
    }
  };

  return { complete, error, completing, isPending: completing !== null };
}
