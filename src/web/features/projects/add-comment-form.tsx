import { useState } from 'react';
import { AddCommentSchema, announcements, type AddCommentInput } from '../../../common';
import { FormSubmit } from '../../components/form-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAttachments } from '../../hooks/use-attachments';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { MentionField } from './mention-field';
import { toStoredText } from './mention-draft';

const checkComment = checkWith(AddCommentSchema);
const FIELDS = { content: 'new-comment' };

/** The box under the comments for a new one; it empties once the server has the comment. */
export function AddCommentForm({ projectId }: { projectId: string }) {
  const [content, setContent] = useState('');
  // One map for the form's life, added to as users are picked.
  const [picked] = useState(() => new Map<string, string>());
  // Files for the comment: uploaded once the server has the comment (they are attached to it).
  const [files, setFiles] = useState<File[]>([]);
  const attachments = useAttachments();
  const { say } = useAnnouncer();
  const form = useFormAction({
    check: checkComment,
    send: async (input: AddCommentInput) => {
      const comment = await dojo.projects.addComment(projectId, input);
      const sentFiles = files;
      setFiles((current) => (current === sentFiles ? [] : current));
      void attachments?.attachPending(projectId, sentFiles, comment.id);
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
      onPaste={(event) => {
        // An image pasted into the comment box goes with the comment (the page's own paste would attach
        // it to the project): taken here, and the default (pasting nothing) prevented.
        const pasted = attachments?.filesFromPaste(event.clipboardData) ?? [];
        if (pasted.length === 0) return;
        event.preventDefault();
        setFiles((current) => [...current, ...pasted]);
      }}
      noValidate
    >
      <MentionField
        id={FIELDS.content}
        label="Add new comment:"
        binding={form.textField('content', content, setContent)}
        setValue={setContent}
        picked={picked}
      />
      {attachments && (
        <attachments.PendingFiles files={files} onChange={setFiles} label="Attach files to the comment" />
      )}
      <FormSubmit form={form} label="Add Comment" />
    </form>
  );
}
