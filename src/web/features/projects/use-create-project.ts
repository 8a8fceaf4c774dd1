import { useState } from 'react';
import type { CreateProjectInput, FieldErrors, Project } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorFields, errorMessage } from '../../lib/error-message';

export interface ServerError {
  message: string;
  fields: FieldErrors;
}

/**
 * Adds a project. The caller acts on the returned result of this very call (docs/product-spec.md#flaw-9): null means
 * it failed and `error` says why.
 */
export function useCreateProject() {
  const [error, setError] = useState<ServerError | null>(null);
  const [isPending, setIsPending] = useState(false);

  const create = async (input: CreateProjectInput): Promise<Project | null> => {
    setError(null);
    setIsPending(true);
    try {
      const project = await dojo.projects.create(input);
      setIsPending(false);
      return project;
    } catch (caught) {
      setError({ message: errorMessage(caught), fields: errorFields(caught) });
      setIsPending(false);
      return null;
    }
  };

  return { create, error, isPending, clearError: () => setError(null) };
}
