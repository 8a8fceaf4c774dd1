import { useEffect, useRef, useState } from 'react';
import { formatBytes, type Attachment } from '../../../common/attachments';
import { ErrorAlert } from '../../components/error-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { errorMessage } from '../../lib/error-message';
import { absoluteTime, relativeTime } from '../../lib/time-format';
import { attachmentsClient, refreshLimits } from './attachment-uploads';
import { ImageViewer } from './image-viewer';

const KIND_TEXT: Record<Attachment['kind'], string> = {
  image: 'Image',
  pdf: 'PDF',
  text: 'Text',
  other: 'File',
};

/** The second step of a delete, in place: 'Confirm delete' takes focus; Cancel or Escape goes back. */
function ConfirmDeleteAttachment({ attachment, onCancel }: { attachment: Attachment; onCancel: () => void }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { say } = useAnnouncer();
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirm.current?.focus();
  }, []);
  const handleConfirm = async () => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      await attachmentsClient.delete(attachment.id);
      // The live list drops the row; the quota has room again.
      say(`${attachment.name} deleted.`);
      void refreshLimits();
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(false);
    }
  };
  return (
    <div
      className="attachment-actions"
      role="group"
      aria-label={`Delete ${attachment.name}?`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <button
        ref={confirm}
        className="btn attachment-button"
        type="button"
        aria-disabled={pending || undefined}
        onClick={() => void handleConfirm()}
      >
        Confirm delete
      </button>
      <button className="btn attachment-button" type="button" onClick={onCancel}>
        Cancel
      </button>
      <ErrorAlert message={error} />
    </div>
  );
}

function AttachmentOpener({
  attachment,
  onView,
  buttonRef,
}: {
  attachment: Attachment;
  onView: () => void;
  buttonRef: (element: HTMLButtonElement | null) => void;
}) {
  const url = attachmentsClient.contentUrl(attachment.id);
  if (attachment.kind === 'image') {
    return (
      <button
        ref={buttonRef}
        type="button"
        className="attachment-thumbnail-button"
        aria-label={`View ${attachment.name}`}
        onClick={onView}
      >
        {attachment.hasThumbnail ? (
          <img
            className="attachment-thumbnail"
            src={attachmentsClient.thumbnailUrl(attachment.id)}
            alt=""
            width={64}
            height={64}
            loading="lazy"
          />
        ) : (
          <span className="attachment-thumbnail attachment-kind-badge" aria-hidden="true">
            IMG
          </span>
        )}
      </button>
    );
  }
  // PDFs and plain text the server serves inline: a new tab. Anything else downloads.
  const inline = attachment.kind === 'pdf' || attachment.kind === 'text';
  return (
    <a
      className="attachment-thumbnail attachment-kind-badge"
      href={url}
      {...(inline ? { target: '_blank', rel: 'noopener noreferrer' } : { download: attachment.name })}
      aria-label={inline ? `Open ${attachment.name} in a new tab` : `Download ${attachment.name}`}
    >
      <span aria-hidden="true">
        {attachment.kind === 'pdf' ? 'PDF' : attachment.kind === 'text' ? 'TXT' : 'FILE'}
      </span>
    </a>
  );
}

/** A project's attachments: what each is, who added it and when; images open in the viewer. */
export function AttachmentList({
  attachments,
  mayDelete,
}: {
  attachments: readonly Attachment[];
  mayDelete: (attachment: Attachment) => boolean;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const openers = useRef(new Map<string, HTMLButtonElement>());
  const deleteButtons = useRef(new Map<string, HTMLButtonElement>());
  const images = attachments.filter((attachment) => attachment.kind === 'image');
  // When the image shown is deleted meanwhile, the viewer shows the one now at its place (or closes).
  const shownIndex = viewing === null ? null : Math.min(viewing, images.length - 1);

  // Where focus goes once the viewer or a delete confirmation has gone (after React removed it).
  const focusNext = useRef<HTMLElement | null>(null);
  const pendingDeleteFocus = useRef<string | null>(null);
  useEffect(() => {
    if (viewing !== null || confirming !== null) return;
    const deleteButton = pendingDeleteFocus.current && deleteButtons.current.get(pendingDeleteFocus.current);
    (deleteButton || focusNext.current)?.focus();
    focusNext.current = null;
    pendingDeleteFocus.current = null;
  }, [viewing, confirming]);

  const closeViewer = () => {
    const image = shownIndex === null ? undefined : images[shownIndex];
    // Back on the thumbnail of the image last shown (the one that opened it, unless arrows moved on).
    focusNext.current = (image && openers.current.get(image.id)) ?? null;
    setViewing(null);
  };

  return (
    <>
      <ul className="attachment-list" aria-label="Attachments">
        {attachments.map((attachment) => (
          <li key={attachment.id} className="attachment-item">
            <AttachmentOpener
              attachment={attachment}
              onView={() => setViewing(images.findIndex((image) => image.id === attachment.id))}
              buttonRef={(element) => {
                if (element) openers.current.set(attachment.id, element);
                else openers.current.delete(attachment.id);
              }}
            />
            <div className="attachment-info">
              <a
                className="attachment-name"
                href={attachmentsClient.contentUrl(attachment.id)}
                {...(attachment.kind === 'other'
                  ? { download: attachment.name }
                  : { target: '_blank', rel: 'noopener noreferrer' })}
              >
                {attachment.name}
              </a>
              <span className="attachment-meta">
                {KIND_TEXT[attachment.kind]} · {formatBytes(attachment.size)} · {attachment.uploaderName} ·{' '}
                <time dateTime={attachment.createdAt} title={absoluteTime(attachment.createdAt)}>
                  {relativeTime(attachment.createdAt)}
                </time>
                {attachment.commentId ? ' · on a comment' : ''}
              </span>
            </div>
            {mayDelete(attachment) &&
              (confirming === attachment.id ? (
                <ConfirmDeleteAttachment
                  attachment={attachment}
                  onCancel={() => {
                    focusNext.current = null;
                    setConfirming(null);
                    // The Delete button is back only after the render: the effect focuses it then.
                    pendingDeleteFocus.current = attachment.id;
                  }}
                />
              ) : (
                <div className="attachment-actions">
                  <button
                    ref={(element) => {
                      if (element) deleteButtons.current.set(attachment.id, element);
                      else deleteButtons.current.delete(attachment.id);
                    }}
                    type="button"
                    className="btn attachment-button"
                    aria-label={`Delete ${attachment.name}`}
                    onClick={() => setConfirming(attachment.id)}
                  >
                    Delete
                  </button>
                </div>
              ))}
          </li>
        ))}
      </ul>
      {shownIndex !== null && shownIndex >= 0 && (
        <ImageViewer
          images={images}
          index={shownIndex}
          contentUrl={(id) => attachmentsClient.contentUrl(id)}
          onIndexChange={setViewing}
          onClose={closeViewer}
        />
      )}
    </>
  );
}
