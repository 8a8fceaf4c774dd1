import { useState, type FormEvent } from 'react';
import { PROJECT_CATEGORIES, type ProjectCategory } from '../../../common/projects';
import type { TrelloImportPreview } from '../../../common/trello-import';
import { ErrorAlert } from '../../components/error-alert';
import { errorMessage } from '../../lib/error-message';
import type { BoardFile } from './board-file';
import { count } from './plural';

/** The admin's choices sent with the import: the whole label mapping, the fallback, the missing due date. */
export interface ImportChoices {
  labelCategories: Record<string, ProjectCategory>;
  fallbackCategory: ProjectCategory;
  dueDateWhenMissing?: string;
}

const categoryName = (category: ProjectCategory): string =>
  category.charAt(0).toUpperCase() + category.slice(1);

/** A label with no name is shown by its colour, as Trello shows it. */
const labelName = (label: TrelloImportPreview['labels'][number]): string =>
  label.name.trim() || `Unnamed ${label.color ?? 'colourless'} label`;

/**
 * What the server's preview says the file becomes, and the choices it offers: each label's category (its
 * suggestion preselected), the category of cards with no mapped label, the due date of cards without one.
 */
export function ImportPreview({
  file,
  preview,
  onStart,
}: {
  file: BoardFile;
  preview: TrelloImportPreview;
  /** Starts the import; a thrown SDK error is shown above the button. */
  onStart: (choices: ImportChoices) => Promise<void>;
}) {
  const [labels, setLabels] = useState<Record<string, ProjectCategory | ''>>(() =>
    Object.fromEntries(preview.labels.map((label) => [label.id, label.category ?? ''])),
  );
  const [fallback, setFallback] = useState<ProjectCategory>(preview.fallbackCategory);
  const [dueDate, setDueDate] = useState(preview.dueDateWhenMissing);
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { projects, comments } = preview;
  const matched = preview.members.filter((member) => member.account);
  const unmatched = preview.members.filter((member) => !member.account);
  const nothingNew = projects.toCreate === 0 && comments.toCreate === 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (starting) return;
    setStarting(true);
    setFailure(null);
    const labelCategories: Record<string, ProjectCategory> = {};
    for (const [id, category] of Object.entries(labels)) if (category) labelCategories[id] = category;
    try {
      await onStart({
        labelCategories,
        fallbackCategory: fallback,
        ...(dueDate ? { dueDateWhenMissing: dueDate } : {}),
      });
    } catch (error) {
      setFailure(errorMessage(error));
      setStarting(false);
    }
  };

  return (
    <form className="trello-preview" onSubmit={(event) => void submit(event)} noValidate>
      <section className="card" aria-labelledby="trello-summary-heading">
        <h2 id="trello-summary-heading">What will be created from “{preview.boardName}”</h2>
        <p className="muted">From {file.name}. Nothing has been written yet.</p>
        {nothingNew && (
          <p className="trello-nothing-new">
            Nothing new: every card and comment in this file was imported before.
          </p>
        )}
        <ul className="trello-counts">
          <li>
            {count(projects.toCreate, 'project')} from cards
            {projects.completed > 0 &&
              `, ${projects.completed} of them completed (archived cards and cards on archived lists)`}
          </li>
          <li>{count(comments.toCreate, 'comment')}</li>
          <li>
            {count(file.checklists.lists, 'checklist')} ({count(file.checklists.items, 'item')}), written as
            text in the projects’ details
          </li>
          {projects.alreadyImported > 0 && (
            <li>{count(projects.alreadyImported, 'card')} imported before: skipped</li>
          )}
          {comments.alreadyImported > 0 && (
            <li>{count(comments.alreadyImported, 'comment')} imported before: skipped</li>
          )}
        </ul>
      </section>

      <section className="card" aria-labelledby="trello-labels-heading">
        <h2 id="trello-labels-heading">Labels to categories</h2>
        <p className="muted">
          A card takes the category of its first mapped label; a card with none takes the category below.
        </p>
        {preview.labels.length === 0 && <p>This board has no labels.</p>}
        <div className="trello-choices">
          {preview.labels.map((label) => (
            <div key={label.id} className="trello-choice">
              <label htmlFor={`trello-label-${label.id}`}>
                {labelName(label)} <span className="muted">({count(label.cards, 'card')})</span>
              </label>
              <select
                id={`trello-label-${label.id}`}
                value={labels[label.id] ?? ''}
                aria-describedby={`trello-label-${label.id}-hint`}
                onChange={(event) =>
                  setLabels((current) => ({
                    ...current,
                    [label.id]: event.target.value as ProjectCategory | '',
                  }))
                }
              >
                <option value="">Not mapped</option>
                {PROJECT_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {categoryName(category)}
                  </option>
                ))}
              </select>
              <p id={`trello-label-${label.id}-hint`} className="muted">
                {label.suggestedCategory
                  ? `Suggested: ${categoryName(label.suggestedCategory)}`
                  : 'No category suggested by its name'}
              </p>
            </div>
          ))}
          <div className="trello-choice">
            <label htmlFor="trello-fallback">Cards with no mapped label</label>
            <select
              id="trello-fallback"
              value={fallback}
              onChange={(event) => setFallback(event.target.value as ProjectCategory)}
            >
              {PROJECT_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {categoryName(category)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </section>

      <section className="card" aria-labelledby="trello-due-heading">
        <h2 id="trello-due-heading">Due dates</h2>
        {preview.cardsWithoutDueDate === 0 ? (
          <p>Every card has a due date: each project takes its card’s.</p>
        ) : (
          <div className="trello-choice">
            <label htmlFor="trello-due">
              Due date of the {count(preview.cardsWithoutDueDate, 'card')} without one
            </label>
            <input
              id="trello-due"
              type="date"
              value={dueDate}
              required
              onChange={(event) => setDueDate(event.target.value)}
            />
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="trello-members-heading">
        <h2 id="trello-members-heading">Members</h2>
        {preview.members.length === 0 && <p>This board has no members.</p>}
        {matched.length > 0 && (
          <>
            <h3>Matched to accounts by email: assigned</h3>
            <ul className="trello-list">
              {matched.map((member) => (
                <li key={member.id}>
                  {member.fullName} → {member.account?.displayName}{' '}
                  <span className="muted">({count(member.cards, 'card')})</span>
                </li>
              ))}
            </ul>
          </>
        )}
        {unmatched.length > 0 && (
          <>
            <h3>Not matched: left unassigned</h3>
            <ul className="trello-list">
              {unmatched.map((member) => (
                <li key={member.id}>
                  {member.fullName} <span className="muted">({count(member.cards, 'card')})</span>
                  {member.unmatchedReason && <>: {member.unmatchedReason}</>}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      {preview.notes.length > 0 && (
        <section className="card" aria-labelledby="trello-notes-heading">
          <h2 id="trello-notes-heading">Not imported quite as on Trello</h2>
          <ul className="trello-list">
            {preview.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
      )}

      <div className="trello-start">
        <ErrorAlert message={failure} />
        <button type="submit" className="btn" aria-disabled={starting || undefined}>
          {starting ? 'Starting the import…' : 'Import'}
        </button>
      </div>
    </form>
  );
}
