import { Fragment } from 'react';
import { highlightRanges, mentionedUserIds, type SearchResult } from '../../../common';
import { ExportLinks } from '../../components/export-links';
import { readableText, useUserNames } from '../../components/mention-text';

/** `text` with the query's words in <mark> (case and accents ignored, as the server matched them). */
function Highlighted({ text, query }: { text: string; query: string }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const { start, end } of highlightRanges(text, query)) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? <Fragment key={`t${index}`}>{part}</Fragment> : part,
      )}
    </>
  );
}

const FIELD_LABELS = {
  name: 'name',
  details: 'in the details',
  comment: 'in a comment',
  attachment: 'in a file name',
} as const;

/**
 * The listbox of the search combobox (search-box.tsx) and, below it, the Export links of every project the
 * query finds (up to 50, best first, not only the ten shown); loaded with the first search.
 */
export default function SearchResults(props: {
  id: string;
  results: SearchResult[];
  query: string;
  active: number;
  optionId: (index: number) => string;
  onOpen: (index: number) => void;
  busy: boolean;
}) {
  const { id, results, query, active, optionId, onOpen, busy } = props;
  // A comment's mentions read as the members' current names, as on the project page.
  const nameOf = useUserNames(results.flatMap((result) => mentionedUserIds(result.snippet)));
  return (
    <>
      {/* Not a tab stop even when it scrolls (Chromium makes a scrolling box focusable): the box keeps the
          focus and the arrows move through the results, so Tab goes on to the Export links. */}
      <ul
        id={id}
        className="search-results"
        role="listbox"
        aria-label="Projects found"
        aria-busy={busy}
        tabIndex={-1}
      >
        {results.map((result, index) => (
          <li
            key={result.id}
            id={optionId(index)}
            className="search-result"
            role="option"
            aria-selected={index === active}
            // Keeps the focus in the box, so the list stays open until the click opens the project.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onOpen(index)}
          >
            <span className="search-result-name">
              <Highlighted text={result.name} query={query} />
            </span>
            <span className="search-result-category">
              {result.completed ? `${result.category} · Completed` : result.category}
            </span>
            {result.field !== 'name' && (
              <span className="search-result-snippet">
                <span className="search-result-field">{FIELD_LABELS[result.field]}: </span>
                <Highlighted text={readableText(result.snippet, nameOf)} query={query} />
              </span>
            )}
          </li>
        ))}
      </ul>
      <div className="search-export">
        <ExportLinks list="search" params={{ q: query }} what="the search results" />
      </div>
    </>
  );
}
