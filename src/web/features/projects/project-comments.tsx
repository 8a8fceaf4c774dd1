import { useRef } from 'react';
import { useAuthContext } from '../../hooks/use-auth-context';
import { AddCommentForm } from './add-comment-form';
import { CommentList } from './comment-list';
import type { OwnCommentActions } from './comment-item';
import { OlderComments } from './older-comments';
import { useOlderPagesUntilLinkedComment } from './use-older-pages-until-linked-comment';
import { useProjectComments } from './use-project-comments';

/**
 * A project's comments: older pages on demand, the live list (each with its files), and the box for a new
 * one. `creatorId` is the project's creator, who may delete any file on it.
 */
export function ProjectComments({ projectId, creatorId }: { projectId: string; creatorId: string }) {
  const { comments, hasOlder, loadOlder, loadingOlder, olderError, patch, remove } =
    useProjectComments(projectId);
  useOlderPagesUntilLinkedComment({ comments, hasOlder, loadingOlder, olderError }, () => void loadOlder());
  const { user } = useAuthContext();
  const focusIdRef = useRef<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const actions: OwnCommentActions = {
    viewerId: user?.uid ?? null,
    onEdited: patch,
    onDeleted: (commentId) => {
      remove(commentId);
      // The comment and its buttons are gone: focus goes to the top of the comments, not to the page.
      heading.current?.focus();
    },
  };
  const handleLoadOlder = async () => {
    const { loaded, last } = await loadOlder();
    const first = loaded[0];
    // While older pages remain the button stays, focused; with the last one it goes, and focus with it.
    if (last && first) focusIdRef.current = first.id;
  };
  return (
    <section className="project-comments" aria-labelledby="project-comments-heading">
      <h2 id="project-comments-heading" className="project-comments-heading" ref={heading} tabIndex={-1}>
        Project Comments
      </h2>
      {hasOlder && (
        <OlderComments loading={loadingOlder} error={olderError} onLoad={() => void handleLoadOlder()} />
      )}
      {comments.length > 0 && (
        <CommentList comments={comments} focusIdRef={focusIdRef} actions={actions} creatorId={creatorId} />
      )}
      <AddCommentForm projectId={projectId} />
    </section>
  );
}
