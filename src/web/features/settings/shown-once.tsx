import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { useAnnouncer } from '../../hooks/use-announcer';

/**
 * A secret the server shows this once (a new API token, a calendar feed's address): a group with a heading
 * and a warning, the value read-only and focused and selected when it appears, a copy button (when the
 * clipboard refuses, the value stays selected for the keyboard) and 'Done, I have copied it'. `noun` names
 * it in the copy button and the messages; the class names keep each section's look.
 */
export function ShownOnce({
  id,
  className,
  heading,
  warning,
  label,
  noun,
  value,
  inputClassName,
  actionsClassName,
  copied,
  onDone,
}: {
  /** The input's id; its heading and warning are `${id}-heading` and `${id}-warning`. */
  id: string;
  className: string;
  heading: string;
  warning: ReactNode;
  label: string;
  noun: string;
  value: string;
  inputClassName: string;
  actionsClassName: string;
  /** What the live region says once it is copied. */
  copied: string;
  onDone: () => void;
}) {
  const { say } = useAnnouncer();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copyProblem, setCopyProblem] = useState<string | null>(null);

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [value]);

  const copy = async () => {
    setCopyProblem(null);
    try {
      await navigator.clipboard.writeText(value);
      say(copied);
    } catch {
      inputRef.current?.select();
      setCopyProblem(`Could not copy: the ${noun} is selected, copy it with your keyboard.`);
    }
  };

  return (
    <div className={`inset ${className}`} role="group" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{heading}</h3>
      <p id={`${id}-warning`} className="settings-warning">
        {warning}
      </p>
      <div className="form-field">
        <label htmlFor={id}>{label}</label>
        <input
          ref={inputRef}
          id={id}
          className={inputClassName}
          readOnly
          value={value}
          aria-describedby={`${id}-warning`}
          onFocus={(event) => event.target.select()}
        />
      </div>
      <div className={actionsClassName}>
        <button className="btn" type="button" onClick={() => void copy()}>
          {`Copy ${noun}`}
        </button>
        <button className="btn" type="button" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
      <ErrorAlert message={copyProblem} />
    </div>
  );
}
