import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatBytes, type Attachment } from '../../../common/attachments';
import { commentAnchor } from '../../../common/client-routes';
import { ConfirmInPlace, useInPlace } from '../../components/confirm-in-place';
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

/**
 * Delete, asked in place (the shared confirm-in-place: 'Confirm delete' takes focus as it always has here,
 * Cancel or Escape goes back to Delete); the live list drops the row once the server has deleted it.
 */
function DeleteAttachment({ attachment }: { attachment: Attachment }) {
  const confirmation = useInPlace();
  const { trigger } = confirmation;
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { say } = useAnnouncer();
  const handleConfirm = async () => {
    setPending(true);
    setError(null);
    try {
      await attachmentsClient.delete(attachment.id);
      // The live list drops the row (and this question with it); the quota has room again.
      say(`${attachment.name} deleted.`);
      void refreshLimits();
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(false);
    }
  };
  return (
    <div className="attachment-delete">
      {confirmation.open ? (
        <ConfirmInPlace
          kind="attachment"
          confirmation={confirmation}
          question={`Delete ${attachment.name}?`}
          busy={pending}
          action={pending ? 'Deleting...' : 'Confirm delete'}
          focusOnOpen="action"
          onConfirm={() => void handleConfirm()}
        />
      ) : (
        <div className="attachment-actions">
          <button
            ref={trigger}
            type="button"
            className="btn attachment-button"
            aria-label={`Delete ${attachment.name}`}
            onClick={confirmation.show}
          >
            Delete
          </button>
        </div>
      )}
      <ErrorAlert message={error} />
    </div>
  );
}

/**
 * Attachments: what each is, who added it and when; images open in the viewer (over this list's images).
 * The project's list links a comment's file to its comment; the list under a comment has no such link.
 */
export function AttachmentList({
  attachments,
  label,
  mayDelete,
  commentLink,
}: {
  attachments: readonly Attachment[];
  /** The list's accessible name. */
  label: string;
  mayDelete: (attachment: Attachment) => boolean;
  /** Links a comment's file to its comment (its anchor on the page); without it they are not linked. */
  commentLink?: boolean;
}) {
  const [viewing, setViewing] = useState<number | null>(null);
  const openers = useRef(new Map<string, HTMLButtonElement>());
  const images = attachments.filter((attachment) => attachment.kind === 'image');
  // When the image shown is deleted meanwhile, the viewer shows the one now at its place (or closes).
  const shownIndex = viewing === null ? null : Math.min(viewing, images.length - 1);

  // Where focus goes once the viewer has gone (after React removed it).
  const focusNext = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (viewing !== null) return;
    focusNext.current?.focus();
    focusNext.current = null;
  }, [viewing]);

  const closeViewer = () => {
    const image = shownIndex === null ? undefined : images[shownIndex];
    // Back on the thumbnail of the image last shown (the one that opened it, unless arrows moved on).
    focusNext.current = (image && openers.current.get(image.id)) ?? null;
    setViewing(null);
  };

  return (
    <>
      <ul className="attachment-list" aria-label={label}>
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
                {attachment.commentId && commentLink && (
                  <>
                    {' · '}
                    <Link to={{ hash: commentAnchor(attachment.commentId) }}>on a comment</Link>
                  </>
                )}
              </span>
            </div>
            {mayDelete(attachment) && <DeleteAttachment attachment={attachment} />}
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
