import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { EditCommentSchema, messages, type Comment, type EditCommentInput } from '../../../common';
import { FormAlert, SubmitButton } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { MentionField } from './mention-field';
import { toDraft, toStoredText } from './mention-draft';

const checkEdit = checkWith(EditCommentSchema);

/**
 * Inline edit: the shared rules and messages; Escape or Cancel leaves it unchanged. On a server error the
 * text stays in the box (nothing typed is lost) and the message shows under it.
 */
export function EditCommentForm({
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
