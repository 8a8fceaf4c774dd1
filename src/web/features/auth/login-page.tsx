import { useState } from 'react';
import { Link } from 'react-router';
import { CLIENT_ROUTES, LoginSchema, type SecondStepChallenge } from '../../../common';
import { CredentialFields } from './credential-fields';
import { FormSubmit } from '../../components/form-alert';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useAuthOptions } from './use-auth-options';
import { SingleSignOnOptions } from './single-sign-on-options';
import { useLogin } from './use-login';
import { AuthForm } from './auth-form';
import { SecondStepForm } from './second-step-form';
import { PasskeySignIn } from './passkey-sign-in';
import { useAnnouncer } from '../../hooks/use-announcer';

const FIELDS = { email: 'login-email', password: 'login-password' };

export function LoginPage() {
  useDocumentTitle('Login');
  const login = useLogin();
  const options = useAuthOptions();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The second step the server asked for after a right password (decision 064); null: the password form.
  const [secondStep, setSecondStep] = useState<SecondStepChallenge['secondStep'] | null>(null);
  const { say } = useAnnouncer();
  const form = useFormAction({
    check: checkWith(LoginSchema),
    send: async (input: { email: string; password: string }) => {
      const step = await login(input);
      if (!step) return;
      setPassword('');
      setSecondStep(step);
      say(
        step.enrol
          ? 'Password accepted. Your team requires two-step sign-in.'
          : 'Password accepted. Two-step sign-in.',
      );
    },
    fields: FIELDS,
    shownBelow: ['email', 'password'],
  });

  if (secondStep)
    return (
      <SecondStepForm
        challenge={secondStep}
        onRestart={() => setSecondStep(null)}
        passkey={(flow) => <PasskeySignIn secondStepFlow={flow} />}
      />
    );

  return (
    <AuthForm name="login" title="login" onSubmit={(event) => form.submit(event, { email, password })}>
      <SingleSignOnOptions options={options} />
      <CredentialFields
        ids={FIELDS}
        email={[email, setEmail]}
        password={[password, setPassword]}
        passwordAutoComplete="current-password"
        textField={form.textField}
      />
      <FormSubmit form={form} label="Log in" pendingLabel="loading" />
      <PasskeySignIn />
      {options?.passwordResetByEmail && (
        <p className="auth-links">
          <Link to={CLIENT_ROUTES.forgotPassword}>Forgot password?</Link>
        </p>
      )}
    </AuthForm>
  );
}
