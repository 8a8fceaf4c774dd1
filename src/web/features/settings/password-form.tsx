import { useState } from 'react';
import { ChangePasswordSchema, type ChangePasswordInput } from '../../../common';
import { CurrentPasswordField, NewPasswordField } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';

const FIELDS = { currentPassword: 'password-current', newPassword: 'password-new' };

const checkPassword = checkWith(ChangePasswordSchema);

/** A new password, confirmed by the current one; the server then signs out every other session. */
export function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [done, setDone] = useState(false);
  const form = useFormAction({
    check: checkPassword,
    send: async (input: ChangePasswordInput) => {
      setDone(false);
      await dojo.account.changePassword(input);
      setCurrentPassword('');
      setNewPassword('');
      setDone(true);
      onChanged();
    },
    fields: FIELDS,
    shownBelow: ['currentPassword', 'newPassword'],
  });
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setDone(false);
  };

  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <form
        className="settings-form"
        onSubmit={(event) => form.submit(event, { currentPassword, newPassword })}
        noValidate
        aria-labelledby="password-heading"
      >
        <CurrentPasswordField
          id={FIELDS.currentPassword}
          label="Current password:"
          {...form.textField('currentPassword', currentPassword, edit(setCurrentPassword))}
        />
        <NewPasswordField
          id={FIELDS.newPassword}
          label="New password:"
          {...form.textField('newPassword', newPassword, edit(setNewPassword))}
        />
        <FormSubmit form={form} label="Change password" pendingLabel="Saving..." />
        <div className="form-status" role="status">
          {done && <p>Password changed. Your other sessions were signed out.</p>}
        </div>
      </form>
    </section>
  );
}
