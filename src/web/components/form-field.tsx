import type { ComponentProps } from 'react';

export interface FormFieldProps extends ComponentProps<'input'> {
  id: string;
  label: string;
  /** A problem with this field, shown under it and announced with it. */
  error?: string | undefined;
}

/** A labelled input with its error message wired up for assistive technology. */
export function FormField({ id, label, error, className, ...input }: FormFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={className ? `form-field ${className}` : 'form-field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
