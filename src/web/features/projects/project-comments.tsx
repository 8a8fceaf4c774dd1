import { useEffect, useRef, useState, type RefObject } from 'react';
import { formatDistance } from 'date-fns';
import {
  AddCommentSchema,
  announcements,
  messages,
  type AddCommentInput,
  type Comment,
} from '../../../common';
import { Avatar } from '../../components/avatar';
import { Field } from '../../components/field';
import { FormAlert, SubmitButton } from '../../components/form-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { useNow } from './use-now';
import { useProjectComments } from './use-project-comments';

/** How often the '… ago' times are brought up to date. */
const RELATIVE_TIME_REFRESH_MS = 30_000;

/**
 * '3 hours ago'. Timestamps come from the server's clock: one slightly ahead of this device's is shown as
 * just now rather than 'in a few seconds'.
 */
function relativeTime(createdAt: string, now: number): string {
  const time = new Date(createdAt).getTime();
  if (Number.isNaN(time)) return '';
  return formatDistance(Math.min(time, now), now, { addSuffix: true });
}

function absoluteTime(createdAt: string): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}

function CommentList({
  comments,
  focusIdRef,
}: {
  comments: readonly Comment[];
  /** The comment that takes focus once rendered (the first of a loaded older page). */
  focusIdRef: RefObject<string | null>;
}) {
  const now = useNow(RELATIVE_TIME_REFRESH_MS);
  const list = useRef<HTMLUListElement>(null);
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
        <li key={comment.id} className="comment" data-comment-id={comment.id} tabIndex={-1}>
          <div className="comment-author">
            <Avatar src={comment.photoURL} name={comment.displayName} decorative size={30} />
            <p className="comment-author-name">{comment.displayName}</p>
          </div>
          <p className="comment-date">
            <time dateTime={comment.createdAt} title={absoluteTime(comment.createdAt)}>
              {relativeTime(comment.createdAt, now)}
            </time>
            {/* The exact moment, for those who cannot hover over the relative time. */}
            <span className="visually-hidden">{`, ${absoluteTime(comment.createdAt)}`}</span>
          </p>
          {/* Plain text: React escapes it; line breaks are kept by CSS (white-space: pre-wrap). */}
          <p className="comment-content">{comment.content}</p>
        </li>
      ))}
    </ul>
  );
}

const checkComment = checkWith(AddCommentSchema);
const FIELDS = { content: 'new-comment' };

function CommentForm({ projectId }: { projectId: string }) {
  const [content, setContent] = useState('');
  const { say } = useAnnouncer();
  const form = useFormAction({
    check: checkComment,
    send: async (input: AddCommentInput) => {
      await dojo.projects.addComment(projectId, input);
      // Cleared only once the server has the comment (docs/product-spec.md#flaw-9), and only if it was not
      // edited since.
      setContent((current) => (current === input.content ? '' : current));
      say(announcements.commentAdded);
    },
    fields: FIELDS,
  });

  return (
    <form className="comment-form" onSubmit={(event) => form.submit(event, { content })} noValidate>
      <Field
        as="textarea"
        id={FIELDS.content}
        label="Add new comment:"
        required
        {...form.textField('content', content, setContent)}
      />
      <SubmitButton pending={form.isPending}>Add Comment</SubmitButton>
      <FormAlert lines={form.alert} />
    </form>
  );
}

/**
 * 'Show older comments' above the list. It stays focusable while loading (aria-disabled, not disabled),
 * so keyboard focus is not lost; once no older page is left it goes, and focus moves to the oldest
 * comment just loaded, where reading continues.
 */
function OlderComments({
  loading,
  error,
  onLoad,
}: {
  loading: boolean;
  error: string | null;
  onLoad: () => void;
}) {
  return (
    <div className="comments-older">
      <button
        className="btn comments-older-button"
        type="button"
        aria-disabled={loading || undefined}
        onClick={() => {
          if (!loading) onLoad();
        }}
      >
        {loading ? messages.loadingOlderComments : messages.showOlderComments}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function ProjectComments({ projectId }: { projectId: string }) {
  const { comments, hasOlder, loadOlder, loadingOlder, olderError } = useProjectComments(projectId);
  const focusIdRef = useRef<string | null>(null);
  const handleLoadOlder = async () => {
    const { loaded, last } = await loadOlder();
    const first = loaded[0];
    // While older pages remain the button stays, focused; with the last one it goes, and focus with it.
    if (last && first) focusIdRef.current = first.id;
  };
  return (
    <section className="project-comments" aria-labelledby="project-comments-heading">
      <h2 id="project-comments-heading" className="project-comments-heading">
        Project Comments
      </h2>
      {hasOlder && (
        <OlderComments loading={loadingOlder} error={olderError} onLoad={() => void handleLoadOlder()} />
      )}
      {comments.length > 0 && <CommentList comments={comments} focusIdRef={focusIdRef} />}
      <CommentForm projectId={projectId} />
    </section>
  );
}
