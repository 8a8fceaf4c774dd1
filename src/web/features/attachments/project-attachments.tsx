import { useEffect, useId, useState } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';
import { AttachmentList } from './attachment-list';
import { attachFiles, mayDeleteAttachment, setUploadAnnouncer, uploadsFor } from './attachment-uploads';
import { useLiveAttachments } from './live-attachments';
import { dragHasFiles, filesFromPaste } from './pasted-files';
import { PickFilesButton } from './pick-files-button';
import { UploadQueueView } from './upload-queue-view';
import { limitsText, useAttachmentLimits } from './use-attachment-limits';
import './attachments.css';

/**
 * Files dragged anywhere over the page: a drop zone shows while they are over it, and dropping attaches
 * them. Listens on the document so that the whole page is the target, not one small box.
 */
function useDropOnPage(onFiles: (files: File[]) => void): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    // dragenter/dragleave fire for every element crossed; the depth says when the page is left.
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      depth += 1;
      setOver(true);
    };
    const overPage = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      // Without this the browser opens the file instead of letting the page have it.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (event: DragEvent) => {
      depth = 0;
      setOver(false);
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      onFiles(files);
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragover', overPage);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragover', overPage);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
    };
  }, [onFiles]);
  return over;
}

/**
 * An image pasted on the page attaches it to the project. A paste the comment box already took (it
 * attaches to the comment, and prevents the default) or one with no files is left alone.
 */
function usePasteOnPage(onFiles: (files: File[]) => void): void {
  useEffect(() => {
    const paste = (event: ClipboardEvent) => {
      if (event.defaultPrevented) return;
      const files = filesFromPaste(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      onFiles(files);
    };
    document.addEventListener('paste', paste);
    return () => document.removeEventListener('paste', paste);
  }, [onFiles]);
}

/**
 * A project's files (issue 31): what may be uploaded, the uploads under way, and the live list. Its own
 * chunk, loaded by the project page after the project itself is shown.
 */
export function ProjectAttachments({ projectId, creatorId }: { projectId: string; creatorId: string }) {
  const { user } = useAuthContext();
  const { say } = useAnnouncer();
  const limits = useAttachmentLimits();
  const queue = uploadsFor(projectId);
  const list = useLiveAttachments(projectId);
  const limitsId = useId();
  const [onFiles] = useState(() => (files: File[]) => attachFiles(projectId, files));
  const dragging = useDropOnPage(onFiles);
  usePasteOnPage(onFiles);
  useEffect(() => setUploadAnnouncer(say), [say]);

  return (
    <section className="project-attachments" aria-labelledby="project-attachments-heading">
      <h2 id="project-attachments-heading" className="project-attachments-heading">
        Attachments
      </h2>
      <div className="attachment-intake">
        <PickFilesButton label="Attach files" onFiles={onFiles} describedBy={limitsId} />
        <p id={limitsId} className="attachment-limits">
          {limitsText(limits)} Drop files on the page or paste an image to attach them too.
        </p>
      </div>
      <UploadQueueView queue={queue} />
      {list.failed ? (
        <ErrorAlert message="The attachments could not be loaded." />
      ) : list.docs === null ? (
        <p className="loading">Loading...</p>
      ) : list.docs.length === 0 ? (
        <p className="attachments-empty">No attachments yet.</p>
      ) : (
        // Every file of the project, a comment's too (linked to its comment, under which it shows as well).
        <AttachmentList
          attachments={list.docs}
          label="Attachments"
          mayDelete={(attachment) => mayDeleteAttachment(attachment, creatorId, user)}
          commentLink
        />
      )}
      {dragging && (
        <div className="attachment-drop-zone" aria-hidden="true">
          <p>Drop files to attach them to this project</p>
        </div>
      )}
    </section>
  );
}

/**
 * The files attached to one comment, under it: the same rows and image viewer as the project's list, live
 * from the same subscription. Nothing at all while the comment has none (or they are loading). Delete is
 * offered where the project's list offers it.
 */
export function CommentAttachments({
  projectId,
  commentId,
  creatorId,
}: {
  projectId: string;
  commentId: string;
  creatorId: string;
}) {
  const { user } = useAuthContext();
  const list = useLiveAttachments(projectId);
  const files = list.docs?.filter((attachment) => attachment.commentId === commentId) ?? [];
  if (files.length === 0) return null;
  return (
    <div className="comment-attachments">
      <AttachmentList
        attachments={files}
        label="Files on this comment"
        mayDelete={(attachment) => mayDeleteAttachment(attachment, creatorId, user)}
      />
    </div>
  );
}
