import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { SignupFieldsSchema, messages } from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { Field } from '../../components/field';
import { ThumbnailPreview } from '../../components/thumbnail-preview';
import { CredentialFields } from './credential-fields';
import { FormSubmit } from '../../components/form-alert';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { checkWith, useFormAction } from '../../hooks/use-form-action';
import { useThumbnailPick } from '../../hooks/use-thumbnail-pick';
import { checkThumbnailFile } from '../../lib/thumbnail-file';
import { useAuthOptions } from './use-auth-options';
import { SingleSignOnOptions } from './single-sign-on-options';
import { useInvitation } from './use-invitation';
import { useSignup } from './use-signup';
import { AuthForm } from './auth-form';

const FIELDS = {
  email: 'signup-email',
  password: 'signup-password',
  displayName: 'signup-display-name',
  thumbnail: 'signup-thumbnail',
};

interface SignupValues {
  email: string;
  password: string;
  displayName: string;
  thumbnail: File | null;
}

const checkFields = checkWith(SignupFieldsSchema);

async function checkSignup({ thumbnail, ...values }: SignupValues) {
  const fields = checkFields(values);
  const thumbnailProblem = await checkThumbnailFile(thumbnail);
  if ('data' in fields && thumbnail && !thumbnailProblem) {
    return { data: { ...fields.data, thumbnail } };
  }
  const problems = 'fields' in fields ? fields.fields : {};
  return { fields: thumbnailProblem ? { ...problems, thumbnail: thumbnailProblem } : problems };
}

export function SignupPage() {
  useDocumentTitle('Sign up');
  const [searchParams] = useSearchParams();
  const invitationToken = searchParams.get('invitation') || null;
  const invitation = useInvitation(invitationToken);
  // The link the server logs for the first admin of an invitation-only install (docs/deploy.md).
  const setupToken = searchParams.get('setup') || null;
  const options = useAuthOptions();
  const { signup, uploadProgress } = useSignup(invitationToken, setupToken);
  const [typedEmail, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState('');
  const form = useFormAction({
    check: checkSignup,
    send: signup,
    fields: FIELDS,
    shownBelow: ['email', 'password', 'displayName'],
    // Under the field like the others' (and in the alert, where the file's checks have always been told).
    repeatBelow: ['thumbnail'],
  });
  const thumbnail = useThumbnailPick((problem) => form.setFieldError('thumbnail', problem));
  // An invitation for one address fixes the email: the server accepts no other.
  const invitedEmail = invitation.status === 'valid' ? invitation.check.email : null;
  const email = invitedEmail ?? typedEmail;

  return (
    <AuthForm
      name="signup"
      title="sign up"
      onSubmit={(event) => form.submit(event, { email, password, displayName, thumbnail: thumbnail.file })}
    >
      {invitation.status === 'checking' && <p className="loading">Checking your invitation...</p>}
      {invitation.status === 'valid' && (
        <p className="auth-note" role="status">
          You have been invited to join.
        </p>
      )}
      {invitation.status === 'invalid' && <ErrorAlert message={invitation.message} />}
      {setupToken && (
        <p className="auth-note" role="status">
          Create the first admin account of this team.
        </p>
      )}
      {!setupToken && invitation.status === 'none' && options?.signupPolicy.mode === 'invitation' && (
        <p className="auth-note">{messages.signupInvitationOnly}</p>
      )}
      <SingleSignOnOptions options={options} invitation={invitationToken} setup={setupToken} />
      <CredentialFields
        ids={FIELDS}
        email={[email, setEmail]}
        password={[password, setPassword]}
        passwordAutoComplete="new-password"
        emailReadOnly={invitedEmail !== null}
        textField={form.textField}
      />
      <Field
        id={FIELDS.displayName}
        label="display name:"
        type="text"
        autoComplete="nickname"
        required
        {...form.textField('displayName', displayName, setDisplayName)}
      />
      <Field
        id={FIELDS.thumbnail}
        label="Profile thumbnail:"
        name="thumbnail"
        type="file"
        accept="image/*"
        required
        {...form.fieldError('thumbnail')}
        onChange={(event) => void thumbnail.onChange(event)}
      />
      <ThumbnailPreview url={thumbnail.previewUrl} alt="Profile thumbnail preview" />
      {uploadProgress !== null && (
        <div className="upload-progress">
          <label htmlFor="signup-upload-progress">Uploading profile thumbnail</label>
          <progress id="signup-upload-progress" max={100} value={Math.round(uploadProgress * 100)}>
            {Math.round(uploadProgress * 100)}%
          </progress>
        </div>
      )}
      <FormSubmit form={form} label="Sign up" pendingLabel="loading" />
    </AuthForm>
  );
}
