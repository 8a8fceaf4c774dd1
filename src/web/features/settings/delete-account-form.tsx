import { useState } from 'react';
import { DeleteAccountSchema } from '../../../common';
import { CurrentPasswordField } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';

const FIELDS = { password: 'delete-password' };

const checkDelete = checkWith(DeleteAccountSchema);

/** Deletes the account for good, confirmed by its password; this tab is then signed out. */
export function DeleteAccountForm() {
  const [password, setPassword] = useState('');
  const form = useFormAction({
    check: checkDelete,
    send: async (input: { password: string }) => {
      await dojo.account.deleteAccount(input.password);
      // The session is gone with the account: the app shows the login page.
      dojo.auth.handleSessionEnded();
    },
    fields: FIELDS,
    shownBelow: ['password'],
  });

  return (
    <section className="card settings-danger" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete my account</h2>
      <p id="delete-warning" className="settings-warning">
        This cannot be undone. Your account and profile are deleted and you are signed out everywhere. The
        projects and comments you wrote stay, shown as written by a deleted user.
      </p>
      <form
        className="settings-form"
        onSubmit={(event) => form.submit(event, { password })}
        noValidate
        aria-labelledby="delete-heading"
        aria-describedby="delete-warning"
      >
        <CurrentPasswordField
          id={FIELDS.password}
          label="Your password, to confirm:"
          {...form.textField('password', password, setPassword)}
        />
        <FormSubmit form={form} label="Delete my account" pendingLabel="Deleting..." />
      </form>
    </section>
  );
}
