import { useId, useState, type KeyboardEvent } from 'react';
import { RenamePasskeySchema, type Passkey } from '../../../common/passkeys';
import { BusyButton } from '../../components/busy-button';
import { ConfirmInPlace, useInPlace } from '../../components/confirm-in-place';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { DayFact, LastTimeFact } from './item-facts';

const checkName = checkWith(RenamePasskeySchema);

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
  const renaming = useInPlace(`${id}-rename`);
  const removal = useInPlace();
  const { trigger: renameTrigger } = renaming;
  const { trigger: removeTrigger } = removal;

  return (
    <li className="session-item passkey-item">
      <div className="session-facts">
        <span id={nameId} className="session-device">
          {passkey.name}
        </span>
        <DayFact label="Added" at={passkey.createdAt} />
        <LastTimeFact label="Last used" at={passkey.lastUsedAt} never="Never used" />
      </div>
      {!renaming.open && !removal.open && (
        <div className="passkey-actions">
          <button
            ref={renameTrigger}
            className="btn"
            type="button"
            aria-describedby={nameId}
            onClick={renaming.show}
          >
            Rename
          </button>
          <BusyButton
            ref={removeTrigger}
            className="btn"
            aria-describedby={nameId}
            busy={busy}
            onClick={removal.show}
          >
            Remove
          </BusyButton>
        </div>
      )}
      {renaming.open && (
        <RenameForm
          inputId={`${id}-rename`}
          passkey={passkey}
          onKeyDown={renaming.cancelOnEscape}
          onCancel={renaming.cancel}
          onRename={async (name) => {
            await onRename(passkey, name);
            renaming.cancel();
          }}
        />
      )}
      {removal.open && (
        <ConfirmInPlace
          kind="passkey"
          confirmation={removal}
          question={`Remove "${passkey.name}"?`}
          warning="It will no longer sign you in. The passkey itself stays on its device."
          busy={busy}
          action={removing ? 'Removing...' : 'Yes, remove'}
          onConfirm={() => onRemove(passkey)}
        />
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
