import type { FormEventHandler, ReactNode } from 'react';
import { PageTitle } from '../../components/page-title';
import './auth-form.css';

interface AuthFormProps {
  /** Names the title's id (`<name>-heading`), which names the form. */
  name: string;
  /** The screen's one h1. */
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}

/**
 * The form of a screen before or around signing in (login, sign-up, a forgotten password, a reset), named
 * by the screen's title. Our own messages (from common) replace the browser's validation bubbles;
 * `required` still tells assistive technology which fields are needed.
 */
export function AuthForm({ name, title, onSubmit, children }: AuthFormProps) {
  const headingId = `${name}-heading`;
  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate aria-labelledby={headingId}>
      <PageTitle id={headingId} className="auth-title">
        {title}
      </PageTitle>
      {children}
    </form>
  );
}
