import { useEffect, useRef, useState } from 'react';
import { messages, type Comment } from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/** The second step of a delete: 'Confirm delete' takes focus; Cancel or Escape goes back to 'Delete'. */
export function ConfirmDeleteComment({
  comment,
  onDeleted,
  onCancel,
}: {
  comment: Comment;
  onDeleted: () => void;
  onCancel: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirm.current?.focus();
  }, []);
  const handleConfirm = async () => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      await dojo.projects.deleteComment(comment.projectId, comment.id);
      onDeleted();
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(false);
    }
  };
  return (
    <div
      className="comment-actions"
      role="group"
      aria-label={messages.confirmDeleteComment}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <button
        ref={confirm}
        className="btn comment-action-button"
        type="button"
        aria-disabled={pending || undefined}
        onClick={() => void handleConfirm()}
      >
        {messages.confirmDeleteComment}
      </button>
      <button className="btn comment-action-button" type="button" onClick={onCancel}>
        {messages.cancelEdit}
      </button>
      <ErrorAlert message={error} />
    </div>
  );
}
