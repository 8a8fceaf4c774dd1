import { useState } from 'react';
import { Link } from 'react-router';
import { CLIENT_ROUTES, LoginSchema } from '../../../common';
import { CredentialFields } from './credential-fields';
import { FormSubmit } from '../../components/form-alert';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useAuthOptions } from './use-auth-options';
import { useLogin } from './use-login';
import { AuthForm } from './auth-form';

const FIELDS = { email: 'login-email', password: 'login-password' };

export function LoginPage() {
  useDocumentTitle('Login');
  const login = useLogin();
  const options = useAuthOptions();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormAction({
    check: checkWith(LoginSchema),
    send: login,
    fields: FIELDS,
    shownBelow: ['email', 'password'],
  });

  return (
    <AuthForm name="login" title="login" onSubmit={(event) => form.submit(event, { email, password })}>
      <CredentialFields
        ids={FIELDS}
        email={[email, setEmail]}
        password={[password, setPassword]}
        passwordAutoComplete="current-password"
        textField={form.textField}
      />
      <FormSubmit form={form} label="Log in" pendingLabel="loading" />
      {options?.passwordResetByEmail && (
        <p className="auth-links">
          <Link to={CLIENT_ROUTES.forgotPassword}>Forgot password?</Link>
        </p>
      )}
    </AuthForm>
  );
}
