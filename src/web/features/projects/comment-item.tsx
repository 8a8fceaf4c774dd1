import { useEffect, useRef, useState, type Ref, type RefObject } from 'react';
import { commentAnchor, mentionedUserIds, messages, type Comment } from '../../../common';
import { Avatar } from '../../components/avatar';
import { useInPlace } from '../../components/confirm-in-place';
import { MentionText, readableText, useUserNames } from '../../components/mention-text';
import { useAttachments } from '../../hooks/use-attachments';
import { absoluteTime, relativeTime } from '../../lib/time-format';
import { ConfirmDeleteComment } from './confirm-delete-comment';
import { EditCommentForm } from './edit-comment-form';

/** What the list does with the viewer's own comments once the server has taken an edit or a delete. */
export interface OwnCommentActions {
  viewerId: string | null;
  onEdited: (comment: Comment) => void;
  onDeleted: (commentId: string) => void;
}

type Mode = 'view' | 'edit';

/** Edit or Delete, named for assistive technology with the start of the comment it acts on. */
function CommentActionButton({
  ref,
  action,
  comment,
  onClick,
}: {
  ref: Ref<HTMLButtonElement>;
  action: string;
  /** The comment's text as read out. */
  comment: string;
  onClick: () => void;
}) {
  return (
    <button
      ref={ref}
      className="btn comment-action-button"
      type="button"
      aria-label={`${action}: ${comment.slice(0, 40)}`}
      onClick={onClick}
    >
      {action}
    </button>
  );
}

/** One comment: author, times and text; the viewer's own can be edited in place or deleted. */
export function CommentItem({
  comment,
  now,
  own,
  actions,
  creatorId,
}: {
  comment: Comment;
  now: number;
  own: boolean;
  actions: OwnCommentActions;
  /** The project's creator (who may delete any file on it). */
  creatorId: string;
}) {
  const [mode, setMode] = useState<Mode>('view');
  // The question before a delete, in place of the buttons; focus comes back to Delete when cancelled.
  const deleting = useInPlace();
  const { trigger: deleteButton } = deleting;
  const attachments = useAttachments();
  const nameOf = useUserNames(mentionedUserIds(comment.content));
  const readable = readableText(comment.content, nameOf);
  const editButton = useRef<HTMLButtonElement>(null);
  /**
   * Where focus returns when an edit closes: its button, which is rendered again only then, so the focus
   * moves in an effect after that render.
   */
  const returnFocus = useRef<RefObject<HTMLButtonElement | null> | null>(null);
  useEffect(() => {
    if (mode !== 'view' || !returnFocus.current) return;
    returnFocus.current.current?.focus();
    returnFocus.current = null;
  }, [mode]);

  const close = (to: RefObject<HTMLButtonElement | null>) => {
    returnFocus.current = to;
    setMode('view');
  };

  return (
    <li className="comment" id={commentAnchor(comment.id)} data-comment-id={comment.id} tabIndex={-1}>
      <div className="comment-author">
        <Avatar src={comment.photoURL} name={comment.displayName} decorative size={30} />
        <p className="comment-author-name">{comment.displayName}</p>
      </div>
      <p className="comment-date muted">
        <time dateTime={comment.createdAt} title={absoluteTime(comment.createdAt)}>
          {relativeTime(comment.createdAt, now)}
        </time>
        {/* The exact moment, for those who cannot hover over the relative time. */}
        <span className="visually-hidden">{`, ${absoluteTime(comment.createdAt)}`}</span>
        {comment.editedAt && (
          <>
            {' '}
            <span className="comment-edited">
              (
              <time dateTime={comment.editedAt} title={absoluteTime(comment.editedAt)}>
                {messages.commentEdited}
              </time>
              )
            </span>
            <span className="visually-hidden">{`, ${absoluteTime(comment.editedAt)}`}</span>
          </>
        )}
      </p>
      {mode === 'edit' ? (
        <EditCommentForm
          comment={comment}
          nameOf={nameOf}
          onSaved={(edited) => {
            actions.onEdited(edited);
            close(editButton);
          }}
          onCancel={() => close(editButton)}
        />
      ) : (
        // Plain text and mentions: React escapes it; line breaks are kept by CSS (white-space: pre-wrap).
        <p className="comment-content muted">
          <MentionText text={comment.content} />
        </p>
      )}
      {attachments && (
        <attachments.CommentFiles
          projectId={comment.projectId}
          commentId={comment.id}
          creatorId={creatorId}
        />
      )}
      {own && mode === 'view' && !deleting.open && (
        <div className="comment-actions">
          <CommentActionButton
            ref={editButton}
            action={messages.editComment}
            comment={readable}
            onClick={() => setMode('edit')}
          />
          <CommentActionButton
            ref={deleteButton}
            action={messages.deleteComment}
            comment={readable}
            onClick={deleting.show}
          />
        </div>
      )}
      {own && deleting.open && (
        <ConfirmDeleteComment
          comment={comment}
          confirmation={deleting}
          onDeleted={() => actions.onDeleted(comment.id)}
        />
      )}
    </li>
  );
}
