import { useRef, useState, type DragEvent } from 'react';
import type { ImportJob, TrelloImportPreview } from '../../../common/trello-import';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { errorMessage } from '../../lib/error-message';
import { readBoardFile, type BoardFile } from './board-file';
import { ImportPreview, type ImportChoices } from './import-preview';
import { ImportProgress } from './import-progress';
import { count } from './plural';
import { trelloImportClient } from './trello-import-client';
import './trello-import.css';

/**
 * Import from Trello (admins only; docs/trello-import.md): pick or drop a board's JSON export, see the
 * server's preview and choose how labels map to categories and the due date of cards without one, then
 * follow the import the server runs in the background until its summary.
 */
export function TrelloImportPage() {
  useDocumentTitle('Import from Trello');
  const { say } = useAnnouncer();
  const [file, setFile] = useState<BoardFile | null>(null);
  const [preview, setPreview] = useState<TrelloImportPreview | null>(null);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  // A newer file wins over an answer still on its way for an older one.
  const attempt = useRef(0);

  const choose = async (chosen: File) => {
    const mine = ++attempt.current;
    setReading(chosen.name);
    setFailure(null);
    setFile(null);
    setPreview(null);
    setJob(null);
    try {
      const read = await readBoardFile(chosen);
      // Not JSON, or not an object: sent as it is, so the server refuses it with its own message.
      const shown = await trelloImportClient.preview({ board: read.board as Record<string, unknown> });
      if (mine !== attempt.current) return;
      setFile(read);
      setPreview(shown);
      say(`Preview ready: ${count(shown.projects.toCreate, 'project')} to create.`);
    } catch (error) {
      if (mine === attempt.current) setFailure(errorMessage(error));
    } finally {
      if (mine === attempt.current) setReading(null);
    }
  };

  const start = async (board: BoardFile, choices: ImportChoices) => {
    const started = await trelloImportClient.start({
      board: board.board as Record<string, unknown>,
      ...choices,
    });
    setJob(started);
    say('Import started.');
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) void choose(dropped);
  };

  const reset = () => {
    attempt.current += 1;
    setFile(null);
    setPreview(null);
    setJob(null);
    setFailure(null);
    requestAnimationFrame(() => document.getElementById('trello-file')?.focus());
  };

  return (
    <div className="trello-import-page">
      <PageTitle>Import from Trello</PageTitle>
      <p className="trello-hint">
        Each card of a Trello board becomes a project, its comments become comments, and archived cards become
        completed projects. Nothing is written until you press Import, and importing the same board again
        creates nothing twice.
      </p>
      {!job && (
        <section className="card" aria-labelledby="trello-file-heading">
          <h2 id="trello-file-heading">Board export</h2>
          <div
            className={dragging ? 'trello-drop is-dragging' : 'trello-drop'}
            onDragOver={(event) => {
              event.preventDefault();
              event.dataTransfer.dropEffect = 'copy';
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <label htmlFor="trello-file">Trello board export (JSON file)</label>
            <input
              id="trello-file"
              type="file"
              accept=".json,application/json"
              aria-describedby="trello-file-hint"
              onChange={(event) => {
                const chosen = event.target.files?.[0];
                // Cleared, so choosing the same file again (after fixing it) is a change too.
                event.target.value = '';
                if (chosen) void choose(chosen);
              }}
            />
            <p id="trello-file-hint" className="muted">
              Or drop the file here. On the Trello board: Menu, Print, export and share, Export as JSON (up to
              20 MB).
            </p>
          </div>
          <div role="status">{reading && <p className="loading">Reading {reading}…</p>}</div>
          <ErrorAlert message={failure} />
        </section>
      )}
      {file && preview && !job && (
        // Unmounted while the next file is read (preview is null), so its choices start afresh.
        <ImportPreview file={file} preview={preview} onStart={(choices) => start(file, choices)} />
      )}
      {job && <ImportProgress key={job.id} initial={job} onAnother={reset} />}
    </div>
  );
}
