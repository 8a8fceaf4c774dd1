import type { ComponentProps } from 'react';

export interface TextAreaFieldProps extends ComponentProps<'textarea'> {
  id: string;
  label: string;
  /** A problem with this field, shown under it and announced with it. */
  error?: string | undefined;
}

/** A labelled textarea with its error message wired up for assistive technology (FormField's twin). */
export function TextAreaField({ id, label, error, className, ...textarea }: TextAreaFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={className ? `form-field ${className}` : 'form-field'}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...textarea}
      />
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
