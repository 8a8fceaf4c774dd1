import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { CLIENT_ROUTES } from '../../../common';
import type { ImportJob } from '../../../common/trello-import';
import { ErrorAlert } from '../../components/error-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { errorMessage } from '../../lib/error-message';
import { count } from './plural';
import { trelloImportClient } from './trello-import-client';

/** How often the page asks the server how far a running import is. */
const POLL_MS = 1_000;

const ended = (job: ImportJob): boolean => job.status === 'completed' || job.status === 'failed';

/**
 * An import the server runs in the background: its progress, read every second while it runs (and not
 * once the page is left), then what it created and skipped; focus moves to that summary.
 */
export function ImportProgress({ initial, onAnother }: { initial: ImportJob; onAnother: () => void }) {
  const { say } = useAnnouncer();
  const [job, setJob] = useState(initial);
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const result = useRef<HTMLHeadingElement>(null);
  const done = ended(job);

  // The form that started it is gone: the focus goes to what replaced it rather than to the page.
  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    if (done || failure) return;
    let left = false;
    const timer = setTimeout(() => {
      trelloImportClient.job(job.id).then(
        (next) => {
          if (!left) setJob(next);
        },
        (error: unknown) => {
          if (!left) setFailure(errorMessage(error));
        },
      );
    }, POLL_MS);
    return () => {
      left = true;
      clearTimeout(timer);
    };
  }, [job, done, failure]);

  // Said and focused once, when the import ends.
  const told = useRef(false);
  useEffect(() => {
    if (!done || told.current) return;
    told.current = true;
    say(
      job.status === 'completed'
        ? `Import finished: ${summary(job)}.`
        : `The import stopped: ${job.error ?? 'an unexpected error'}`,
    );
    result.current?.focus();
  }, [done, job, say]);

  const total = job.totalCards;
  return (
    <section className="card" aria-labelledby="trello-progress-heading">
      <h2 id="trello-progress-heading" ref={heading} tabIndex={-1}>
        {done ? 'Import of' : 'Importing'} “{job.title}”
      </h2>
      <div className="trello-progress">
        <label htmlFor="trello-progress">Cards imported</label>
        <progress
          id="trello-progress"
          max={Math.max(total, 1)}
          value={total === 0 && done ? 1 : job.processedCards}
        >
          {job.processedCards} of {total}
        </progress>
        <p className="muted">
          {job.processedCards} of {count(total, 'card')}
          {job.status === 'queued' && ': waiting to start'}
        </p>
      </div>
      {!done && <p className="muted">You may leave this page: the import goes on on the server.</p>}
      {failure && (
        <>
          <ErrorAlert message={failure} />
          <button type="button" className="btn" onClick={() => setFailure(null)}>
            Check again
          </button>
        </>
      )}
      {done && (
        <div className="trello-result">
          <h3 ref={result} tabIndex={-1}>
            {job.status === 'completed' ? 'Import finished' : 'Import stopped'}
          </h3>
          {job.status === 'failed' && <ErrorAlert message={job.error} />}
          <ul className="trello-counts">
            <li>{count(job.projectsCreated, 'project')} created</li>
            <li>{count(job.commentsCreated, 'comment')} created</li>
            <li>{job.skipped} skipped: already imported</li>
          </ul>
          {job.status === 'completed' && job.projectsCreated === 0 && job.commentsCreated === 0 && (
            <p>Nothing new: everything in this file had been imported before.</p>
          )}
          <p className="trello-actions">
            <Link to={CLIENT_ROUTES.dashboard}>Go to the Dashboard</Link>
            <button type="button" className="btn" onClick={onAnother}>
              Import another file
            </button>
          </p>
        </div>
      )}
    </section>
  );
}

const summary = (job: ImportJob): string =>
  `${count(job.projectsCreated, 'project')} and ${count(job.commentsCreated, 'comment')} created, ${job.skipped} skipped as already imported`;
