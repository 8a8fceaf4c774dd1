import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { projectPath, type SearchResult } from '../../../common';
import { appMessages } from '../../../common/app-messages';
import { useProjectSearch } from './use-project-search';
import './search.css';

// The results (and the highlighting code) load with the first search, not with the first page.
const SearchResults = lazy(() => import('./search-results'));

/** True when a key press is typing into a field, where `/` is a character, not the shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The navbar's project search: a combobox (WAI-ARIA 1.2 pattern) whose listbox shows the server's
 * results as the user types. `/` focuses it from anywhere but a field; arrows move through the results,
 * Enter opens one, Escape closes the list (and clears the box when it is closed).
 */
export function SearchBox() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  // The picked result, for the results it was picked in: new results start with none picked.
  const [picked, setPicked] = useState<{ in: SearchResult[] | null; index: number }>({ in: null, index: -1 });
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const search = useProjectSearch(text);
  const listId = useId();
  const statusId = useId();
  const results = open ? (search.results ?? []) : [];
  const expanded = results.length > 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    const focusOnSlash = (event: globalThis.KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented)
        return;
      if (isTyping(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', focusOnSlash);
    return () => document.removeEventListener('keydown', focusOnSlash);
  }, []);

  const active = picked.in === search.results ? picked.index : -1;

  const openResult = (index: number) => {
    const result = search.results?.[index];
    if (!result) return;
    setOpen(false);
    setText('');
    input.current?.blur();
    void navigate(projectPath(result.id));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = search.results?.length ?? 0;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // -1 (none picked) and every result, round and round.
      setPicked({ in: search.results, index: ((active + 1 + step + count + 1) % (count + 1)) - 1 });
    } else if (event.key === 'Enter') {
      if (open && active >= 0) {
        event.preventDefault();
        openResult(active);
      } else if (open && count > 0) {
        event.preventDefault();
        openResult(0);
      }
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (open && text) setOpen(false);
      else setText('');
    }
  };

  const status =
    !open || !text.trim()
      ? ''
      : (search.error ??
        (search.loading
          ? appMessages.searching
          : search.results?.length === 0
            ? appMessages.searchNoResults
            : ''));

  return (
    <div
      className="search-box"
      role="search"
      // The popup stays open while the focus is inside the search (Tab goes from the box to its Export
      // links); it closes when the focus leaves, and Escape on a link brings the focus back to the box.
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && event.target !== input.current) {
          event.preventDefault();
          // Focusing the box opens the popup: closing it comes after.
          input.current?.focus();
          setOpen(false);
        }
      }}
    >
      <input
        ref={input}
        aria-label={appMessages.searchLabel}
        className="search-input"
        type="search"
        role="combobox"
        placeholder={`${appMessages.searchLabel} ( / )`}
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={statusId}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <div className="search-popup" hidden={!open || !text.trim()}>
        <p id={statusId} className="search-status" role="status">
          {status}
        </p>
        <Suspense fallback={null}>
          {expanded && search.results && (
            <SearchResults
              id={listId}
              results={search.results}
              query={search.query}
              active={active}
              optionId={optionId}
              onOpen={openResult}
              busy={search.loading}
            />
          )}
        </Suspense>
      </div>
    </div>
  );
}
