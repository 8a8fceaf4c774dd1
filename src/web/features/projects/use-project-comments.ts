import { useEffect, useRef, useState } from 'react';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';
import { COMMENTS_PAGE_SIZE, projectCommentsQuery, type Comment } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

export interface Live {
  projectId: string;
  /** The newest page, newest first, as the live query last sent it. */
  page: Comment[];
  /**
   * Comments that left the newest page because newer ones came, newest first. They are not followed
   * live (no query covers them): a known gap, see docs/decisions/012-live-limits-and-comment-paging.md.
   */
  kept: Comment[];
  /** Until the first live page arrives, nothing is shown. */
  ready: boolean;
}

/** An older page, followed live (`before` its cursor) so edits and deletes in it show as they happen. */
interface OlderPage {
  cursor: string;
  /** Newest first, one more than a page: the extra one only tells that an older page exists. */
  docs: Comment[] | null;
}

interface Older {
  projectId: string;
  pages: OlderPage[];
}

export const noLive = (projectId: string): Live => ({ projectId, page: [], kept: [], ready: false });
const noOlder = (projectId: string): Older => ({ projectId, pages: [] });

/**
 * Folds a new live page into what is known. A comment that left a full page was either pushed out by
 * newer ones (it still exists: keep it, it is older than everything on the page) or deleted (drop it).
 * Pushed out means every comment now on the page is newer: before it on the last page, or a new one.
 * A page with room to spare is the whole thread.
 */
export function withLivePage(live: Live, page: Comment[]): Live {
  if (page.length < COMMENTS_PAGE_SIZE) return { ...live, page, kept: [], ready: true };
  const inPage = new Set(page.map((comment) => comment.id));
  const position = new Map(live.page.map((comment, index) => [comment.id, index]));
  const pushedOut = live.page.filter((left, index) => {
    if (inPage.has(left.id)) return false;
    return page.every((doc) => {
      const was = position.get(doc.id);
      return was === undefined ? doc.createdAt >= left.createdAt : was < index;
    });
  });
  const kept = [...pushedOut, ...live.kept].filter((comment) => !inPage.has(comment.id));
  return { ...live, page, kept, ready: true };
}

/** Newest first, each comment once (an older page may overlap the next after a delete). */
export function merged(lists: readonly Comment[][]): Comment[] {
  const seen = new Set<string>();
  const all: Comment[] = [];
  for (const list of lists) {
    for (const comment of list) {
      if (seen.has(comment.id)) continue;
      seen.add(comment.id);
      all.push(comment);
    }
  }
  return all;
}

type LoadResult = { loaded: Comment[]; last: boolean };

/**
 * A project's comments: the newest page live, older pages on demand (`loadOlder`), each also followed
 * live once loaded. `comments` is oldest first, as the page shows them. `patch` and `remove` apply the
 * viewer's own edit or delete at once (the live change confirms it a moment later).
 */
