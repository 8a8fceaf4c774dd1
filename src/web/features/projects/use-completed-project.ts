import { useEffect, useState } from 'react';
import type { CompletedProject } from '../../../common';
import { DojoError } from '../../../sdk';
import { dojo } from '../../lib/dojo-client';

type Answer = { status: 'missing' | 'failed' } | { status: 'found'; project: CompletedProject };

export type CompletedProjectLookup = { status: 'idle' | 'loading' } | Answer;

/**
 * A project the live page cannot find may have been completed: links to it live on in search results and
 * notifications. Looks it up among the completed projects while `enabled`.
 */
export function useCompletedProject(id: string, enabled: boolean): CompletedProjectLookup {
  const [answer, setAnswer] = useState<{ id: string; answer: Answer } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    dojo.projects.getCompleted(id).then(
      (project) => {
        if (current) setAnswer({ id, answer: { status: 'found', project } });
      },
      (error: unknown) => {
        if (!current) return;
        const status = error instanceof DojoError && error.code === 'not-found' ? 'missing' : 'failed';
        setAnswer({ id, answer: { status } });
      },
    );
    return () => {
      current = false;
    };
  }, [id, enabled]);
  if (!enabled) return { status: 'idle' };
  return answer?.id === id ? answer.answer : { status: 'loading' };
}
