import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { RenamePasskeySchema, type Passkey } from '../../../common/passkeys';
import { BusyButton } from '../../components/busy-button';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { absoluteTime, formatDate, relativeTime } from '../../lib/time-format';

const checkName = checkWith(RenamePasskeySchema);

type Mode = 'view' | 'rename' | 'confirm-remove';

/** One passkey of the list: its name, when it was added and last used; renamed in place, removed after a confirm. */
export function PasskeyItem({
  passkey,
  busy,
  removing,
  onRename,
  onRemove,
}: {
  passkey: Passkey;
  /** Some passkey's removal is under way: the buttons wait. */
  busy: boolean;
  removing: boolean;
  /** Resolves once renamed; a failure throws (the rename form shows it). */
  onRename: (passkey: Passkey, name: string) => Promise<void>;
  onRemove: (passkey: Passkey) => void;
}) {
  const id = useId();
  const nameId = `${id}-name`;
  const [mode, setMode] = useState<Mode>('view');
  const renameRef = useRef<HTMLButtonElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // Where focus goes once the mode has changed (the elements exist only after the render).
  const focusAfter = useRef<'rename' | 'remove' | 'cancel' | 'name' | null>(null);

  useEffect(() => {
    const target = focusAfter.current;
    focusAfter.current = null;
    if (target === 'rename') renameRef.current?.focus();
    if (target === 'remove') removeRef.current?.focus();
    if (target === 'cancel') cancelRef.current?.focus();
    if (target === 'name') document.getElementById(`${id}-rename`)?.focus();
  }, [mode, id]);

  const show = (next: Mode, focus: (typeof focusAfter)['current']) => {
    focusAfter.current = focus;
    setMode(next);
  };
  const closeOnEscape = (event: KeyboardEvent, back: 'rename' | 'remove') => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      show('view', back);
    }
  };

  return (
    <li className="session-item passkey-item">
      <div className="session-facts">
        <span id={nameId} className="session-device">
          {passkey.name}
        </span>
        <span className="session-seen">
          Added <time dateTime={passkey.createdAt}>{formatDate(passkey.createdAt)}</time>
        </span>
        <span className="session-seen">
          {passkey.lastUsedAt ? (
            <>
              Last used{' '}
              <time dateTime={passkey.lastUsedAt} title={absoluteTime(passkey.lastUsedAt)}>
                {relativeTime(passkey.lastUsedAt)}
              </time>
            </>
          ) : (
            'Never used'
          )}
        </span>
      </div>
      {mode === 'view' && (
        <div className="passkey-actions">
          <button
            ref={renameRef}
            className="btn"
            type="button"
            aria-describedby={nameId}
            onClick={() => show('rename', 'name')}
          >
            Rename
          </button>
          <BusyButton
            ref={removeRef}
            className="btn"
            aria-describedby={nameId}
            busy={busy}
            onClick={() => show('confirm-remove', 'cancel')}
          >
            Remove
          </BusyButton>
        </div>
      )}
      {mode === 'rename' && (
        <RenameForm
          inputId={`${id}-rename`}
          passkey={passkey}
          onKeyDown={(event) => closeOnEscape(event, 'rename')}
          onCancel={() => show('view', 'rename')}
          onRename={async (name) => {
            await onRename(passkey, name);
            show('view', 'rename');
          }}
        />
      )}
      {mode === 'confirm-remove' && (
        <div
          className="inset passkey-confirm"
          role="group"
          aria-labelledby={`${id}-question`}
          aria-describedby={`${id}-warning`}
          onKeyDown={(event) => closeOnEscape(event, 'remove')}
        >
          <p id={`${id}-question`} className="passkey-question">{`Remove "${passkey.name}"?`}</p>
          <p id={`${id}-warning`}>It will no longer sign you in. The passkey itself stays on its device.</p>
          <div className="passkey-actions">
            <BusyButton className="btn btn-danger" busy={busy} onClick={() => onRemove(passkey)}>
              {removing ? 'Removing...' : 'Yes, remove'}
            </BusyButton>
            <button ref={cancelRef} className="btn" type="button" onClick={() => show('view', 'remove')}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

function RenameForm({
  inputId,
  passkey,
  onKeyDown,
  onCancel,
  onRename,
}: {
  inputId: string;
  passkey: Passkey;
  onKeyDown: (event: KeyboardEvent) => void;
  onCancel: () => void;
  onRename: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(passkey.name);
  const form = useFormAction({
    check: checkName,
    send: async ({ name: checked }: { name: string }) => onRename(checked),
    fields: { name: inputId },
    shownBelow: ['name'],
  });
  return (
    <form
      className="inset passkey-rename"
      onSubmit={(event) => form.submit(event, { name })}
      onKeyDown={onKeyDown}
      noValidate
      aria-label={`Rename "${passkey.name}"`}
    >
      <Field
        id={inputId}
        label="New name:"
        maxLength={200}
        autoComplete="off"
        required
        {...form.textField('name', name, setName)}
      />
      <div className="passkey-actions">
        <FormSubmit form={form} label="Save name" pendingLabel="Saving..." />
        <button className="btn" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