export function useProjectComments(projectId: string) {
  const [live, setLive] = useState<Live>(() => noLive(projectId));
  const [older, setOlder] = useState<Older>(() => noOlder(projectId));
  const [olderError, setOlderError] = useState<string | null>(null);
  /** The viewer's own deletes, hidden at once, before the live change that confirms them. */
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  /** Open subscriptions of older pages, by cursor, and the loads waiting for their first result. */
  const subscriptions = useRef(new Map<string, () => void>());
  const waiting = useRef(new Map<string, (result: LoadResult) => void>());

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
        setLive((current) =>
          withLivePage(current.projectId === projectId ? current : noLive(projectId), page),
        );
      },
    });
  }, [projectId, uid, report]);

  const currentLive = live.projectId === projectId ? live : noLive(projectId);
  const currentOlder = older.projectId === projectId ? older : noOlder(projectId);

  // Follow each loaded older page; drop the subscriptions of another project's pages.
  const cursors = currentOlder.pages.map((page) => page.cursor);
  const cursorsKey = cursors.join(' ');
  useEffect(() => {
    const open = subscriptions.current;
    const wanted = new Set(cursorsKey ? cursorsKey.split(' ') : []);
    for (const [cursor, unsubscribe] of open) {
      if (wanted.has(cursor)) continue;
      unsubscribe();
      open.delete(cursor);
    }
    for (const cursor of wanted) {
      if (open.has(cursor)) continue;
      const settle = (result: LoadResult) => {
        waiting.current.get(cursor)?.(result);
        waiting.current.delete(cursor);
      };
      const unsubscribe = dojo.subscribe<Comment>(
        projectCommentsQuery(projectId, COMMENTS_PAGE_SIZE + 1, cursor),
        {
          next: (docs) => {
            setOlder((latest) =>
              latest.projectId !== projectId
                ? latest
                : {
                    ...latest,
                    pages: latest.pages.map((page) => (page.cursor === cursor ? { ...page, docs } : page)),
                  },
            );
            settle({
              loaded: docs.slice(0, COMMENTS_PAGE_SIZE).toReversed(),
              last: docs.length <= COMMENTS_PAGE_SIZE,
            });
          },
          error: (error) => {
            setOlderError(errorMessage(error));
            setOlder((latest) => ({
              ...latest,
              pages: latest.pages.filter((page) => page.cursor !== cursor),
            }));
            settle({ loaded: [], last: false });
          },
        },
      );
      open.set(cursor, unsubscribe);
    }
  }, [projectId, cursorsKey]);

  // Leaving the page (or the project) ends every older page's subscription.
  useEffect(() => {
    const open = subscriptions.current;
    return () => {
      for (const unsubscribe of open.values()) unsubscribe();
      open.clear();
    };
  }, [projectId]);

  const wholeThread = currentLive.page.length < COMMENTS_PAGE_SIZE;
  const newestFirst = (
    wholeThread
      ? currentLive.page
      : merged([
          currentLive.page,
          currentLive.kept,
          ...currentOlder.pages.map((page) => (page.docs ?? []).slice(0, COMMENTS_PAGE_SIZE)),
        ])
  ).filter((comment) => !deleted.has(comment.id));
  const lastPage = currentOlder.pages.at(-1);
  const loadingOlder = lastPage !== undefined && lastPage.docs === null;
  const hasOlder =
    currentLive.ready &&
    !wholeThread &&
    (lastPage === undefined || lastPage.docs === null || lastPage.docs.length > COMMENTS_PAGE_SIZE);

  /**
   * Loads the next older page; resolves to its comments, oldest first, and whether it was the oldest
   * (nothing on failure: `olderError` says why).
   */
  const loadOlder = (): Promise<LoadResult> => {
    const oldest = newestFirst.at(-1);
    if (!oldest || loadingOlder || cursors.includes(oldest.id)) {
      return Promise.resolve({ loaded: [], last: false });
    }
    setOlderError(null);
    setOlder({ projectId, pages: [...currentOlder.pages, { cursor: oldest.id, docs: null }] });
    return new Promise((resolve) => waiting.current.set(oldest.id, resolve));
  };

  const patch = (comment: Comment) => {
    const replace = (list: Comment[]) => list.map((each) => (each.id === comment.id ? comment : each));
    setLive((current) => ({ ...current, page: replace(current.page), kept: replace(current.kept) }));
    setOlder((current) => ({
      ...current,
      pages: current.pages.map((page) => ({ ...page, docs: page.docs && replace(page.docs) })),
    }));
  };

  const remove = (commentId: string) => {
    // The live pages drop it with their own `removed` change, which also brings the next older one in.
    setDeleted((current) => new Set(current).add(commentId));
  };

  return {
    comments: newestFirst.toReversed(),
    hasOlder,
    loadOlder,
    loadingOlder,
    olderError,
    patch,
    remove,
  };
}
