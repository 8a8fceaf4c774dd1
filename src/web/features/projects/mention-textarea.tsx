import {
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
  type Ref,
  type RefObject,
} from 'react';
import { userSearchQuery, type LiveQuery, type UserProfile } from '../../../common';
import type { FieldControl } from '../../components/field';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useLiveQuery } from '../../hooks/use-live-query';
import { mentionQueryAt } from './mention-draft';

/** How many people the suggestions offer; typing narrows the search on the server. */
const MENTION_SUGGESTIONS = 8;
/** The server is asked once typing pauses this long. */
const SEARCH_DELAY_MS = 150;

const suggestionsQuery = (text: string): LiveQuery => ({
  ...userSearchQuery(text),
  limit: MENTION_SUGGESTIONS,
});

interface MentionTextareaProps {
  control: FieldControl;
  value: string;
  name: string;
  onChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** Sets the text directly (a pick replaces the typed '@query'). */
  setValue: (value: string) => void;
  /** A user was picked: their '@Name' is now in the text. */
  onPick: (user: UserProfile) => void;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
}

/**
 * A textarea that suggests team members after '@' (docs/decisions/027-mentions-and-who-is-looking.md).
 * The suggestions come from the server's name search (case and accents ignored, active members only).
 * For assistive technology the textarea stays a text box that owns a listbox through
 * `aria-activedescendant` (arrows move, Enter or Tab picks, Escape closes), and a polite status says how
 * many people are offered.
 */
export function MentionTextarea({
  control,
  value,
  name,
  onChange,
  setValue,
  onPick,
  textareaRef,
}: MentionTextareaProps) {
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const box = textareaRef ?? ownRef;
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [focused, setFocused] = useState(false);
  const pendingCaret = useRef<number | null>(null);

  const typing = mentionQueryAt(value, caret);
  const open = focused && typing !== null && dismissedAt !== typing.start;
  const searched = useDebouncedValue(open ? typing.query : null, SEARCH_DELAY_MS);
  const results = useLiveQuery<UserProfile>(open && searched !== null ? suggestionsQuery(searched) : null);
  const users = open ? (results.docs ?? []) : [];
  const shown = open && users.length > 0;
  const activeIndex = Math.min(active, Math.max(users.length - 1, 0));

  useEffect(() => {
    if (pendingCaret.current === null || !box.current) return;
    box.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
    setCaret(pendingCaret.current);
    pendingCaret.current = null;
  }, [value, box]);

  const pick = (user: UserProfile) => {
    if (!typing) return;
    const inserted = `@${user.displayName} `;
    const after = value.slice(caret);
    pendingCaret.current = typing.start + inserted.length;
    onPick(user);
    setValue(value.slice(0, typing.start) + inserted + after);
    setActive(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (event.key === 'Escape') {
      // Closes the suggestions only; a second Escape reaches the form (e.g. cancels an edit).
      event.preventDefault();
      event.stopPropagation();
      setDismissedAt(typing.start);
      return;
    }
    if (!shown) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + users.length) % users.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      const user = users[activeIndex];
      if (!user) return;
      event.preventDefault();
      pick(user);
    }
  };

  const describedBy = control.errorId;
  const status = !open
    ? ''
    : results.isPending || searched !== typing.query
      ? ''
      : users.length === 0
        ? 'No one found'
        : `${users.length} ${users.length === 1 ? 'person' : 'people'} found, use up and down arrows to choose`;

  return (
    <div className="mention-box">
      <textarea
        id={control.id}
        ref={box as Ref<HTMLTextAreaElement>}
        name={name}
        value={value}
        required
        aria-invalid={control.invalid || undefined}
        aria-describedby={describedBy}
        aria-autocomplete="list"
        aria-controls={shown ? listId : undefined}
        aria-activedescendant={shown ? `${listId}-${activeIndex}` : undefined}
        onChange={(event) => {
          setCaret(event.target.selectionStart);
          setActive(0);
          onChange(event);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      />
      {shown && (
        <ul className="mention-suggestions" id={listId} role="listbox" aria-label="People to mention">
          {users.map((user, index) => (
            <li
              key={user.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === activeIndex}
              className={index === activeIndex ? 'mention-option mention-option-active' : 'mention-option'}
              // The textarea keeps focus (and its caret) while a suggestion is clicked.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(user)}
            >
              {user.displayName}
            </li>
          ))}
        </ul>
      )}
      <div className="visually-hidden" role="status" aria-live="polite">
        {status}
      </div>
    </div>
  );
}
