import { useState, type FormEvent } from 'react';
import { LoginSchema, type FieldErrors } from '../../../common';
import { fieldErrorsFromIssues, focusFirstInvalid } from '../../lib/error-message';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { FormField } from '../../components/form-field';
import { useLogin } from './use-login';
import './auth-form.css';

export function LoginPage() {
  useDocumentTitle('Login');
  const { login, error, isPending } = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  const clearFieldError = (name: string) =>
    setFieldErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _removed, ...rest } = current;
      return rest;
    });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isPending) return;
    const parsed = LoginSchema.safeParse({ email, password });
    if (!parsed.success) {
      const problems = fieldErrorsFromIssues(parsed.error.issues);
      setFieldErrors(problems);
      focusFirstInvalid(event.currentTarget, problems);
      return;
    }
    setFieldErrors({});
    void login(parsed.data);
  };

  return (
    // Our own messages (from common) replace the browser's validation bubbles; `required` still tells
    // assistive technology which fields are needed.
    <form className="auth-form" onSubmit={handleSubmit} noValidate aria-labelledby="login-heading">
      <h2 id="login-heading">login</h2>
      <FormField
        id="login-email"
        label="email:"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        error={fieldErrors.email}
        onChange={(event) => {
          setEmail(event.target.value);
          clearFieldError('email');
        }}
      />
      <FormField
        id="login-password"
        label="password:"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        error={fieldErrors.password}
        onChange={(event) => {
          setPassword(event.target.value);
          clearFieldError('password');
        }}
      />
      <button className="btn" type="submit" disabled={isPending}>
        {isPending ? 'loading' : 'Log in'}
      </button>
      {error && (
        <div className="error form-alert" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}
