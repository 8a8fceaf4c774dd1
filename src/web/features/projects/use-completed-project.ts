import type { CompletedProject } from '../../../common';
import { DojoError } from '../../../sdk';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';

export type CompletedProjectLookup =
  { status: 'idle' | 'loading' | 'missing' | 'failed' } | { status: 'found'; project: CompletedProject };

/**
 * A project the live page cannot find may have been completed: links to it live on in search results and
 * notifications. Looks it up among the completed projects while `enabled`.
 */
export function useCompletedProject(id: string, enabled: boolean): CompletedProjectLookup {
  const lookup = useOneShotRead(enabled ? id : null, (key) => dojo.projects.getCompleted(key));
  if (!enabled) return { status: 'idle' };
  if (lookup.failure?.key === id) {
    const { error } = lookup.failure;
    return { status: error instanceof DojoError && error.code === 'not-found' ? 'missing' : 'failed' };
  }
  return lookup.data?.key === id ? { status: 'found', project: lookup.data.value } : { status: 'loading' };
}
