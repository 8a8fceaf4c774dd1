import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { BusyButton } from './busy-button';

/** Where focus goes once the part opened in place has opened or closed (it exists only after the render). */
type FocusAfter = 'opened' | 'trigger' | null;

export interface InPlace {
  open: boolean;
  /**
   * For the `ref` of the button that opens it: focus comes back to it when it is cancelled. Take it out of
   * the handle first (`const { trigger } = handle`): the React Compiler's lint takes an object one of whose
   * fields is passed as a `ref` for a ref, and refuses reading its other fields while rendering.
   */
  trigger: (button: HTMLButtonElement | null) => void;
  /** For the `ref` of what takes focus when it opens (its safe answer, 'Cancel', for a question). */
  opened: (button: HTMLButtonElement | null) => void;
  show: () => void;
  /** Closes it and gives focus back to the button that opened it. */
  cancel: () => void;
  /** Closes it after it did its work: focus stays where that work put it. */
  done: () => void;
  /** Escape cancels, and goes no further (an enclosing dialog stays open). */
  cancelOnEscape: (event: KeyboardEvent) => void;
}

/**
 * A part of a row opened in place of its buttons (a question before a delete, a rename form): focus moves
 * into it when it opens (to `opened`, or to the element `openedId` names), Escape or cancelling brings
 * focus back to the button that opened it.
 */
export function useInPlace(openedId?: string): InPlace {
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const openedRef = useRef<HTMLButtonElement>(null);
  const focusAfter = useRef<FocusAfter>(null);

  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (target === 'opened') (openedId ? document.getElementById(openedId) : openedRef.current)?.focus();
    if (target === 'trigger') triggerRef.current?.focus();
  }, [open, openedId]);

  const close = (focus: FocusAfter) => {
    focusAfter.current = focus;
    setOpen(false);
  };
  const cancel = () => close('trigger');
  return {
    open,
    trigger: (button) => {
      triggerRef.current = button;
    },
    opened: (button) => {
      openedRef.current = button;
    },
    show: () => {
      focusAfter.current = 'opened';
      setOpen(true);
    },
    cancel,
    done: () => close(null),
    cancelOnEscape: (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        cancel();
      }
    },
  };
}

/**
 * The question before a delete, a revoke or a reset, asked in place of the row's buttons: a group named
 * by the question and described by its warning, the action (a danger button that waits while `busy`) and
 * 'Cancel', which has focus when it opens (or the action, with `focusOnOpen="action"`, where a row's delete
 * has always asked with its action focused). Its class names share the row's stem (`${kind}-confirm`,
 * `${kind}-question`, `${kind}-actions`), so each keeps its own look.
 */
export function ConfirmInPlace({
  kind,
  confirmation,
  question,
  warning,
  busy,
  action,
  onConfirm,
  focusOnOpen = 'cancel',
}: {
  kind: string;
  confirmation: InPlace;
  question: string;
  warning?: ReactNode;
  busy: boolean;
  /** The action's label, as it stands (its pending form while it is under way). */
  action: string;
  onConfirm: () => void;
  focusOnOpen?: 'cancel' | 'action';
}) {
  // Out of the handle before it is a `ref` (see `InPlace.trigger`).
  const { opened } = confirmation;
  const id = useId();
  const questionId = `${id}-question`;
  const warningId = `${id}-warning`;
  return (
    <div
      className={`inset ${kind}-confirm`}
      role="group"
      aria-labelledby={questionId}
      aria-describedby={warning ? warningId : undefined}
      onKeyDown={confirmation.cancelOnEscape}
    >
      <p id={questionId} className={`${kind}-question`}>
        {question}
      </p>
      {warning && <p id={warningId}>{warning}</p>}
      <div className={`${kind}-actions`}>
        <BusyButton
          ref={focusOnOpen === 'action' ? opened : undefined}
          className="btn btn-danger"
          busy={busy}
          onClick={onConfirm}
        >
          {action}
        </BusyButton>
        <button
          ref={focusOnOpen === 'cancel' ? opened : undefined}
          className="btn"
          type="button"
          onClick={confirmation.cancel}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
