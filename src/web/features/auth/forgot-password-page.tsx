import { useState } from 'react';
import { Link } from 'react-router';
import { CLIENT_ROUTES, PasswordResetRequestSchema } from '../../../common';
import { EmailField } from '../../components/field';
import { FormSubmit } from '../../components/form-alert';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { dojo } from '../../lib/dojo-client';
import { AuthForm } from './auth-form';

const FIELDS = { email: 'forgot-email' };

/** Asks the server to email a reset link; it answers the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const form = useFormAction({
    check: checkWith(PasswordResetRequestSchema),
    send: async (input: { email: string }) => {
      setSent(null);
      setSent(await dojo.access.requestPasswordReset(input.email));
    },
    fields: FIELDS,
    shownBelow: ['email'],
  });

  return (
    <AuthForm name="forgot" title="forgot password" onSubmit={(event) => form.submit(event, { email })}>
      <p>Enter the email address of your account and we will email you a link to set a new password.</p>
      <EmailField id={FIELDS.email} label="email:" {...form.textField('email', email, setEmail)} />
      <FormSubmit form={form} label="Email me a reset link" pendingLabel="loading" />
      <div className="form-status" role="status">
        {sent && <p>{sent}</p>}
      </div>
      <p className="auth-links">
        <Link to={CLIENT_ROUTES.login}>Back to login</Link>
      </p>
    </AuthForm>
  );
}
