import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useLocation } from 'react-router';
import { formatDistance } from 'date-fns';
import {
  AddCommentSchema,
  announcements,
  commentAnchor,
  EditCommentSchema,
  mentionedUserIds,
  messages,
  type AddCommentInput,
  type Comment,
  type EditCommentInput,
} from '../../../common';
import { Avatar } from '../../components/avatar';
import { Field } from '../../components/field';
import { FormAlert, SubmitButton } from '../../components/form-alert';
import { MentionText, readableText, useUserNames } from '../../components/mention-text';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useHashTarget } from '../../hooks/use-hash-target';
import { checkWith, useFormAction, type TextFieldBinding } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { toDraft, toStoredText } from './mention-draft';
import { MentionTextarea } from './mention-textarea';
import { useNow } from './use-now';
import { useProjectComments } from './use-project-comments';

/** How often the '… ago' times are brought up to date. */
const RELATIVE_TIME_REFRESH_MS = 30_000;

/** How many older pages a link to one comment may load to find it (20 comments each). */
const OLDER_PAGES_TO_FIND_LINKED_COMMENT = 50;

/**
 * A link to one comment (a notification's) that is older than the first page loads older pages, one at a
 * time, until it is shown: `useHashTarget` then lands on it. A deleted comment is looked for until the
 * oldest page, or the bound above.
 */
function useOlderPagesUntilLinkedComment(
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

/** What the list does with the viewer's own comments once the server has taken an edit or a delete. */
interface OwnCommentActions {
  viewerId: string | null;
  onEdited: (comment: Comment) => void;
  onDeleted: (commentId: string) => void;
}

function CommentList({
  comments,
  focusIdRef,
  actions,
}: {
  comments: readonly Comment[];
  /** The comment that takes focus once rendered (the first of a loaded older page). */
  focusIdRef: RefObject<string | null>;
  actions: OwnCommentActions;
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
        />
      ))}
    </ul>
  );
}

type Mode = 'view' | 'edit' | 'confirm-delete';

function CommentItem({
  comment,
  now,
  own,
  actions,
}: {
  comment: Comment;
  now: number;
  own: boolean;
  actions: OwnCommentActions;
}) {
  const [mode, setMode] = useState<Mode>('view');
  const nameOf = useUserNames(mentionedUserIds(comment.content));
  const readable = readableText(comment.content, nameOf);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  /**
   * Where focus returns when an edit or a delete confirmation closes: its button, which is rendered
   * again only then, so the focus moves in an effect after that render.
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
      <p className="comment-date">
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
        <p className="comment-content">
          <MentionText text={comment.content} />
        </p>
      )}
      {own && mode === 'view' && (
        <div className="comment-actions">
          <button
            ref={editButton}
            className="btn comment-action-button"
            type="button"
            aria-label={`${messages.editComment}: ${readable.slice(0, 40)}`}
            onClick={() => setMode('edit')}
          >
            {messages.editComment}
          </button>
          <button
            ref={deleteButton}
            className="btn comment-action-button"
            type="button"
            aria-label={`${messages.deleteComment}: ${readable.slice(0, 40)}`}
            onClick={() => setMode('confirm-delete')}
          >
            {messages.deleteComment}
          </button>
        </div>
      )}
      {own && mode === 'confirm-delete' && (
        <ConfirmDelete
          comment={comment}
          onDeleted={() => actions.onDeleted(comment.id)}
          onCancel={() => close(deleteButton)}
        />
      )}
    </li>
  );
}

const checkEdit = checkWith(EditCommentSchema);

/**
 * Inline edit: the shared rules and messages; Escape or Cancel leaves it unchanged. On a server error the
 * text stays in the box (nothing typed is lost) and the message shows under it.
 */
function EditCommentForm({
  comment,
  nameOf,
  onSaved,
  onCancel,
}: {
  comment: Comment;
  nameOf: (id: string) => string | null | undefined;
  onSaved: (comment: Comment) => void;
  onCancel: () => void;
}) {
  const fieldId = `edit-comment-${comment.id}`;
  // Mentions show as '@Name' in the box and turn back into the same tokens on save.
  const [initial] = useState(() => toDraft(comment.content, nameOf));
  const [content, setContent] = useState(initial.draft);
  const { picked } = initial;
  const form = useFormAction({
    check: checkEdit,
    send: async (input: EditCommentInput) => {
      onSaved(await dojo.projects.editComment(comment.projectId, comment.id, input));
    },
    fields: { content: fieldId },
  });
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onCancel();
  };
  return (
    <form
      className="comment-edit-form"
      onSubmit={(event) => form.submit(event, { content: toStoredText(content, picked) })}
      onKeyDown={onKeyDown}
      noValidate
    >
      <MentionField
        id={fieldId}
        label={messages.editCommentLabel}
        binding={form.textField('content', content, setContent)}
        setValue={setContent}
        picked={picked}
        textareaRef={box}
      />
      <div className="comment-actions">
        <SubmitButton pending={form.isPending}>{messages.saveComment}</SubmitButton>
        <button className="btn comment-action-button" type="button" onClick={onCancel}>
          {messages.cancelEdit}
        </button>
      </div>
      <FormAlert lines={form.alert} />
    </form>
  );
}

/** The second step of a delete: 'Confirm delete' takes focus; Cancel or Escape goes back to 'Delete'. */
function ConfirmDelete({
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
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A comment box with @mention suggestions; a pick is remembered so that its '@Name' is sent as a token. */
function MentionField({
  id,
  label,
  binding,
  setValue,
  picked,
  textareaRef,
}: {
  id: string;
  label: string;
  binding: TextFieldBinding;
  setValue: (value: string) => void;
  picked: Map<string, string>;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  const { name, value, onChange, ...problem } = binding;
  return (
    <Field as="custom" id={id} label={label} {...problem}>
      {(control) => (
        <MentionTextarea
          control={control}
          name={name}
          value={value}
          onChange={onChange}
          setValue={setValue}
          onPick={(user) => picked.set(user.displayName, user.id)}
          textareaRef={textareaRef}
        />
      )}
    </Field>
  );
}

const checkComment = checkWith(AddCommentSchema);
const FIELDS = { content: 'new-comment' };

function CommentForm({ projectId }: { projectId: string }) {
  const [content, setContent] = useState('');
  // One map for the form's life, added to as users are picked.
  const [picked] = useState(() => new Map<string, string>());
  const { say } = useAnnouncer();
  const form = useFormAction({
    check: checkComment,
    send: async (input: AddCommentInput) => {
      await dojo.projects.addComment(projectId, input);
      // Cleared only once the server has the comment (docs/product-spec.md#flaw-9), and only if it was not
      // edited since.
      setContent((current) => (toStoredText(current, picked) === input.content ? '' : current));
      say(announcements.commentAdded);
    },
    fields: FIELDS,
  });

  return (
    <form
      className="comment-form"
      onSubmit={(event) => form.submit(event, { content: toStoredText(content, picked) })}
      noValidate
    >
      <MentionField
        id={FIELDS.content}
        label="Add new comment:"
        binding={form.textField('content', content, setContent)}
        setValue={setContent}
        picked={picked}
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
      {comments.length > 0 && <CommentList comments={comments} focusIdRef={focusIdRef} actions={actions} />}
      <CommentForm projectId={projectId} />
    </section>
  );
}
