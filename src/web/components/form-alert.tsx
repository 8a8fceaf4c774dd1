import type { ReactNode } from 'react';

export interface AlertLine {
  key: string;
  /** Fields whose problem this is point at it (`aria-describedby`). */
  id: string;
  text: string;
}

/** A form's messages, together in one alert below it (announced when they appear). */
export function FormAlert({ lines }: { lines: readonly AlertLine[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="error form-alert" role="alert">
      {lines.map((line) => (
        <p key={line.key} id={line.id}>
          {line.text}
        </p>
      ))}
    </div>
  );
}

/**
 * A form's submit button. While the form is being sent it says so and refuses (the form's hook ignores a
 * second submit), but stays focusable (`aria-disabled`, not `disabled`), so keyboard focus is not dropped to
 * the page.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
}: {
  pending: boolean;
  /** What it says instead of `children` while the form is being sent. */
  pendingLabel?: string;
  children: ReactNode;
}) {
  return (
    <button className="btn" type="submit" aria-disabled={pending || undefined}>
      {pending && pendingLabel !== undefined ? pendingLabel : children}
    </button>
  );
}

/** The end of a form: its submit button, and its alert below it. */
export function FormSubmit({
  form,
  label,
  pendingLabel,
}: {
  form: { isPending: boolean; alert: readonly AlertLine[] };
  label: ReactNode;
  /** What the button says instead while the form is being sent. */
  pendingLabel?: string;
}) {
  return (
    <>
      <SubmitButton pending={form.isPending} pendingLabel={pendingLabel}>
        {label}
      </SubmitButton>
      <FormAlert lines={form.alert} />
    </>
  );
}
