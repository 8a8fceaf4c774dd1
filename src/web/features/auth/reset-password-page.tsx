import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CLIENT_ROUTES, PasswordResetSchema, messages, type PasswordResetInput } from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { NewPasswordField } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';
import { AuthForm } from './auth-form';

const FIELDS = { password: 'reset-password' };

type LinkState = { status: 'checking' } | { status: 'valid' } | { status: 'invalid'; message: string };

/** Whether the reset link this page was opened with can still be used. */
function useResetLink(token: string): LinkState {
  const link = useOneShotRead(token || null, (key) => dojo.access.checkPasswordReset(key));
  if (!token) return { status: 'invalid', message: messages.resetLinkInvalid };
  if (link.failure?.key === token) return { status: 'invalid', message: errorMessage(link.failure.error) };
  return link.data?.key === token ? { status: 'valid' } : { status: 'checking' };
}

const checkReset = checkWith(PasswordResetSchema);

/** Sets a new password through a one-time link (emailed, or made by an admin); every session then ends. */
export function ResetPasswordPage() {
  useDocumentTitle('Set a new password');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const link = useResetLink(token);
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const form = useFormAction({
    check: checkReset,
    send: async (input: PasswordResetInput) => {
      await dojo.access.resetPassword(input);
      setDone(true);
    },
    fields: FIELDS,
    shownBelow: ['password'],
  });

  return (
    <AuthForm
      name="reset"
      title="set a new password"
      onSubmit={(event) => form.submit(event, { token, password })}
    >
      {link.status === 'checking' && <p className="loading">{messages.loading}</p>}
      {link.status === 'invalid' && (
        <>
          <ErrorAlert message={link.message} />
          <p className="auth-links">
            <Link to={CLIENT_ROUTES.forgotPassword}>Ask for a new link</Link>
          </p>
        </>
      )}
      {link.status === 'valid' && !done && (
        <>
          <NewPasswordField
            id={FIELDS.password}
            label="new password:"
            {...form.textField('password', password, setPassword)}
          />
          <FormSubmit form={form} label="Set new password" pendingLabel="loading" />
        </>
      )}
      <div className="form-status" role="status">
        {done && (
          <p>
            Your password has been changed. <Link to={CLIENT_ROUTES.login}>Log in</Link> with it.
          </p>
        )}
      </div>
    </AuthForm>
  );
}
