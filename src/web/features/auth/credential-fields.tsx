import { Field } from '../../components/field';
import type { TextFieldBinding } from '../../hooks/use-form-action';

/** The email and password fields login and signup share; the password's autocomplete tells them apart. */
export function CredentialFields(props: {
  ids: { email: string; password: string };
  email: [string, (value: string) => void];
  password: [string, (value: string) => void];
  passwordAutoComplete: 'current-password' | 'new-password';
  /** The email is fixed (an invitation for one address): shown, sent, but not editable. */
  emailReadOnly?: boolean;
  textField: (name: string, value: string, setValue: (value: string) => void) => TextFieldBinding;
}) {
  const { ids, textField } = props;
  return (
    <>
      <Field
        id={ids.email}
        label="email:"
        type="email"
        autoComplete="email"
        required
        readOnly={props.emailReadOnly}
        {...textField('email', ...props.email)}
      />
      <Field
        id={ids.password}
        label="password:"
        type="password"
        autoComplete={props.passwordAutoComplete}
        required
        {...textField('password', ...props.password)}
      />
    </>
  );
}
