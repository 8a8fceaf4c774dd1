import { useSyncExternalStore } from 'react';
import { formatBytes } from '../../../common/attachments';
import { hasEnded, type QueueItem, type UploadQueue } from './upload-queue';

const STATE_TEXT: Record<QueueItem['state'], string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  paused: 'Paused',
  finishing: 'Attaching',
  done: 'Attached',
  failed: 'Not attached',
  canceled: 'Canceled',
};

function percentOf(item: QueueItem): number {
  if (item.state === 'done' || item.state === 'finishing') return 100;
  return item.size === 0 ? 0 : Math.min(100, Math.floor((item.transferred / item.size) * 100));
}

function QueueRow({ item, queue }: { item: QueueItem; queue: UploadQueue }) {
  const percent = percentOf(item);
  const ended = hasEnded(item);
  const canPause = item.state === 'uploading' || item.state === 'waiting';
  return (
    <li className={`upload-row upload-row-${item.state}`}>
      <div className="upload-row-head">
        <span className="upload-name">{item.name}</span>
        <span className="upload-size">{formatBytes(item.size)}</span>
      </div>
      {item.state !== 'failed' && item.state !== 'canceled' && (
        <div
          className="upload-progress"
          role="progressbar"
          aria-label={`Upload of ${item.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%, ${STATE_TEXT[item.state].toLowerCase()}`}
        >
          <div className="upload-progress-bar" style={{ width: `${percent}%` }} />
        </div>
      )}
      <div className="upload-row-foot">
        <span className="upload-state">
          {STATE_TEXT[item.state]}
          {item.state === 'uploading' || item.state === 'paused' ? ` · ${percent}%` : ''}
        </span>
        {!ended && item.state !== 'finishing' && (
          <span className="upload-actions">
            {canPause ? (
              <button
                type="button"
                className="btn attachment-button"
                aria-label={`Pause ${item.name}`}
                onClick={() => queue.pause(item.id)}
              >
                Pause
              </button>
            ) : (
              <button
                type="button"
                className="btn attachment-button"
                aria-label={`Resume ${item.name}`}
                onClick={() => queue.resume(item.id)}
              >
                Resume
              </button>
            )}
            <button
              type="button"
              className="btn attachment-button"
              aria-label={`Cancel ${item.name}`}
              onClick={() => queue.cancel(item.id)}
            >
              Cancel
            </button>
          </span>
        )}
      </div>
      {item.error && (
        <p className="error upload-error" role="alert">
          {item.error}
        </p>
      )}
    </li>
  );
}

/** The files being uploaded to a project: one row each, with its progress and its own buttons. */
export function UploadQueueView({ queue }: { queue: UploadQueue }) {
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  if (items.length === 0) return null;
  const anyEnded = items.some(hasEnded);
  return (
    <div className="upload-queue">
      <h3 className="upload-queue-heading">Uploads</h3>
      <ul className="upload-list" aria-label="Uploads">
        {items.map((item) => (
          <QueueRow key={item.id} item={item} queue={queue} />
        ))}
      </ul>
      {anyEnded && (
        <button type="button" className="btn attachment-button" onClick={() => queue.clearEnded()}>
          Clear finished uploads
        </button>
      )}
    </div>
  );
}
