import { useState } from 'react';
import { messages, type Comment } from '../../../common';
import { ConfirmInPlace, type InPlace } from '../../components/confirm-in-place';
import { ErrorAlert } from '../../components/error-alert';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/**
 * The second step of a delete, the shared confirm-in-place: 'Confirm delete' takes focus (as it always has
 * here); Cancel or Escape goes back to 'Delete'.
 */
export function ConfirmDeleteComment({
  comment,
  confirmation,
  onDeleted,
}: {
  comment: Comment;
  confirmation: InPlace;
  onDeleted: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const handleConfirm = async () => {
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
    <div className="comment-delete">
      <ConfirmInPlace
        kind="comment"
        confirmation={confirmation}
        question="Delete this comment?"
        busy={pending}
        action={messages.confirmDeleteComment}
        focusOnOpen="action"
        onConfirm={() => void handleConfirm()}
      />
      <ErrorAlert message={error} />
    </div>
  );
}
