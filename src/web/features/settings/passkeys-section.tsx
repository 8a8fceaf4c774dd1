import { useState } from 'react';
import { defaultPasskeyName, RenamePasskeySchema, type Passkey } from '../../../common/passkeys';
import { PasskeysClient } from '../../../sdk/passkeys';
import { ActionOutcome, useRowAction } from '../../components/action-outcome';
import { Field } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { useAnnouncer } from '../../hooks/use-announcer';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { PasskeyItem } from './passkey-item';
import { LoadedList, SettingsSection } from './settings-section';
import './passkeys.css';

const passkeys = new PasskeysClient(dojo.transport, dojo.auth);
const FIELDS = { name: 'passkey-name' };
const checkName = checkWith(RenamePasskeySchema);

/**
 * Passkeys (docs/decisions/065-passkeys.md): the member adds one made by this device or their password
 * manager, named after the device by default, and lists, renames and removes theirs (removal confirmed in
 * place). A passkey signs in on the login page with no password.
 */
export function PasskeysSection() {
  const { data, failure, reload, update } = useOneShotRead('passkeys', () => passkeys.list());
  const list = data?.value ?? null;
  const loadError = failure ? errorMessage(failure.error) : null;
  const rows = useRowAction<'remove'>();
  const { say } = useAnnouncer();
  const full = list !== null && list.passkeys.length >= list.max;

  const replace = (passkey: Passkey) =>
    update(
      (current) =>
        current && {
          ...current,
          passkeys: current.passkeys.map((listed) => (listed.id === passkey.id ? passkey : listed)),
        },
    );

  // A rename is the item's own form: its problems show there, and the new name is announced.
  const rename = async (passkey: Passkey, name: string) => {
    const renamed = await passkeys.rename(passkey.id, name);
    replace(renamed);
    say(`Renamed "${passkey.name}" to "${renamed.name}".`);
  };

  const remove = (passkey: Passkey) =>
    void rows.run(
      passkey.id,
      'remove',
      async () => {
        await passkeys.remove(passkey.id);
        update(
          (current) =>
            current && {
              ...current,
              passkeys: current.passkeys.filter((listed) => listed.id !== passkey.id),
            },
        );
        return `Removed "${passkey.name}". It no longer signs in.`;
      },
      reload,
    );

  return (
    <SettingsSection
      name="passkeys"
      title="Passkeys"
      hint="Sign in with your fingerprint, face or device PIN instead of your password. The passkey stays on your device or in your password manager; The Dojo keeps only its public key."
    >
      <LoadedList
        items={list?.passkeys}
        loadError={loadError}
        empty="You have no passkeys."
        labelledBy="passkeys-heading"
      >
        {(passkey) => (
          <PasskeyItem
            key={passkey.id}
            passkey={passkey}
            busy={rows.pending !== null}
            removing={rows.pending?.id === passkey.id}
            onRename={rename}
            onRemove={remove}
          />
        )}
      </LoadedList>
      <ActionOutcome error={rows.error} status={rows.status} />
      {list && full && (
        <p className="settings-hint">{`You have ${list.max} passkeys, the most allowed. Remove one to add another.`}</p>
      )}
      {list && !full && (
        <AddPasskeyForm
          onAdded={(passkey) =>
            update((current) => current && { ...current, passkeys: [...current.passkeys, passkey] })
          }
        />
      )}
    </SettingsSection>
  );
}

function AddPasskeyForm({ onAdded }: { onAdded: (passkey: Passkey) => void }) {
  const { say } = useAnnouncer();
  const [name, setName] = useState(() => defaultPasskeyName(navigator.userAgent));
  const form = useFormAction({
    check: checkName,
    send: async ({ name: checked }: { name: string }) => {
      const added = await passkeys.add(checked);
      onAdded(added);
      say(`Passkey "${added.name}" added. You can sign in with it now.`);
      setName(defaultPasskeyName(navigator.userAgent));
    },
    fields: FIELDS,
    shownBelow: ['name'],
  });

  return (
    <form
      className="settings-form passkey-form"
      onSubmit={(event) => form.submit(event, { name })}
      noValidate
      aria-labelledby="passkey-form-heading"
    >
      <h3 id="passkey-form-heading">Add a passkey</h3>
      <p className="settings-hint">
        Name it after the device or password manager that will hold it. Your browser then asks you to create
        the passkey.
      </p>
      <Field
        id={FIELDS.name}
        label="Name:"
        maxLength={200}
        autoComplete="off"
        required
        {...form.textField('name', name, setName)}
      />
      <FormSubmit form={form} label="Add a passkey" pendingLabel="Waiting for your device..." />
    </form>
  );
}
