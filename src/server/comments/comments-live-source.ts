import { COMMENTS_PAGE_MAX, COMMENTS_PAGE_SIZE, messages, type LiveQuery } from '../../common';
import type { LiveSource } from '../live/live-sources';
import { refuseCursors } from '../live/matches-where';
import { invalidArgument } from '../core/app-error';
import type { CommentsService } from './comments-service';

/**
 * The one comments query there is: one project's, newest first, at most a page; with a `before ==` clause
 * (a comment id, as the HTTP cursor), only those committed before it: an older page the client has loaded,
 * followed live so edits and deletes in it show. New comments never enter such a page.
 */
function commentsQueryOf(query: LiveQuery): { projectId: string; limit: number; before?: string } {
  refuseCursors(query, 'Comments');
  const refuse = () =>
    invalidArgument(
      { where: 'Comments are read by projectId (==), optionally before (==) a comment id.' },
      messages.badRequest,
    );
  let projectId: string | undefined;
  let before: string | undefined;
  for (const clause of query.where ?? []) {
    if (clause.op === '==' && clause.field === 'projectId' && projectId === undefined)
      projectId = String(clause.value);
    else if (clause.op === '==' && clause.field === 'before' && before === undefined)
      before = String(clause.value);
    else throw refuse();
  }
  if (projectId === undefined) throw refuse();
  if (query.orderBy && (query.orderBy.field !== 'createdAt' || query.orderBy.direction !== 'desc')) {
    throw invalidArgument(
      { orderBy: 'Comments are read newest first (createdAt desc).' },
      messages.badRequest,
    );
  }
  const limit = query.limit ?? COMMENTS_PAGE_SIZE;
  if (limit > COMMENTS_PAGE_MAX) {
    throw invalidArgument({ limit: `At most ${COMMENTS_PAGE_MAX} comments at a time.` }, messages.badRequest);
  }
  return { projectId, limit, before };
}

/**
 * Live reads of a project's newest comments. A new comment changes this query's result by that one
 * comment (and the one that leaves the page), so that is all a subscriber receives.
 */
export const commentsLiveSource = (comments: CommentsService): LiveSource => ({
  authorize: (_target, viewer) => comments.authorizeRead(viewer),
  resultsBelongTo: 'everyone',
  query: (query, viewer) => {
    const { projectId, limit, before } = commentsQueryOf(query);
    if (before === undefined) return comments.newestComments(projectId, limit);
    return comments.getCommentPage(viewer, projectId, { limit, before }).then((page) => page.comments);
  },
  find: (id) => comments.findComment(id),
});
