import { useEffect, useRef, type RefObject } from 'react';
import type { Comment } from '../../../common';
import { useHashTarget } from '../../hooks/use-hash-target';
import { CommentItem, type OwnCommentActions } from './comment-item';
import { useNow } from './use-now';

/** How often the '… ago' times are brought up to date. */
const RELATIVE_TIME_REFRESH_MS = 30_000;

/** The comments shown, oldest first; one timer keeps all their relative times fresh. */
export function CommentList({
  comments,
  focusIdRef,
  actions,
  creatorId,
}: {
  comments: readonly Comment[];
  /** The comment that takes focus once rendered (the first of a loaded older page). */
  focusIdRef: RefObject<string | null>;
  actions: OwnCommentActions;
  /** The project's creator (who may delete any file on it). */
  creatorId: string;
}) {
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  const list = useRef<HTMLUListElement>(null);
  useHashTarget(list, comments);
  useEffect(() => {
    const id = focusIdRef.current;
    if (id === null) return;
    const item = [...(list.current?.children ?? [])].find(
      (element) => element instanceof HTMLElement && element.dataset.commentId === id,
    );
    if (item instanceof HTMLElement) {
      focusIdRef.current = null;
      item.focus();
    }
  });
  return (
    <ul className="comment-list" ref={list}>
      {comments.map((comment) => (
        <CommentItem
          key={comment.id}
          comment={comment}
          now={now}
          own={actions.viewerId !== null && comment.authorId === actions.viewerId}
          actions={actions}
          creatorId={creatorId}
        />
      ))}
    </ul>
  );
}
