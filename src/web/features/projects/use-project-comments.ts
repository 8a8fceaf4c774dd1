import { useEffect, useState } from 'react';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';
import { COMMENTS_PAGE_SIZE, projectCommentsQuery, type Comment } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

interface Known {
  projectId: string;
  /** Every comment seen so far, newest first: the live page, then older ones. */
  comments: Comment[];
  /** Until the first live page arrives, nothing is shown. */
  ready: boolean;
  /** An older page came back without a next one: every comment is here. */
  olderExhausted: boolean;
}

const nothingYet = (projectId: string): Known => ({
  projectId,
  comments: [],
  ready: false,
  olderExhausted: false,
});

/**
 * Folds a new live page (the newest comments) into what is known. Comments are only ever added, so a
 * full page means anything known and not in it is older (it left the page as newer ones came), while a
 * page with room to spare is every comment there is (none known outside it remain, e.g. after deletion).
 */
function withLivePage(known: Known, page: Comment[]): Known {
  const full = page.length >= COMMENTS_PAGE_SIZE;
  const inPage = new Set(page.map((comment) => comment.id));
  const older = full ? known.comments.filter((comment) => !inPage.has(comment.id)) : [];
  return { ...known, comments: [...page, ...older], ready: true };
}

/**
 * A project's comments: the newest page live, older pages on demand (`loadOlder`). `comments` is oldest
 * first, as the page shows them.
 */
export function useProjectComments(projectId: string) {
  const [known, setKnown] = useState<Known>(() => nothingYet(projectId));
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const { report } = useAnnouncer();
  const uid = useAuthContext().user?.uid;

  useEffect(() => {
    // Comments already on the page: the first live page is what the user opened, not news.
    let seen: Set<string> | null = null;
    return dojo.subscribe<Comment>(projectCommentsQuery(projectId, COMMENTS_PAGE_SIZE), {
      next: (page) => {
        if (seen) {
          const known = seen;
          const fresh = page.filter((comment) => !known.has(comment.id) && comment.authorId !== uid);
          if (fresh.length > 0) report({ kind: 'commentsAdded', count: fresh.length });
        }
        seen = new Set([...(seen ?? []), ...page.map((comment) => comment.id)]);
        setKnown((current) =>
          withLivePage(current.projectId === projectId ? current : nothingYet(projectId), page),
        );
      },
    });
  }, [projectId, uid, report]);

  const current = known.projectId === projectId ? known : nothingYet(projectId);
  const oldest = current.comments.at(-1);
  const hasOlder = current.ready && !current.olderExhausted && current.comments.length >= COMMENTS_PAGE_SIZE;

  /**
   * Loads the next older page; resolves to its comments, oldest first, and whether it was the oldest
   * (nothing on failure: `olderError` says why).
   */
  const loadOlder = async (): Promise<{ loaded: Comment[]; last: boolean }> => {
    if (!oldest || loadingOlder) return { loaded: [], last: false };
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await dojo.projects.listComments(projectId, {
        before: oldest.id,
        limit: COMMENTS_PAGE_SIZE,
      });
      setKnown((latest) => {
        if (latest.projectId !== projectId) return latest;
        const seen = new Set(latest.comments.map((comment) => comment.id));
        return {
          ...latest,
          comments: [...latest.comments, ...page.comments.filter((comment) => !seen.has(comment.id))],
          olderExhausted: page.nextCursor === null,
        };
      });
      return { loaded: page.comments.toReversed(), last: page.nextCursor === null };
    } catch (error) {
      setOlderError(errorMessage(error));
      return { loaded: [], last: false };
    } finally {
      setLoadingOlder(false);
    }
  };

  return {
    comments: current.comments.toReversed(),
    hasOlder,
    loadOlder,
    loadingOlder,
    olderError,
  };
}
