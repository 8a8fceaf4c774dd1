import { CurrentPasswordField, EmailField, NewPasswordField } from '../../components/field';
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
  const PasswordField =
    props.passwordAutoComplete === 'new-password' ? NewPasswordField : CurrentPasswordField;
  return (
    <>
      <EmailField
        id={ids.email}
        label="email:"
        readOnly={props.emailReadOnly}
        {...textField('email', ...props.email)}
      />
      <PasswordField id={ids.password} label="password:" {...textField('password', ...props.password)} />
    </>
  );
}
