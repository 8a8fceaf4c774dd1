import type { ComponentProps, ReactNode } from 'react';

/** What a custom control needs to be tied to its label and to its message. */
export interface FieldControl {
  id: string;
  invalid: boolean;
  /** The id of the text that says what is wrong, while something is. */
  errorId: string | undefined;
}

interface FieldBase {
  /** The control's id, which the label points at. */
  id: string;
  label: string;
  /** A problem with this field: the control is marked invalid and described by the message. */
  error?: string | undefined;
  /**
   * Where the message is shown when it is not under the control: the id of its line in the form's alert.
   * Without it the message is shown under the control.
   */
  errorId?: string | undefined;
  /**
   * The message is in the form's alert and also under the control, where the eye is while fixing it; the
   * control is described by the one under it.
   */
  repeatBelow?: boolean | undefined;
  className?: string | undefined;
}

export type FieldProps = FieldBase &
  (
    | ({ as?: 'input' } & Omit<ComponentProps<'input'>, 'id' | 'className'>)
    | ({ as: 'textarea' } & Omit<ComponentProps<'textarea'>, 'id' | 'className'>)
    | { as: 'custom'; children: (control: FieldControl) => ReactNode }
  );

/**
 * A labelled form control (input, textarea, or a custom one such as react-select) with its problem wired up
 * for assistive technology: `aria-invalid`, and `aria-describedby` pointing at the message.
 */
export function Field(props: FieldProps) {
  const { id, label, error, errorId: summaryId, repeatBelow = false, className } = props;
  const shownElsewhere = repeatBelow ? undefined : summaryId;
  const belowId = summaryId === `${id}-error` ? `${id}-field-error` : `${id}-error`;
  const errorId = error ? (shownElsewhere ?? belowId) : undefined;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': errorId };

  let control: ReactNode;
  if (props.as === 'custom') {
    control = props.children({ id, invalid: Boolean(error), errorId });
  } else {
    const {
      as,
      id: _id,
      label: _label,
      error: _error,
      errorId: _errorId,
      repeatBelow: _repeatBelow,
      className: _className,
      ...rest
    } = props;
    control =
      as === 'textarea' ? (
        <textarea id={id} {...aria} {...(rest as ComponentProps<'textarea'>)} />
      ) : (
        <input id={id} {...aria} {...(rest as ComponentProps<'input'>)} />
      );
  }

  return (
    <div className={className ? `form-field ${className}` : 'form-field'}>
      <label htmlFor={id}>{label}</label>
      {control}
      {error && !shownElsewhere && (
        <p id={belowId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export type InputFieldProps = FieldBase &
  Omit<ComponentProps<'input'>, 'id' | 'className' | 'type' | 'required'>;

/** The account's email address, required. */
export function EmailField(props: InputFieldProps) {
  return <Field type="email" autoComplete="email" required {...props} />;
}

/** The password the account has now, asked for to prove who is there; required. */
export function CurrentPasswordField(props: InputFieldProps) {
  return <Field type="password" autoComplete="current-password" required {...props} />;
}

/** A password being chosen, so the browser may offer to make one up; required. */
export function NewPasswordField(props: InputFieldProps) {
  return <Field type="password" autoComplete="new-password" required {...props} />;
}
