import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { commentAnchor } from '../../../common';
import type { useProjectComments } from './use-project-comments';

/** How many older pages a link to one comment may load to find it (20 comments each). */
const OLDER_PAGES_TO_FIND_LINKED_COMMENT = 50;

/**
 * A link to one comment (a notification's) that is older than the first page loads older pages, one at a
 * time, until it is shown: `useHashTarget` then lands on it. A deleted comment is looked for until the
 * oldest page, or the bound above.
 */
export function useOlderPagesUntilLinkedComment(
  state: Pick<ReturnType<typeof useProjectComments>, 'comments' | 'hasOlder' | 'loadingOlder' | 'olderError'>,
  loadOlder: () => unknown,
): void {
  const { hash } = useLocation();
  const pagesLoaded = useRef({ hash, count: 0 });
  const { comments, hasOlder, loadingOlder, olderError } = state;
  useEffect(() => {
    const anchorPrefix = `#${commentAnchor('')}`;
    if (!hash.startsWith(anchorPrefix) || !hasOlder || loadingOlder || olderError) return;
    const linkedId = decodeURIComponent(hash.slice(anchorPrefix.length));
    if (comments.some((comment) => comment.id === linkedId)) return;
    if (pagesLoaded.current.hash !== hash) pagesLoaded.current = { hash, count: 0 };
    if (pagesLoaded.current.count >= OLDER_PAGES_TO_FIND_LINKED_COMMENT) return;
    pagesLoaded.current.count += 1;
    loadOlder();
  });
}
