import { useEffect, useRef } from 'react';
import type { Attachment } from '../../../common/attachments';
import { formatBytes } from '../../../common/attachments';

interface ImageViewerProps {
  images: readonly Attachment[];
  /** The image shown (an index into `images`). */
  index: number;
  contentUrl: (id: string) => string;
  onIndexChange: (index: number) => void;
  /** Closing: the opener puts focus back on the thumbnail that opened the viewer. */
  onClose: () => void;
}

/**
 * A project's images, one at a time, in a modal dialog: the browser's own `<dialog>` keeps focus inside and
 * closes on Escape; left and right arrows go to the previous and next image.
 */
export function ImageViewer({ images, index, contentUrl, onIndexChange, onClose }: ImageViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const image = images[index];

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  if (!image) return null;
  const count = images.length;
  const go = (step: number) => onIndexChange((index + step + count) % count);
  return (
    <dialog
      ref={dialog}
      className="image-viewer"
      aria-labelledby="image-viewer-title"
      onCancel={(event) => {
        // Escape: React state decides what is open, so the opener closes it (and puts focus back).
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        if (count < 2) return;
        if (event.key === 'ArrowRight') {
          event.preventDefault();
          go(1);
        } else if (event.key === 'ArrowLeft') {
          event.preventDefault();
          go(-1);
        }
      }}
    >
      <div className="image-viewer-head">
        <h2 id="image-viewer-title" className="image-viewer-title">
          {image.name}
        </h2>
        <button type="button" className="btn attachment-button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
      <img className="image-viewer-image" src={contentUrl(image.id)} alt={image.name} />
      <div className="image-viewer-foot">
        <span>
          {count > 1 ? `Image ${index + 1} of ${count} · ` : ''}
          {formatBytes(image.size)} · {image.uploaderName}
        </span>
        {count > 1 && (
          <span className="image-viewer-nav">
            <button type="button" className="btn attachment-button" onClick={() => go(-1)}>
              Previous
            </button>
            <button type="button" className="btn attachment-button" onClick={() => go(1)}>
              Next
            </button>
          </span>
        )}
      </div>
    </dialog>
  );
}
